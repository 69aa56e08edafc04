"""The display: what the screen shows, as a frame, as ``screencap`` bytes and as UI XML.

The window manager (``window_manager``) composes the top activity's window with the dialogs,
popups, toast and keyboard over it, the system bars and SystemUI's NotificationShade window
(the keyguard, or the pulled-down shade); a sleeping screen is black. The screen is rebuilt
only after :meth:`Display.invalidate` (or when something on it moves on with the clock), and a
frame is rasterised only when its display list differs, so screenshots of an unchanged screen
cost nothing.
"""

from __future__ import annotations

import io
import struct
import threading
from collections.abc import Callable, Mapping

import numpy as np
from PIL import Image

from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.power import Wakefulness
from androidrl.virtual.system.window.window_manager import WindowManager
from androidrl.virtual.ui.render import Op, Renderer
from androidrl.virtual.ui.uixml import dump_hierarchy
from androidrl.virtual.ui.views import View

#: The built-in display's physical id (the emulator's), as ``screencap -d`` and ``dumpsys`` name it.
DISPLAY_UNIQUE_ID = "4619827259835644672"


class Display:
    """Composes the windows in front and keeps their frame, encodings and XML cached.

    Args:
        metrics: Screen size and density.
        window_manager: Composes the windows (the activity's, its dialogs, toasts, keyboard, SystemUI's).
        wakefulness: A sleeping screen is black.
        props: System properties (the SDK level decides ``screencap``'s raw header).
        lock: The phone's lock, held while the window is read.
        before_frame: Runs before the screen is looked at (the alarm manager delivers what is due).
    """

    def __init__(
        self,
        metrics: DisplayMetrics,
        window_manager: WindowManager,
        wakefulness: Wakefulness,
        props: Mapping[str, str],
        *,
        lock: threading.RLock,
        before_frame: Callable[[], None] | None = None,
    ) -> None:
        self.metrics = metrics
        self._before_frame = before_frame
        self.window_manager = window_manager
        self.wakefulness = wakefulness
        self._props = props
        self._lock = lock
        self._dirty = True
        self._renderer: Renderer | None = None
        self._window: View | None = None
        self._windows: tuple[View, ...] = ()  # hit-test order: top-most first
        self._package = ""
        self._ops: tuple[Op, ...] = ()
        self._xml: str | None = None
        self._screencap_cache: tuple | None = None

    def invalidate(self) -> None:
        """Mark the screen as needing a rebuild (cheap; the frame is redrawn only if it differs)."""
        self._dirty = True

    def refresh(self) -> None:
        """Rebuild and lay out the windows in front if something invalidated them or moved on."""
        if self._before_frame is not None:
            self._before_frame()
        if not self._dirty and not self.window_manager.due():
            return
        composition = self.window_manager.compose()
        self._window, self._windows, self._package = composition.focus, composition.windows, composition.package
        if self.wakefulness.awake:
            self._ops = composition.ops
        else:  # the panel is off
            self._ops = (("rect", (0, 0, self.metrics.width, self.metrics.height), (0, 0, 0), 0),)
        self._xml = None
        self._dirty = False

    def windows(self) -> tuple[View, ...]:
        """The laid-out window roots, top-most first (the window manager's z-order)."""
        self.refresh()
        return self._windows

    def focused_window(self) -> tuple[View, str]:
        """The laid-out window with focus and its package: the active window ``uiautomator dump`` reads.

        SystemUI's NotificationShade while it shows, else the top dialog or popup that takes
        focus, else the activity's.
        """
        self.refresh()
        return self._window, self._package

    def screenshot(self) -> np.ndarray:
        """The screen as a read-only ``(height, width, 3)`` uint8 RGB array.

        The same array object comes back until the screen changes.
        """
        with self._lock:
            self.refresh()
            size = self.metrics.size
            if self._renderer is None or (self._renderer.width, self._renderer.height) != size:
                self._renderer = Renderer(*size)
            return self._renderer.render(self._ops)

    def changed_regions(self, old: np.ndarray, new: np.ndarray) -> tuple[tuple[int, int, int, int], ...] | None:
        """Where frame ``new`` differs from the earlier frame ``old``.

        Returns (left, top, right, bottom) boxes, () for nowhere, or None when the phone
        cannot tell (then compare everything).
        """
        with self._lock:
            return self._renderer.changed_regions(old, new) if self._renderer is not None else None

    @property
    def frames_drawn(self) -> int:
        """How many frames were rasterised so far (a cache-efficiency figure)."""
        return self._renderer.frames_drawn if self._renderer else 0

    def screencap(self, png: bool = False) -> bytes:
        """What ``screencap`` writes: PNG bytes, or the raw header plus RGBA pixels.

        The encoding of the current frame is cached, as the frame itself is; the raw pixels
        are the renderer's RGBX memory, sent as it is.
        """
        frame = self.screenshot()
        key = (id(frame), png)
        if self._screencap_cache is not None and self._screencap_cache[0] == key:
            return self._screencap_cache[1]
        if png:  # RGBA, as Android writes it, at zlib's default level, as Android's encoder uses
            buf = io.BytesIO()
            height, width = frame.shape[:2]
            Image.frombuffer("RGBA", (width, height), self._rgba_of(frame), "raw", "RGBA", 0, 1).save(buf, format="PNG")
            data = buf.getvalue()
        else:
            data = b"".join(self._raw_parts(frame))
        self._screencap_cache = (key, data, frame)  # holding the frame keeps its id unique
        return data

    def screencap_parts(self) -> tuple[bytes, memoryview]:
        """Raw ``screencap`` output as two parts, header and pixels, for a writer that sends one after the other.

        Nothing is copied: the pixels are the frame's own RGBX memory, which no later frame
        changes (each frame is drawn into new memory), so it can be sent while the screen moves on.
        """
        with self._lock:
            return self._raw_parts(self.screenshot())

    def _raw_parts(self, frame: np.ndarray) -> tuple[bytes, memoryview]:
        height, width = frame.shape[:2]
        header = struct.pack("<III", width, height, 1)  # format 1 = RGBA_8888
        if int(self._props.get("ro.build.version.sdk", "") or 34) >= 29:
            header += struct.pack("<I", 1)  # dataspace: sRGB
        return header, self._rgba_of(frame)

    def _rgba_of(self, frame: np.ndarray) -> memoryview:
        """The frame's pixels as RGBA bytes: the renderer's RGBX memory itself (X is 255, opaque)."""
        buffer = self._renderer.rgbx(frame)
        if buffer is None:  # not the current frame (cannot happen under the lock): pack it
            buffer = np.dstack([frame, np.full(frame.shape[:2], 255, np.uint8)])
        return memoryview(np.ascontiguousarray(buffer)).cast("B")

    def dump_ui(self) -> str:
        """The ``uiautomator dump`` XML of the window with focus."""
        with self._lock:
            self.refresh()
            if self._xml is None:
                self._xml = dump_hierarchy(self._window, self._package)
            return self._xml

"""The virtual phone: a headless Android look-alike, deterministic under a seed.

It keeps the state an Android device has — installed apps, a stack of tasks of
activities, the settings provider, a file system, system properties, screen size and
density — and turns input into effects the way Android does: a tap clicks the top-most
clickable view under it, a swipe past the touch slop scrolls, a swipe that stays put for
the long-press timeout is a long press, typed text goes to the focused EditText, BACK
pops the top activity and HOME shows the launcher. :meth:`VirtualPhone.shell` answers
shell commands with Android's output formats (see :mod:`androidrl.virtual.shell`).

Everything is guarded by one re-entrant lock, so an adb server thread and the caller's
thread can use the same phone.
"""

from __future__ import annotations

import io
import struct
import threading
import time
from collections import deque

import numpy as np
from PIL import Image

from androidrl.keycodes import KEYCODE_BACK, KEYCODE_HOME
from androidrl.virtual.activity import (
    ACTION_MAIN,
    CATEGORY_HOME,
    Activity,
    App,
    Intent,
)
from androidrl.virtual.apps import default_apps
from androidrl.virtual.apps.launcher import LAUNCHER
from androidrl.virtual.apps.launcher import PACKAGE as LAUNCHER_PACKAGE
from androidrl.virtual.apps.settings import airplane_enabled, bluetooth_enabled, wifi_enabled
from androidrl.virtual.fs import VirtualFileSystem
from androidrl.virtual.render import Renderer, display_list
from androidrl.virtual.settings_db import SettingsStore
from androidrl.virtual.shell import Shell, ShellResult
from androidrl.virtual.uixml import dump_hierarchy
from androidrl.virtual.views import (
    MATCH,
    TEXT,
    FrameLayout,
    ImageView,
    LinearLayout,
    TextView,
    View,
    find_target,
)

STATUS_BAR_DP = 24
NAV_BAR_DP = 48
TOUCH_SLOP_DP = 8  # ViewConfiguration.TOUCH_SLOP
STATUS_BAR_COLOR = (232, 234, 237)
NAV_BAR_COLOR = (32, 33, 36)


class PhoneOfflineError(RuntimeError):
    """The phone is rebooting or powered off and cannot answer."""


class VirtualPhone:
    r"""A headless Android phone.

    Args:
        width: Physical screen width in pixels.
        height: Physical screen height in pixels.
        density: Screen density in dpi (160 = 1 px per dp).
        seed: Seeds every random choice the phone makes (e.g. the practice target).
        serial: ``ro.serialno``.
        model: ``ro.product.model``.
        sdk: ``ro.build.version.sdk``; below 29 ``screencap`` writes the 12-byte raw header.
        boot_seconds: How long ``reboot`` keeps the phone offline.

    Example:
        >>> phone = VirtualPhone(360, 800, 160)
        >>> phone.shell("settings get global wifi_on").stdout
        b'1\\n'
    """

    def __init__(
        self,
        width: int = 1080,
        height: int = 2400,
        density: int = 420,
        *,
        seed: int = 0,
        serial: str = "virtual-phone",
        model: str = "androidrl Virtual Phone",
        sdk: int = 34,
        boot_seconds: float = 1.0,
    ) -> None:
        if int(width) < 64 or int(height) < 64:
            raise ValueError(f"screen must be at least 64x64 pixels, got {width}x{height}")
        if int(density) < 72:
            raise ValueError(f"density must be >= 72 dpi, got {density}")
        self.lock = threading.RLock()
        self.physical_size = (int(width), int(height))
        self.physical_density = int(density)
        self.override_size: tuple[int, int] | None = None
        self.override_density: int | None = None
        self.boot_seconds = boot_seconds
        release = {34: "14", 33: "13", 32: "12", 31: "12", 30: "11", 29: "10", 28: "9"}.get(sdk, str(sdk))
        self.props: dict[str, str] = {
            "ro.serialno": serial,
            "ro.product.model": model,
            "ro.product.name": "androidrl_virtual",
            "ro.product.device": "virtual",
            "ro.product.manufacturer": "androidrl",
            "ro.product.brand": "androidrl",
            "ro.product.cpu.abi": "x86_64",
            "ro.build.version.sdk": str(sdk),
            "ro.build.version.release": release,
            "ro.build.display.id": f"androidrl-virtual-{release}",
            "ro.build.type": "userdebug",
            "ro.debuggable": "1",
            "ro.secure": "0",
            "ro.adb.secure": "0",
            "ro.kernel.qemu": "0",
            "sys.boot_completed": "1",
            "persist.sys.locale": "en-US",
        }
        self.settings = SettingsStore(on_change=self.invalidate)
        self.fs = VirtualFileSystem()
        self.apps: dict[str, App] = {app.package: app for app in default_apps()}
        self._rng = np.random.default_rng(seed)
        self._tasks: list[list[Activity]] = []
        self._powered_off = False
        self._online_at = 0.0  # monotonic time the current boot completes
        self._dirty = True
        self._renderer: Renderer | None = None
        self._window: View | None = None
        self._overlays: list[View] = []
        self._ops: tuple = ()
        self._bars: tuple | None = None  # (key, [status, nav], their display list)
        self._xml: str | None = None
        self._screencap_cache: tuple | None = None
        self._rgba: tuple[np.ndarray | None, np.ndarray | None] = (None, None)  # raw buffer, the frame in it
        self.touch_down: tuple[float, float, float] | None = None  # for `input motionevent`
        #: The most recent shell command lines received, oldest first (like a device log).
        self.command_log: deque[str] = deque(maxlen=1000)
        self._boot()

    # ------------------------------------------------------------------ properties

    @property
    def size(self) -> tuple[int, int]:
        """Current (width, height) in pixels: the override size when one is set (``wm size``)."""
        return self.override_size or self.physical_size

    @property
    def width(self) -> int:
        """Current screen width in pixels."""
        return self.size[0]

    @property
    def height(self) -> int:
        """Current screen height in pixels."""
        return self.size[1]

    @property
    def density(self) -> int:
        """Current density in dpi (the override when set)."""
        return self.override_density or self.physical_density

    @property
    def scale(self) -> float:
        """Pixels per dp."""
        return self.density / 160.0

    @property
    def content_height_dp(self) -> float:
        """Height of the app area between status bar and navigation bar, in dp."""
        return (self.height - self._bar_px(STATUS_BAR_DP) - self._bar_px(NAV_BAR_DP)) / self.scale

    def set_override_size(self, size: tuple[int, int] | None) -> None:
        """``wm size WxH`` (or ``wm size reset`` with None): the screen renders at this size."""
        with self.lock:
            self.override_size = size
            self.invalidate()

    def set_override_density(self, density: int | None) -> None:
        """``wm density N`` (or ``reset`` with None)."""
        with self.lock:
            self.override_density = density
            self.invalidate()

    def getprop(self, name: str) -> str:
        """A system property, or "" when unset."""
        return self.props.get(name, "")

    def next_seed(self) -> int:
        """A seed for an app's own RNG, drawn from the phone's seeded RNG."""
        return int(self._rng.integers(0, 2**31 - 1))

    # ------------------------------------------------------------------ power

    @property
    def online(self) -> bool:
        """Whether the phone is booted and answering (not rebooting, not powered off)."""
        return not self._powered_off and time.monotonic() >= self._online_at

    def check_online(self) -> None:
        """Raise :class:`PhoneOfflineError` unless the phone is online."""
        if not self.online:
            state = "powered off" if self._powered_off else "rebooting"
            raise PhoneOfflineError(f"phone {self.getprop('ro.serialno')} is {state}")

    def reboot(self, power_off: bool = False) -> None:
        """Go offline for ``boot_seconds`` (or until :meth:`power_on`), then boot to the launcher."""
        with self.lock:
            self._powered_off = power_off
            self._online_at = time.monotonic() + self.boot_seconds
            self._boot()

    def power_on(self) -> None:
        """Boot a powered-off phone at once."""
        with self.lock:
            self._powered_off = False
            self._online_at = time.monotonic()

    def _boot(self) -> None:
        """Reset running state as a boot does: no tasks but the launcher. Data survives."""
        self._tasks = []
        self.go_home()

    # ------------------------------------------------------------------ activities

    @property
    def top_activity(self) -> Activity:
        """The activity in front."""
        return self._tasks[-1][-1]

    def activity_stack(self) -> list[list[str]]:
        """Components of every task's activities, bottom task first (for tests and dumpsys)."""
        return [[a.component for a in task] for task in self._tasks]

    def go_home(self) -> None:
        """Bring the launcher to the front, starting it if needed (HOME key, home intent)."""
        for task in self._tasks:
            if task[0].app.package == LAUNCHER_PACKAGE:
                self._tasks.remove(task)
                self._tasks.append(task)
                break
        else:
            launcher = self.apps[LAUNCHER_PACKAGE]
            self._tasks.append([launcher.activities[LAUNCHER](self, launcher, LAUNCHER, Intent(ACTION_MAIN))])
        self.invalidate()

    def resolve(self, intent: Intent) -> tuple[App, str] | None:
        """The app and activity class an intent starts, or None."""
        if intent.component is not None:
            app = self.apps.get(intent.component[0])
            cls = intent.component[1]
            return (app, cls) if app is not None and cls in app.activities else None
        if intent.package is not None:
            app = self.apps.get(intent.package)
            if app is None:
                return None
            cls = app.actions.get(intent.action or "") or (app.main if intent.action in (None, ACTION_MAIN) else None)
            return (app, cls) if cls else None
        for app in self.apps.values():
            if intent.action in app.actions:
                return app, app.actions[intent.action]
        return None

    def start_activity(self, intent: Intent) -> str:
        """Start what ``intent`` names, like ``startActivity`` with FLAG_ACTIVITY_NEW_TASK.

        Returns:
            ``"started"``, ``"brought-to-front"`` (the app's task was resumed as it was),
            ``"home"``, or ``"not-found"`` when nothing resolves.
        """
        with self.lock:
            if CATEGORY_HOME in intent.categories and intent.component is None:
                self.go_home()
                return "home"
            target = self.resolve(intent)
            if target is None:
                return "not-found"
            app, cls = target
            if app.package == LAUNCHER_PACKAGE:
                self.go_home()
                return "home"
            task = next((t for t in self._tasks if t[0].app is app), None)
            if task is not None:
                self._tasks.remove(task)
                self._tasks.append(task)
                if task[0].cls == cls and intent.action in (None, ACTION_MAIN):
                    self.invalidate()
                    return "brought-to-front"
                task.append(app.activities[cls](self, app, cls, intent))
            else:
                self._tasks.append([app.activities[cls](self, app, cls, intent)])
            self.invalidate()
            return "started"

    def finish_activity(self, activity: Activity) -> None:
        """Remove ``activity``; an emptied task goes, and the launcher is never left without a task."""
        with self.lock:
            for task in self._tasks:
                if activity in task:
                    task.remove(activity)
                    if not task:
                        self._tasks.remove(task)
                    break
            if not self._tasks:
                self.go_home()
            self.invalidate()

    def force_stop(self, package: str) -> None:
        """Kill every task of ``package`` (``am force-stop``); its saved data stays."""
        with self.lock:
            self._tasks = [t for t in self._tasks if t[0].app.package != package]
            if not self._tasks or package == LAUNCHER_PACKAGE:
                self.go_home()
            self.invalidate()

    def clear_data(self, package: str) -> bool:
        """``pm clear``: stop the app and wipe its data. False for an unknown package."""
        with self.lock:
            app = self.apps.get(package)
            if app is None:
                return False
            self.force_stop(package)
            app.data.clear()
            return True

    # ------------------------------------------------------------------ input

    def tap(self, x: float, y: float) -> None:
        """A touch down and up at ``(x, y)``: clicks the top-most clickable view there."""
        with self.lock:
            view = self._hit(x, y, lambda v: v.clickable)
            if view is not None and view.on_click is not None:
                view.on_click()
            self.invalidate()

    def long_press(self, x: float, y: float) -> None:
        """A touch held past the long-press timeout: long-clicks, or clicks a view that only clicks."""
        with self.lock:
            view = self._hit(x, y, lambda v: v.clickable or v.long_clickable)
            if view is not None:
                if view.long_clickable and view.on_long_click is not None:
                    view.on_long_click()
                elif view.on_click is not None:
                    view.on_click()
            self.invalidate()

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> None:
        """A touch moved from ``(x1, y1)`` to ``(x2, y2)`` over ``duration_ms``.

        Within the touch slop it is a tap, or a long press when held for the long-press
        timeout; beyond it, it drags the scrollable list under the start point.
        """
        with self.lock:
            slop = TOUCH_SLOP_DP * self.scale
            if abs(x2 - x1) <= slop and abs(y2 - y1) <= slop:
                timeout = int(self.settings.get("secure", "long_press_timeout") or 400)
                if duration_ms >= timeout:
                    self.long_press(x1, y1)
                else:
                    self.tap(x1, y1)
                return
            view = self._hit(x1, y1, lambda v: hasattr(v, "scroll_by") and v.scrollable)
            if view is not None:
                view.scroll_by(round(y1 - y2))
            self.invalidate()

    def type_text(self, text: str) -> None:
        """Keys typed into the focused text field (dropped when nothing has focus)."""
        with self.lock:
            view = self._focused()
            if view is not None and view.on_text is not None and text:
                view.on_text(text)
            self.invalidate()

    def press_key(self, code: int) -> None:
        """A key press: BACK, HOME, or a key for the focused view (DEL, ENTER...)."""
        with self.lock:
            if code == KEYCODE_HOME:
                self.go_home()
            elif code == KEYCODE_BACK:
                top = self.top_activity
                if not top.on_back():
                    self.finish_activity(top)
            else:
                view = self._focused()
                if view is not None and view.on_key is not None:
                    view.on_key(code)
            self.invalidate()

    def _hit(self, x: float, y: float, want) -> View | None:
        self._refresh()
        for root in (*reversed(self._overlays), self._window):
            view = find_target(root, x, y, want)
            if view is not None:
                return view
        return None

    def _focused(self) -> View | None:
        self._refresh()
        return next((v for v in self._window.walk() if v.focused), None)

    # ------------------------------------------------------------------ screen

    def invalidate(self) -> None:
        """Mark the screen as needing a rebuild (cheap; the frame is redrawn only if it differs)."""
        self._dirty = True

    def _bar_px(self, dp: int) -> int:
        return round(dp * self.scale)

    def _refresh(self) -> None:
        if not self._dirty:
            return
        width, height, scale = self.width, self.height, self.scale
        top, bottom = self._bar_px(STATUS_BAR_DP), height - self._bar_px(NAV_BAR_DP)
        activity = self.top_activity
        content = FrameLayout([activity.build()], resource_id="android:id/content")
        window = FrameLayout([content], background=(255, 255, 255))
        window.bounds = window.visible = (0, 0, width, height)
        content.layout((0, top, width, bottom), (0, top, width, bottom), scale)
        overlays, bar_ops = self._system_bars(top, bottom)
        self._window, self._overlays = window, overlays
        self._package = activity.app.package
        self._ops = display_list(window, scale) + bar_ops
        self._xml = None
        self._dirty = False

    def _system_bars(self, top: int, bottom: int) -> tuple[list[View], tuple]:
        """The laid-out status and navigation bars and their display list.

        Rebuilt only when what they show changes: most refreshes only change the app.
        """
        width, height, scale = self.width, self.height, self.scale
        key = (width, height, scale, airplane_enabled(self), wifi_enabled(self), bluetooth_enabled(self))
        if self._bars is None or self._bars[0] != key:
            status = self._status_bar()
            status.layout((0, 0, width, top), (0, 0, width, top), scale)
            nav = self._nav_bar()
            nav.layout((0, bottom, width, height), (0, bottom, width, height), scale)
            self._bars = (key, [status, nav], display_list(status, scale) + display_list(nav, scale))
        return self._bars[1], self._bars[2]

    def _status_bar(self) -> View:
        icons = []
        if airplane_enabled(self):
            icons.append(TextView("✈", width=16, text_size=11))
        if wifi_enabled(self):
            icons.append(TextView("WiFi", width=30, text_size=11))
        if bluetooth_enabled(self):
            icons.append(TextView("BT", width=20, text_size=11))
        return LinearLayout(
            [
                TextView("12:00", width=MATCH, text_size=12, padding=8, text_color=TEXT),
                *icons,
                TextView("100%", width=40, text_size=11),
            ],
            vertical=False,
            background=STATUS_BAR_COLOR,
            height=STATUS_BAR_DP,
        )

    def _nav_bar(self) -> View:
        def button(glyph: str, desc: str, action) -> View:
            return ImageView(
                glyph=glyph,
                color=(95, 99, 104),
                content_desc=desc,
                clickable=True,
                width=MATCH,
                height=32,
                on_click=action,
            )

        return LinearLayout(
            [
                button("<", "Back", lambda: self.press_key(KEYCODE_BACK)),
                button("O", "Home", lambda: self.press_key(KEYCODE_HOME)),
                button("=", "Overview", lambda: None),
            ],
            vertical=False,
            background=NAV_BAR_COLOR,
            height=NAV_BAR_DP,
        )

    def screenshot(self) -> np.ndarray:
        """The screen as a read-only ``(height, width, 3)`` uint8 RGB array.

        The same array object comes back until the screen changes.
        """
        with self.lock:
            self._refresh()
            if self._renderer is None or (self._renderer.width, self._renderer.height) != self.size:
                self._renderer = Renderer(*self.size)
            return self._renderer.render(self._ops)

    def changed_region(self, old: np.ndarray, new: np.ndarray) -> tuple[int, int, int, int] | None:
        """Where frame ``new`` differs from the earlier frame ``old``.

        Returns (left, top, right, bottom), (0, 0, 0, 0) for nowhere, or None when the phone
        cannot tell (then compare everything).
        """
        with self.lock:
            return self._renderer.changed_region(old, new) if self._renderer is not None else None

    @property
    def frames_drawn(self) -> int:
        """How many frames were rasterised so far (a cache-efficiency figure)."""
        return self._renderer.frames_drawn if self._renderer else 0

    def screencap(self, png: bool = False) -> bytes:
        """What ``screencap`` writes: PNG bytes, or the raw header plus RGBA pixels.

        The encoding of the current frame is cached, as the frame itself is; the raw
        pixels live in one RGBA buffer that only the changed region of a new frame updates.
        """
        frame = self.screenshot()
        key = (id(frame), png)
        if self._screencap_cache is not None and self._screencap_cache[0] == key:
            return self._screencap_cache[1]
        if png:  # zlib's default level, as Android's encoder uses
            buf = io.BytesIO()
            Image.fromarray(frame).save(buf, format="PNG")
            data = buf.getvalue()
        else:
            height, width = frame.shape[:2]
            header = struct.pack("<III", width, height, 1)  # format 1 = RGBA_8888
            if int(self.getprop("ro.build.version.sdk") or 34) >= 29:
                header += struct.pack("<I", 1)  # dataspace: sRGB
            data = b"".join((header, self._rgba_of(frame)))
        self._screencap_cache = (key, data, frame)  # holding the frame keeps its id unique
        return data

    def _rgba_of(self, frame: np.ndarray) -> memoryview:
        buffer, last = self._rgba
        region = None
        if buffer is None or buffer.shape[:2] != frame.shape[:2]:
            buffer = np.empty((*frame.shape[:2], 4), dtype=np.uint8)
            buffer[..., 3] = 255  # opaque
        elif last is not None:
            region = self.changed_region(last, frame)
        left, top, right, bottom = region if region is not None else (0, 0, frame.shape[1], frame.shape[0])
        buffer[top:bottom, left:right, :3] = frame[top:bottom, left:right]
        self._rgba = (buffer, frame)
        return memoryview(buffer).cast("B")

    def dump_ui(self) -> str:
        """The ``uiautomator dump`` XML of the window in front."""
        with self.lock:
            self._refresh()
            if self._xml is None:
                self._xml = dump_hierarchy(self._window, self._package)
            return self._xml

    @property
    def idle(self) -> bool:
        """False while the screen animates; ``uiautomator dump`` needs an idle screen."""
        with self.lock:
            return not self.top_activity.animating

    def foreground(self) -> tuple[str, str]:
        """(package, activity class) in front."""
        with self.lock:
            top = self.top_activity
            return top.app.package, top.cls

    # ------------------------------------------------------------------ shell

    def shell(
        self,
        command: str,
        stdin: bytes = b"",
        cancel: threading.Event | None = None,
        deadline: float | None = None,
    ) -> ShellResult:
        """Run a command line as ``adb shell`` does: stdout, stderr and exit status.

        Args:
            command: The command line, in the syntax of Android's ``sh``.
            stdin: Bytes fed to the first command's standard input.
            cancel: Set it to interrupt a running command (e.g. a client that went away).
            deadline: ``time.monotonic()`` after which waiting commands (``sleep``) give up.

        Raises:
            PhoneOfflineError: The phone is rebooting or off.
        """
        self.check_online()
        self.command_log.append(command)
        return Shell(self, cancel=cancel, deadline=deadline).run(command, stdin)

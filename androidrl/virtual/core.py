"""The phone core: the system services of a virtual phone, assembled, behind one face.

The core owns one instance of each part and wires them together — properties, settings,
file system, radios, display metrics, power, the activity manager, the display and input
dispatch — and answers for them as one phone (thin methods that hand each call to the part
whose job it is). It knows no particular app: the apps and the home screen are given to it
(:class:`~androidrl.virtual.phone.VirtualPhone` installs the default ones), and apps see
the system only through their :class:`~androidrl.virtual.activity.Context`.

Everything is guarded by one re-entrant lock, shared by the parts, so an adb server thread
and the caller's thread can use the same phone.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

from androidrl.virtual.activity import Activity, App, Context
from androidrl.virtual.activity_manager import ActivityManager
from androidrl.virtual.display import Display
from androidrl.virtual.fs import VirtualFileSystem
from androidrl.virtual.input import InputDispatcher
from androidrl.virtual.intent import Intent
from androidrl.virtual.metrics import DisplayMetrics
from androidrl.virtual.power import Power
from androidrl.virtual.props import system_properties
from androidrl.virtual.radios import Radios
from androidrl.virtual.settings_db import SettingsStore
from androidrl.virtual.system_bars import SystemBars


class PhoneCore:
    """A headless Android phone without apps of its own and without a shell.

    Args:
        width: Physical screen width in pixels.
        height: Physical screen height in pixels.
        density: Screen density in dpi (160 = 1 px per dp).
        apps: The installed packages.
        home: (package, activity class) of the home screen; its package must be in ``apps``.
        seed: Seeds every random choice the phone makes (e.g. the practice target).
        serial: ``ro.serialno``.
        model: ``ro.product.model``.
        sdk: ``ro.build.version.sdk``; below 29 ``screencap`` writes the 12-byte raw header.
        boot_seconds: How long ``reboot`` keeps the phone offline.

    Attributes:
        lock: The re-entrant lock every part holds while it changes or reads shared state.
        props: System properties (``getprop``).
        settings: The ``settings`` provider.
        fs: The file system.
        radios: Wi-Fi, Bluetooth and airplane mode.
        metrics: Screen size and density.
        apps: Installed packages by name.
        activities: The activity manager (task stack).
        display: The screen: frames, ``screencap`` bytes, UI XML.
        input: Input dispatch (touches and keys).
        power: Online, rebooting or off.
    """

    def __init__(
        self,
        width: int,
        height: int,
        density: int,
        *,
        apps: Iterable[App],
        home: tuple[str, str],
        seed: int = 0,
        serial: str = "virtual-phone",
        model: str = "androidrl Virtual Phone",
        sdk: int = 34,
        boot_seconds: float = 1.0,
    ) -> None:
        self.lock = threading.RLock()
        # Parts below the display report changes through `invalidate`, which reaches the
        # display built after them; nothing calls it before the first boot at the end.
        self.metrics = DisplayMetrics(width, height, density, lock=self.lock, on_change=self.invalidate)
        self.props = system_properties(serial, model, sdk)
        self.settings = SettingsStore(on_change=self.invalidate)
        self.fs = VirtualFileSystem()
        self.radios = Radios(self.settings)
        self.apps: dict[str, App] = {app.package: app for app in apps}
        self._rng = np.random.default_rng(seed)
        context = Context(
            apps=self.apps,
            metrics=self.metrics,
            radios=self.radios,
            getprop=self.getprop,
            start_activity=self.start_activity,
            finish_activity=self.finish_activity,
            invalidate=self.invalidate,
            next_seed=self.next_seed,
        )
        self.activities = ActivityManager(self.apps, home, context, lock=self.lock, on_change=self.invalidate)
        bars = SystemBars(self.metrics, self.radios, inject_key=self.press_key)
        self.display = Display(self.metrics, self.activities, bars, self.props, lock=self.lock)
        self.input = InputDispatcher(self.display, self.activities, self.settings, lock=self.lock)
        self.power = Power(self.props, boot_seconds=boot_seconds, on_boot=self._boot, lock=self.lock)
        self._boot()

    def _boot(self) -> None:
        """What a boot resets: the running activities (data, settings and files survive)."""
        self.activities.boot()

    # ------------------------------------------------------------------ properties

    @property
    def size(self) -> tuple[int, int]:
        """Current (width, height) in pixels: the override size when one is set (``wm size``)."""
        return self.metrics.size

    @property
    def width(self) -> int:
        """Current screen width in pixels."""
        return self.metrics.width

    @property
    def height(self) -> int:
        """Current screen height in pixels."""
        return self.metrics.height

    @property
    def density(self) -> int:
        """Current density in dpi (the override when set)."""
        return self.metrics.density

    @property
    def scale(self) -> float:
        """Pixels per dp."""
        return self.metrics.scale

    @property
    def content_height_dp(self) -> float:
        """Height of the app area between status bar and navigation bar, in dp."""
        return self.metrics.content_height_dp

    @property
    def physical_size(self) -> tuple[int, int]:
        """(width, height) of the panel in pixels, whatever ``wm size`` says."""
        return self.metrics.physical_size

    @property
    def physical_density(self) -> int:
        """Density of the panel in dpi, whatever ``wm density`` says."""
        return self.metrics.physical_density

    @property
    def override_size(self) -> tuple[int, int] | None:
        """The ``wm size`` override, or None."""
        return self.metrics.override_size

    @property
    def override_density(self) -> int | None:
        """The ``wm density`` override, or None."""
        return self.metrics.override_density

    def set_override_size(self, size: tuple[int, int] | None) -> None:
        """``wm size WxH`` (or ``wm size reset`` with None): the screen renders at this size."""
        self.metrics.set_override_size(size)

    def set_override_density(self, density: int | None) -> None:
        """``wm density N`` (or ``reset`` with None)."""
        self.metrics.set_override_density(density)

    def getprop(self, name: str) -> str:
        """A system property, or "" when unset."""
        return self.props.get(name, "")

    def next_seed(self) -> int:
        """A seed for an app's own RNG, drawn from the phone's seeded RNG."""
        return int(self._rng.integers(0, 2**31 - 1))

    # ------------------------------------------------------------------ power

    @property
    def boot_seconds(self) -> float:
        """How long ``reboot`` keeps the phone offline."""
        return self.power.boot_seconds

    @boot_seconds.setter
    def boot_seconds(self, seconds: float) -> None:
        self.power.boot_seconds = seconds

    @property
    def online(self) -> bool:
        """Whether the phone is booted and answering (not rebooting, not powered off)."""
        return self.power.online

    def check_online(self) -> None:
        """Raise :class:`~androidrl.virtual.power.PhoneOfflineError` unless the phone is online."""
        self.power.check_online()

    def reboot(self, power_off: bool = False) -> None:
        """Go offline for ``boot_seconds`` (or until :meth:`power_on`), then boot to the launcher."""
        self.power.reboot(power_off)

    def power_on(self) -> None:
        """Boot a powered-off phone at once."""
        self.power.power_on()

    # ------------------------------------------------------------------ activities

    @property
    def top_activity(self) -> Activity:
        """The activity in front."""
        return self.activities.top_activity

    def activity_stack(self) -> list[list[str]]:
        """Components of every task's activities, bottom task first (for tests and dumpsys)."""
        return self.activities.activity_stack()

    def foreground(self) -> tuple[str, str]:
        """(package, activity class) in front."""
        return self.activities.foreground()

    @property
    def idle(self) -> bool:
        """False while the screen animates; ``uiautomator dump`` needs an idle screen."""
        return self.activities.idle

    def go_home(self) -> None:
        """Bring the launcher to the front, starting it if needed (HOME key, home intent)."""
        self.activities.go_home()

    def resolve(self, intent: Intent) -> tuple[App, str] | None:
        """The app and activity class an intent starts, or None."""
        return self.activities.resolve(intent)

    def start_activity(self, intent: Intent) -> str:
        """Start what ``intent`` names: ``"started"``, ``"brought-to-front"``, ``"home"`` or ``"not-found"``."""
        return self.activities.start_activity(intent)

    def finish_activity(self, activity: Activity) -> None:
        """Remove ``activity``; an emptied task goes, and the launcher is never left without a task."""
        self.activities.finish_activity(activity)

    def force_stop(self, package: str) -> None:
        """Kill every task of ``package`` (``am force-stop``); its saved data stays."""
        self.activities.force_stop(package)

    def clear_data(self, package: str) -> bool:
        """``pm clear``: stop the app and wipe its data. False for an unknown package."""
        return self.activities.clear_data(package)

    # ------------------------------------------------------------------ input

    def tap(self, x: float, y: float) -> None:
        """A touch down and up at ``(x, y)``: clicks the top-most clickable view there."""
        self.input.tap(x, y)

    def long_press(self, x: float, y: float) -> None:
        """A touch held past the long-press timeout: long-clicks, or clicks a view that only clicks."""
        self.input.long_press(x, y)

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> None:
        """A touch moved from ``(x1, y1)`` to ``(x2, y2)`` over ``duration_ms``: a tap, long press or scroll."""
        self.input.swipe(x1, y1, x2, y2, duration_ms)

    def type_text(self, text: str) -> None:
        """Keys typed into the focused text field (dropped when nothing has focus)."""
        self.input.type_text(text)

    def press_key(self, code: int) -> None:
        """A key press: BACK, HOME, or a key for the focused view (DEL, ENTER...)."""
        self.input.press_key(code)

    # ------------------------------------------------------------------ screen

    def invalidate(self) -> None:
        """Mark the screen as needing a rebuild (cheap; the frame is redrawn only if it differs)."""
        self.display.invalidate()

    def screenshot(self) -> np.ndarray:
        """The screen as a read-only ``(height, width, 3)`` uint8 RGB array, the same object until it changes."""
        return self.display.screenshot()

    def changed_region(self, old: np.ndarray, new: np.ndarray) -> tuple[int, int, int, int] | None:
        """Where frame ``new`` differs from the earlier frame ``old``; None when the phone cannot tell."""
        return self.display.changed_region(old, new)

    @property
    def frames_drawn(self) -> int:
        """How many frames were rasterised so far (a cache-efficiency figure)."""
        return self.display.frames_drawn

    def screencap(self, png: bool = False) -> bytes:
        """What ``screencap`` writes: PNG bytes, or the raw header plus RGBA pixels."""
        return self.display.screencap(png)

    def dump_ui(self) -> str:
        """The ``uiautomator dump`` XML of the window in front."""
        return self.display.dump_ui()

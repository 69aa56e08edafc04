"""The phone core: the system services of a virtual phone, assembled, behind one face.

The core owns one instance of each part and wires them together — properties, settings,
file system, radios, display metrics, power, the package and activity managers, the display
and input dispatch — and answers for them as one phone (thin methods that hand each call to the part
whose job it is). It knows no particular app: the apps and the home screen are given to it
(:class:`~androidrl.virtual.phone.VirtualPhone` installs the default ones), and apps see
the system only through their :class:`~androidrl.virtual.system.framework.app.Context`
(``app_context``, given by the composition — :func:`~androidrl.virtual.system.app_context.app_context` —
builds it on the core's services).

Everything is guarded by one re-entrant lock, shared by the parts, so an adb server thread
and the caller's thread can use the same phone.
"""

from __future__ import annotations

import copy
import datetime as dt
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from androidrl.virtual.system.activity_manager import ActivityManager
from androidrl.virtual.system.alarm_manager import AlarmManager
from androidrl.virtual.system.broadcasts import Broadcasts
from androidrl.virtual.system.clipboard import Clipboard
from androidrl.virtual.system.clock import Clock
from androidrl.virtual.system.content.seed import seed_content
from androidrl.virtual.system.content.service import ContentService
from androidrl.virtual.system.framework.app import Activity, App, Context
from androidrl.virtual.system.framework.content import ProviderError
from androidrl.virtual.system.framework.intent import ACTION_BOOT_COMPLETED, Intent
from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.fs import DEFAULT_CAPACITY, VirtualFileSystem
from androidrl.virtual.system.input.dispatcher import InputDispatcher
from androidrl.virtual.system.input.evdev import InputDevices
from androidrl.virtual.system.input_method import InputMethod
from androidrl.virtual.system.keyguard import Keyguard
from androidrl.virtual.system.location import Location
from androidrl.virtual.system.lock_settings import LockSettings
from androidrl.virtual.system.logd import LogBuffer
from androidrl.virtual.system.notifications import NotificationManager, StatusBar
from androidrl.virtual.system.packages import PackageManager
from androidrl.virtual.system.power import Power, Wakefulness
from androidrl.virtual.system.processes import SYSTEM_SERVER, Processes
from androidrl.virtual.system.procfs import proc_files
from androidrl.virtual.system.props import system_properties
from androidrl.virtual.system.radios import Radios
from androidrl.virtual.system.scheduler import Scheduler
from androidrl.virtual.system.settings_provider import SettingsStore
from androidrl.virtual.system.window.display import Display
from androidrl.virtual.system.window.notification_shade import NotificationShade
from androidrl.virtual.system.window.policy import WindowPolicy
from androidrl.virtual.system.window.quick_settings import QuickSettings
from androidrl.virtual.system.window.system_bars import SystemBars
from androidrl.virtual.system.window.window_manager import WindowManager

#: What a snapshot holds besides the files (a rough figure for the console's VM SIZE column).
SNAPSHOT_BASE_BYTES = 1 << 20


@dataclass(frozen=True)
class SnapshotInfo:
    """A saved snapshot, as an emulator's snapshot list describes it.

    Attributes:
        name: Its name.
        saved_at: When it was saved, in seconds since the epoch.
        vm_clock: The phone's uptime then (the emulator's VM clock), in seconds.
        size: Roughly how many bytes it holds.
    """

    name: str
    saved_at: float
    vm_clock: float
    size: int


class PhoneCore:
    """A headless Android phone without apps of its own and without a shell.

    Args:
        width: Physical screen width in pixels.
        height: Physical screen height in pixels.
        density: Screen density in dpi (160 = 1 px per dp).
        apps: The installed packages.
        home: (package, activity class) of the home screen; its package must be in ``apps``.
        app_context: Builds the apps' context on this core's services (the composition's choice).
        seed: Seeds every random choice the phone makes (e.g. the practice target).
        serial: ``ro.serialno``.
        model: ``ro.product.model``.
        sdk: ``ro.build.version.sdk``; below 29 ``screencap`` writes the 12-byte raw header.
        boot_seconds: How long ``reboot`` keeps the phone offline.
        app_from_apk: Makes the app a package installed from an APK runs as (``pm install``).
        clock: The phone's clock (default: a realtime one from :data:`~androidrl.virtual.system.clock.DEFAULT_START`).
        storage: Bytes its files may hold (``/data``, which ``/sdcard`` lives on; ``df`` shows it).
        content: How many of each kind of seeded content the phone starts with (``{"contacts": 20,
            "events": 10, "messages": 15, "calls": 10, "files": 8, "photos": 6, "alarms": 3}``), drawn
            from ``seed`` (:mod:`androidrl.virtual.system.content.seed`).

    Attributes:
        lock: The re-entrant lock every part holds while it changes or reads shared state.
        clock: The phone's wall time and uptime (``date``, file times, log times).
        props: System properties (``getprop``).
        settings: The ``settings`` provider.
        fs: The file system.
        radios: Wi-Fi, Bluetooth and airplane mode.
        metrics: Screen size and density.
        apps: Installed packages by name.
        packages: The package manager (install, uninstall, clear, permissions, enabled state).
        activities: The activity manager (task stack).
        windows: The window manager (the activity, its dialogs, popups, toasts, the keyboard, SystemUI's windows).
        ime: The soft keyboard (``dumpsys input_method``).
        clipboard: The clipboard.
        display: The screen: frames, ``screencap`` bytes, UI XML.
        input: Input dispatch (touches and keys, and what ``input`` injects).
        evdev: The input hardware (``/dev/input``): what it reports (``getevent``) and reads (``sendevent``).
        power: Online, rebooting or off.
        wakefulness: Whether the screen is on (``input keyevent SLEEP|WAKEUP|POWER``).
        lock_settings: The lock screen's credential (none or a PIN; ``locksettings``).
        keyguard: The lock screen (it shows when the screen goes off; with a PIN, it asks for it).
        notifications: The posted notifications (``cmd notification``).
        status_bar: Whether the notification shade is down (``cmd statusbar``).
        policy: What keys and touches do before they reach a window (PhoneWindowManager).
        log: The log buffers (``logcat``).
        processes: The process table (``ps``, ``pidof``).
        content: The content providers of the installed packages (``content``; apps' ``context.content``).
        alarm_manager: The alarms apps set (``dumpsys alarm``), delivered to their receivers when due.
        broadcasts: Sends broadcasts (the alarms', ``BOOT_COMPLETED``) to the receivers apps declare.
        scheduler: What is due later on the clock (a background shell job's ``sleep``), run when looked at.
    """

    def __init__(
        self,
        width: int,
        height: int,
        density: int,
        *,
        apps: Iterable[App],
        home: tuple[str, str],
        app_context: Callable[[PhoneCore], Context],
        seed: int = 0,
        serial: str = "virtual-phone",
        model: str = "androidrl Virtual Phone",
        sdk: int = 34,
        boot_seconds: float = 1.0,
        app_from_apk: Callable[[str], App] | None = None,
        clock: Clock | None = None,
        storage: int = DEFAULT_CAPACITY,
        content: Mapping[str, int] | None = None,
    ) -> None:
        self.lock = threading.RLock()
        #: The adb shell runs as root (``adb root`` on a userdebug build).
        self.root = False
        self._snapshots: dict[str, dict] = {}
        self._snapshot_info: dict[str, SnapshotInfo] = {}
        self._created = time.monotonic()  # the VM clock an emulator's snapshot list shows
        self.clock = clock if clock is not None else Clock()
        #: The last GPS fix, or None before the first one.
        self.location: Location | None = None
        # Parts below the display report changes through `invalidate`, which reaches the
        # display built after them; nothing calls it before the first boot at the end.
        self.metrics = DisplayMetrics(width, height, density, lock=self.lock, on_change=self.invalidate)
        self.props = system_properties(serial, model, sdk, density)
        self.settings = SettingsStore(on_change=self.invalidate)
        self.fs = VirtualFileSystem(clock=self.clock.now, capacity=storage, on_change=self.invalidate)
        self.log = LogBuffer(clock=self.clock.now)
        self.processes = Processes()
        self.fs.mount("/proc", proc_files(self.clock, self.processes))
        self.radios = Radios(self.settings, log=self._radio_log)
        self.apps: dict[str, App] = {app.package: app for app in apps}
        self.content = ContentService(
            self.apps,
            lock=self.lock,
            now_ms=self.clock.now_ms,
            log=lambda package, tag, message, priority: self.app_log(package, tag, message, priority),
            on_change=self.invalidate,
            files=self.fs,
            settings=self.settings,
        )
        self.alarm_manager = AlarmManager(self.clock, on_change=self.invalidate)
        self.scheduler = Scheduler(self.clock)
        self.packages = PackageManager(
            self.apps,
            lock=self.lock,
            stop=lambda package: self.force_stop(package),
            on_change=self._packages_changed,
            app_from_apk=app_from_apk,
            on_clear=self._cleared,
        )
        self._rng = np.random.default_rng(seed)
        self.clipboard = Clipboard()
        self.notifications = NotificationManager(self.invalidate, uid_of=lambda package: self.processes.uid(package))
        self.lock_settings = LockSettings(on_change=self.invalidate)
        context = app_context(self)
        self.activities = ActivityManager(
            self.packages,
            home,
            context,
            lock=self.lock,
            on_change=self.invalidate,
            processes=self.processes,
            log=self.log,
            sdk=sdk,
            content_type=self._content_type,
        )
        self.broadcasts = Broadcasts(self.packages, self.processes, self.alarm_manager, context, lock=self.lock)
        self.keyguard = Keyguard(self.lock_settings, on_change=self.invalidate)
        self.wakefulness = Wakefulness(on_change=self._on_wakefulness)
        self.status_bar = StatusBar(on_change=self.invalidate)
        # The navigation bar's buttons inject their keys, as SystemUI does: not through the keyboard.
        bars = SystemBars(
            self.metrics, self.radios, lambda code: self.input.press_key(code), self.local_time, self.is_24_hour
        )
        shade = NotificationShade(
            self.metrics,
            self.keyguard,
            self.status_bar,
            self.notifications,
            QuickSettings(self.settings, self.radios, log=self._radio_log),
            self.settings,
            local_time=self.local_time,
            language=lambda: self.windows.configuration().language,
            start_activity=self.start_activity,
            app_label=lambda package: self.apps[package].label if package in self.apps else package,
        )
        # The keyboard types as `input text` does: into the focused field, through input dispatch.
        self.ime = InputMethod(
            self.metrics,
            commit_text=lambda text: self.input.type_text(text),
            send_key=lambda code: self.input.press_key(code),
        )
        self.windows = WindowManager(
            self.metrics, self.activities, self.clock, self.settings, self.props, self.ime, bars, shade, lock=self.lock
        )
        self.display = Display(  # (before each frame, what is due happens: it shows on it)
            self.metrics, self.windows, self.wakefulness, self.props, lock=self.lock, before_frame=self.deliver_due
        )
        self.policy = WindowPolicy(self.wakefulness, self.keyguard, self.status_bar, self.activities, self.metrics)
        self.input = InputDispatcher(self.display, self.activities, self.settings, self.policy, lock=self.lock)
        self.evdev = InputDevices(self.input, self.metrics)
        self.power = Power(self.props, boot_seconds=boot_seconds, on_boot=self._boot, lock=self.lock)
        self.content.sync()
        if content:
            seed_content(self.content.resolver, self.fs, self.clock, seed, content)
        self._boot()

    def deliver_due(self) -> None:
        """What is due on the phone's clock happens (before a frame or a command): alarms, background jobs."""
        self.broadcasts.deliver_alarms()
        self.scheduler.run_due()

    def app_log(self, package: str, tag: str, message: str, priority: str = "I") -> None:
        """An app writes to the log (``Log.i(tag, message)``) from its own process."""
        self.log.write(tag, message, priority, pid=self.processes.pid(package) or 0)

    def _on_wakefulness(self, awake: bool) -> None:
        """The screen went on or off: off locks at once (an insecure keyguard) and closes the shade."""
        if not awake:
            self.keyguard.lock()
            self.status_bar.collapse()
        self.invalidate()

    def _packages_changed(self) -> None:
        self.content.sync()  # an installed package's providers come, an uninstalled one's go
        for package in [p for p, _, _ in self.notifications.user_set() if p not in self.apps]:
            self.notifications.forget_package(package)
        self.invalidate()

    def _cleared(self, package: str) -> None:  # pm clear: its providers too, and its runtime permissions reset
        self.content.clear(package)
        self.notifications.forget_package(package)

    def _content_type(self, uri: str) -> str | None:
        """``Intent.resolveTypeIfNeeded``: the MIME type the provider of a ``content:`` URI gives it."""
        try:
            return self.content.resolver.get_type(uri)
        except ProviderError:
            return None

    def _radio_log(self, tag: str, message: str) -> None:
        self.log.write(tag, message, buffer="main", pid=SYSTEM_SERVER)

    def set_location(self, latitude: float, longitude: float, altitude: float = 0.0) -> None:
        """A GPS fix (the emulator's ``geo fix``): the location manager's last known ``gps`` location."""
        self.location = Location(latitude, longitude, altitude, self.clock.uptime())

    # ------------------------------------------------------------------ snapshots

    #: The parts whose whole state a snapshot holds (with the apps, their tasks, the properties and root).
    _SNAPSHOT_PARTS = (
        "fs", "metrics", "processes", "clock", "clipboard", "wakefulness", "keyguard", "notifications",
        "status_bar", "lock_settings", "alarm_manager",
    )  # fmt: skip

    def save_snapshot(self, name: str) -> None:
        """Keep the whole phone as it is — settings, files, providers, apps, activities... — as ``name``.

        Like an emulator's snapshot (``adb emu avd snapshot save NAME``); an existing one is replaced.
        """
        with self.lock:
            state = copy.deepcopy(self._state(), self._shared())  # (and what copies itself faster, below)
            self._snapshots[name] = {**state, "log": self.log.state(), "content": self.content.state(),
                                     "settings": self.settings.state(), "props": dict(self.props),
                                     "rng": self._rng.bit_generator.state}  # fmt: skip
            self._snapshot_info.pop(name, None)  # a replaced snapshot goes to the end, as a new one
            self._snapshot_info[name] = SnapshotInfo(
                name, time.time(), time.monotonic() - self._created, SNAPSHOT_BASE_BYTES + self.fs.used_bytes()
            )

    def load_snapshot(self, name: str) -> None:
        """Put the phone back as it was when ``name`` was saved (it can be loaded again and again).

        Raises:
            KeyError: No snapshot of that name.
        """
        with self.lock:
            if name not in self._snapshots:
                raise KeyError(f"no snapshot named {name!r}")
            saved = self._snapshots[name]  # (its log lines and database images are immutable: shared, not copied)
            flat = ("log", "content", "settings", "props", "rng")
            state = copy.deepcopy({k: v for k, v in saved.items() if k not in flat}, self._shared())
            for part, values in state["parts"].items():
                vars(getattr(self, part)).clear()
                vars(getattr(self, part)).update(values)
            self.apps.clear()
            self.apps.update(state["apps"])
            self.content.restore(saved["content"])
            self.activities.restore(state["activities"])
            self.settings.restore(saved["settings"])
            self.props.clear()
            self.props.update(saved["props"])
            self._rng.bit_generator.state, self.root = saved["rng"], state["root"]  # (the setter copies)
            self.windows.restore(state["windows"])
            self.log.restore(saved["log"])  # (with the clock: a log newer than the phone's time would not be)
            self.scheduler.clear()  # (the jobs waiting are not the loaded phone's)
            self.invalidate()

    def snapshot_names(self) -> list[str]:
        """The saved snapshots, oldest first."""
        return list(self._snapshot_info)

    def snapshots(self) -> list[SnapshotInfo]:
        """What is known of each saved snapshot (for an emulator console's list), oldest first."""
        return list(self._snapshot_info.values())

    def delete_snapshot(self, name: str) -> bool:
        """Forget ``name``; whether it existed."""
        self._snapshot_info.pop(name, None)
        return self._snapshots.pop(name, None) is not None

    def _state(self) -> dict:
        return {
            "parts": {part: vars(getattr(self, part)) for part in self._SNAPSHOT_PARTS},
            "apps": self.apps,
            "activities": self.activities.state(),
            "root": self.root,
            "windows": self.windows.state(),
        }

    def _shared(self) -> dict[int, object]:
        """What a snapshot refers to but never copies: the phone itself, its lock, its wiring."""
        keep = (self, self.lock, self.activities, self.packages, self.display, self.input, self.power, self.log)
        keep += (self.radios, self.clock, self.content, self.windows, self.ime, self.lock_settings)
        keep += (self.activities.context,)
        return {id(obj): obj for obj in keep}

    def _boot(self) -> None:
        """What a boot resets: the running activities, the uptime, the screen, the notifications and the alarms.

        Data, settings and files survive. The phone comes up awake and unlocked, and sends
        ``BOOT_COMPLETED`` (apps set their alarms again).
        """
        self.clock.boot()
        self.alarm_manager.clear()
        self.scheduler.clear()
        self.activities.boot()
        self.wakefulness.wake_up()
        self.keyguard.unlocked_by_boot()
        self.status_bar.collapse()
        self.notifications.cancel_all()
        self.broadcasts.send(Intent(action=ACTION_BOOT_COMPLETED))

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

    def setprop(self, name: str, value: str) -> bool:
        """Set a system property (``setprop``); False for a read-only (``ro.``) one that is already set."""
        if name.startswith("ro.") and name in self.props:
            return False
        self.props[name] = value
        self.invalidate()  # (persist.sys.locale changes what apps draw)
        return True

    def is_24_hour(self) -> bool:
        """``DateFormat.is24HourFormat``: ``settings system time_12_24``, else what the locale uses."""
        setting = self.settings.get("system", "time_12_24")
        if setting in ("12", "24"):
            return setting == "24"
        language, _, region = self.windows.locale().replace("_", "-").partition("-")
        return not (language == "en" and region.upper() in ("", "US", "CA", "AU", "NZ", "PH", "IN"))

    def local_time(self, ms: int | None = None) -> dt.datetime:
        """A time in milliseconds (default: now) as an aware local time in ``persist.sys.timezone``."""
        return self.clock.local(None if ms is None else ms / 1000, timezone=self.getprop("persist.sys.timezone"))

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
        """Raise :class:`~androidrl.virtual.system.power.PhoneOfflineError` unless the phone is online."""
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
        """Kill every task of ``package`` (``am force-stop``): its alarms and notifications go, its saved data stays."""
        self.activities.force_stop(package)
        self.alarm_manager.remove_package(package)
        self.notifications.cancel_package(package)

    # ------------------------------------------------------------------ input

    def tap(self, x: float, y: float) -> None:
        """A finger touches ``(x, y)`` and lifts: the touchscreen reports it, and it clicks what is there.

        This is the phone's hardware (``getevent`` shows it); ``input tap`` injects its touch
        into :attr:`input` directly, as Android's InputManager does.
        """
        self.evdev.touch([(x, y)])

    def long_press(self, x: float, y: float) -> None:
        """A finger held on ``(x, y)`` past the long-press timeout: long-clicks, or clicks a view that only clicks."""
        self.evdev.touch([(x, y)], int(self.settings.get("secure", "long_press_timeout") or 400) + 100)

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> None:
        """A finger moved from ``(x1, y1)`` to ``(x2, y2)`` over ``duration_ms``: a tap, long press or scroll."""
        steps = max(1, min(60, duration_ms // 16))  # a frame each 16 ms, as a 60 Hz touchscreen reports them
        path = [(x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps) for i in range(steps + 1)]
        self.evdev.touch(path, duration_ms)

    def type_text(self, text: str) -> None:
        """Keys typed into the focused text field (dropped when nothing has focus)."""
        self.input.type_text(text)

    def press_key(self, code: int) -> None:
        """A key pressed on the phone's keyboard (reported by it when it has the key): BACK, HOME, DEL, ENTER..."""
        if not self.evdev.key(code):
            self.input.press_key(code)

    # ------------------------------------------------------------------ screen

    def invalidate(self) -> None:
        """Mark the screen as needing a rebuild (cheap; the frame is redrawn only if it differs)."""
        self.display.invalidate()

    def screenshot(self) -> np.ndarray:
        """The screen as a read-only ``(height, width, 3)`` uint8 RGB array, the same object until it changes."""
        return self.display.screenshot()

    def changed_regions(self, old: np.ndarray, new: np.ndarray) -> tuple[tuple[int, int, int, int], ...] | None:
        """Boxes where frame ``new`` differs from the earlier frame ``old``; None when the phone cannot tell."""
        return self.display.changed_regions(old, new)

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

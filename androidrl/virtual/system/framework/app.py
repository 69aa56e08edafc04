"""Apps and activities of the virtual phone, and the context through which they use the system.

An :class:`App` is an installed package: a label, an icon, its activities and its private
data (what ``pm clear`` wipes). An :class:`Activity` is one screen; it keeps its own state
and rebuilds its view tree from it in :meth:`Activity.build` whenever the phone redraws.
Activities reach the phone only through their :class:`Context`, as Android apps do, so no
app depends on how the phone is put together.
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from androidrl.virtual.system.alarm_manager import AlarmManager
from androidrl.virtual.system.clipboard import Clipboard
from androidrl.virtual.system.framework.content import ContentProvider, ContentResolver
from androidrl.virtual.system.framework.intent import (
    ACTION_MAIN,
    CATEGORY_DEFAULT,
    CATEGORY_LAUNCHER,
    Intent,
    IntentFilter,
)
from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.framework.storage import SharedStorage
from androidrl.virtual.system.lock_settings import LockSettings
from androidrl.virtual.system.notifications import AppNotifications, NotificationManager
from androidrl.virtual.system.radios import Radios
from androidrl.virtual.ui import config
from androidrl.virtual.ui.notices import Snackbar
from androidrl.virtual.ui.views import Color, View
from androidrl.virtual.ui.window import Window

#: ``PackageManager.ACTION_REQUEST_PERMISSIONS`` and its extras (the names asked, each one's result).
ACTION_REQUEST_PERMISSIONS = "android.content.pm.action.REQUEST_PERMISSIONS"
EXTRA_PERMISSION_NAMES = "android.content.pm.extra.REQUEST_PERMISSIONS_NAMES"
EXTRA_PERMISSION_RESULTS = "android.content.pm.extra.REQUEST_PERMISSIONS_RESULTS"
PERMISSION_GRANTED, PERMISSION_DENIED = 0, -1
RESULT_OK, RESULT_CANCELED = -1, 0


@dataclass(frozen=True, eq=False)
class Context:
    """The system services an app may use (Android's ``Context``); one per phone.

    Attributes:
        apps: Installed packages by name (what the launcher lists).
        metrics: Screen size and density.
        radios: Wi-Fi, Bluetooth and airplane mode.
        getprop: A system property, or "" when unset.
        start_activity: Starts what an intent names (``Context.startActivity``).
        finish_activity: Closes an activity (``Activity.finish``).
        invalidate: Asks for the screen to be rebuilt.
        next_seed: A seed for an app's own RNG, drawn from the phone's seeded RNG.
        content: The content resolver: every provider's data by URI (``context.content.query(uri, ...)``).
        log: ``log(package, tag, message)`` writes to the phone's log from the app's process.
        clipboard: The clipboard (``ClipboardManager``).
        toast: ``toast(text, long)`` shows a toast (``Toast.makeText(...).show()``).
        locale: The current locale's BCP 47 tag (``de-DE``), as ``Configuration.getLocales()``.
        is_24_hour: Whether times show in 24-hour format (``DateFormat.is24HourFormat``).
        current_time_millis: The wall time in ms since the epoch (``System.currentTimeMillis``), from the
            phone's clock (it moves per step in an env).
        timezone: The phone's time zone id (``TimeZone.getDefault().getID()``: ``persist.sys.timezone``, UTC
            when unset).
        storage: Shared storage, ``/sdcard`` (``java.io.File`` with "All files access"), or None on a
            phone without one.
        local_time: A time in milliseconds (default: now) as an aware local time in the phone's time zone.
        elapsed_realtime: The time since boot in ms (``SystemClock.elapsedRealtime``), from the phone's clock:
            what a timer or a stopwatch counts on (``config.redraw_at`` takes this time in seconds).
        alarms: The alarm manager (``AlarmManager``): ``alarms.set(package, type, when, action,
            extras, alarm_clock=...)`` sends ``action`` to the package's receiver at ``when``.
        notifications: An app's ``NotificationManager``: ``notifications.notify(package, id, title,
            text, opens)`` posts or updates its notification ``id`` (a tap starts ``opens``, a
            ``pkg/cls``), ``notifications.cancel(package, id)`` takes it away; Settings'
            ``enabled_for_package(package)`` and ``set_enabled_for_package(package, enabled)`` say and
            switch whether a package may post (``INotificationManager.setNotificationsEnabledForPackage``).
        set_locale: ``set_locale(tag)`` makes ``tag`` the system language (``LocalePicker.updateLocales``:
            ``persist.sys.locale`` and ``system system_locales``).
        force_stop: ``force_stop(package)`` kills its tasks and process (``ActivityManager.forceStopPackage``).
        clear_data: ``clear_data(package)`` wipes its data and providers, as ``pm clear``
            (``ActivityManager.clearApplicationUserData``); False for an unknown package.
        uninstall: ``uninstall(package)`` removes a package (``PackageInstaller.uninstall``).
        running: ``running(package)``: whether its process is alive (``ActivityManager.getRunningAppProcesses``).
        lock_settings: The lock screen's credential (``LockPatternUtils``): none, or a PIN.
        expand_notifications: Pulls the notification shade down (``StatusBarManager.expandNotificationsPanel``,
            what Launcher3 does with a swipe down on its workspace).
        start_activity_for_result: ``(intent, caller, request_code)``: starts what the intent names; when it
            finishes, ``caller.on_activity_result`` gets its result (``Activity.startActivityForResult``).
        check_permission: ``(package, permission)``: whether the runtime permission is granted
            (``PackageManager.checkPermission``).
        set_permission: ``(package, permission, granted)``: grant or revoke it, as PermissionController
            does for the user (``PackageManager.grantRuntimePermission``; a privileged call).
    """

    apps: dict[str, App]
    metrics: DisplayMetrics
    radios: Radios
    getprop: Callable[[str], str]
    start_activity: Callable[[Intent], str]
    finish_activity: Callable[[Activity], None]
    invalidate: Callable[[], None]
    next_seed: Callable[[], int]
    content: ContentResolver
    log: Callable[[str, str, str], None] = lambda package, tag, message: None
    clipboard: Clipboard = field(default_factory=Clipboard)
    toast: Callable[[str, bool], None] = lambda text, long: None
    locale: Callable[[], str] = lambda: "en-US"
    is_24_hour: Callable[[], bool] = lambda: False
    current_time_millis: Callable[[], int] = lambda: 0
    timezone: Callable[[], str] = lambda: "UTC"
    storage: SharedStorage | None = None
    local_time: Callable[..., dt.datetime] = lambda ms=None: dt.datetime.fromtimestamp(
        (ms or 0) / 1000, dt.timezone.utc
    )
    elapsed_realtime: Callable[[], int] = lambda: 0
    alarms: AlarmManager = field(default_factory=AlarmManager)
    notifications: AppNotifications = field(
        default_factory=lambda: AppNotifications(NotificationManager(), lambda package: 10000, lambda: 0.0)
    )
    set_locale: Callable[[str], None] = lambda tag: None
    force_stop: Callable[[str], None] = lambda package: None
    clear_data: Callable[[str], bool] = lambda package: False
    uninstall: Callable[[str], None] = lambda package: None
    running: Callable[[str], bool] = lambda package: False
    lock_settings: LockSettings = field(default_factory=LockSettings)
    expand_notifications: Callable[[], None] = lambda: None
    start_activity_for_result: Callable[[Intent, Activity, int], str] = lambda intent, caller, code: "not-found"
    check_permission: Callable[[str, str], bool] = lambda package, permission: False
    set_permission: Callable[[str, str, bool], None] = lambda package, permission, granted: None


class Activity:
    """One screen of an app. Subclasses keep state and implement :meth:`build`.

    Besides its own window an activity can show windows over it — dialogs, popup menus,
    pickers (:meth:`show`) — a snackbar at its bottom (:meth:`show_snackbar`) and toasts
    (:meth:`toast`). Its texts come from its app's string table in the phone's locale
    (:meth:`string`).
    """

    #: Title shown in the app bar; also the window title.
    title: str = ""
    #: A continuously animating screen never goes idle: ``uiautomator dump`` fails on it.
    animating: bool = False
    #: The windows shown over this activity's, bottom first (dialogs, popups), while they show.
    windows: list[Window]
    #: The snackbar at the bottom of its window, if one shows.
    snackbar: Snackbar | None = None
    #: Set by :meth:`finish`: an activity that finishes in :meth:`on_create` (a ``Theme.NoDisplay``
    #: trampoline such as DeskClock's HandleApiCalls) never shows.
    finishing: bool = False
    #: ``windowIsTranslucent`` (a dialog-themed activity): the activity behind it shows through.
    translucent: bool = False
    #: Who started it for a result, and the request code it gave (set by the activity manager).
    caller: Activity | None = None
    request_code: int = -1
    #: What :meth:`set_result` set: ``RESULT_CANCELED`` (0) unless it said otherwise.
    result_code: int = 0
    result_data: Intent | None = None

    def log(self, tag: str, message: str) -> None:
        """Write to the phone's log under ``tag`` (``Log.i``), from the app's process."""
        self.context.log(self.app.package, tag, message)

    def __init__(
        self,
        context: Context,
        app: App,
        cls: str,
        intent: Intent,
        *,
        caller: Activity | None = None,
        request_code: int = -1,
    ) -> None:
        self.context = context
        self.app = app
        self.cls = cls
        self.intent = intent
        self.caller, self.request_code = caller, request_code  # (known in onCreate: getCallingPackage)
        self.windows = []
        self.on_create()

    @property
    def component(self) -> str:
        """``package/fully.qualified.Class``."""
        return f"{self.app.package}/{self.cls}"

    def on_create(self) -> None:
        """Set up state from ``self.intent``."""

    def build(self) -> View:
        """The content view tree for the current state."""
        raise NotImplementedError

    def on_back(self) -> bool:
        """Handle BACK; return False to let the phone finish this activity."""
        return False

    def finish(self) -> None:
        """Close this activity, as ``Activity.finish()``."""
        self.finishing = True
        self.context.finish_activity(self)

    def start(self, cls: str, **extras: Any) -> None:
        """Start another activity of the same app."""
        self.context.start_activity(Intent(component=(self.app.package, cls), extras=extras))

    def start_for_result(self, intent: Intent, request_code: int) -> None:
        """``startActivityForResult``: when what starts finishes, :meth:`on_activity_result` gets its result."""
        self.context.start_activity_for_result(intent, self, request_code)

    @property
    def calling_package(self) -> str | None:
        """``getCallingPackage``: the package that started this one for a result, or None."""
        return self.caller.app.package if self.caller is not None else None

    def set_result(self, result_code: int, data: Intent | None = None) -> None:
        """``setResult``: what the caller gets when this activity finishes (``RESULT_OK`` is -1)."""
        self.result_code, self.result_data = result_code, data

    def on_activity_result(self, request_code: int, result_code: int, data: Intent | None) -> None:
        """An activity started with :meth:`start_for_result` finished (a permission request's goes on)."""
        if request_code in getattr(self, "_permission_requests", ()):
            self._permission_requests.discard(request_code)
            extras = data.extras if data is not None else {}
            names = list(extras.get(EXTRA_PERMISSION_NAMES, []))
            results = list(extras.get(EXTRA_PERMISSION_RESULTS, [PERMISSION_DENIED] * len(names)))
            self.on_request_permissions_result(request_code, names, results)

    def check_self_permission(self, permission: str) -> bool:
        """``checkSelfPermission(...) == PERMISSION_GRANTED``."""
        return self.context.check_permission(self.app.package, permission)

    def request_permissions(self, permissions: list[str], request_code: int) -> None:
        """``requestPermissions``: PermissionController asks the user; :meth:`on_request_permissions_result` answers.

        As ``PackageManager.buildRequestPermissionsIntent``: ``ACTION_REQUEST_PERMISSIONS`` with the names.
        """
        self._permission_requests = {*getattr(self, "_permission_requests", ()), request_code}
        intent = Intent(ACTION_REQUEST_PERMISSIONS, extras={EXTRA_PERMISSION_NAMES: list(permissions)})
        self.start_for_result(intent, request_code)

    def on_request_permissions_result(self, request_code: int, permissions: list[str], results: list[int]) -> None:
        """The user answered :meth:`request_permissions`: each result ``PERMISSION_GRANTED`` (0) or ``_DENIED`` (-1)."""

    def invalidate(self) -> None:
        """Ask the phone to rebuild this screen (state changed outside an input event)."""
        self.context.invalidate()

    def show(self, window: Window) -> Window:
        """Show a dialog or popup over this activity (``Dialog.show``); it goes with ``window.dismiss()``.

        Raises:
            TypeError: ``window`` is not a :class:`~androidrl.virtual.ui.window.Window`.
        """
        if not isinstance(window, Window):
            raise TypeError(
                f"Activity.show: expected a Window (AlertDialog, ListPopup...), got {type(window).__name__}"
            )
        self.windows.append(window)
        return window

    def show_snackbar(
        self, text: str, action: str = "", on_action: Callable[[], None] | None = None, long: bool = False
    ) -> Snackbar:
        """Show a snackbar at the bottom of this activity's window (replacing the one showing).

        Args:
            text: The message.
            action: The action's label (e.g. "Undo"), "" for none.
            on_action: What a tap on the action does: a bound method of the activity (or a
                ``functools.partial`` of one), as every callback that outlives a frame.
            long: Show it for LENGTH_LONG.
        """
        self.snackbar = Snackbar(text, action, on_action, long)
        return self.snackbar

    def toast(self, text: str, long: bool = False) -> None:
        """Show a toast (``Toast.makeText(this, text, LENGTH_SHORT or LENGTH_LONG).show()``)."""
        self.context.toast(str(text), long)

    @property
    def clipboard(self) -> Clipboard:
        """The phone's clipboard (``getSystemService(ClipboardManager.class)``)."""
        return self.context.clipboard

    def string(self, key: str, *args: Any) -> str:
        """The app's string ``key`` in the phone's locale (``getString``), formatted with ``args``.

        In a frame (a build, an input event) the frame's configuration names the locale, at no cost;
        outside one it is the phone's.

        Raises:
            KeyError: The app has no string of that name.
        """
        frame = config.current()
        return self.app.string(frame.locale if frame is not config.DEFAULT else self.context.locale(), key, *args)


@dataclass
class App:
    """An installed package.

    Attributes:
        package: Package name, e.g. ``com.android.settings``.
        label: Name under the launcher icon.
        glyph: Letter drawn on the icon.
        color: Icon colour.
        activities: Fully qualified class name -> activity class.
        main: Class name of the launcher activity (None for apps without an icon).
        actions: Intent action -> class name, for implicit intents (a filter with the action and
            ``android.intent.category.DEFAULT``, no data).
        system: Whether it is a system app (``pm list packages -s``).
        data: The app's saved data: it survives ``am force-stop`` and ``pm clear`` wipes it.
        filters: The intent filters of its activities (actions, categories, data schemes, MIME types).
        providers: The content providers it owns, by class (each with its ``authority``); the
            system makes one of each while the package is installed, and ``pm clear`` wipes them.
        strings: The app's string table: language ("" for the default, ``de``...) -> key -> text
            (Android's ``res/values*/strings.xml``), read with :meth:`Activity.string`.
        receivers: Its broadcast receivers (``<receiver>`` with an intent filter): action ->
            ``receiver(context, app, intent)``, a module-level function (the alarms it set with
            ``context.alarms`` are delivered to it, and ``android.intent.action.BOOT_COMPLETED`` at boot).
        default_grants: The runtime permissions the system grants it (DefaultPermissionGrantPolicy: the
            camera app's CAMERA and RECORD_AUDIO); ``pm clear`` brings them back.
    """

    package: str
    label: str
    glyph: str
    color: Color
    activities: dict[str, type[Activity]]
    main: str | None
    actions: dict[str, str] = field(default_factory=dict)
    system: bool = True
    data: dict[str, Any] = field(default_factory=dict)
    filters: tuple[IntentFilter, ...] = ()
    providers: tuple[type[ContentProvider], ...] = ()
    strings: dict[str, dict[str, str]] = field(default_factory=dict)
    receivers: dict[str, Callable[[Context, App, Intent], None]] = field(default_factory=dict)
    default_grants: tuple[str, ...] = ()

    def __deepcopy__(self, memo: dict) -> App:
        """A copy for a snapshot: its own data; the manifest (activities, filters, providers...) shared."""
        clone = copy.copy(self)
        memo[id(self)] = clone
        clone.data = copy.deepcopy(self.data, memo)
        return clone

    def string(self, locale: str, key: str, *args: Any) -> str:
        """Its string ``key`` in ``locale`` (``Resources.getString``), formatted with ``args``.

        The table (:attr:`strings`) is looked up by the locale's language, falling back to its
        default ("" key) as Android falls back to ``values/``.

        Raises:
            KeyError: The app has no string of that name.
        """
        language = locale.replace("_", "-").split("-")[0].lower()
        text = self.strings.get(language, {}).get(key)
        if text is None:
            default = self.strings.get("", {})
            if key not in default:
                raise KeyError(f"{self.package} has no string {key!r}")
            text = default[key]
        return text.format(*args) if args else text

    def intent_filters(self) -> list[IntentFilter]:
        """Every filter its activities have: the launcher activity's (MAIN), ``actions``', then ``filters``."""
        found = [IntentFilter(self.main, (ACTION_MAIN,), (CATEGORY_LAUNCHER, CATEGORY_DEFAULT))] if self.main else []
        found += [IntentFilter(cls, (action,)) for action, cls in self.actions.items()]
        return found + list(self.filters)

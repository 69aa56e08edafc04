"""The dumps of the smaller services (frameworks/base, each its service's ``dump``).

power, battery, display, input, input_method, location, package, notification, statusbar,
uimode, wifi, bluetooth_manager, connectivity and settings.
"""

from __future__ import annotations

from androidrl.virtual.shell.commands.dumpsys.common import focused_window, identity
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.input.evdev import TOUCH_MAX
from androidrl.virtual.system.input_method import IME_ID
from androidrl.virtual.system.window.display import DISPLAY_UNIQUE_ID


def dump_power(phone: PhoneCore, args: list[str]) -> str:
    """PowerManagerService.dumpInternal: the wakefulness, the display suspend blocker, ``Display Power: state=``."""
    awake = phone.wakefulness.awake
    stay_on = (phone.settings.get("global", "stay_on_while_plugged_in") or "0") not in ("0", "")
    on = str(awake).lower()
    return (
        "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n"
        f"  mWakefulness={phone.wakefulness.name}\n  mWakefulnessChanging=false\n  mIsPowered=true\n"
        "  mPlugType=2\n  mBatteryLevel=100\n  mBatteryLevelWhenDreamStarted=0\n  mDockState=0\n"
        f"  mStayOn={str(stay_on).lower()}\n  mProximityPositive=false\n  mBootCompleted=true\n"
        "  mSystemReady=true\n  mHalAutoSuspendModeEnabled=false\n"
        f"  mHalInteractiveModeEnabled={on}\n  mWakeLockSummary=0x0\n"
        f"  mUserActivitySummary=0x{1 if awake else 0}\n  mRequestWaitForNegativeProximity=false\n"
        "  mSandmanScheduled=false\n  mBatteryLevelLow=false\n  mLightDeviceIdleMode=false\n"
        "  mDeviceIdleMode=false\n  mScreenBrightnessBoostInProgress=false\n"
        f"  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker={on}\n\n"
        f"Display Power: state={'ON' if awake else 'OFF'}\n"
    )


def dump_battery(phone: PhoneCore, args: list[str]) -> str:
    """BatteryService.dumpInternal: on USB power, full."""
    return (
        "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n"
        "  Dock powered: false\n  Max charging current: 500000\n  Max charging voltage: 5000000\n"
        "  Charge counter: 4000000\n  status: 2\n  health: 2\n  present: true\n  level: 100\n"
        "  scale: 100\n  voltage: 5000\n  temperature: 250\n  technology: Li-ion\n"
    )


def dump_display(phone: PhoneCore, args: list[str]) -> str:
    """DisplayManagerService.dump: the viewport (``orientation=``, the size apps see) and the display's info."""
    (w, h), (left, top, right, bottom), (pw, ph) = phone.size, phone.metrics.physical_frame, phone.physical_size
    viewport = (
        f"DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
        f"uniqueId='local:{DISPLAY_UNIQUE_ID}', physicalPort=0, orientation=0, "
        f"logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect({left}, {top} - {right}, {bottom}), "
        f"deviceWidth={pw}, deviceHeight={ph}}}"
    )
    state = "ON" if phone.wakefulness.awake else "OFF"
    return (
        f"DISPLAY MANAGER (dumpsys display)\n  mViewports=[{viewport}]\n"
        f'  mDefaultViewport={viewport}\n  Display 0:\n    mBaseDisplayInfo=DisplayInfo{{"Built-in '
        f'Screen", displayId 0, real {w} x {h}, rotation 0, density {phone.density}, state {state}}}\n'
    )


def dump_input(phone: PhoneCore, args: list[str]) -> str:
    """InputManagerService.dump: its event hub and the touchscreen's viewport.

    The viewport line is ``DisplayViewport::toString()`` (frameworks/native
    include/input/DisplayViewport.h): the logical frame is the ``wm size`` the apps see, the
    physical frame where it lands on the panel.
    """
    (lw, lh), (pw, ph) = phone.size, phone.physical_size
    frame = ", ".join(map(str, phone.metrics.physical_frame))
    viewport = (
        f"Viewport INTERNAL: displayId=0, uniqueId=local:{DISPLAY_UNIQUE_ID}, port=0, orientation=0, "
        f"logicalFrame=[0, 0, {lw}, {lh}], physicalFrame=[{frame}], deviceSize=[{pw}, {ph}], isActive=[1]"
    )
    devices = list(enumerate(phone.evdev.devices, 1))  # EventHub numbers them as it opens them
    hub = "".join(f"    {i}: {d.name}\n      Classes: {d.classes}\n      Path: {d.path}\n" for i, d in devices)
    touch_id, touch = next((i, d) for i, d in devices if "TOUCH" in d.classes)
    interactive = str(phone.wakefulness.awake).lower()
    return (
        f"INPUT MANAGER (dumpsys input)\n\nInput Manager Service (Java) State:\n  Interactive: {interactive}\n\n"
        "Event Hub State:\n  BuiltInKeyboardId: -2\n  Devices:\n"
        "    -1: Virtual\n      Classes: KEYBOARD | ALPHAKEY\n      Path: <virtual>\n" + hub + "\n"
        f"Input Reader State (Nums of device: {len(devices)}):\n"
        f"  Device {touch_id}: {touch.name}\n    Sources: TOUCHSCREEN\n"
        "    Touch Input Mapper (mode - DIRECT):\n"
        f"      Raw Touch Axes:\n        X: min=0, max={TOUCH_MAX}, flat=0, fuzz=0, resolution=0\n"
        f"        Y: min=0, max={TOUCH_MAX}, flat=0, fuzz=0, resolution=0\n"
        f"      {viewport}\n      DisplayBounds: width={lw}, height={lh}\n"
        f"      PhysicalFrameInRotatedDisplay: [{frame}]\n      InputDeviceOrientation: 0\n"
    )


def dump_input_method(phone: PhoneCore, args: list[str]) -> str:
    """InputMethodManagerService.dumpAsStringNoCheck: the current IME, the focused window, ``mInputShown``.

    The soft keyboard (LatinIME) shows while a text field the user tapped has focus
    (:mod:`~androidrl.virtual.system.input_method`); ``mInputShown`` says so
    (ImeVisibilityStateComputer.dump, Android 14).
    """
    phone.display.refresh()  # (the keyboard goes when no field has focus any more)
    shown = str(phone.ime.shown).lower()
    focus = focused_window(phone)
    client = identity("ime client " + focus)
    return (
        "Current Input Method Manager state:\n"
        "  Input Methods: mMethodMapUpdateCount=1 mBindInstantServiceAllowed=false\n"
        f"  InputMethod #0:\n    mId={IME_ID} mSettingsActivityName=null mIsVrOnly=false\n"
        f"  mCurMethodId={IME_ID}\n  mCurClient=ClientState{{{client} mUid=10100 mPid=0}} mCurSeq=1\n"
        f"  mCurFocusedWindow={focus} softInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE\n"
        f"  mCurId={IME_ID} mHaveConnection=true mBoundToMethod=true mVisibleBound={shown}\n"
        "  mCurTokenDisplayId=0\n  mCurIntent=Intent { act=android.view.InputMethod cmp=" + IME_ID + " }\n"
        "  mRequestedShowExplicitly=false mShowForced=false\n  mImeHiddenByDisplayPolicy=false\n"
        f"  mInputShown={shown}\n  mInFullscreenMode=false\n"
        f"  mSystemReady=true mInteractive={str(phone.wakefulness.awake).lower()}\n"
    )  # fmt: skip


#: UiModeManager's night modes (MODE_NIGHT_AUTO/NO/YES) as ``cmd uimode night`` names them and
#: ``secure ui_night_mode`` stores them.
NIGHT_MODES = {"auto": "0", "no": "1", "yes": "2"}


def dump_uimode(phone: PhoneCore, args: list[str]) -> str:
    """UiModeManagerService.dumpImpl, its first lines: the night mode and the ui mode it makes."""
    names = {value: key for key, value in NIGHT_MODES.items()}
    mode = phone.settings.get("secure", "ui_night_mode") or "1"
    mode = mode if mode in names else "1"  # (a value UiModeManagerService does not know reads as "no")
    name = names[mode]
    night = mode == "2"
    ui_mode = 0x01 | (0x20 if night else 0x10)  # UI_MODE_TYPE_NORMAL | UI_MODE_NIGHT_YES or _NO
    return (
        "Current UI Mode Service state:\n  mDockState=0 mLastBroadcastState=0\n"
        f"  mNightMode={mode} ({name})  mOverrideOn/Off=false/false "
        "mNightModeLocked=false\n"
        "  mCarModeEnabled=false (carModeApps=\n"
        f" waitScreenOff=false mComputedNightMode={str(night).lower()} customStart=22:00 customEnd06:00 "
        "mCarModeEnableFlags=0 mEnableCarDockLaunch=true\n"
        f"  mCurUiMode=0x{ui_mode:x} mUiModeLocked=false mSetUiMode=0x{ui_mode:x}\n"
        "  mHoldingConfiguration=false mSystemReady=true\n"
    )


def dump_location(phone: PhoneCore, args: list[str]) -> str:
    """LocationManagerService.dump: the gps provider's last location."""
    fix = phone.location
    last = "null"
    if fix is not None:
        millis = int(fix.uptime * 1000)
        elapsed = f"+{millis // 60_000}m{millis // 1000 % 60}s{millis % 1000}ms"
        last = f"Location[gps {fix.latitude:.6f},{fix.longitude:.6f} hAcc=5.0 et={elapsed} alt={fix.altitude} vAcc=0.5]"
    return f"Location Manager State:\n  gps provider:\n    last location={last}\n"


def dump_package(phone: PhoneCore, args: list[str]) -> str:
    """``dumpsys package PKG``: its uid, versions, flags, enabled state and runtime permissions."""
    names = [a for a in args if not a.startswith("-")]
    app = phone.packages.get(names[0]) if names else None
    if app is None:
        return ""
    package = app.package
    granted = phone.packages.granted(package)  # (the ones it holds by default show while revoked: granted=false)
    listed = sorted({*granted, *app.default_grants})
    permissions = "".join(f"      {p}: granted={str(p in granted).lower()}\n" for p in listed)
    return (
        f"Packages:\n  Package [{package}] ({identity(package)}):\n    userId={phone.processes.uid(package)}\n"
        "    versionCode=1 minSdk=29 targetSdk=34\n    versionName=1.0\n"
        "    pkgFlags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ]\n"
        f"    User 0: ceDataInode=0 installed=true hidden=false suspended=false stopped=false "
        f"notLaunched=false enabled={1 if phone.packages.enabled(app) else 0}\n"
        f"    runtime permissions:\n{permissions}"
    )


#: ``Notification.toString()`` of what ``cmd notification post`` builds (channel ``shell_cmd``, no sound).
NOTIFICATION_STRING = (
    "Notification(channel=shell_cmd shortcut=null contentView=null vibrate=null sound=null defaults=0x0 "
    "flags=0x0 color=0x00000000 vis=PRIVATE)"
)


_STYLES = {
    "bigtext": "android.app.Notification$BigTextStyle",
    "bigpicture": "android.app.Notification$BigPictureStyle",
    "inbox": "android.app.Notification$InboxStyle",
    "messaging": "android.app.Notification$MessagingStyle",
    "media": "android.app.Notification$MediaStyle",
}


def dump_notification(phone: PhoneCore, args: list[str]) -> str:
    """NotificationManagerService.dumpImpl: the notification list, then the per-package preferences.

    Each notification as NotificationRecord.dump prints it; the preferences as PreferencesHelper.dump.
    """
    posted = phone.notifications.active()
    text = "Current Notification Manager state:\n"
    if posted:
        text += "  Notification List:\n"
    for n in posted:
        text += (
            f"    NotificationRecord(0x{n.record_hash}: pkg={n.package} user=UserHandle{{0}} id={n.id} tag={n.tag} "
            f"importance=3 key={n.key}: {NOTIFICATION_STRING})\n"
            f"      uid={n.uid} userId=0\n      opPkg={n.package}\n      key={n.key}\n      extras={{\n"
            + (f"        android.title=String ({n.title})\n" if n.title else "")
            + f"        android.text=String ({n.text})\n"
            + (f"        android.template=String ({_STYLES.get(n.style, '')})\n" if n.style else "")
            + "      }\n"
        )
    # PreferencesHelper.dump (Android 14): a package's notifications are its POST_NOTIFICATIONS
    # permission, shown as importance DEFAULT (allowed) or NONE (blocked), and whether the user set it.
    text += "\n  Notification Preferences:\n    per-package config version: 4\nPackagePreferences:\n"
    for package, uid, enabled in phone.notifications.user_set():
        text += f"      AppSettings: {package} ({uid}) importance={'DEFAULT' if enabled else 'NONE'} userSet=true\n"
    return text + "Restored without uid:\n"


def dump_statusbar(phone: PhoneCore, args: list[str]) -> str:
    """StatusBarManagerService.dump: the bar's disable flags (the keyguard disables HOME, BACK and RECENT)."""
    disabled = 0x3600000 if phone.keyguard.showing else 0  # STATUS_BAR_DISABLE_HOME | BACK | RECENT | SEARCH
    return (
        f"  displayId=0\n    mDisabled1=0x{disabled:x}\n    mDisabled2=0x0\n  mDisableRecords.size=0\n"
        "  mCurrentUserId=0\n  mIcons=\n"
    )


def dump_wifi(phone: PhoneCore, args: list[str]) -> str:
    """WifiServiceImpl.dump's first lines (AndroidViewClient reads the first)."""
    return f"Wi-Fi is {'enabled' if phone.radios.wifi_enabled else 'disabled'}\nVerbose logging is off\n"


def dump_bluetooth(phone: PhoneCore, args: list[str]) -> str:
    """BluetoothManagerService.dump's status block."""
    on = phone.radios.bluetooth_enabled
    return (
        f"Bluetooth Status\n  enabled: {str(on).lower()}\n  state: {'ON' if on else 'OFF'}\n"
        f"  address: 3C:5A:B4:01:02:03\n  name: {phone.getprop('ro.product.model')}\n"
    )


def dump_connectivity(phone: PhoneCore, args: list[str]) -> str:
    """ConnectivityService.dump's default network (netId 100 is the emulator's Wi-Fi)."""
    return f"Active default network: {100 if phone.radios.wifi_enabled else 'none'}\n"


def dump_settings(phone: PhoneCore, args: list[str]) -> str:
    """SettingsProvider's dump of each table: name, the package that wrote it, value and default."""
    text = "CURRENT SETTINGS (user 0)\n"
    for namespace in ("global", "secure", "system"):
        text += f"  {namespace.upper()} SETTINGS (user 0)\n"
        for number, (key, value, package, default, from_system) in enumerate(phone.settings.rows(namespace), 1):
            text += (
                f"_id:{number} name:{key} pkg:{package} value:{value} default:{default} "
                f"defaultSystemSet:{str(from_system).lower()}\n"
            )
    return text

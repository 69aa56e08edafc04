r"""``service list|check``: the binder services the service manager knows (``frameworks/native/cmds/service``).

``service list`` prints ``Found N services:`` and one ``i\tname: [interface]`` line each, sorted
as the tool sorts them (by UTF-16 code unit: capitals first); ``service check NAME`` prints
``Service NAME: found`` or ``: not found``. ``service call`` makes raw binder transactions,
which this phone has none of: it fails with a message saying so.
"""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok

#: The system services an Android 14 emulator registers (name, AIDL interface), a subset of ``service list``.
SERVICES = {
    "SurfaceFlinger": "android.ui.ISurfaceComposer",
    "accessibility": "android.view.accessibility.IAccessibilityManager",
    "account": "android.accounts.IAccountManager",
    "activity": "android.app.IActivityManager",
    "activity_task": "android.app.IActivityTaskManager",
    "adb": "android.debug.IAdbManager",
    "alarm": "android.app.IAlarmManager",
    "appops": "com.android.internal.app.IAppOpsService",
    "audio": "android.media.IAudioService",
    "battery": "",
    "batteryproperties": "android.os.IBatteryPropertiesRegistrar",
    "batterystats": "com.android.internal.app.IBatteryStats",
    "bluetooth_manager": "android.bluetooth.IBluetoothManager",
    "clipboard": "android.content.IClipboard",
    "connectivity": "android.net.IConnectivityManager",
    "content": "android.content.IContentService",
    "cpuinfo": "",
    "dbinfo": "",
    "device_policy": "android.app.admin.IDevicePolicyManager",
    "deviceidle": "android.os.IDeviceIdleController",
    "display": "android.hardware.display.IDisplayManager",
    "dropbox": "com.android.internal.os.IDropBoxManagerService",
    "gfxinfo": "",
    "input": "android.hardware.input.IInputManager",
    "input_method": "com.android.internal.view.IInputMethodManager",
    "jobscheduler": "android.app.job.IJobScheduler",
    "location": "android.location.ILocationManager",
    "media_session": "android.media.session.ISessionManager",
    "meminfo": "",
    "netpolicy": "android.net.INetworkPolicyManager",
    "netstats": "android.net.INetworkStatsService",
    "notification": "android.app.INotificationManager",
    "package": "android.content.pm.IPackageManager",
    "permission": "android.os.IPermissionController",
    "phone": "com.android.internal.telephony.ITelephony",
    "power": "android.os.IPowerManager",
    "sensorservice": "android.gui.SensorServer",
    "settings": "",
    "statusbar": "com.android.internal.statusbar.IStatusBarService",
    "telephony.registry": "com.android.internal.telephony.ITelephonyRegistry",
    "uimode": "android.app.IUiModeManager",
    "usagestats": "android.app.usage.IUsageStatsManager",
    "user": "android.os.IUserManager",
    "vibrator_manager": "android.os.IVibratorManagerService",
    "wallpaper": "android.app.IWallpaperManager",
    "wifi": "android.net.wifi.IWifiManager",
    "window": "android.view.IWindowManager",
}
USAGE = (
    "Usage: service [-h|-?]\n"
    "       service list\n"
    "       service check SERVICE\n"
    "       service call SERVICE CODE [i32 N | i64 N | f N | d N | s16 STR | null | fd f | nfd n | afd f ] ...\n"
    "Options:\n"
    "   i32: Write the 32-bit integer N into the send parcel.\n"
    "   i64: Write the 64-bit integer N into the send parcel.\n"
    "   f:   Write the 32-bit single-precision number N into the send parcel.\n"
    "   d:   Write the 64-bit double-precision number N into the send parcel.\n"
    "   s16: Write the UTF-16 string STR into the send parcel.\n"
    "  null: Write a null binder into the send parcel.\n"
    "    fd: Write a file descriptor for the file f into the send parcel.\n"
    "   nfd: Write the file descriptor n into the send parcel.\n"
    "   afd: Write an ashmem file descriptor for a region containing the data from\n"
    "          file f into the send parcel.\n"
)


@command("service")
def _service(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = argv[1:]
    if not args or args[0] in ("-h", "-?"):
        return ok(USAGE)
    if args[0] == "list":
        names = sorted(SERVICES, key=lambda name: name.encode("utf-16-be"))
        lines = [f"Found {len(names)} services:\n"]
        lines += [f"{i}\t{name}: [{SERVICES[name]}]\n" for i, name in enumerate(names)]
        return ok("".join(lines))
    if args[0] == "check":
        if len(args) < 2:
            return USAGE.encode(), b"service: No service specified for check\n", 10
        return ok(f"Service {args[1]}: {'found' if args[1] in SERVICES else 'not found'}\n")
    if args[0] == "call":
        return fail("service: call: raw binder transactions are not supported on this phone\n", 10)
    return USAGE.encode(), f"service: Unknown command {args[0]}\n".encode(), 10

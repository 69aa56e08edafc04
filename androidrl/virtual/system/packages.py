"""The package manager: which packages are installed, and their state as ``pm`` changes it.

It installs a package from an APK and removes one, wipes an app's data (``pm clear``),
grants and revokes its runtime permissions and enables or disables it; the activity
manager starts only enabled apps, and every change that takes an app away stops it first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from androidrl.virtual.system.framework.app import App

#: The system's features (``pm list features``): an Android 14 emulator's, as its
#: /system/etc/permissions files declare them; (name, version), version 0 when it has none.
FEATURES: tuple[tuple[str, int], ...] = (
    ("android.hardware.audio.output", 0), ("android.hardware.bluetooth", 0), ("android.hardware.bluetooth_le", 0),
    ("android.hardware.camera", 0), ("android.hardware.camera.any", 0), ("android.hardware.camera.autofocus", 0),
    ("android.hardware.camera.front", 0), ("android.hardware.faketouch", 0), ("android.hardware.location", 0),
    ("android.hardware.location.gps", 0), ("android.hardware.location.network", 0),
    ("android.hardware.microphone", 0), ("android.hardware.ram.normal", 0), ("android.hardware.screen.landscape", 0),
    ("android.hardware.screen.portrait", 0), ("android.hardware.sensor.accelerometer", 0),
    ("android.hardware.sensor.compass", 0), ("android.hardware.telephony", 0), ("android.hardware.touchscreen", 0),
    ("android.hardware.touchscreen.multitouch", 0), ("android.hardware.touchscreen.multitouch.distinct", 0),
    ("android.hardware.touchscreen.multitouch.jazzhand", 0), ("android.hardware.vulkan.level", 1),
    ("android.hardware.vulkan.version", 4206592), ("android.hardware.wifi", 0), ("android.software.app_widgets", 0),
    ("android.software.autofill", 0), ("android.software.backup", 0), ("android.software.device_admin", 0),
    ("android.software.home_screen", 0), ("android.software.input_methods", 0),
    ("android.software.live_wallpaper", 0), ("android.software.managed_users", 0), ("android.software.midi", 0),
    ("android.software.picture_in_picture", 0), ("android.software.print", 0),
    ("android.software.secure_lock_screen", 0), ("android.software.verified_boot", 0),
    ("android.software.webview", 0),
)  # fmt: skip
#: OpenGL ES 3.2, the feature without a name (FeatureInfo.reqGlEsVersion).
GLES_VERSION = 0x30002
#: The shared libraries of the system image (``pm list libraries``).
LIBRARIES = (
    "android.ext.shared", "android.hidl.base-V1.0-java", "android.hidl.manager-V1.0-java", "android.net.ipsec.ike",
    "android.test.base", "android.test.mock", "android.test.runner", "com.android.future.usb.accessory",
    "com.android.location.provider", "com.android.media.remotedisplay", "com.android.mediadrm.signer",
    "javax.obex", "org.apache.http.legacy",
)  # fmt: skip

# Where an app's package state is kept: in its data, so ``pm clear`` resets it with the rest.
_GRANTED = "_granted"
_DISABLED = "_disabled"


class PackageManager:
    """The installed packages (Android's PackageManagerService).

    Args:
        apps: Installed packages by name, in install order; shared with the apps' ``Context``.
        lock: The phone's lock, held while a package changes.
        stop: Stops every task and the process of a package (``am force-stop``).
        on_change: Runs after a package was installed or removed (the screen must be rebuilt).
        app_from_apk: Makes the app a package installed from an APK runs as (``pm install``).
        on_clear: Runs after ``pm clear`` wiped a package's data (its content providers are wiped too).
    """

    def __init__(
        self,
        apps: dict[str, App],
        *,
        lock: threading.RLock,
        stop: Callable[[str], None],
        on_change: Callable[[], None],
        app_from_apk: Callable[[str], App] | None = None,
        on_clear: Callable[[str], None] | None = None,
    ) -> None:
        self.apps = apps
        self._on_clear = on_clear
        self._lock = lock
        self._stop = stop
        self._on_change = on_change
        self._app_from_apk = app_from_apk

    def get(self, package: str) -> App | None:
        """The installed package of that name, or None."""
        return self.apps.get(package)

    def installed(self) -> list[App]:
        """Every installed package, in install order."""
        return list(self.apps.values())

    def install(self, package: str) -> None:
        """Install (or update) the package an APK declares.

        Raises:
            RuntimeError: The phone was made without ``app_from_apk``.
        """
        if self._app_from_apk is None:
            raise RuntimeError("this phone cannot install APKs (no app_from_apk)")
        with self._lock:
            self._stop(package)
            self.apps[package] = self._app_from_apk(package)
            self._on_change()

    def uninstall(self, package: str) -> None:
        """Remove ``package``: its tasks, process and data go."""
        with self._lock:
            self._stop(package)
            self.apps.pop(package, None)
            self._on_change()

    def clear_data(self, package: str) -> bool:
        """``pm clear``: stop the app and wipe its data. False for an unknown package."""
        with self._lock:
            app = self.apps.get(package)
            if app is None:
                return False
            self._stop(package)
            app.data.clear()
            if self._on_clear is not None:
                self._on_clear(package)
            return True

    def grant(self, package: str, permission: str) -> None:
        """Grant a runtime permission (``pm grant``)."""
        app = self.apps[package]
        app.data.setdefault(_GRANTED, set(app.default_grants)).add(permission)

    def revoke(self, package: str, permission: str) -> None:
        """Revoke a runtime permission (``pm revoke``)."""
        app = self.apps[package]
        app.data.setdefault(_GRANTED, set(app.default_grants)).discard(permission)

    def granted(self, package: str) -> list[str]:
        """The runtime permissions granted to ``package``, sorted (until one changes: those the system grants it)."""
        app = self.apps[package]
        return sorted(app.data.get(_GRANTED, app.default_grants))

    def set_enabled(self, package: str, enabled: bool) -> None:
        """Enable or disable ``package`` (``pm enable``, ``pm disable-user``); disabling stops it."""
        self.apps[package].data[_DISABLED] = not enabled
        if not enabled:
            self._stop(package)

    def enabled(self, app: App) -> bool:
        """Whether ``app`` may run (a disabled app starts nothing)."""
        return not app.data.get(_DISABLED)

    @staticmethod
    def apk_path(app: App) -> str:
        """Where the package's APK lies (``pm path``)."""
        if app.system:
            name = app.label.replace(" ", "")
            return f"/system/app/{name}/{name}.apk"
        return f"/data/app/~~androidrl==/{app.package}-1/base.apk"

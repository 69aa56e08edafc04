"""Wi-Fi, Bluetooth and airplane mode: the radio state the status bar, shell and Settings share.

The state lives where Android keeps it, in ``settings global`` (``wifi_on``,
``bluetooth_on``, ``airplane_mode_on``), so ``settings get``/``put`` see and change it too.
The switches follow Android's airplane-mode rules: turning it on switches off the radios
listed in ``airplane_mode_radios`` (Wi-Fi ``1 -> 3``, Bluetooth ``1 -> 2``) and turning it
off restores them.
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.system.settings_provider import SettingsStore


class Radios:
    """The radio switches over a settings provider (it holds no state of its own).

    Args:
        settings: The provider whose ``global`` table holds the radio keys.
        log: ``log(tag, message)`` writes each switch to the phone's log, as the services do.
    """

    def __init__(self, settings: SettingsStore, log: Callable[[str, str], None] | None = None) -> None:
        self.settings = settings
        self._log = log or (lambda tag, message: None)

    @property
    def wifi_enabled(self) -> bool:
        """Wi-Fi is on when ``wifi_on`` is 1, or 2 (turned on during airplane mode)."""
        return self.settings.get("global", "wifi_on") in ("1", "2")

    @property
    def bluetooth_enabled(self) -> bool:
        """Bluetooth is on when ``bluetooth_on`` is 1."""
        return self.settings.get("global", "bluetooth_on") == "1"

    @property
    def airplane_enabled(self) -> bool:
        """Airplane mode is on when ``airplane_mode_on`` is 1."""
        return self.settings.get("global", "airplane_mode_on") == "1"

    def set_wifi(self, on: bool) -> None:
        """Turn Wi-Fi on or off as the Wi-Fi toggle (and ``svc wifi``) does."""
        value = ("2" if self.airplane_enabled else "1") if on else "0"
        self.settings.put("global", "wifi_on", value)
        self._log("WifiService", f"setWifiEnabled package=com.android.settings uid=1000 enable={str(on).lower()}")

    def set_bluetooth(self, on: bool) -> None:
        """Turn Bluetooth on or off."""
        self.settings.put("global", "bluetooth_on", "1" if on else "0")
        what = "enable" if on else "disable"
        self._log("BluetoothManagerService", f"{what}(com.android.settings): mBluetooth=null mBinding=false")

    def set_airplane(self, on: bool) -> None:
        """Turn airplane mode on or off, switching the affected radios like Android."""
        settings = self.settings
        radios = (settings.get("global", "airplane_mode_radios") or "").split(",")
        wifi, bt = settings.get("global", "wifi_on"), settings.get("global", "bluetooth_on")
        settings.put("global", "airplane_mode_on", "1" if on else "0")
        self._log("ConnectivityService", f"setAirplaneMode: {str(on).lower()}")
        if on:
            if "wifi" in radios and wifi == "1":
                settings.put("global", "wifi_on", "3")
            if "bluetooth" in radios and bt == "1":
                settings.put("global", "bluetooth_on", "2")
        else:
            if wifi in ("2", "3"):
                settings.put("global", "wifi_on", "1")
            if bt == "2":
                settings.put("global", "bluetooth_on", "1")

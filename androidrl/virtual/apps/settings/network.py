"""Network & internet and Connected devices: the Wi-Fi, Airplane mode and Bluetooth switches.

The switches show and flip the system's radios (``context.radios``: ``global wifi_on``,
``airplane_mode_on``, ``bluetooth_on``), the same state ``svc``, ``cmd`` and the Quick Settings
tiles reach, so the pages hold none of their own (network_provider_settings.xml,
connected_devices.xml).
"""

from __future__ import annotations

from androidrl.virtual.apps.settings.base import SettingsPage
from androidrl.virtual.ui.views import View


class NetworkActivity(SettingsPage):
    """Network & internet (``Settings$NetworkDashboardActivity``): Wi-Fi, Airplane mode and the rest."""

    title_key = "network"

    def rows(self) -> list[View]:
        radios, s = self.context.radios, self.string
        wifi, airplane = radios.wifi_enabled, radios.airplane_enabled
        return [
            self.switch("wifi", wifi, self.toggle_wifi, summary="AndroidWifi" if wifi else s("off")),
            self.switch("airplane", airplane, self.toggle_airplane),
            self.row("hotspot", s("off")),
            self.row("data_saver", s("off")),
            self.row("vpn", s("none")),
            self.row("private_dns", s("automatic")),
        ]

    def toggle_wifi(self) -> None:
        self.context.radios.set_wifi(not self.context.radios.wifi_enabled)

    def toggle_airplane(self) -> None:
        self.context.radios.set_airplane(not self.context.radios.airplane_enabled)


class ConnectedDevicesActivity(SettingsPage):
    """Connected devices (``Settings$ConnectedDeviceDashboardActivity``): the Bluetooth switch."""

    title_key = "connected"

    def rows(self) -> list[View]:
        s = self.string
        bt = self.context.radios.bluetooth_enabled
        return [
            self.switch("bluetooth", bt, self.toggle_bluetooth, summary=s("on") if bt else s("off")),
            self.row("pair_new"),
            self.row("connection_prefs", s("connection_prefs_summary")),
        ]

    def toggle_bluetooth(self) -> None:
        self.context.radios.set_bluetooth(not self.context.radios.bluetooth_enabled)

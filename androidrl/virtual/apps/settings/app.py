"""``com.android.settings``: the main list, Network & internet, Connected devices, About phone.

The Wi-Fi, Bluetooth and Airplane mode switches show and flip the system's radios
(:class:`~androidrl.virtual.system.radios.Radios`), the same state ``svc``, ``cmd`` and
``settings global`` reach, so the app holds none of its own.
"""

from __future__ import annotations

from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.ui.views import TEXT_SECONDARY, LinearLayout, ScrollingList, TextView, View
from androidrl.virtual.ui.widgets import app_bar, list_row

PACKAGE = "com.android.settings"
MAIN = "com.android.settings.Settings"
NETWORK = "com.android.settings.Settings$NetworkDashboardActivity"
CONNECTED = "com.android.settings.Settings$ConnectedDeviceDashboardActivity"
ABOUT = "com.android.settings.Settings$MyDeviceInfoActivity"
SUBPAGE = "com.android.settings.SubSettings"


# (title, summary, glyph, colour, activity) of the main list, in Android 14's order.
MAIN_ITEMS = (
    ("Network & internet", "Mobile, Wi-Fi, hotspot", "N", (26, 115, 232), NETWORK),
    ("Connected devices", "Bluetooth, pairing", "C", (15, 157, 88), CONNECTED),
    ("Apps", "Assistant, recent apps, default apps", "A", (251, 140, 0), SUBPAGE),
    ("Notifications", "Notification history, conversations", "N", (234, 67, 53), SUBPAGE),
    ("Battery", "100%", "B", (52, 168, 83), SUBPAGE),
    ("Storage", "34% used - 21.19 GB free", "S", (161, 66, 244), SUBPAGE),
    ("Sound & vibration", "Volume, haptics, Do Not Disturb", "V", (0, 137, 123), SUBPAGE),
    ("Display", "Dark theme, font size, brightness", "D", (251, 188, 4), SUBPAGE),
    ("Wallpaper & style", "Colors, themed icons, app grid", "W", (216, 27, 96), SUBPAGE),
    ("Accessibility", "Display, interaction, audio", "A", (63, 81, 181), SUBPAGE),
    ("Security & privacy", "App security, device lock, permissions", "S", (0, 150, 136), SUBPAGE),
    ("Location", "On - 2 apps have access to location", "L", (121, 85, 72), SUBPAGE),
    ("Passwords & accounts", "Saved passwords, autofill, synced accounts", "P", (96, 125, 139), SUBPAGE),
    ("System", "Languages, gestures, time, backup", "S", (117, 117, 117), SUBPAGE),
    ("About phone", "", "i", (66, 133, 244), ABOUT),
)


class _Page(Activity):
    """A settings page: app bar plus a scrolling list of rows; keeps its scroll offset."""

    def on_create(self) -> None:
        self.scroll = 0

    def rows(self) -> list[View]:
        raise NotImplementedError

    def build(self) -> View:
        up = None if self.cls == MAIN else self.finish
        rows = ScrollingList(
            self.rows(),
            scroll_y=self.scroll,
            on_scroll=self._on_scroll,
            resource_id="com.android.settings:id/recycler_view",
            weight=1,
        )
        return LinearLayout([app_bar(self.title, on_up=up, large=self.cls == MAIN), rows], height=-1)

    def _on_scroll(self, offset: int) -> None:
        self.scroll = offset


class SettingsActivity(_Page):
    """The main Settings list; long enough to need scrolling on a phone screen."""

    title = "Settings"

    def rows(self) -> list[View]:
        model = self.context.getprop("ro.product.model")
        return [
            list_row(
                title, summary or model, on_click=lambda c=cls, t=title: self.start(c, title=t), icon=(glyph, color)
            )
            for title, summary, glyph, color, cls in MAIN_ITEMS
        ]


class NetworkActivity(_Page):
    """Network & internet: the Wi-Fi and Airplane mode switches."""

    title = "Network & internet"

    def rows(self) -> list[View]:
        radios = self.context.radios
        wifi, airplane = radios.wifi_enabled, radios.airplane_enabled
        return [
            list_row(
                "Wi-Fi",
                "AndroidWifi" if wifi else "Off",
                switch=wifi,
                on_click=lambda: radios.set_wifi(not radios.wifi_enabled),
            ),
            list_row(
                "Airplane mode", "", switch=airplane, on_click=lambda: radios.set_airplane(not radios.airplane_enabled)
            ),
            list_row("Hotspot & tethering", "Off"),
            list_row("Data Saver", "Off"),
            list_row("VPN", "None"),
            list_row("Private DNS", "Automatic"),
        ]


class ConnectedDevicesActivity(_Page):
    """Connected devices: the Bluetooth switch."""

    title = "Connected devices"

    def rows(self) -> list[View]:
        radios = self.context.radios
        bt = radios.bluetooth_enabled
        return [
            list_row(
                "Bluetooth",
                "On" if bt else "Off",
                switch=bt,
                on_click=lambda: radios.set_bluetooth(not radios.bluetooth_enabled),
            ),
            list_row("Pair new device", ""),
            list_row("Connection preferences", "NFC, Android Auto"),
        ]


class AboutActivity(_Page):
    """About phone: model and Android version from the phone's properties."""

    title = "About phone"

    def rows(self) -> list[View]:
        prop = self.context.getprop
        return [
            list_row("Device name", prop("ro.product.model")),
            list_row("Model", prop("ro.product.model")),
            list_row("Android version", prop("ro.build.version.release")),
            list_row("Build number", prop("ro.build.display.id")),
        ]


class SubPage(Activity):
    """Any other settings page: a titled screen with nothing to change."""

    def build(self) -> View:
        title = str(self.intent.extras.get("title", "Settings"))
        return LinearLayout(
            [
                app_bar(title, on_up=self.finish),
                TextView("Nothing to change here on the virtual phone.", text_color=TEXT_SECONDARY, padding=16),
            ],
            height=-1,
        )


def settings_app() -> App:
    """The Settings package, with the intent actions Android's Settings answers."""
    return App(
        PACKAGE,
        "Settings",
        "S",
        (95, 99, 104),
        {
            MAIN: SettingsActivity,
            NETWORK: NetworkActivity,
            CONNECTED: ConnectedDevicesActivity,
            ABOUT: AboutActivity,
            SUBPAGE: SubPage,
        },
        MAIN,
        actions={
            "android.settings.SETTINGS": MAIN,
            "android.settings.WIRELESS_SETTINGS": NETWORK,
            "android.settings.WIFI_SETTINGS": NETWORK,
            "android.settings.AIRPLANE_MODE_SETTINGS": NETWORK,
            "android.settings.BLUETOOTH_SETTINGS": CONNECTED,
            "android.settings.DEVICE_INFO_SETTINGS": ABOUT,
        },
    )

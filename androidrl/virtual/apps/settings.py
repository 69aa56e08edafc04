"""``com.android.settings``: the main list, Network & internet, Connected devices, About phone.

Switches read and write the same ``settings global`` keys as Android (``wifi_on``,
``bluetooth_on``, ``airplane_mode_on``), with Android's airplane-mode rules: turning it on
switches off the radios in ``airplane_mode_radios`` (Wi-Fi ``1 -> 3``, Bluetooth ``1 -> 2``)
and turning it off restores them.
"""

from __future__ import annotations

from androidrl.virtual.activity import Activity, App, app_bar, list_row
from androidrl.virtual.views import TEXT_SECONDARY, LinearLayout, ScrollingList, TextView, View

PACKAGE = "com.android.settings"
MAIN = "com.android.settings.Settings"
NETWORK = "com.android.settings.Settings$NetworkDashboardActivity"
CONNECTED = "com.android.settings.Settings$ConnectedDeviceDashboardActivity"
ABOUT = "com.android.settings.Settings$MyDeviceInfoActivity"
SUBPAGE = "com.android.settings.SubSettings"


def wifi_enabled(phone) -> bool:
    """Wi-Fi is on when ``wifi_on`` is 1, or 2 (turned on during airplane mode)."""
    return phone.settings.get("global", "wifi_on") in ("1", "2")


def bluetooth_enabled(phone) -> bool:
    """Bluetooth is on when ``bluetooth_on`` is 1."""
    return phone.settings.get("global", "bluetooth_on") == "1"


def airplane_enabled(phone) -> bool:
    """Airplane mode is on when ``airplane_mode_on`` is 1."""
    return phone.settings.get("global", "airplane_mode_on") == "1"


def set_wifi(phone, on: bool) -> None:
    """Turn Wi-Fi on or off as the Wi-Fi toggle (and ``svc wifi``) does."""
    value = ("2" if airplane_enabled(phone) else "1") if on else "0"
    phone.settings.put("global", "wifi_on", value)


def set_bluetooth(phone, on: bool) -> None:
    """Turn Bluetooth on or off."""
    phone.settings.put("global", "bluetooth_on", "1" if on else "0")


def set_airplane(phone, on: bool) -> None:
    """Turn airplane mode on or off, switching the affected radios like Android."""
    radios = (phone.settings.get("global", "airplane_mode_radios") or "").split(",")
    wifi, bt = phone.settings.get("global", "wifi_on"), phone.settings.get("global", "bluetooth_on")
    phone.settings.put("global", "airplane_mode_on", "1" if on else "0")
    if on:
        if "wifi" in radios and wifi == "1":
            phone.settings.put("global", "wifi_on", "3")
        if "bluetooth" in radios and bt == "1":
            phone.settings.put("global", "bluetooth_on", "2")
    else:
        if wifi in ("2", "3"):
            phone.settings.put("global", "wifi_on", "1")
        if bt == "2":
            phone.settings.put("global", "bluetooth_on", "1")


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
        model = self.phone.getprop("ro.product.model")
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
        phone = self.phone
        wifi, airplane = wifi_enabled(phone), airplane_enabled(phone)
        return [
            list_row(
                "Wi-Fi",
                "AndroidWifi" if wifi else "Off",
                switch=wifi,
                on_click=lambda: set_wifi(phone, not wifi_enabled(phone)),
            ),
            list_row(
                "Airplane mode", "", switch=airplane, on_click=lambda: set_airplane(phone, not airplane_enabled(phone))
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
        phone = self.phone
        bt = bluetooth_enabled(phone)
        return [
            list_row(
                "Bluetooth",
                "On" if bt else "Off",
                switch=bt,
                on_click=lambda: set_bluetooth(phone, not bluetooth_enabled(phone)),
            ),
            list_row("Pair new device", ""),
            list_row("Connection preferences", "NFC, Android Auto"),
        ]


class AboutActivity(_Page):
    """About phone: model and Android version from the phone's properties."""

    title = "About phone"

    def rows(self) -> list[View]:
        prop = self.phone.getprop
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

"""``com.android.settings``: the manifest, the main list, and SubSettings.

The main list is Android 14's top level (top_level_settings.xml); each row opens its page
(``Settings$…Activity``, packages/apps/Settings AndroidManifest.xml), and the intent actions of
``android.provider.Settings`` start them. Pages live beside this module: ``network`` (Wi-Fi,
Airplane mode, Bluetooth), ``apps`` (the app list, App info, its storage and notifications),
``device`` (Notifications, Battery, Location), ``sound`` (volumes, Do Not Disturb), ``display``
(brightness, screen timeout, dark theme, font size, auto-rotate), ``security`` (Screen lock),
``system`` (languages, date & time, reset options) and ``about``. Every value is read from and
written to the system (the ``settings`` provider, the radios, the package, notification and lock
services through ``Context``), so the app holds no state of its own beyond its pages' scroll.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.settings import about, apps, device, display, network, security, sound, system
from androidrl.virtual.apps.settings.base import PACKAGE, SHOW_FRAGMENT, SettingsPage, get_setting
from androidrl.virtual.apps.settings.strings import STRINGS
from androidrl.virtual.system.framework.app import Activity, App, Context
from androidrl.virtual.system.framework.intent import Intent, IntentFilter
from androidrl.virtual.ui.views import TEXT_SECONDARY, LinearLayout, TextView, View
from androidrl.virtual.ui.widgets import app_bar, list_row

MAIN = "com.android.settings.Settings"
NETWORK = "com.android.settings.Settings$NetworkDashboardActivity"
CONNECTED = "com.android.settings.Settings$ConnectedDeviceDashboardActivity"
APPS = "com.android.settings.Settings$AppDashboardActivity"
NOTIFICATIONS = "com.android.settings.Settings$ConfigureNotificationSettingsActivity"
BATTERY = "com.android.settings.Settings$PowerUsageSummaryActivity"
SOUND = "com.android.settings.Settings$SoundSettingsActivity"
DISPLAY = "com.android.settings.Settings$DisplaySettingsActivity"
SECURITY = "com.android.settings.Settings$SecurityDashboardActivity"
LOCATION = "com.android.settings.Settings$LocationSettingsActivity"
SYSTEM = "com.android.settings.Settings$SystemDashboardActivity"
ABOUT = "com.android.settings.Settings$MyDeviceInfoActivity"
SUBPAGE = apps.SUBSETTINGS

# (title key, summary key, glyph, colour, activity) of the main list, in Android 14's order.
MAIN_ITEMS = (
    ("network", "network_summary", "N", (26, 115, 232), NETWORK),
    ("connected", "connected_summary", "C", (15, 157, 88), CONNECTED),
    ("apps", "apps_summary", "A", (251, 140, 0), APPS),
    ("notifications", "notifications_summary", "N", (234, 67, 53), NOTIFICATIONS),
    ("battery", "battery_summary", "B", (52, 168, 83), BATTERY),
    ("storage", "storage_summary", "S", (161, 66, 244), SUBPAGE),
    ("sound", "sound_summary", "V", (0, 137, 123), SOUND),
    ("display", "display_summary", "D", (251, 188, 4), DISPLAY),
    ("wallpaper", "wallpaper_summary", "W", (216, 27, 96), SUBPAGE),
    ("accessibility", "accessibility_summary", "A", (63, 81, 181), SUBPAGE),
    ("security", "security_summary", "S", (0, 150, 136), SECURITY),
    ("location", "location_summary_on", "L", (121, 85, 72), LOCATION),
    ("passwords", "passwords_summary", "P", (96, 125, 139), SUBPAGE),
    ("system", "system_summary", "S", (117, 117, 117), SYSTEM),
    ("about", "", "i", (66, 133, 244), ABOUT),
)


class SettingsActivity(SettingsPage):
    """The main Settings list; long enough to need scrolling on a phone screen."""

    title_key = "settings"
    up = False

    def rows(self) -> list[View]:
        s = self.string
        model = self.context.getprop("ro.product.model")
        location_off = (get_setting(self, "secure", "location_mode") or "0") == "0"
        rows = []
        for key, summary, glyph, color, cls in MAIN_ITEMS:
            if key == "location" and location_off:
                summary = "location_summary_off"
            rows.append(
                list_row(
                    s(key),
                    s(summary) if summary else model,
                    on_click=partial(self.open_page, cls, key),
                    icon=(glyph, color),
                )  # fmt: skip
            )
        return rows

    def open_page(self, cls: str, key: str) -> None:
        self.start(cls, title=self.string(key))


class PlaceholderPage(Activity):
    """A settings page the virtual phone has nothing on: a titled screen."""

    def build(self) -> View:
        title = str(self.intent.extras.get("title", self.string("settings")))
        return LinearLayout(
            [app_bar(title, on_up=self.finish), TextView(self.string("nothing_here"), text_color=TEXT_SECONDARY,
                                                         padding=16)],
            height=-1,
        )  # fmt: skip


#: SubSettings' fragments (SettingsActivity.EXTRA_SHOW_FRAGMENT) -> the page that shows it.
FRAGMENTS: dict[str, type[Activity]] = {apps.APP_STORAGE_FRAGMENT: apps.AppStorageActivity}


def sub_settings(context: Context, app: App, cls: str, intent: Intent) -> Activity:
    """``SubSettings``: the page of the fragment its intent names (a titled placeholder for the rest)."""
    page = FRAGMENTS.get(str(intent.extras.get(SHOW_FRAGMENT, "")), PlaceholderPage)
    return page(context, app, cls, intent)


def settings_app() -> App:
    """The Settings package, with the intent actions Android's Settings answers."""
    activities = {
        MAIN: SettingsActivity,
        NETWORK: network.NetworkActivity,
        CONNECTED: network.ConnectedDevicesActivity,
        APPS: apps.AppsActivity,
        apps.ALL_APPS: apps.ManageApplicationsActivity,
        apps.APP_INFO: apps.AppInfoActivity,
        apps.APP_NOTIFICATIONS: apps.AppNotificationActivity,
        NOTIFICATIONS: device.NotificationsActivity,
        device.APP_NOTIFICATION_LIST: device.NotificationAppListActivity,
        BATTERY: device.BatteryActivity,
        device.BATTERY_SAVER: device.BatterySaverActivity,
        LOCATION: device.LocationActivity,
        SOUND: sound.SoundActivity,
        sound.ZEN: sound.ZenModeActivity,
        DISPLAY: display.DisplayActivity,
        display.TEXT_READING: display.TextReadingActivity,
        SECURITY: security.SecurityActivity,
        security.CHOOSE_LOCK: security.ChooseLockActivity,
        security.CHOOSE_PIN: security.ChoosePinActivity,
        security.CONFIRM_PIN: security.ConfirmPinActivity,
        SYSTEM: system.SystemActivity,
        system.LANGUAGES: system.LanguagesActivity,
        system.DATE_TIME: system.DateTimeActivity,
        system.RESET: system.ResetActivity,
        ABOUT: about.AboutActivity,
        SUBPAGE: sub_settings,  # (a factory: the page class depends on the intent's fragment)
    }
    # android.provider.Settings' ACTION_* -> the page each opens.
    actions = {
        "android.settings.SETTINGS": MAIN,
        "android.settings.WIRELESS_SETTINGS": NETWORK,
        "android.settings.WIFI_SETTINGS": NETWORK,
        "android.settings.AIRPLANE_MODE_SETTINGS": NETWORK,
        "android.settings.BLUETOOTH_SETTINGS": CONNECTED,
        "android.settings.APPLICATION_SETTINGS": APPS,
        "android.settings.MANAGE_APPLICATIONS_SETTINGS": apps.ALL_APPS,
        "android.settings.MANAGE_ALL_APPLICATIONS_SETTINGS": apps.ALL_APPS,
        "android.settings.APP_NOTIFICATION_SETTINGS": apps.APP_NOTIFICATIONS,
        "android.settings.ALL_APPS_NOTIFICATION_SETTINGS": device.APP_NOTIFICATION_LIST,
        "android.settings.NOTIFICATION_SETTINGS": NOTIFICATIONS,
        "android.intent.action.POWER_USAGE_SUMMARY": BATTERY,
        "android.settings.BATTERY_SAVER_SETTINGS": device.BATTERY_SAVER,
        "android.settings.LOCATION_SOURCE_SETTINGS": LOCATION,
        "android.settings.SOUND_SETTINGS": SOUND,
        "android.settings.ZEN_MODE_SETTINGS": sound.ZEN,
        "android.settings.DISPLAY_SETTINGS": DISPLAY,
        "android.settings.DARK_THEME_SETTINGS": DISPLAY,
        "android.settings.TEXT_READING_SETTINGS": display.TEXT_READING,
        "android.settings.SECURITY_SETTINGS": SECURITY,
        "android.app.action.SET_NEW_PASSWORD": security.CHOOSE_LOCK,
        "android.settings.LOCALE_SETTINGS": system.LANGUAGES,
        "android.settings.DATE_SETTINGS": system.DATE_TIME,
        "android.settings.DEVICE_INFO_SETTINGS": ABOUT,
        "android.settings.DEVICE_NAME": ABOUT,
    }
    details = IntentFilter(apps.APP_INFO, ("android.settings.APPLICATION_DETAILS_SETTINGS",), schemes=("package",))
    return App(
        PACKAGE,
        "Settings",
        "S",
        (95, 99, 104),
        activities,  # type: ignore[arg-type]  (SubSettings is a factory)
        MAIN,
        actions=actions,
        filters=(details,),
        strings=STRINGS,
    )

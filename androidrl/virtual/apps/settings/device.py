"""Battery, Location and Notifications: pages built round one switch each.

- Battery (``Settings$PowerUsageSummaryActivity``) → Battery Saver
  (``Settings$BatterySaverSettingsActivity``): "Use Battery Saver" writes ``global low_power``
  (PowerManager.setPowerSaveModeEnabled).
- Location (``Settings$LocationSettingsActivity``): "Use location" writes ``secure location_mode``
  3 or 0 (LocationManager.setLocationEnabledForUser).
- Notifications (``Settings$ConfigureNotificationSettingsActivity``): App notifications lists the
  apps, each with its switch (NotificationBackend.setNotificationsEnabledForPackage); Do Not Disturb.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.settings.base import SettingsPage, get_setting, main_switch, put_setting
from androidrl.virtual.apps.settings.sound import ZEN, zen_on
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.ui.views import View
from androidrl.virtual.ui.widgets import list_row

BATTERY_SAVER = "com.android.settings.Settings$BatterySaverSettingsActivity"
APP_NOTIFICATION_LIST = "com.android.settings.Settings$NotificationAppListActivity"


def listed_apps(page: SettingsPage) -> list[App]:
    """The apps Settings lists (those with a launcher activity, and any installed by the user), by label."""
    apps = (a for a in page.context.apps.values() if a.main or not a.system)
    return sorted(apps, key=lambda a: a.label.lower())


class BatteryActivity(SettingsPage):
    """Battery: the level, Battery usage and Battery Saver."""

    title_key = "battery"

    def rows(self) -> list[View]:
        s = self.string
        saver = get_setting(self, "global", "low_power") == "1"
        return [
            self.row("battery_summary"),
            self.row("battery_usage"),
            self.row("battery_saver", s("on") if saver else s("off"), on_click=partial(self.open, BATTERY_SAVER)),
            self.row("adaptive_preferences"),
            self.row("battery_percentage", switch=True),
        ]


class BatterySaverActivity(SettingsPage):
    """Battery Saver: its main switch, and its schedule."""

    title_key = "battery_saver"

    def rows(self) -> list[View]:
        on = get_setting(self, "global", "low_power") == "1"
        return [
            main_switch(self.string("use_battery_saver"), on, self.toggle),
            self.row("set_schedule", self.string("no_schedule")),
        ]

    def toggle(self) -> None:
        on = get_setting(self, "global", "low_power") == "1"
        put_setting(self, "global", "low_power", 0 if on else 1)


class LocationActivity(SettingsPage):
    """Location: "Use location", then who used it."""

    title_key = "location"

    def rows(self) -> list[View]:
        on = (get_setting(self, "secure", "location_mode") or "0") != "0"
        return [
            main_switch(self.string("use_location"), on, self.toggle),
            self.row("recent_access"),
            self.row("app_location"),
            self.row("location_services"),
        ]

    def toggle(self) -> None:
        on = (get_setting(self, "secure", "location_mode") or "0") != "0"
        put_setting(self, "secure", "location_mode", 0 if on else 3)


class NotificationsActivity(SettingsPage):
    """Notifications: App notifications, the history, and Do Not Disturb."""

    title_key = "notifications"

    def rows(self) -> list[View]:
        s = self.string
        return [
            self.row("app_notifications", on_click=partial(self.open, APP_NOTIFICATION_LIST)),
            self.row("notification_history"),
            self.row("conversations"),
            self.row("bubbles"),
            self.row("lock_screen_notifications"),
            self.row("dnd", s("zen_on") if zen_on(self) else s("zen_off"), on_click=partial(self.open, ZEN)),
        ]


class NotificationAppListActivity(SettingsPage):
    """App notifications: every app with its notifications switch."""

    title_key = "app_notifications"

    def rows(self) -> list[View]:
        manager = self.context.notifications
        return [
            list_row(
                app.label,
                "",
                on_click=partial(self.toggle, app.package),
                switch=manager.enabled_for_package(app.package),
                icon=(app.glyph, app.color),
            )
            for app in listed_apps(self)
        ]

    def toggle(self, package: str) -> None:
        manager = self.context.notifications
        enabled = not manager.enabled_for_package(package)
        manager.set_enabled_for_package(package, enabled)
        self.log("Settings", f"notifications {package} {'on' if enabled else 'off'}")

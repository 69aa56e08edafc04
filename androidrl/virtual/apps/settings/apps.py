"""Apps: the app list, App info and its Storage & cache and Notifications pages.

- Apps (``Settings$AppDashboardActivity``): recently opened apps and "See all N apps", which opens
  the list (``Settings$ManageApplicationsActivity``: ``com.android.settings:id/apps_list``).
- App info (``applications.InstalledAppDetails``, AppInfoDashboardFragment; ``android.settings.
  APPLICATION_DETAILS_SETTINGS`` with ``package:NAME``): the app's header, its action buttons
  (AppButtonsPreferenceController: ``button1`` Open, ``button2`` Uninstall — Disable for a system
  app — and ``button3`` Force stop, enabled while the app runs, behind its "Force stop?" dialog),
  then Notifications, Permissions and Storage & cache.
- Storage & cache (SubSettings with AppStorageSettings): the sizes, and Clear storage behind
  "Clear app data?" — ``pm clear``'s effect: the app's data and its providers wiped.
- App notifications (``Settings$AppNotificationSettingsActivity``; ``android.settings.
  APP_NOTIFICATION_SETTINGS`` with ``android.provider.extra.APP_PACKAGE``): "All APP notifications"
  (NotificationBackend.setNotificationsEnabledForPackage, which ``dumpsys notification`` reports).
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.settings.base import PACKAGE, RID, SHOW_FRAGMENT, TAG, SettingsPage, main_switch
from androidrl.virtual.apps.settings.device import listed_apps
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import ACTION_MAIN, CATEGORY_LAUNCHER, Intent
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.views import PRIMARY, TEXT_SECONDARY, ImageView, LinearLayout, TextView, View
from androidrl.virtual.ui.widgets import list_row

ALL_APPS = "com.android.settings.Settings$ManageApplicationsActivity"
APP_INFO = "com.android.settings.applications.InstalledAppDetails"
APP_NOTIFICATIONS = "com.android.settings.Settings$AppNotificationSettingsActivity"
SUBSETTINGS = "com.android.settings.SubSettings"
APP_STORAGE_FRAGMENT = "com.android.settings.applications.AppStorageSettings"
EXTRA_APP_PACKAGE = "android.provider.extra.APP_PACKAGE"


def size_text(size: int, decimal: str = ".") -> str:
    """Formatter.formatShortFileSize: ``0 B``, ``4.10 kB``, ``12 MB`` (SI units, as Android 8+).

    The decimal separator is the locale's.
    """
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            value = size / scale
            text = f"{value:.2f} {unit}" if value < 10 else f"{value:.0f} {unit}"
            return text.replace(".", decimal)
    return f"{size} B"


def app_size(app: App) -> int:
    """What the app's code takes (a stable figure per package)."""
    return 4_000_000 + sum(map(ord, app.package)) * 3001


def data_size(app: App) -> int:
    """What its saved data takes (nothing once cleared)."""
    return len(repr(app.data)) if app.data else 0


class _AppPage(SettingsPage):
    """A page about one app, named by the intent: ``package:NAME`` data, or the APP_PACKAGE extra."""

    def on_create(self) -> None:
        super().on_create()
        data = self.intent.data or ""
        self.package = data.split(":", 1)[1] if data.startswith("package:") else ""
        self.package = self.package or str(self.intent.extras.get(EXTRA_APP_PACKAGE, ""))

    @property
    def target(self) -> App | None:
        return self.context.apps.get(self.package)

    def build(self) -> View:
        if self.target is None:  # uninstalled meanwhile, or never there: AOSP finishes the page
            return LinearLayout([TextView(self.string("app_info"), padding=16)], height=-1)
        return super().build()

    def header(self, app: App) -> View:
        """The EntityHeader: the app's icon and label."""
        return LinearLayout(
            [
                ImageView(
                    glyph=app.glyph, color=app.color, resource_id=RID + "entity_header_icon", width=64, height=64
                ),
                TextView(app.label, resource_id=RID + "entity_header_title", text_size=22, gravity="center", height=36),
                TextView(
                    self.string("version", "1.0"),
                    resource_id=RID + "entity_header_summary",
                    text_size=14,
                    gravity="center",
                    height=24,
                    text_color=TEXT_SECONDARY,
                ),
            ],  # fmt: skip
            resource_id=RID + "entity_header",
            padding=12,
        )


def action_button(text: str, rid: str, on_click, enabled: bool = True) -> View:
    """One of ActionButtonsPreference's buttons (settingslib_action_buttons.xml: a Button with its icon on top)."""
    return TextView(
        text,
        cls="android.widget.Button",
        resource_id=RID + rid,
        gravity="center",
        text_size=14,
        bold=True,
        text_color=PRIMARY if enabled else TEXT_SECONDARY,
        background=(232, 240, 254) if enabled else (241, 243, 244),
        corner=16,
        clickable=enabled,
        focusable=True,
        enabled=enabled,
        on_click=on_click if enabled else None,
        weight=1,
        width=0,
        height=64,
    )


class AppsActivity(SettingsPage):
    """Apps: recently opened apps, and the way to all of them."""

    title_key = "apps"

    def rows(self) -> list[View]:
        apps = listed_apps(self)
        return [
            self.category("recent_apps"),
            *(list_row(a.label, "", on_click=partial(self.open_app_info, a.package), icon=(a.glyph, a.color))
              for a in apps[:3]),
            self.row("see_all_apps", on_click=partial(self.open, ALL_APPS)),
            self.row("default_apps"),
        ]  # fmt: skip

    def row(self, key: str, summary: str = "", on_click=None, **kw) -> View:
        if key == "see_all_apps":
            return list_row(self.string(key, len(listed_apps(self))), summary, on_click=on_click)
        return super().row(key, summary, on_click, **kw)

    def open_app_info(self, package: str) -> None:
        self.open_intent(Intent(component=(PACKAGE, APP_INFO), data=f"package:{package}"))


class ManageApplicationsActivity(SettingsPage):
    """All apps: a row per app, its size under it; a tap opens its App info."""

    title_key = "all_apps"

    def build(self) -> View:
        root = super().build()
        root.children[1].resource_id = RID + "apps_list"  # (manage_applications_apps.xml's RecyclerView)
        return root

    def rows(self) -> list[View]:
        return [
            list_row(app.label, size_text(app_size(app) + data_size(app), self.string("decimal")),
                     on_click=partial(self.open_app_info, app.package), icon=(app.glyph, app.color))
            for app in listed_apps(self)
        ]  # fmt: skip

    def open_app_info(self, package: str) -> None:
        self.open_intent(Intent(component=(PACKAGE, APP_INFO), data=f"package:{package}"))


class AppInfoActivity(_AppPage):
    """App info: the header, Open / Uninstall / Force stop, and the app's pages."""

    title_key = "app_info"

    def rows(self) -> list[View]:
        app, s, context = self.target, self.string, self.context
        assert app is not None
        running = context.running(app.package)
        buttons = LinearLayout(
            [
                action_button(s("open"), "button1", self.launch, enabled=app.main is not None),
                action_button(
                    s("disable") if app.system else s("uninstall"),
                    "button2",
                    self.confirm_uninstall,
                    enabled=not app.system,
                ),
                action_button(s("force_stop"), "button3", self.confirm_force_stop, enabled=running),
            ],  # fmt: skip
            vertical=False,
            height=88,
            padding=8,
        )
        notifications = context.notifications.enabled_for_package(app.package)
        size = size_text(app_size(app) + data_size(app), self.string("decimal"))
        return [
            self.header(app),
            buttons,
            self.row("app_notifications_row", s("notifications_on") if notifications else s("notifications_off"),
                     on_click=self.open_notifications),
            self.row("permissions", s("no_permissions")),
            self.row("storage_and_cache", s("storage_used", size), on_click=self.open_storage),
        ]  # fmt: skip

    def launch(self) -> None:
        app = self.target
        if app is not None and app.main:
            self.open_intent(
                Intent(action=ACTION_MAIN, categories=(CATEGORY_LAUNCHER,), component=(app.package, app.main))
            )

    def confirm_force_stop(self) -> None:
        s = self.string
        self.show(
            AlertDialog(
                s("force_stop_dlg_title"),
                s("force_stop_dlg_text"),
                positive=(s("ok"), self.force_stop),
                negative=(s("cancel"), None),
            )
        )

    def force_stop(self) -> None:
        """ActivityManager.forceStopPackage: its tasks and process go (``pidof`` finds nothing)."""
        self.context.force_stop(self.package)
        self.log(TAG, f"force stop {self.package}")

    def confirm_uninstall(self) -> None:
        app = self.target
        if app is None:
            return
        s = self.string
        self.show(AlertDialog(app.label, s("uninstall_text"), positive=(s("ok"), self.uninstall),
                              negative=(s("cancel"), None)))  # fmt: skip

    def uninstall(self) -> None:
        package = self.package
        self.log(TAG, f"uninstall {package}")
        self.context.uninstall(package)
        self.finish()

    def open_notifications(self) -> None:
        self.open_intent(Intent(component=(PACKAGE, APP_NOTIFICATIONS), extras={EXTRA_APP_PACKAGE: self.package}))

    def open_storage(self) -> None:
        extras = {SHOW_FRAGMENT: APP_STORAGE_FRAGMENT, EXTRA_APP_PACKAGE: self.package}
        self.open_intent(Intent(component=(PACKAGE, SUBSETTINGS), extras=extras))


class AppStorageActivity(_AppPage):
    """Storage & cache: the app's sizes, Clear storage and Clear cache."""

    title_key = "storage_and_cache"

    def rows(self) -> list[View]:
        app, s = self.target, self.string
        assert app is not None
        code, data = app_size(app), data_size(app)
        buttons = LinearLayout(
            [
                action_button(s("clear_storage"), "button1", self.confirm_clear, enabled=True),
                action_button(s("clear_cache"), "button2", self.clear_cache, enabled=False),
            ],
            vertical=False,
            height=88,
            padding=8,
        )
        return [
            self.header(app),
            buttons,
            self.row("app_size", size_text(code, s("decimal"))),
            self.row("user_data", size_text(data, s("decimal"))),
            self.row("cache", size_text(0)),
            self.row("total", size_text(code + data, s("decimal"))),
        ]

    def confirm_clear(self) -> None:
        s = self.string
        self.show(
            AlertDialog(
                s("clear_data_dlg_title"),
                s("clear_data_dlg_text"),
                positive=(s("ok"), self.clear_storage),
                negative=(s("cancel"), None),
            )
        )

    def clear_storage(self) -> None:
        """ActivityManager.clearApplicationUserData: as ``pm clear`` (the app stops; data and providers go)."""
        if self.context.clear_data(self.package):
            self.log(TAG, f"clear data {self.package}")

    def clear_cache(self) -> None:
        """The cache is empty: nothing to clear."""


class AppNotificationActivity(_AppPage):
    """The app's notification settings: "All APP notifications"."""

    title_key = "app_notifications_row"

    def rows(self) -> list[View]:
        app = self.target
        assert app is not None
        enabled = self.context.notifications.enabled_for_package(app.package)
        return [self.header(app), main_switch(self.string("all_app_notifications", app.label), enabled, self.toggle)]

    def toggle(self) -> None:
        manager = self.context.notifications
        enabled = not manager.enabled_for_package(self.package)
        manager.set_enabled_for_package(self.package, enabled)
        self.log(TAG, f"notifications {self.package} {'on' if enabled else 'off'}")

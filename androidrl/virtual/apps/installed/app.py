"""The app a package installed from an APK runs as: it opens to a titled empty screen."""

from __future__ import annotations

from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.ui.views import TEXT_SECONDARY, LinearLayout, TextView, View
from androidrl.virtual.ui.widgets import app_bar


class InstalledActivity(Activity):
    """An app screen with the app's name in its bar and nothing to do."""

    def build(self) -> View:
        return LinearLayout(
            [
                app_bar(self.app.label),
                TextView(
                    f"{self.app.label} is not available on the virtual phone.",
                    text_color=TEXT_SECONDARY,
                    gravity="center",
                    height=96,
                    resource_id=f"{self.app.package}:id/empty",
                ),
            ],
            height=-1,
        )


def installed_app(package: str) -> App:
    """An app installed from an APK (``pm install``): a user app whose ``MainActivity`` shows its label."""
    label = package.rsplit(".", 1)[-1].capitalize()
    main = f"{package}.MainActivity"
    return App(package, label, label[:1].upper() or "?", (120, 120, 120), {main: InstalledActivity}, main, system=False)

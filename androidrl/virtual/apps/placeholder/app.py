"""Stock apps the virtual phone only pretends to have: they open to a titled empty screen."""

from __future__ import annotations

from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.ui.views import TEXT_SECONDARY, LinearLayout, TextView, View
from androidrl.virtual.ui.widgets import app_bar


class PlaceholderActivity(Activity):
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


#: (package, main activity class, label, glyph, colour) of the stand-in stock apps.
STOCK_APPS = (("com.android.calculator2", "com.android.calculator2.Calculator", "Calculator", "=", (95, 99, 104)),)


def placeholder_apps() -> list[App]:
    """The stand-in stock apps."""
    return [
        App(pkg, label, glyph, color, {cls: PlaceholderActivity}, cls) for pkg, cls, label, glyph, color in STOCK_APPS
    ]


def installed_app(package: str) -> App:
    """An app installed from an APK (``pm install``): it opens to its titled empty screen."""
    label = package.rsplit(".", 1)[-1].capitalize()
    main = f"{package}.MainActivity"
    return App(
        package, label, label[:1].upper() or "?", (120, 120, 120), {main: PlaceholderActivity}, main, system=False
    )

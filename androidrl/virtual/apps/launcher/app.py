"""The home screen (``com.android.launcher3``): a grid of app icons.

A long press on an icon opens Launcher3's popup with its system shortcut "App info", which starts
Settings' App info for the app (``android.settings.APPLICATION_DETAILS_SETTINGS``, ``package:NAME``).

The workspace is Launcher3's PagedView: its accessibility class is ``android.widget.ScrollView`` and it
reports itself scrollable, as PagedView.onInitializeAccessibilityNodeInfo does with overscroll allowed
(``setScrollable(getPageCount() > 0)``); a swipe down on it pulls the notification shade down, as
quickstep's StatusBarTouchController forwards it to SystemUI (a drag past twice the touch slop, more down
than sideways).
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.system.framework.intent import ACTION_MAIN, CATEGORY_LAUNCHER, Intent
from androidrl.virtual.ui.dialogs import ListPopup
from androidrl.virtual.ui.views import WHITE, AppIcon, Drag, FrameLayout, View

PACKAGE = "com.android.launcher3"
LAUNCHER = "com.android.launcher3.Launcher"
COLUMNS = 4
WALLPAPER = (46, 64, 87)
#: ViewConfiguration's touch slop (8 dp); StatusBarTouchController waits for twice it.
TOUCH_SLOP_DP = 8


class LauncherActivity(Activity):
    """Shows every app that has a launcher activity, alphabetically, four to a row."""

    title = "Home"

    def build(self) -> View:
        apps = sorted(
            (a for a in self.context.apps.values() if a.main and a.package != PACKAGE), key=lambda a: a.label.lower()
        )
        metrics = self.context.metrics
        width_dp = metrics.width / metrics.scale
        cell = width_dp / COLUMNS
        icons: list[View] = []
        for i, app in enumerate(apps):
            row, col = divmod(i, COLUMNS)
            icons.append(
                AppIcon(
                    app.label,
                    app.glyph,
                    app.color,
                    width=cell,
                    x=col * cell,
                    y=48 + row * 104,
                    text_color=WHITE,
                    on_click=lambda a=app: self.open(a),
                    on_long_click=partial(self.shortcuts, app.package),
                )
            )
        workspace = FrameLayout(
            icons,
            cls="android.widget.ScrollView",
            resource_id="com.android.launcher3:id/workspace",
            background=WALLPAPER,
            scrollable=True,
        )
        workspace.drag_axis, workspace.on_drag = "y", self.swipe
        return workspace

    def swipe(self, drag: Drag) -> None:
        """StatusBarTouchController: a swipe down past twice the touch slop pulls the notification shade down."""
        dy, dx = drag.y2 - drag.y1, drag.x2 - drag.x1
        if dy > 2 * TOUCH_SLOP_DP * drag.scale and dy > abs(dx):
            self.context.expand_notifications()

    def open(self, app: App) -> None:
        """Launch ``app`` as a tap on its icon does."""
        self.context.start_activity(
            Intent(action=ACTION_MAIN, categories=(CATEGORY_LAUNCHER,), component=(app.package, app.main))
        )

    def shortcuts(self, package: str) -> None:
        """The long-press popup (PopupContainerWithArrow) with the App info shortcut."""
        self.show(ListPopup(["App info"], on_select=partial(self.app_info, package)))

    def app_info(self, package: str, index: int = 0) -> None:
        """SystemShortcut.AppInfo: Settings' App info for ``package``."""
        self.context.start_activity(
            Intent(action="android.settings.APPLICATION_DETAILS_SETTINGS", data=f"package:{package}")
        )

    def on_back(self) -> bool:
        return True  # BACK on the home screen does nothing


def launcher_app() -> App:
    """The launcher package."""
    return App(PACKAGE, "Launcher3", "L", (60, 64, 67), {LAUNCHER: LauncherActivity}, None)

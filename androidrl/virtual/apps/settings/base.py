"""What every Settings page shares: the page, its rows, and the ``settings`` provider.

The page is an app bar over a RecyclerView of preferences; values are read and written as Settings does.

A page is a ``SettingsActivity`` hosting a ``DashboardFragment``: its preferences are rows with
``android:id/title`` and ``android:id/summary`` (a switch's ``android:id/switch_widget``), in the
list ``com.android.settings:id/recycler_view`` (packages/apps/Settings res/layout/settings_main_pref.xml).
Values live in the ``settings`` provider (``Settings.System.putInt(getContentResolver(), ...)`` is a
``call`` on ``content://settings``), so ``settings get`` sees every change at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import Intent
from androidrl.virtual.ui.views import PRIMARY, TEXT_SECONDARY, LinearLayout, ScrollingList, Switch, TextView, View
from androidrl.virtual.ui.widgets import app_bar, list_row

PACKAGE = "com.android.settings"
RID = PACKAGE + ":id/"
SETTINGS_URI = "content://settings"
#: The extra SubSettings reads to pick its fragment (SettingsActivity.EXTRA_SHOW_FRAGMENT).
SHOW_FRAGMENT = ":settings:show_fragment"
TAG = "Settings"


def get_setting(activity: Activity, namespace: str, key: str, default: str | None = None) -> str | None:
    """``Settings.System|Secure|Global.getString``: a ``call`` of ``GET_<namespace>`` on the provider."""
    found = activity.context.content.call(SETTINGS_URI, f"GET_{namespace}", key)
    value = found.get("value") if found else None
    return default if value is None else str(value)


def get_int(activity: Activity, namespace: str, key: str, default: int) -> int:
    """``Settings.*.getInt`` with a default for a missing or unparsable value."""
    try:
        return int(float(get_setting(activity, namespace, key) or default))
    except ValueError:
        return default


def put_setting(activity: Activity, namespace: str, key: str, value: Any) -> None:
    """``Settings.System|Secure|Global.putString``, logged under Settings' tag."""
    activity.context.content.call(SETTINGS_URI, f"PUT_{namespace}", key, {"value": str(value)})
    activity.log(TAG, f"{namespace} {key}={value}")


def delete_setting(activity: Activity, namespace: str, key: str) -> None:
    """Remove ``key`` (its default applies again)."""
    activity.context.content.call(SETTINGS_URI, f"DELETE_{namespace}", key)
    activity.log(TAG, f"{namespace} {key} deleted")


def category(title: str) -> View:
    """A PreferenceCategory's header: its title in the accent colour."""
    return TextView(title, resource_id="android:id/title", text_size=14, height=44, padding=12, text_color=PRIMARY,
                    bold=True)  # fmt: skip


def main_switch(title: str, checked: bool, on_toggle: Callable[[], None]) -> View:
    """SettingsLib's MainSwitchBar: the page's big switch (``switch_text`` and ``android:id/switch_widget``)."""
    return LinearLayout(
        [
            TextView(title, resource_id=RID + "switch_text", text_size=18, weight=1, width=0, height=40),
            Switch(checked, resource_id="android:id/switch_widget"),
        ],
        vertical=False,
        height=72,
        padding=16,
        background=(211, 227, 253) if checked else (232, 234, 237),
        corner=28,
        clickable=True,
        focusable=True,
        on_click=on_toggle,
    )


def text(message: str) -> View:
    """A line of explanatory text (a footer preference)."""
    return TextView(message, text_size=14, text_color=TEXT_SECONDARY, padding=16)


class SettingsPage(Activity):
    """A settings page: its title in the app bar over a scrolling list of rows; keeps its scroll offset.

    Subclasses name their title's string key and build :meth:`rows` from the system's state each frame.
    """

    #: The string key of the page's title.
    title_key = "settings"
    #: Whether the app bar shows "Navigate up".
    up = True

    def on_create(self) -> None:
        self.scroll = 0

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.string(self.title_key)

    def rows(self) -> list[View]:
        """The page's preferences, top to bottom."""
        raise NotImplementedError

    def build(self) -> View:
        rows = ScrollingList(
            self.rows(),
            scroll_y=self.scroll,
            on_scroll=self._on_scroll,
            resource_id=RID + "recycler_view",
            weight=1,
        )
        bar = app_bar(self.title, on_up=self.finish if self.up else None, large=not self.up)
        return LinearLayout([bar, rows], height=-1)

    def _on_scroll(self, offset: int) -> None:
        self.scroll = offset

    # ------------------------------------------------------------------ helpers for the pages

    def row(self, key: str, summary: str = "", on_click: Callable[[], None] | None = None, **kw: Any) -> View:
        """A preference titled with string ``key``."""
        return list_row(self.string(key), summary, on_click=on_click, **kw)

    def category(self, key: str) -> View:
        """A category header titled with string ``key``."""
        return category(self.string(key))

    def switch(self, key: str, checked: bool, on_toggle: Callable[[], None], summary: str = "") -> View:
        """A SwitchPreference titled with string ``key``: a tap on the row flips it."""
        return list_row(self.string(key), summary, on_click=on_toggle, switch=checked)

    def open(self, cls: str, **extras: Any) -> None:
        """Start another Settings page."""
        self.start(cls, **extras)

    def open_intent(self, intent: Intent) -> None:
        """Start what an intent names (a page with data, another app)."""
        self.context.start_activity(intent)

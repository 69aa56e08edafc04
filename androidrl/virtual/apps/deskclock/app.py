"""``com.android.deskclock``: DeskClock's manifest and its main activity, the four tabs.

As packages/apps/DeskClock (AndroidManifest.xml, DeskClock.java, res/layout/desk_clock.xml):
``.DeskClock`` shows the tabs Alarm, Clock, Timer and Stopwatch (UiDataModel.Tab's order; the
selected one is remembered, as TabDAO does, in the app's data) over the page in front and the
fab row. ``.HandleApiCalls`` answers the AlarmClock intents (SET_ALARM and SET_TIMER through its
activity-alias, SHOW_ALARMS, SHOW_TIMERS), ``.worldclock.CitySelectionActivity`` chooses the
world cities, ``.timer.ExpiredTimersActivity`` shows timers whose time is up. Its receivers set
the alarms again after a boot (AlarmInitReceiver), expire timers (TimerService) and roll alarm
instances on when their time has come. The provider (``content://com.android.deskclock``) is the
system's :class:`~androidrl.virtual.system.content.deskclock.ClockProvider`, which the phone's
composition gives this package. State changes are logged under ``AlarmClock`` (LogUtils) and
``Events`` (LogEventTracker).
"""

from __future__ import annotations

from androidrl.virtual.apps.deskclock import alarms, timers
from androidrl.virtual.apps.deskclock.alarm_tab import AlarmTab
from androidrl.virtual.apps.deskclock.api import (
    ACTION_SET_ALARM,
    ACTION_SET_TIMER,
    ACTION_SHOW_ALARMS,
    ACTION_SHOW_TIMERS,
    ALARMS_TAB,
    EXTRA_CREATE_NEW,
    EXTRA_SCROLL_TO_ALARM,
    EXTRA_TIMER_SETUP,
    HANDLE_API_CALLS,
    TIMERS_TAB,
    HandleApiCalls,
)
from androidrl.virtual.apps.deskclock.clock_tab import CITY_SELECTION, CitySelectionActivity, ClockTab
from androidrl.virtual.apps.deskclock.stopwatch import StopwatchTab
from androidrl.virtual.apps.deskclock.strings import STRINGS
from androidrl.virtual.apps.deskclock.timer_tab import ExpiredTimersActivity, TimerTab
from androidrl.virtual.apps.deskclock.widgets import fab_row, tabs
from androidrl.virtual.system.framework.app import Activity, App, Context
from androidrl.virtual.system.framework.intent import ACTION_BOOT_COMPLETED, CATEGORY_DEFAULT, Intent, IntentFilter
from androidrl.virtual.ui.views import LinearLayout, View

PACKAGE = alarms.PACKAGE
MAIN = alarms.MAIN
#: (icon glyph, label key) of each tab, in UiDataModel.Tab's order.
TABS = (("A", "menu_alarm"), ("C", "menu_clock"), ("T", "menu_timer"), ("S", "menu_stopwatch"))
CATEGORY_VOICE = "android.intent.category.VOICE"


class DeskClock(AlarmTab, ClockTab, TimerTab, StopwatchTab, Activity):
    """The Clock app's main screen: the tabs, the page of the selected one, and its fab and buttons."""

    def on_create(self) -> None:
        self.focus = ""  # the text field with focus ("label"), if any
        self.alarm_create()
        self.clock_create()
        self.timer_create()
        self.stopwatch_create()
        alarms.fix_instances(self.context, self.app)  # (DataModel's start: the alarms and timers set again)
        timers.expire_due(self.context, self.app)

    @property
    def title(self) -> str:  # (the window's: the app's label)
        return self.string("app_label")

    @property
    def tab(self) -> int:
        """The selected tab (UiDataModel.getSelectedTab), kept in the app's data."""
        return int(self.app.data.get("tab", ALARMS_TAB))

    def build(self) -> View:
        request = self.app.data.pop("request", None)
        if request:
            self.handle_request(request)
        tab = self.tab
        titles = [(glyph, self.string(key)) for glyph, key in TABS]
        pages = (
            (self.alarm_page, self.alarm_fab),
            (self.clock_page, self.clock_fab),
            (self.timer_page, self.timer_fab),
            (self.stopwatch_page, self.stopwatch_fab),
        )
        page, fab = pages[tab]
        return LinearLayout([tabs(titles, tab, self.select_tab), page(), fab_row(*fab())], height=-1)

    def handle_request(self, request: dict) -> None:
        """What the intent that brought DeskClock forward asks (from HandleApiCalls)."""
        if EXTRA_SCROLL_TO_ALARM in request:
            self.scroll_to_alarm(int(request[EXTRA_SCROLL_TO_ALARM]))
        if request.get(EXTRA_CREATE_NEW):
            self.start_creating_alarm()
        if request.get(EXTRA_TIMER_SETUP):
            self.timer_setup, self.timer_digits = True, ""
        timer_id = request.get("com.android.deskclock.extra.TIMER_ID")
        ids = [timer["id"] for timer in timers.all_timers(self.app)]
        if timer_id in ids:
            self.timer_setup, self.timer_index = False, ids.index(timer_id)

    def select_tab(self, index: int) -> None:
        """A tab was tapped (``setSelectedTab``)."""
        self.app.data["tab"] = index
        self.focus = ""

    def focus_on(self, field: str) -> None:
        self.focus = field


# ---------------------------------------------------------------------------- receivers


def boot_completed(context: Context, app: App, intent: Intent) -> None:
    """AlarmInitReceiver: after a boot the alarm instances and the timers are set again."""
    alarms.fix_instances(context, app)
    timers.after_reboot(context, app)


def alarm_time_came(context: Context, app: App, intent: Intent) -> None:
    """The next alarm clock's time came: its instance is rolled on (alarms do not ring here)."""
    alarms.fix_instances(context, app)


def timer_expired(context: Context, app: App, intent: Intent) -> None:
    """TimerService's ACTION_TIMER_EXPIRED: the timers whose time is up expire."""
    timers.expire_due(context, app)


def deskclock_app() -> App:
    """The Clock app (its provider is attached by the phone's composition)."""
    api = (ACTION_SHOW_ALARMS, ACTION_SHOW_TIMERS)
    alias = (ACTION_SET_ALARM, ACTION_SET_TIMER)  # (the HandleSetAlarmApiCalls activity-alias)
    categories = (CATEGORY_DEFAULT, CATEGORY_VOICE)
    return App(
        PACKAGE,
        "Clock",
        "T",
        (66, 133, 244),
        {
            MAIN: DeskClock,
            HANDLE_API_CALLS: HandleApiCalls,
            CITY_SELECTION: CitySelectionActivity,
            timers.EXPIRED_ACTIVITY: ExpiredTimersActivity,
        },
        MAIN,
        filters=(IntentFilter(HANDLE_API_CALLS, api, categories), IntentFilter(HANDLE_API_CALLS, alias, categories)),
        strings=STRINGS,
        receivers={
            ACTION_BOOT_COMPLETED: boot_completed,
            alarms.INDICATOR_ACTION: alarm_time_came,
            timers.TIMER_EXPIRED: timer_expired,
        },
    )


__all__ = ["MAIN", "PACKAGE", "TIMERS_TAB", "DeskClock", "deskclock_app"]

"""``com.android.calendar.AllInOneActivity``: the day, week, month and agenda views under one action bar.

As AOSP's AllInOneActivity on a phone: the action bar's list navigation is a Spinner
(``android:id/action_bar_spinner``, CalendarViewAdapter) whose button shows the date shown
(``top_button_weekday``, ``top_button_date``) and whose dropdown (``button_view``, ``button_date``)
switches between Day, Week, Month and Agenda; then the Today item (``action_today``, its icon
today's date) and the overflow menu (New event, Refresh). The view chosen is remembered
(``preferred_startView``, WEEK at first) and a new start opens it; a tap on a month's day opens
that day in the detail view (``preferred_detailedView``, DAY) and BACK goes back to the month
(``EXTRA_GOTO_BACK_TO_PREVIOUS``). ``VIEW content://com.android.calendar/time/MS`` opens at that
time (``--ez DETAIL_VIEW true`` in the detail view, ``--es VIEW DAY`` in the day view). Today is
the phone's clock's, in its time zone (``persist.sys.timezone``). State changes are logged under
``Calendar``.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from androidrl.virtual.apps.calendar import dates
from androidrl.virtual.apps.calendar.agenda import agenda_view
from androidrl.virtual.apps.calendar.bar import PACKAGE, RID, action_bar, action_item
from androidrl.virtual.apps.calendar.day import HOUR_DP, day_grid, day_view, swipe_direction
from androidrl.virtual.apps.calendar.events import EVENTS_URI, Event, load
from androidrl.virtual.apps.calendar.month import WEEKS, month_view, months_to_jump
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import ACTION_INSERT, ACTION_VIEW, Intent
from androidrl.virtual.ui.dialogs import ListPopup, overflow_menu
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import TEXT_SECONDARY, Drag, FrameLayout, LinearLayout, TextView, View

MAIN = f"{PACKAGE}.AllInOneActivity"
EDIT = f"{PACKAGE}.event.EditEventActivity"
INFO = f"{PACKAGE}.EventInfoActivity"
#: CalendarController.ViewType, in the view menu's order (CalendarViewAdapter's *_BUTTON_INDEX).
VIEWS = ("day", "week", "month", "agenda")
START_VIEW, DETAILED_VIEW = "preferred_startView", "preferred_detailedView"  # GeneralPreferences keys
TAG = "Calendar"


class FrameCache:
    """The view last built from some inputs, reused while they stay the same (a snapshot copies it empty).

    The month's 42 days are the same frame after frame; building them again each time is most of
    a month frame's cost.
    """

    def __init__(self) -> None:
        self.key: object = None
        self.view: Any = None

    def __deepcopy__(self, memo: dict) -> FrameCache:
        return FrameCache()  # (its views' callbacks belong to the activity it was built for)

    def get(self, key: object, make) -> Any:
        """The views for ``key``: the last ones if the key is the same, else ``make()``'s."""
        if self.view is None or key != self.key:
            self.key, self.view = key, make()
        return self.view


class ViewMenu(ListPopup):
    """The view spinner's dropdown (``actionbar_pulldown_menu_button.xml``): each view and the date it would show."""

    def __init__(self, items: list[tuple[str, str]], checked: int, on_select, anchor) -> None:
        super().__init__([name for name, _ in items], checked, on_select, anchor=anchor)
        self.dates = [date for _, date in items]

    def width_dp(self, screen_dp: float) -> float:
        return min(screen_dp - 16, 320.0)  # (wide enough for "Terminübersicht" and its date)

    def build(self) -> View:
        rows = [
            LinearLayout(
                [
                    TextView(name, resource_id=RID + "button_view", text_size=18, weight=1, width=0, padding=8),
                    TextView(date, resource_id=RID + "button_date", text_size=14, text_color=TEXT_SECONDARY, width=110),
                ],
                vertical=False,
                clickable=True,
                focusable=True,
                height=50,
                padding=8,
                on_click=partial(self.select, i),
            )
            for i, (name, date) in enumerate(zip(self.items, self.dates))
        ]
        return LinearLayout(rows, cls="android.widget.ListView")


class AllInOneActivity(Activity):
    """The calendar's views; the view and the day shown are its state, the events the provider's."""

    def on_create(self) -> None:
        prefs = self.app.data.setdefault("prefs", {})
        self.view = prefs.get(START_VIEW, "week")
        self.selected = self.today()
        self.previous: str | None = None  # the view BACK returns to (after a month's day was tapped)
        self.slot: tuple[dt.date, int] | None = None  # the empty hour tapped in the day/week view
        self.hours = ScrollState()
        self.agenda = ScrollState()
        self.scrolled_to: tuple | None = None  # the (view, day) the hours were scrolled for
        self.month_cache, self.day_cache, self.bar_cache = FrameCache(), FrameCache(), FrameCache()
        self.go_to_intent(self.intent)

    # ------------------------------------------------------------------ time

    @property
    def tz(self) -> dt.tzinfo:
        return dates.zone(self.context.timezone())

    @property
    def lang(self) -> str:
        return dates.language(self.context.locale())

    def now(self) -> dt.datetime:
        """The phone's local time."""
        return dates.local(self.context.current_time_millis(), self.tz)

    def today(self) -> dt.date:
        return self.now().date()

    def go_to_intent(self, intent: Intent) -> None:
        """Where an intent asks to open (AllInOneActivity.onCreate: parseViewAction, timeFromIntentInMillis)."""
        data = intent.data or ""
        prefix = "content://com.android.calendar/time/"
        if intent.action == ACTION_VIEW and data.startswith(prefix) and data[len(prefix) :].isdigit():
            self.selected = dates.local(int(data[len(prefix) :]), self.tz).date()
        if intent.extras.get("DETAIL_VIEW") is True:  # Utils.getViewTypeFromIntentAndSharedPref
            self.view = self.app.data["prefs"].get(DETAILED_VIEW, "day")
        elif intent.extras.get("VIEW") == "DAY":
            self.view = "day"
        self.log(TAG, f"view={self.view} date={self.selected.isoformat()}")

    # ------------------------------------------------------------------ views

    def build(self) -> View:
        today = self.today()
        weekday, date = self.title_texts(today)
        key = (weekday, date, today.day, self.lang)
        bar = self.bar_cache.get(key, partial(self.action_bar, weekday, date, today))
        pane = FrameLayout([self.main_view(today)], resource_id=RID + "main_pane", weight=1, height=0)
        return LinearLayout([bar, pane], height=-1)

    def action_bar(self, weekday: str, date: str, today: dt.date) -> View:
        """The view spinner (its button showing ``weekday`` over ``date``), Today, and the overflow menu."""
        s = self.string
        names = [s(f"{v}_view") for v in VIEWS]
        button = [TextView(date, resource_id=RID + "top_button_date", text_size=18, height=28)]
        if weekday:
            button.insert(0, TextView(weekday, resource_id=RID + "top_button_weekday", text_size=12, height=18))
        spinner = LinearLayout(
            [LinearLayout(button, padding=6)],
            cls="android.widget.Spinner",
            resource_id="android:id/action_bar_spinner",
            clickable=True,
            focusable=True,
            weight=1,
            width=0,
            height=56,
        )
        spinner.on_click = lambda: self.show(
            ViewMenu(list(zip(names, self.menu_dates())), VIEWS.index(self.view), self.pick_view, spinner.bounds)
        )
        return action_bar(
            [
                spinner,
                action_item("action_today", s("goto_today"), "today", self.go_today, label=str(today.day)),
                overflow_menu(self, [s("event_create"), s("calendar_refresh")], self.on_menu),
            ]
        )

    def title_texts(self, today: dt.date) -> tuple[str, str]:
        """The view button's weekday line (or "") and date line (CalendarViewAdapter.getView)."""
        lang, day = self.lang, self.selected
        if self.view in ("week", "month"):
            return "", dates.month_year(day, lang)
        weekday = dates.weekday_name(day, lang)
        if day == today:
            weekday = self.string("agenda_today", weekday)
        elif day == today + dt.timedelta(days=1):
            weekday = self.string("agenda_tomorrow", weekday)
        elif day == today - dt.timedelta(days=1):
            weekday = self.string("agenda_yesterday", weekday)
        return weekday.upper(), dates.full_date(day, lang)

    def menu_dates(self) -> list[str]:
        """The dropdown's date for each view (CalendarViewAdapter.getDropDownView)."""
        lang, day = self.lang, self.selected
        week = dates.week_range(dates.week_start(day, lang), lang)
        return [dates.month_day(day, lang), week, dates.month_name(day.month, lang), dates.month_day(day, lang)]

    def main_view(self, today: dt.date) -> View:
        tz, lang, day = self.tz, self.lang, self.selected
        is24 = self.context.is_24_hour()
        if self.view == "month":
            first = dates.week_start(day.replace(day=1), lang)
            events = load(self.context.content, first, first + dt.timedelta(days=7 * WEEKS - 1), tz)
            key = (first, day.month, today, tz, lang, tuple(events))
            return self.month_cache.get(
                key, partial(month_view, day, today, events, tz, lang, self.open_day, self.month_swipe)
            )
        if self.view == "agenda":
            events = load(self.context.content, day, day + dt.timedelta(days=30), tz)
            return agenda_view(day, today, events, tz, lang, is24, self.agenda, self.string, self.open_event)
        days = [day] if self.view == "day" else [dates.week_start(day, lang) + dt.timedelta(days=i) for i in range(7)]
        events = load(self.context.content, days[0], days[-1], tz)
        self.scroll_hours(days, events)
        now = self.now()
        key = (tuple(days), today, now.hour * 60 + now.minute, tz, lang, is24, tuple(events), self.slot)
        labels = {"no_title": self.string("no_title_label"), "new_event": self.string("day_view_new_event_hint")}
        actions = {"open": self.open_event, "select": self.select_slot, "create": self.create_at}
        parts, grid = self.day_cache.get(
            key, partial(day_grid, days, today, now, events, tz, lang, is24, self.slot, labels, actions)
        )
        return day_view(parts, grid, self.hours, self.swipe)

    def scroll_hours(self, days: list[dt.date], events: list[Event]) -> None:
        """Scroll a newly shown day or week to its first event's hour (else an hour before now, or 8 AM)."""
        key = (self.view, days[0])
        if self.scrolled_to == key:
            return
        self.scrolled_to = key
        starts = [dates.local(e.begin, self.tz) for e in events if not e.all_day]
        hours = [start.hour for start in starts if start.date() >= days[0]]
        if hours:
            hour = min(hours)
        elif self.today() in days:
            hour = max(0, self.now().hour - 1)
        else:
            hour = 8
        self.hours.scroll_to(hour * HOUR_DP * self.context.metrics.scale)

    # ------------------------------------------------------------------ what gestures do

    def go_to(self, view: str, day: dt.date | None = None, back_to: str | None = None) -> None:
        """CalendarController GO_TO: show ``view`` at ``day`` (remembered as the start view)."""
        self.previous = back_to
        self.view = view
        if day is not None:
            self.selected = day
        self.slot = None
        if view == "agenda":
            self.agenda.scroll_to(0)  # (the list starts at the day gone to)
        prefs = self.app.data.setdefault("prefs", {})
        prefs[START_VIEW] = view  # Utils.setDefaultView
        if view in ("day", "agenda"):
            prefs[DETAILED_VIEW] = view
        self.log(TAG, f"view={view} date={self.selected.isoformat()}")

    def pick_view(self, index: int) -> None:
        if VIEWS[index] != self.view:
            self.go_to(VIEWS[index])

    def go_today(self) -> None:
        self.scrolled_to = None
        self.go_to(self.view, self.today(), self.previous)

    def open_day(self, day: dt.date) -> None:
        """A month's day tapped: the detail view of that day, BACK returns to the month (onDayTapped)."""
        self.go_to(self.app.data["prefs"].get(DETAILED_VIEW, "day"), day, back_to=self.view)

    def on_back(self) -> bool:
        if self.previous is not None:
            self.go_to(self.previous)
            return True
        return False

    def month_swipe(self, drag: Drag) -> None:
        self.go_to("month", dates.add_months(self.selected, months_to_jump(drag)), self.previous)

    def swipe(self, drag: Drag) -> None:
        step = 1 if self.view == "day" else 7
        self.go_to(self.view, self.selected + dt.timedelta(days=step * swipe_direction(drag)), self.previous)

    def select_slot(self, day: dt.date, hour: int) -> None:
        self.slot = (day, hour)

    def create_at(self, day: dt.date, hour: int) -> None:
        begin = dates.millis(dt.datetime.combine(day, dt.time(hour), self.tz))
        self.new_event(begin)

    def on_menu(self, index: int) -> None:
        if index == 0:  # New event: the controller's day at now's time, rounded up to the half hour
            now = self.now()
            start = dt.datetime.combine(self.selected, dt.time(now.hour, now.minute), self.tz)
            if start.minute > 30:
                start = start.replace(minute=0) + dt.timedelta(hours=1)
            elif 0 < start.minute < 30:
                start = start.replace(minute=30)
            self.new_event(dates.millis(start))
        else:  # Refresh: the views read the provider on every frame already
            self.log(TAG, "refresh")

    def new_event(self, begin: int) -> None:
        """CREATE_EVENT: the editor for a new event from ``begin``, an hour long."""
        extras = {"beginTime": begin, "endTime": begin + 3_600_000}
        self.context.start_activity(
            Intent(ACTION_INSERT, component=(PACKAGE, EDIT), type="vnd.android.cursor.dir/event", extras=extras)
        )

    def open_event(self, event: Event) -> None:
        """VIEW_EVENT: the event's details."""
        extras = {"beginTime": event.begin, "endTime": event.end, "allDay": event.all_day}
        self.context.start_activity(
            Intent(ACTION_VIEW, component=(PACKAGE, INFO), data=f"{EVENTS_URI}/{event.id}", extras=extras)
        )

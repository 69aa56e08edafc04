"""The agenda view (AOSP ``AgendaFragment``, ``agenda_fragment.xml``): the coming days' events as a list.

``agenda_events_list`` lists, from the day chosen on, each day that has events — its header
(``agenda_day.xml``: ``day``, the weekday or "TODAY, ..."; ``date``) and its events
(``agenda_item.xml``: ``title``, ``when``, ``where``); a tap on an event opens it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from androidrl.virtual.apps.calendar.bar import RID
from androidrl.virtual.apps.calendar.dates import full_date, local, month_day, time_range, weekday_name
from androidrl.virtual.apps.calendar.events import Event
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import SURFACE, TEXT_SECONDARY, LinearLayout, ScrollingList, TextView, View

#: How many days from the chosen one the list covers (AgendaWindowAdapter loads a window this wide and more).
DAYS = 30


def agenda_view(
    first: dt.date,
    today: dt.date,
    events: list[Event],
    tz: dt.tzinfo,
    lang: str,
    is24: bool,
    scroll: ScrollState,
    string: Callable[..., str],
    on_open: Callable[[Event], None],
) -> View:
    """The agenda from ``first`` for :data:`DAYS` days.

    Args:
        first: The day the list starts at.
        today: Today in the phone's zone.
        events: The events of those days.
        tz: The phone's zone.
        lang: ``en`` or ``de``.
        is24: Times in 24-hour format.
        scroll: The list's scroll position.
        string: The app's strings (``Activity.string``).
        on_open: A tap on an event.
    """
    rows: list[View] = []
    for offset in range(DAYS):
        day = first + dt.timedelta(days=offset)
        shown = [e for e in events if e.on(day, tz)]
        if not shown:
            continue
        weekday = weekday_name(day, lang)
        if day == today:
            weekday = string("agenda_today", weekday)
        elif day == today + dt.timedelta(days=1):
            weekday = string("agenda_tomorrow", weekday)
        elif day == today - dt.timedelta(days=1):
            weekday = string("agenda_yesterday", weekday)
        rows.append(
            LinearLayout(
                [
                    TextView(weekday, resource_id=RID + "day", text_size=12, bold=True, width=200, height=32),
                    TextView(full_date(day, lang), resource_id=RID + "date", text_size=12, weight=1, width=0),
                ],
                vertical=False,
                padding=8,
                height=40,
                background=SURFACE,
            )
        )
        for event in shown:
            if event.all_day:
                when = month_day(local(event.begin, dt.timezone.utc).date(), lang)
            else:
                when = time_range(local(event.begin, tz), local(event.end, tz), is24, lang)
            texts: list[View] = [
                TextView(event.title or string("no_title_label"), resource_id=RID + "title", text_size=16, height=26),
                TextView(when, resource_id=RID + "when", text_size=13, text_color=TEXT_SECONDARY, height=22),
            ]
            if event.location:
                texts.append(
                    TextView(event.location, resource_id=RID + "where", text_size=13, text_color=TEXT_SECONDARY)
                )
            chip = View(width=6, height=-1, background=event.color)
            rows.append(
                LinearLayout(
                    [chip, LinearLayout(texts, resource_id=RID + "agenda_item_text_container", padding=8, weight=1)],
                    vertical=False,
                    cls="android.widget.GridLayout",
                    clickable=True,
                    focusable=True,
                    on_click=lambda e=event: on_open(e),
                )
            )
    return ScrollingList(rows, state=scroll, cls="android.widget.ListView", resource_id=RID + "agenda_events_list")

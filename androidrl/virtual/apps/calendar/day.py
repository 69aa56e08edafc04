"""The day and week views (AOSP ``DayFragment``/``DayView``, ``day_activity.xml``): the hours of 1 or 7 days.

A ``ViewSwitcher`` (``com.android.calendar:id/switcher``) holds the ``DayView``: the days' header, a
row of all-day events, and the 24 hours in a scrolling grid (``DayView`` scrolls itself) with the
timed events as blocks by the hour, side by side where they overlap (``EventGeometry``) and a line
at the current time. AOSP's DayView draws its events and announces them; here each block is also a
node (text its title, content-desc its title and time) so a dump shows what the screen does. A tap
on an event opens it; a tap on an empty hour selects it and shows "+ New event", which a tap
creates an event at (``DayView``'s second tap on a selected cell); a horizontal swipe moves to the
next or previous day (week).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from androidrl.virtual.apps.calendar.bar import RID, TODAY_COLOR
from androidrl.virtual.apps.calendar.dates import hour_label, local, time_range, weekday_short
from androidrl.virtual.apps.calendar.events import Event, columns
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import (
    DIVIDER,
    PRIMARY,
    SURFACE,
    TEXT_SECONDARY,
    Box,
    Drag,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)

HOUR_DP = 64  # DayView's default cell height
LABEL_DP = 48  # the hour labels' column
MIN_EVENT_DP = 18
NOW_LINE = (234, 67, 53)
SELECTED = (210, 227, 252)
#: Text on an event block: white in both themes (not a palette colour, so the dark theme keeps it).
ON_EVENT = (254, 254, 254)


@dataclass(frozen=True)
class Place:
    """Where a child of the grid goes: its day's column, its minutes of the day, its share of the column."""

    day: int  # the index of its day among those shown
    start: float  # minutes after midnight
    end: float
    column: int = 0  # its place among the events it overlaps
    columns: int = 1


class TimeGrid(View):
    """The 24 hours of ``days`` days: lines drawn, children placed by :class:`Place` (parallel to ``children``)."""

    def __init__(
        self,
        days: list[dt.date],
        places: list[Place],
        now: tuple[int, float] | None,
        hours: list[str],
        on_select: Callable[[dt.date, int], None],
        **kwargs,
    ) -> None:
        super().__init__(cls="android.view.View", height=24 * HOUR_DP, **kwargs)
        self.dates, self.days, self.places, self.now, self.hours = days, len(days), places, now, hours
        self.on_select = on_select
        self.on_tap = self.tapped
        self.scale = 1.0

    def geometry(self, box: Box, scale: float) -> tuple[int, float, float]:
        """(x where day 0 starts, a day column's width, an hour's height) in pixels."""
        left, top, right, bottom = box
        label = round(LABEL_DP * scale)
        return left + label, (right - left - label) / self.days, (bottom - top) / 24

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        super().layout(box, clip, scale)
        self.scale = scale
        x0, width, hour = self.geometry(box, scale)
        top = box[1]
        for child, place in zip(self.children, self.places):
            y1 = top + round(place.start * hour / 60)
            y2 = max(y1 + round(MIN_EVENT_DP * scale), top + round(place.end * hour / 60))
            share = width / place.columns
            x1 = round(x0 + place.day * width + place.column * share)
            x2 = round(x0 + place.day * width + (place.column + 1) * share) - max(1, round(scale))
            child.layout((x1, y1, x2, y2), self.visible, scale)

    def paint(self, scale: float) -> list[tuple]:
        x0, width, hour = self.geometry(self.bounds, scale)
        left, top, right, bottom = self.bounds
        line = max(1, round(scale))
        size = round(10 * scale * getattr(scale, "font", 1.0))
        ops: list[tuple] = []
        shown_top, shown_bottom = self.visible[1], self.visible[3]
        for h, label in enumerate(self.hours):
            y = top + round(h * hour)
            if y + hour < shown_top or y > shown_bottom:
                continue  # (scrolled out of sight: the layer would clip it anyway)
            ops.append(("rect", (x0, y, right, y + line), DIVIDER, 0))
            ops.append(("text", (left, y, x0, y + round(20 * scale)), label, size, TEXT_SECONDARY, False, "center"))
        for d in range(self.days):
            x = round(x0 + d * width)
            ops.append(("rect", (x, max(top, shown_top), x + line, min(bottom, shown_bottom)), DIVIDER, 0))
        if self.now is not None:
            day, minutes = self.now
            y = top + round(minutes * hour / 60)
            ops.append(
                ("rect", (round(x0 + day * width), y - line, round(x0 + (day + 1) * width), y + line), NOW_LINE, 0)
            )
        return ops

    def tapped(self, x: float, y: float) -> None:
        """A tap on an empty cell of the grid selects that day's hour (not on the labels' column)."""
        x0, width, hour = self.geometry(self.bounds, self.scale)
        if x >= x0:
            day = min(self.days - 1, int((x - x0) / width))
            self.on_select(self.dates[day], min(23, int((y - self.bounds[1]) / hour)))


class DayHeader(View):
    """The days' header DayView draws over its columns: the weekday above the date, today's in colour."""

    def __init__(self, days: list[tuple[str, str, bool]], **kwargs) -> None:
        super().__init__(cls="android.view.View", height=44, **kwargs)
        self.days = days

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        x0 = left + round(LABEL_DP * scale)
        width = (right - x0) / len(self.days)
        font = getattr(scale, "font", 1.0)
        ops: list[tuple] = []
        for i, (weekday, number, today) in enumerate(self.days):
            x1, x2 = round(x0 + i * width), round(x0 + (i + 1) * width)
            color = TODAY_COLOR if today else TEXT_SECONDARY
            mid = top + round(18 * scale)
            ops.append(("text", (x1, top, x2, mid), weekday, round(11 * scale * font), color, False, "center"))
            ops.append(("text", (x1, mid, x2, bottom), number, round(16 * scale * font), color, today, "center"))
        return ops


def day_grid(
    days: list[dt.date],
    today: dt.date,
    now: dt.datetime,
    events: list[Event],
    tz: dt.tzinfo,
    lang: str,
    is24: bool,
    selected_slot: tuple[dt.date, int] | None,
    labels: dict[str, str],
    actions: dict[str, Callable],
) -> tuple[list[View], TimeGrid]:
    """What the day view (one day) or the week view (seven) shows: the header rows, and the hours' grid.

    Args:
        days: The days shown, in order.
        today: Today in the phone's zone.
        now: The phone's local time.
        events: The events on those days.
        tz: The phone's zone.
        lang: ``en`` or ``de``.
        is24: Times in 24-hour format.
        selected_slot: The empty cell tapped last (day, hour), which shows "+ New event".
        labels: The app's strings: ``no_title`` and ``new_event``.
        actions: ``open(event)``, ``select(day, hour)``, ``create(day, hour)``.
    """
    heads = [(weekday_short(day.weekday(), lang).upper(), str(day.day), day == today) for day in days]
    parts: list[View] = [DayHeader(heads, background=SURFACE)]
    all_day = [e for e in events if e.all_day or (e.first_day(tz) != e.last_day(tz))]
    if all_day:
        cells: list[View] = [View(width=LABEL_DP, height=8)]
        for day in days:
            chips = [
                _event_block(e, labels["no_title"], actions["open"], e.title or labels["no_title"], height=22)
                for e in all_day
                if e.on(day, tz)
            ]
            cells.append(LinearLayout(chips, weight=1, width=0, height=-1, padding=1))  # (chips from the top)
        parts.append(LinearLayout(cells, vertical=False, background=SURFACE))
    children: list[View] = []
    places: list[Place] = []
    for index, day in enumerate(days):
        timed = [e for e in events if e not in all_day and e.on(day, tz)]
        for i, (column, total) in columns(timed).items():
            event = timed[i]
            start, end = local(event.begin, tz), local(event.end, tz)
            when = time_range(start, end, is24, lang)
            title = event.title or labels["no_title"]
            children.append(_event_block(event, labels["no_title"], actions["open"], f"{title}, {when}"))
            until = end.hour * 60 + end.minute or 24 * 60  # (an end at midnight is the day's end)
            places.append(Place(index, start.hour * 60 + start.minute, until, column, total))
    if selected_slot is not None and selected_slot[0] in days:
        day, hour = selected_slot
        children.append(
            TextView(
                labels["new_event"],
                background=SELECTED,
                text_color=PRIMARY,
                text_size=12,
                padding=4,
                clickable=True,
                focusable=True,
                on_click=lambda: actions["create"](day, hour),
            )
        )
        places.append(Place(days.index(day), hour * 60, hour * 60 + 60))
    now_at = (days.index(today), now.hour * 60 + now.minute) if today in days else None
    hours = [hour_label(h, is24) for h in range(24)]
    return parts, TimeGrid(days, places, now_at, hours, actions["select"], children=children)


def day_view(parts: list[View], grid: TimeGrid, scroll: ScrollState, on_swipe: Callable[[Drag], None]) -> View:
    """The ``ViewSwitcher`` of the day or week view: ``parts`` over the scrolling ``grid``."""
    hours = ScrollingList([grid], state=scroll, cls="android.view.View", weight=1, height=0)
    switcher = LinearLayout([*parts, hours], cls="android.widget.ViewSwitcher", resource_id=RID + "switcher", height=-1)
    switcher.drag_axis = "x"
    switcher.on_drag = on_swipe
    return switcher


def _event_block(event: Event, no_title: str, on_open: Callable, desc: str, height: float = -1) -> View:
    """An event drawn as a block of its calendar's colour with its title."""
    return TextView(
        event.title or no_title,
        content_desc=desc,
        background=event.color,
        text_color=ON_EVENT,
        text_size=12,
        padding=3,
        corner=3,
        height=height,
        clickable=True,
        focusable=True,
        on_click=lambda: on_open(event),
    )


def swipe_direction(drag: Drag) -> int:
    """+1 for a swipe to the left (the next day or week), -1 to the right."""
    return 1 if drag.x2 < drag.x1 else -1

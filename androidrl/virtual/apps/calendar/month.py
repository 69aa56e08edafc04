"""The month view (AOSP ``MonthByWeekFragment``, ``full_month_by_week.xml``): six weeks from the month's first.

The day names (``day_names``: ``d0_label``..``d6_label``, the locale's first day first) over the list
``android:id/list`` of ``MonthWeekEventsView`` rows. As on a phone (``show_details_in_month`` false)
a day shows its number and a coloured bar per event, not titles; a day of another month is greyed,
today is circled. Each day is a node with the date as content-desc (what the view announces on
hover) and taps through to that day (``onDayTapped``: the detail view). A vertical swipe moves a
month, or more when fast (``MonthListView.doFling``: above 2000 dp/s one more per 500 dp/s); a
horizontal swipe moves one month.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable

from androidrl.virtual.apps.calendar.bar import RID, TODAY_COLOR
from androidrl.virtual.apps.calendar.dates import first_weekday, full_date, month_day, week_start, weekday_short
from androidrl.virtual.apps.calendar.events import Event
from androidrl.virtual.ui.views import (
    DIVIDER,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Box,
    Drag,
    LinearLayout,
    TextView,
    View,
)

WEEKS = 6
#: MonthListView's fling thresholds in dp/s (MULTIPLE_MONTH_VELOCITY_THRESHOLD, FLING_VELOCITY_DIVIDER).
MULTIPLE_MONTH_DP_S, DIVIDER_DP_S = 2000, 500
MARKS = 4  # event bars a day cell has room for
OTHER_MONTH = (241, 243, 244)


class Slots(View):
    """Children in equal slots across it (a week's days) or down it (a month's weeks), to the pixel."""

    def __init__(self, children: list[View], vertical: bool, **kwargs) -> None:
        super().__init__(children=children, **kwargs)
        self.vertical = vertical

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        super().layout(box, clip, scale)
        left, top, right, bottom = box
        count = len(self.children)
        for i, child in enumerate(self.children):
            if self.vertical:
                part = (left, top + (bottom - top) * i // count, right, top + (bottom - top) * (i + 1) // count)
            else:
                part = (left + (right - left) * i // count, top, left + (right - left) * (i + 1) // count, bottom)
            child.layout(part, self.visible, scale)


class DayCell(View):
    """One day of a week row: its number, today's circle, a bar per event (drawn, no nodes)."""

    def __init__(self, day: dt.date, in_month: bool, today: bool, colors: list, **kwargs) -> None:
        super().__init__(cls="android.view.View", clickable=True, focusable=True, **kwargs)
        self.day, self.in_month, self.today, self.colors = day, in_month, today, colors
        self.drawn: tuple = (None, [])  # (where and at what scale, the ops): a reused cell draws as before

    def paint(self, scale: float) -> list[tuple]:
        font = getattr(scale, "font", 1.0)
        if self.drawn[0] == (self.bounds, scale, font):
            return self.drawn[1]
        left, top, right, bottom = self.bounds
        line = max(1, round(scale))
        # (the list's background shows between the days as the grid's lines)
        ops: list[tuple] = [
            ("rect", (left + line, top + line, right, bottom), WHITE if self.in_month else OTHER_MONTH, 0)
        ]
        size = round(24 * scale)
        x, y = left + (right - left - size) // 2, top + round(4 * scale)
        number = (x, y, x + size, y + size)
        color = TEXT if self.in_month else TEXT_SECONDARY
        if self.today:
            ops.append(("disc", number, TODAY_COLOR))
            color = WHITE
        ops.append(("text", number, str(self.day.day), round(13 * scale * font), color, self.today, "center"))
        y = number[3] + round(4 * scale)
        bar = max(2, round(4 * scale))
        inset = round(4 * scale)
        for shade in self.colors[:MARKS]:
            if y + bar > bottom:
                break
            ops.append(("rect", (left + inset, y, right - inset, y + bar), shade, max(1, bar // 2)))
            y += bar + max(1, round(2 * scale))
        self.drawn = ((self.bounds, scale, font), ops)
        return ops


@functools.lru_cache(maxsize=512)
def day_description(day: dt.date, this_year: int, lang: str) -> str:
    """A day's content-desc: its date, with the year when it is not this year's (FORMAT_SHOW_DATE)."""
    return month_day(day, lang) if day.year == this_year else full_date(day, lang)


def months_to_jump(drag: Drag) -> int:
    """How many months a swipe moves (positive: later), as MonthListView.doFling decides for a vertical one."""
    if drag.axis == "x":
        return 1 if drag.x2 < drag.x1 else -1
    velocity = drag.velocity()[1] / (drag.scale or 1.0)  # dp/s; negative: the finger went up
    extra = max(0, int((abs(velocity) - MULTIPLE_MONTH_DP_S) / DIVIDER_DP_S))
    return (1 + extra) * (1 if velocity < 0 else -1)


def month_view(
    shown: dt.date,
    today: dt.date,
    events: list[Event],
    tz: dt.tzinfo,
    lang: str,
    on_day: Callable[[dt.date], None],
    on_drag: Callable[[Drag], None],
) -> View:
    """The month of ``shown``: day names and six week rows.

    Args:
        shown: A day of the month shown.
        today: Today, in the phone's zone.
        events: The events of the six weeks.
        tz: The phone's zone.
        lang: ``en`` or ``de``.
        on_day: A tap on a day.
        on_drag: A swipe on the weeks.
    """
    first = week_start(shown.replace(day=1), lang)
    start = first_weekday(lang)
    names = [
        TextView(
            weekday_short((start + i) % 7, lang).upper(),
            resource_id=f"{RID}d{i}_label",
            gravity="center",
            text_size=12,
            text_color=TEXT_SECONDARY,
            weight=1,
            width=0,
            height=28,
        )
        for i in range(7)
    ]
    header = LinearLayout(names, vertical=False, resource_id=RID + "day_names", height=28, background=SURFACE)
    end = first + dt.timedelta(days=7 * WEEKS)
    marks: dict[dt.date, list] = {}
    for event in events:
        day, last = max(event.first_day(tz), first), min(event.last_day(tz), end)
        while day <= last:
            marks.setdefault(day, []).append(event.color)
            day += dt.timedelta(days=1)
    rows = []
    for week in range(WEEKS):
        cells = []
        for i in range(7):
            day = first + dt.timedelta(days=week * 7 + i)
            cells.append(
                DayCell(
                    day,
                    day.month == shown.month,
                    day == today,
                    marks.get(day, []),
                    content_desc=day_description(day, today.year, lang),
                    on_click=lambda d=day: on_day(d),
                )
            )
        rows.append(Slots(cells, vertical=False, cls="android.view.View"))
    weeks = Slots(
        rows,
        vertical=True,
        cls="android.widget.ListView",
        resource_id="android:id/list",
        scrollable=True,  # (MonthListView: a ListView of weeks without end, which a dump reports scrollable)
        background=DIVIDER,
        weight=1,
        height=0,
    )
    weeks.drag_axis = "xy"
    weeks.on_drag = on_drag
    return LinearLayout([header, weeks], resource_id=RID + "month", height=-1)

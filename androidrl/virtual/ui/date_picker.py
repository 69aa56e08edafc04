"""The framework's date picker in its dialog, as Android draws and reports it.

:class:`DatePickerDialog` is ``date_picker_material.xml`` (frameworks/base core/res/res/layout):
the header (``date_picker_header_year``, ``date_picker_header_date``), ``prev``/``next`` and
the month's days as ``SimpleMonthView``'s touch helper reports them (text the day,
content-desc ``dd MMMM yyyy``, clickable, the chosen day checked; the month's name and the day
initials are drawn, not nodes); a tap on the year shows the years.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Callable

from androidrl.virtual.ui.config import MONTHS, WEEKDAYS, current, framework_string, localized
from androidrl.virtual.ui.dialogs import picker_buttons
from androidrl.virtual.ui.views import (
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    WRAP,
    FrameLayout,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)
from androidrl.virtual.ui.window import Window, check_callback

#: The week's first day by language (Python's weekday: 0 Monday, 6 Sunday), as Calendar.getFirstDayOfWeek
#: gives it for en-US and de-DE.
FIRST_WEEKDAY = {"en": 6, "de": 0}


class _Caption(View):
    """The month's name, drawn by SimpleMonthView itself (no node of its own in the dump)."""

    def __init__(self, caption: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.caption = caption

    def paint(self, scale: float) -> list[tuple]:
        return [("text", self.bounds, self.caption, round(self.text_px(scale)), TEXT, True, "center")]


class _WeekdayInitials(View):
    """The week's day initials over the days, drawn by SimpleMonthView itself (``drawDaysOfWeek``: no nodes)."""

    def __init__(self, letters: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.letters = letters

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        size = round(12 * scale * getattr(scale, "font", 1.0))
        ops = []
        for i, letter in enumerate(self.letters):
            box = (left + (right - left) * i // 7, top, left + (right - left) * (i + 1) // 7, bottom)
            ops.append(("text", box, letter, size, TEXT_SECONDARY, False, "center"))
        return ops


class DatePickerDialog(Window):
    """``android.app.DatePickerDialog``: pick a day on a month's calendar.

    Args:
        year: The year shown first.
        month: The month shown first, 1-12 (Android's listener counts from 0; this one from 1).
        day: The day chosen first.
        on_set: Called with (year, month 1-12, day) when OK is tapped (a bound method or partial).
        on_dismiss: Runs when the dialog goes.
    """

    def __init__(
        self,
        year: int,
        month: int,
        day: int,
        on_set: Callable[[int, int, int], None],
        on_dismiss: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(on_dismiss)
        check_callback("DatePickerDialog", "on_set", on_set)
        dt.date(year, month, day)  # a ValueError names a day that does not exist
        self.year, self.month, self.day, self.on_set = year, month, day, on_set
        self.page = (year, month)  # the month on show
        self.years = False  # the year list instead of the month
        self.year_scroll = None

    def build(self) -> View:
        chosen = dt.date(self.year, self.month, self.day)
        weekday = localized(WEEKDAYS)[chosen.weekday()]
        month_name = localized(MONTHS)[self.month - 1]
        header = LinearLayout(
            [
                TextView(
                    str(self.year),
                    resource_id="android:id/date_picker_header_year",
                    clickable=True,
                    focusable=True,
                    text_color=PRIMARY if self.years else TEXT_SECONDARY,
                    text_size=16,
                    height=32,
                    on_click=self.show_years,
                ),
                TextView(
                    f"{weekday}, {month_name[:3]} {self.day}",
                    resource_id="android:id/date_picker_header_date",
                    clickable=True,
                    focusable=True,
                    text_size=30,
                    height=48,
                    on_click=self.show_days,
                    text_color=TEXT if self.years else PRIMARY,
                ),
            ],
            resource_id="android:id/date_picker_header",
            padding=16,
            background=SURFACE,
        )
        body = self._year_list() if self.years else self._month()
        bottom = LinearLayout([picker_buttons(self.cancel, self.ok)], vertical=False, height=56)
        return LinearLayout(
            [header, body, bottom], cls="android.widget.DatePicker", resource_id="android:id/datePicker"
        )

    def _month(self) -> View:
        year, month = self.page
        title = f"{localized(MONTHS)[month - 1]} {year}"
        nav = LinearLayout(
            [
                ImageView(
                    glyph="<",
                    color=WHITE,
                    glyph_color=TEXT_SECONDARY,
                    resource_id="android:id/prev",
                    content_desc=framework_string("date_picker_prev_month_button"),
                    clickable=True,
                    focusable=True,
                    width=48,
                    height=48,
                    on_click=self.previous_month,
                ),
                _Caption(title, weight=1, width=0, height=48),
                ImageView(
                    glyph=">",
                    color=WHITE,
                    glyph_color=TEXT_SECONDARY,
                    resource_id="android:id/next",
                    content_desc=framework_string("date_picker_next_month_button"),
                    clickable=True,
                    focusable=True,
                    width=48,
                    height=48,
                    on_click=self.next_month,
                ),
            ],
            vertical=False,
            height=48,
        )
        first = FIRST_WEEKDAY.get(current().language, 0)
        names = localized(WEEKDAYS)
        heads = [names[(first + i) % 7][0] for i in range(7)]
        weeks: list[View] = [_WeekdayInitials(heads, height=28)]
        cells: list[View] = []
        offset = (dt.date(year, month, 1).weekday() - first) % 7
        cells += [View(weight=1, width=0, height=40) for _ in range(offset)]
        for day in range(1, calendar.monthrange(year, month)[1] + 1):
            chosen = (year, month, day) == (self.year, self.month, self.day)
            cells.append(
                TextView(  # (MonthViewTouchHelper's virtual view of the day: clickable, checked when chosen)
                    str(day),
                    cls="android.view.View",
                    content_desc=f"{day:02d} {localized(MONTHS)[month - 1]} {year}",
                    clickable=True,
                    checked=chosen,
                    gravity="center",
                    text_color=WHITE if chosen else TEXT,
                    background=PRIMARY if chosen else None,
                    corner=20,
                    weight=1,
                    width=0,
                    height=40,
                    on_click=lambda d=day: self.pick_day(d),
                )
            )
        while len(cells) % 7:
            cells.append(View(weight=1, width=0, height=40))
        weeks += [LinearLayout(cells[i : i + 7], vertical=False, height=40) for i in range(0, len(cells), 7)]
        month_view = LinearLayout(weeks, cls="android.view.View")  # SimpleMonthView (its days: virtual nodes)
        pager = FrameLayout(
            [month_view], cls="android.view.ViewGroup", resource_id="android:id/day_picker_view_pager", height=WRAP
        )
        return LinearLayout(
            [nav, pager], cls="android.view.ViewGroup", padding=8, resource_id="android:id/date_picker_day_picker"
        )

    def _year_list(self) -> View:
        years = range(1900, 2101)
        rows = [
            TextView(
                str(y),
                resource_id="android:id/text1",
                gravity="center",
                clickable=True,
                focusable=True,
                text_size=18 if y == self.year else 16,
                bold=y == self.year,
                text_color=PRIMARY if y == self.year else TEXT,
                height=48,
                on_click=lambda y=y: self.pick_year(y),
            )
            for y in years
        ]
        scroll = (self.year - years[0] - 2) * 48  # the chosen year near the top, as YearPickerView shows it
        return ScrollingList(
            rows,
            scroll_y=self.year_scroll if self.year_scroll is not None else scroll,
            on_scroll=self.scrolled_years,
            cls="android.widget.ListView",
            resource_id="android:id/date_picker_year_picker",
            height=288,
        )

    # ------------------------------------------------------------------ actions (taps)

    def pick_day(self, day: int) -> None:
        self.year, self.month = self.page
        self.day = day

    def pick_year(self, year: int) -> None:
        """A year from the list: the same day and month in it (the 28th for Feb 29), back to the month."""
        self.year = year
        self.day = min(self.day, calendar.monthrange(year, self.month)[1])
        self.page, self.years, self.year_scroll = (year, self.month), False, None

    def scrolled_years(self, offset: int) -> None:
        self.year_scroll = offset

    def show_years(self) -> None:
        self.years = True

    def show_days(self) -> None:
        self.years = False

    def previous_month(self) -> None:
        year, month = self.page
        self.page = (year - 1, 12) if month == 1 else (year, month - 1)

    def next_month(self) -> None:
        year, month = self.page
        self.page = (year + 1, 1) if month == 12 else (year, month + 1)

    def ok(self) -> None:
        self.dismiss()
        self.on_set(self.year, self.month, self.day)

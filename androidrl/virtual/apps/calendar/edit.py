"""``com.android.calendar.event.EditEventActivity``: a new event's or an existing one's editor (AOSP EditEventView).

Laid out as ``edit_event.xml``/``edit_event_1.xml`` on a phone: the custom action bar's
``action_cancel`` and ``action_done`` ("Cancel", "Done"), then in ``scroll_view`` the calendar
(``calendars_spinner``, or ``calendar_textview`` for an existing event), ``title`` ("Event name"),
``location``, the From row (``start_date``, ``start_time``), the To row (``end_date``,
``end_time``), the ``is_all_day`` CheckBox and ``description``. The date buttons open the
framework's DatePickerDialog, the time buttons its TimePickerDialog, and they keep the event's
length as EditEventView's DateListener/TimeListener do. Done (and BACK, as the fragment saves in
``onPause``) writes the row as EditEventHelper.getContentValuesFromModel does — ``calendar_id``,
``eventTimezone`` (the phone's zone; UTC for all-day), ``title``, ``allDay``, ``dtstart``, ``dtend``
(an all-day event from midnight UTC of its first day to midnight UTC after its last) — and toasts
"Event created." or "Event saved."; a new event left untouched is not created ("Empty event not
created."). Intents: ``INSERT`` (``vnd.android.cursor.dir/event``) with CalendarContract's extras
``title``, ``beginTime``, ``endTime`` (ms), ``allDay``, ``description``, ``eventLocation`` prefill a
new event; ``EDIT`` of ``content://com.android.calendar/events/ID`` edits that one.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from androidrl.virtual.apps.calendar import dates
from androidrl.virtual.apps.calendar.bar import RID, ActionIcon, action_bar
from androidrl.virtual.apps.calendar.events import EVENTS_URI
from androidrl.virtual.apps.calendar.info import event_id
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.content import ProviderError
from androidrl.virtual.ui.controls import CheckBox
from androidrl.virtual.ui.date_picker import DatePickerDialog
from androidrl.virtual.ui.dialogs import spinner
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.time_picker import TimePickerDialog
from androidrl.virtual.ui.views import TEXT, TEXT_SECONDARY, Button, LinearLayout, ScrollingList, TextView, View

TAG = "Calendar"
HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)
FIELDS = ("title", "location", "description")
EDIT_COLUMNS = ["calendar_id", "title", "dtstart", "dtend", "allDay", "eventTimezone", "eventLocation", "description",
                "calendar_displayName"]  # fmt: skip
#: Calendars an event may be written to (EditEventHelper: CAL_ACCESS_CONTRIBUTOR or more, visible).
WRITABLE = "calendar_access_level>=500 AND visible=1"


def long_extra(extras: dict, key: str) -> int:
    """``Intent.getLongExtra(key, -1)``: an integer extra, -1 when absent or not a number."""
    value = extras.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


class EditEventActivity(Activity):
    """The event's fields live here until Done; the saved event is the provider's row."""

    def on_create(self) -> None:
        self.event_id = event_id(self.intent.data)
        self.scroll = ScrollState()
        self.focus = ""
        self.title, self.location, self.description = TextState(), TextState(), TextState()
        row = self.read_row() if self.event_id >= 0 else None
        self.missing = row is None and self.event_id >= 0  # EDIT of an event that is not there
        begin, end = self.from_row(row) if row is not None else self.from_intent(self.intent.extras)
        tz = dt.timezone.utc if self.all_day else dates.zone(self.tz_name)
        self.start = dates.local(begin, tz).replace(tzinfo=None)
        self.end = dates.local(end, tz).replace(tzinfo=None)
        if self.all_day:  # the last day shows, not the midnight after it; times show in the phone's zone
            self.end = max(self.start, self.end - DAY) if self.end.time() == dt.time() else self.end
            self.tz_name = self.context.timezone()
        self.original = self.values() if row is not None else None
        self.initial = (self.start, self.end, self.all_day)

    def from_row(self, row: dict[str, Any]) -> tuple[int, int]:
        """An existing event's fields (EditEventHelper.setModelFromCursor); its (begin, end)."""
        self.calendar_id, self.calendar_name = int(row["calendar_id"]), str(row["calendar_displayName"] or "")
        self.all_day = bool(row["allDay"])
        self.tz_name = "UTC" if self.all_day else str(row["eventTimezone"] or self.context.timezone())
        self.title.set(row["title"] or "")
        self.location.set(row["eventLocation"] or "")
        self.description.set(row["description"] or "")
        begin = int(row["dtstart"] or 0)
        return begin, int(row["dtend"] if row["dtend"] is not None else begin)

    def from_intent(self, extras: dict[str, Any]) -> tuple[int, int]:
        """A new event from the intent's extras (EditEventActivity.getEventInfoFromIntent); its (begin, end)."""
        self.event_id = -1
        self.calendar_id, self.calendar_name = self.first_calendar()
        self.all_day = extras.get("allDay") is True
        self.tz_name = self.context.timezone()
        for state, key in ((self.title, "title"), (self.location, "eventLocation"), (self.description, "description")):
            if isinstance(extras.get(key), str):
                state.set(extras[key])
        begin, end = long_extra(extras, "beginTime"), long_extra(extras, "endTime")
        if begin <= 0:  # EditEventHelper.constructDefaultStartTime: the next half hour
            now = self.context.current_time_millis()
            begin = now - now % 1_800_000 + 1_800_000
        if end < begin:
            end = begin + 3_600_000  # constructDefaultEndTime: an hour
        return begin, end

    # ------------------------------------------------------------------ the provider

    def read_row(self) -> dict[str, Any] | None:
        try:
            rows = self.context.content.query(f"{EVENTS_URI}/{self.event_id}", EDIT_COLUMNS, "deleted=0", [], None)
        except ProviderError:
            return None
        return rows[0] if rows else None

    def first_calendar(self) -> tuple[int, str]:
        """The calendar a new event goes to: the first one it may be written to (-1 if none)."""
        try:
            rows = self.context.content.query(
                "content://com.android.calendar/calendars", ["_id", "calendar_displayName"], WRITABLE, [], "_id"
            )
        except ProviderError:
            rows = []
        return (int(rows[0]["_id"]), str(rows[0]["calendar_displayName"] or "")) if rows else (-1, "")

    def values(self) -> dict[str, Any]:
        """The row to write (EditEventHelper.getContentValuesFromModel)."""
        if self.all_day:
            timezone = "UTC"
            begin = dates.millis(dt.datetime.combine(self.start.date(), dt.time(), dt.timezone.utc))
            end = dates.millis(dt.datetime.combine(self.end.date() + DAY, dt.time(), dt.timezone.utc))
            end = max(end, begin + dates.DAY_MS)
        else:
            timezone, tz = self.tz_name, dates.zone(self.tz_name)
            begin, end = dates.millis(self.start.replace(tzinfo=tz)), dates.millis(self.end.replace(tzinfo=tz))
        return {
            "calendar_id": self.calendar_id,
            "eventTimezone": timezone,
            "title": self.title.text,
            "allDay": int(self.all_day),
            "dtstart": begin,
            "rrule": None,
            "duration": None,
            "dtend": end,
            "description": self.description.text.strip(),
            "eventLocation": self.location.text.strip(),
            "availability": 0,
            "hasAttendeeData": 1,
            "accessLevel": 0,
            "eventStatus": 1,
        }

    def save(self) -> None:
        """EditEventFragment's Done with DONE_SAVE: write the event if there is something to write."""
        s = self.string
        if self.missing or self.calendar_id < 0:
            return
        if self.original is None:
            untouched = (self.start, self.end, self.all_day) == self.initial
            if untouched and not (self.title.text or self.location.text.strip() or self.description.text.strip()):
                self.toast(s("empty_event"))  # isEmptyNewEvent
                return
            uri = self.context.content.insert(EVENTS_URI, self.values())
            self.event_id = event_id(uri)
            self.log(TAG, f"created event {self.event_id}: {self.summary()}")
            self.original = self.values()
            self.toast(s("creating_event"))
            return
        values = self.values()
        if values == self.original:
            return  # saveEvent: an unchanged model is not written
        self.context.content.update(f"{EVENTS_URI}/{self.event_id}", values)
        self.original = values
        self.log(TAG, f"updated event {self.event_id}: {self.summary()}")
        self.toast(s("saving_event"))

    def summary(self) -> str:
        span = f"{self.start.date()}" + ("" if self.start.date() == self.end.date() else f"..{self.end.date()}")
        times = "all day" if self.all_day else f"{self.start:%H:%M}-{self.end:%H:%M}"
        return f"{self.title.text!r} {span} {times}"

    # ------------------------------------------------------------------ views

    def build(self) -> View:
        s = self.string
        bar = action_bar(
            [
                self.bar_button("action_cancel", s("discard_label"), "cancel", self.cancel),
                self.bar_button("action_done", s("save_label"), "done", self.done),
            ]
        )
        if self.missing:
            return LinearLayout([bar, TextView(s("event_not_found"), gravity="center", height=96)], height=-1)
        lang, is24 = dates.language(self.context.locale()), self.context.is_24_hour()
        if self.original is None:
            names = [self.calendar_name] if self.calendar_id >= 0 else []
            calendar: View = spinner(self, names, 0, self.pick_calendar, resource_id=RID + "calendars_spinner")
        else:
            calendar = TextView(self.calendar_name, resource_id=RID + "calendar_textview", padding=12, height=48)
        rows: list[View] = [
            calendar,
            self.field("title", self.title, s("hint_what")),
            self.field("location", self.location, s("hint_where")),
            self.when_row("from", s("edit_event_from_label"), self.start, lang, is24),
            self.when_row("to", s("edit_event_to_label"), self.end, lang, is24),
            LinearLayout(
                [
                    CheckBox(
                        "",
                        self.all_day,
                        resource_id=RID + "is_all_day",
                        content_desc=s("accessibility_all_day"),
                        on_click=self.toggle_all_day,
                        width=48,
                    ),
                    TextView(s("edit_event_all_day_label"), resource_id=RID + "is_all_day_label", weight=1, width=0),
                ],
                vertical=False,
                resource_id=RID + "all_day_row",
                height=56,
            ),
            self.field("description", self.description, s("hint_description")),
        ]
        body = ScrollingList(
            rows,
            state=self.scroll,
            cls="android.widget.ScrollView",
            resource_id=RID + "scroll_view",
            weight=1,
            height=0,
        )
        return LinearLayout([bar, body], resource_id=RID + "edit_event", height=-1)

    @staticmethod
    def bar_button(item_id: str, label: str, icon: str, on_click) -> View:
        """One of the custom action bar's buttons (an ImageView and its label in a clickable LinearLayout)."""
        return LinearLayout(
            [
                ActionIcon(
                    icon, cls="android.widget.ImageView", clickable=False, focusable=False, long_clickable=False
                ),
                TextView(label, text_size=14, bold=True, weight=1, width=0),
            ],
            vertical=False,
            resource_id=RID + item_id,
            clickable=True,
            focusable=True,
            weight=1,
            width=0,
            height=56,
            on_click=on_click,
        )

    def field(self, name: str, state: TextState, hint: str) -> View:
        view = edit_text(
            self,
            state,
            self.focus == name,
            partial(self.focus_on, name),
            hint=hint,
            resource_id=RID + name,
            on_action=partial(self.next_field, name),
        )
        if name == "location":
            view.cls = "android.widget.AutoCompleteTextView"
        return view

    def when_row(self, which: str, label: str, when: dt.datetime, lang: str, is24: bool) -> View:
        """The From or To row: its label, then the date and (unless all day) the time buttons."""
        start = which == "from"
        pick = "start" if start else "end"
        buttons: list[View] = [
            self.picker_button(
                f"{pick}_date",
                dates.short_date(when.date(), lang),
                self.string(f"accessibility_pick_{pick}_date"),
                self.pick_start_date if start else self.pick_end_date,
                7,
            )
        ]
        if not self.all_day:
            buttons.append(
                self.picker_button(
                    f"{pick}_time",
                    dates.time_text(when.hour, when.minute, is24),
                    self.string(f"accessibility_pick_{pick}_time"),
                    self.pick_start_time if start else self.pick_end_time,
                    4,
                )
            )
        return LinearLayout(
            [
                TextView(label, resource_id=f"{RID}{which}_label", text_size=12, text_color=TEXT_SECONDARY, padding=4),
                LinearLayout(buttons, vertical=False, height=48),
            ],
            resource_id=f"{RID}{which}_row",
            padding=4,
        )

    @staticmethod
    def picker_button(name: str, text: str, desc: str, on_click, weight: float) -> View:
        return Button(
            text,
            resource_id=RID + name,
            content_desc=desc,
            background=None,
            text_color=TEXT,
            bold=False,
            gravity="start",
            padding=8,
            weight=weight,
            width=0,
            height=48,
            on_click=on_click,
        )

    # ------------------------------------------------------------------ what taps do

    def focus_on(self, name: str) -> None:
        self.focus = name

    def next_field(self, name: str) -> None:
        """The IME action: the next field (Next), or none after the last (Done)."""
        index = FIELDS.index(name)
        self.focus = FIELDS[index + 1] if index + 1 < len(FIELDS) else ""

    def pick_calendar(self, index: int) -> None:
        """The calendars spinner (one writable calendar: the choice stays)."""

    def toggle_all_day(self) -> None:
        """EditEventView.setAllDayViewsVisibility: the time buttons go; a midnight end shows its last day."""
        self.all_day = not self.all_day
        if self.all_day and self.end.time() == dt.time() and self.end.date() > self.start.date():
            self.end -= DAY
        if not self.all_day and self.end <= self.start:
            self.end = self.start + HOUR

    def pick_start_date(self) -> None:
        self.show(DatePickerDialog(self.start.year, self.start.month, self.start.day, self.set_start_date))

    def pick_end_date(self) -> None:
        self.show(DatePickerDialog(self.end.year, self.end.month, self.end.day, self.set_end_date))

    def pick_start_time(self) -> None:
        self.show(
            TimePickerDialog(self, self.start.hour, self.start.minute, self.set_start_time, self.context.is_24_hour())
        )

    def pick_end_time(self) -> None:
        self.show(TimePickerDialog(self, self.end.hour, self.end.minute, self.set_end_time, self.context.is_24_hour()))

    def set_start_date(self, year: int, month: int, day: int) -> None:
        """DateListener, start: the end moves with it (the length stays)."""
        moved = self.start.replace(year=year, month=month, day=day)
        self.end += moved - self.start
        self.start = moved

    def set_end_date(self, year: int, month: int, day: int) -> None:
        """DateListener, end: never before the start."""
        self.end = max(self.start, self.end.replace(year=year, month=month, day=day))

    def set_start_time(self, hour: int, minute: int) -> None:
        """TimeListener, start: the end moves with it (the length stays)."""
        moved = self.start.replace(hour=hour, minute=minute)
        self.end += moved - self.start
        self.start = moved

    def set_end_time(self, hour: int, minute: int) -> None:
        """TimeListener, end: an end before the start is on the next day."""
        self.end = self.end.replace(hour=hour, minute=minute)
        if self.end < self.start:
            self.end = dt.datetime.combine(self.start.date() + DAY, self.end.time())

    def done(self) -> None:
        self.save()
        self.finish()

    def cancel(self) -> None:
        """DONE_REVERT: nothing is written."""
        self.finish()

    def on_back(self) -> bool:
        """BACK pauses the editor, and EditEventFragment.onPause saves what it holds."""
        self.save()
        return False

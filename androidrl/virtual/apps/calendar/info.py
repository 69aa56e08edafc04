"""``com.android.calendar.EventInfoActivity``: one event's details, with Edit and Delete (AOSP ``EventInfoFragment``).

It shows ``content://com.android.calendar/events/ID`` (its intent's data) as ``event_info.xml`` lays it
out: the headline (``title``, ``when_datetime`` as Utils.getDisplayedDatetime words it — "Today at
10:00 – 11:00 AM", "Monday, June 22, 10:00 – 11:00 AM" — and ``where``), the calendar
(``calendar_name``) and the ``description``; "Event not found." (``event_info_error_msg``) when the
row is gone. The action bar's items are ``info_action_edit`` (the editor, ACTION_EDIT of the event)
and ``info_action_delete``, which asks "Delete this event?" (DeleteEventHelper: OK / Cancel) and
then deletes the row and closes. What it reads comes from the provider on every frame, so an edit
shows when it returns.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from androidrl.virtual.apps.calendar import dates
from androidrl.virtual.apps.calendar.bar import PACKAGE, RID, action_bar, action_item, spacer
from androidrl.virtual.apps.calendar.events import EVENTS_URI
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.content import ProviderError
from androidrl.virtual.system.framework.intent import ACTION_EDIT, Intent
from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import TEXT_SECONDARY, LinearLayout, ScrollingList, TextView, View

INFO_COLUMNS = ["title", "dtstart", "dtend", "allDay", "eventLocation", "description", "calendar_displayName"]
TAG = "Calendar"


def event_id(data: str | None) -> int:
    """The id in ``content://com.android.calendar/events/ID``, or -1."""
    prefix = EVENTS_URI + "/"
    if data and data.startswith(prefix) and data[len(prefix) :].isdigit():
        return int(data[len(prefix) :])
    return -1


def read_event(context, ident: int) -> dict[str, Any] | None:
    """The event's row (``INFO_COLUMNS``), or None when there is none."""
    if ident < 0:
        return None
    try:
        rows = context.content.query(f"{EVENTS_URI}/{ident}", INFO_COLUMNS, "deleted=0", [], None)
    except ProviderError:
        return None
    return rows[0] if rows else None


def displayed_datetime(
    begin: int, end: int, now: int, tz: dt.tzinfo, all_day: bool, is24: bool, lang: str, string: Callable[..., str]
) -> str:
    """``Utils.getDisplayedDatetime``: the event's time as its details show it."""
    today = dates.local(now, tz).date()
    tomorrow = today + dt.timedelta(days=1)
    if all_day:
        first = dates.local(begin, dt.timezone.utc).date()
        last = dates.local(max(begin, end - 1), dt.timezone.utc).date()
        if first == last and first in (today, tomorrow):
            return string("today" if first == today else "tomorrow")
        text = dates.weekday_date(first, lang, first.year != today.year)
        if last != first:
            text += f" {dates.DASH} " + dates.weekday_date(last, lang, last.year != today.year)
        return text
    start, stop = dates.local(begin, tz), dates.local(end, tz)
    if begin == end or start.date() == dates.local(end - 1, tz).date():
        times = dates.time_range(start, stop, is24, lang)
        if start.date() == today:
            return string("today_at_time_fmt", times)
        if start.date() == tomorrow:
            return string("tomorrow_at_time_fmt", times)
        return string("date_time_fmt", dates.weekday_date(start.date(), lang, start.year != today.year), times)
    return dates.when_text(start, stop, is24, lang)


class EventInfoActivity(Activity):
    """An event's details; the event is the provider's row, read each frame."""

    def on_create(self) -> None:
        self.event_id = event_id(self.intent.data)
        self.scroll = ScrollState()

    def build(self) -> View:
        s = self.string
        row = read_event(self.context, self.event_id)
        items: list[View] = [spacer()]
        if row is not None:
            items += [
                action_item("info_action_edit", s("edit_label"), "edit", self.edit),
                action_item("info_action_delete", s("delete_label"), "delete", self.confirm_delete),
            ]
        bar = action_bar(items, on_up=self.finish)
        if row is None:
            missing = TextView(
                s("event_not_found"), resource_id=RID + "event_info_error_msg", gravity="center", height=96
            )
            return LinearLayout([bar, missing], height=-1)
        tz, lang = dates.zone(self.context.timezone()), dates.language(self.context.locale())
        begin = int(row["dtstart"] or 0)
        end = int(row["dtend"] if row["dtend"] is not None else begin)
        when = displayed_datetime(
            begin, end, self.context.current_time_millis(), tz, bool(row["allDay"]), self.context.is_24_hour(), lang, s
        )
        headline: list[View] = [
            TextView(row["title"] or s("no_title_label"), resource_id=RID + "title", text_size=22, padding=4),
            TextView(when, resource_id=RID + "when_datetime", text_size=16, padding=4),
        ]
        if row["eventLocation"]:
            headline.append(TextView(row["eventLocation"], resource_id=RID + "where", text_size=16, padding=4))
        body: list[View] = [
            LinearLayout(headline, resource_id=RID + "event_info_headline", padding=12),
            LinearLayout(
                [
                    TextView(s("view_event_calendar_label"), resource_id=RID + "calendar_label", width=90, height=32),
                    TextView(row["calendar_displayName"] or "", resource_id=RID + "calendar_name", weight=1, width=0),
                ],
                vertical=False,
                resource_id=RID + "calendar_container",
                padding=12,
            ),
        ]
        if row["description"]:
            body.append(
                TextView(row["description"], resource_id=RID + "description", text_color=TEXT_SECONDARY, padding=16)
            )
        info = ScrollingList(
            body,
            state=self.scroll,
            cls="android.widget.ScrollView",
            resource_id=RID + "event_info_scroll_view",
            weight=1,
            height=0,
        )
        return LinearLayout([bar, info], height=-1)

    def edit(self) -> None:
        """EventInfoFragment.doEdit: the editor for this event."""
        self.context.start_activity(
            Intent(
                ACTION_EDIT,
                component=(PACKAGE, f"{PACKAGE}.event.EditEventActivity"),
                data=f"{EVENTS_URI}/{self.event_id}",
            )  # fmt: skip
        )

    def confirm_delete(self) -> None:
        self.show(
            AlertDialog(
                "",
                self.string("delete_this_event_title"),
                positive=(framework_string("ok"), self.delete),
                negative=(framework_string("cancel"), None),
            )
        )

    def delete(self) -> None:
        """DeleteEventHelper's OK: the event's row goes (a local event at once), then this screen."""
        row = read_event(self.context, self.event_id)
        if row is not None:
            self.context.content.delete(f"{EVENTS_URI}/{self.event_id}")
            self.log(TAG, f"deleted event {self.event_id}: {row['title']}")
        self.finish()

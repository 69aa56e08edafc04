"""The calendar provider, ``content://com.android.calendar/calendars|events|instances`` (``CalendarContract``).

As packages/providers/CalendarProvider CalendarProvider2.java and CalendarDatabaseHelper.java, in
the columns a task reads: an event (``title``, ``dtstart``/``dtend`` in ms since the epoch,
``eventTimezone``, ``allDay``, ``description``, ``eventLocation``...) belongs to a calendar, and a
query of ``events`` carries its calendar's columns too (``calendar_displayName``, ``account_name``...).
An insert is checked as ``validateEventData`` checks it (a ``calendar_id``, an ``eventTimezone``, a
``dtstart``, and a ``dtend`` or a ``duration``). ``instances/when/BEGIN/END`` lists the events that
overlap the span (single events only: recurrences are not expanded). A new database has one local
calendar, "Phone" (account type ``LOCAL``), as a phone with the Calendar app's local account; a
local event's delete removes it at once, as CalendarProvider2 does for events with no sync id. An all-day
event's times are moved to midnight UTC (``fixAllDayTime``), and ``time/MS`` is of type ``time/epoch``
(what the Calendar app's VIEW filter asks for).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from androidrl.virtual.system.framework.content import ILLEGAL_ARGUMENT, UNSUPPORTED, ProviderError, Uri
from androidrl.virtual.system.framework.database import Match, Route, SQLiteProvider

AUTHORITY = "com.android.calendar"
EVENTS = f"content://{AUTHORITY}/events"
DAY_MS = 86_400_000
CALENDARS = f"content://{AUTHORITY}/calendars"

CALENDAR_COLUMNS = (
    "_id", "account_name", "account_type", "_sync_id", "dirty", "name", "calendar_displayName", "calendar_color",
    "calendar_access_level", "visible", "sync_events", "calendar_location", "calendar_timezone", "ownerAccount",
    "isPrimary", "canOrganizerRespond", "canModifyTimeZone", "maxReminders", "allowedReminders", "deleted",
)  # fmt: skip
EVENT_TABLE_COLUMNS = (
    "_id", "_sync_id", "dirty", "calendar_id", "title", "eventLocation", "description", "eventColor", "eventStatus",
    "selfAttendeeStatus", "dtstart", "dtend", "eventTimezone", "duration", "allDay", "accessLevel", "availability",
    "hasAlarm", "hasExtendedProperties", "rrule", "rdate", "exrule", "exdate", "original_id", "originalInstanceTime",
    "originalAllDay", "lastDate", "hasAttendeeData", "guestsCanModify", "guestsCanInviteOthers",
    "guestsCanSeeGuests", "organizer", "isOrganizer", "deleted", "eventEndTimezone", "customAppPackage",
    "customAppUri", "uid2445",
)  # fmt: skip
#: The calendar's columns an event row carries (``Views.EVENTS``).
EVENT_CALENDAR_COLUMNS = (
    "account_name", "account_type", "calendar_displayName", "calendar_color", "calendar_access_level", "visible",
    "calendar_timezone", "ownerAccount",
)  # fmt: skip
EVENT_COLUMNS = EVENT_TABLE_COLUMNS + EVENT_CALENDAR_COLUMNS
INSTANCE_COLUMNS = (
    "_id", "event_id", "begin", "end", "title", "description", "eventLocation", "allDay", "calendar_id",
    "eventTimezone", "calendar_displayName", "calendar_color", "visible",
)  # fmt: skip

_SCHEMA = f"""
CREATE TABLE Calendars (_id INTEGER PRIMARY KEY, account_name TEXT, account_type TEXT, _sync_id TEXT,
    dirty INTEGER, name TEXT, calendar_displayName TEXT, calendar_color INTEGER, calendar_access_level INTEGER,
    visible INTEGER NOT NULL DEFAULT 1, sync_events INTEGER NOT NULL DEFAULT 0, calendar_location TEXT,
    calendar_timezone TEXT, ownerAccount TEXT, isPrimary INTEGER, canOrganizerRespond INTEGER NOT NULL DEFAULT 1,
    canModifyTimeZone INTEGER DEFAULT 1, maxReminders INTEGER DEFAULT 5,
    allowedReminders TEXT DEFAULT '0,1', deleted INTEGER NOT NULL DEFAULT 0);
CREATE TABLE Events (_id INTEGER PRIMARY KEY AUTOINCREMENT, _sync_id TEXT, dirty INTEGER,
    calendar_id INTEGER NOT NULL, title TEXT, eventLocation TEXT, description TEXT, eventColor INTEGER,
    eventStatus INTEGER, selfAttendeeStatus INTEGER NOT NULL DEFAULT 0, dtstart INTEGER, dtend INTEGER,
    eventTimezone TEXT, duration TEXT, allDay INTEGER NOT NULL DEFAULT 0, accessLevel INTEGER NOT NULL DEFAULT 0,
    availability INTEGER NOT NULL DEFAULT 0, hasAlarm INTEGER NOT NULL DEFAULT 0,
    hasExtendedProperties INTEGER NOT NULL DEFAULT 0, rrule TEXT, rdate TEXT, exrule TEXT, exdate TEXT,
    original_id INTEGER, originalInstanceTime INTEGER, originalAllDay INTEGER, lastDate INTEGER,
    hasAttendeeData INTEGER NOT NULL DEFAULT 0, guestsCanModify INTEGER NOT NULL DEFAULT 0,
    guestsCanInviteOthers INTEGER NOT NULL DEFAULT 1, guestsCanSeeGuests INTEGER NOT NULL DEFAULT 1,
    organizer STRING, isOrganizer INTEGER, deleted INTEGER NOT NULL DEFAULT 0, eventEndTimezone TEXT,
    customAppPackage TEXT, customAppUri TEXT, uid2445 TEXT);
CREATE VIEW view_events AS SELECT {", ".join(f"Events.{c} AS {c}" for c in EVENT_TABLE_COLUMNS)},
    {", ".join(f"Calendars.{c} AS {c}" for c in EVENT_CALENDAR_COLUMNS)}
    FROM Events JOIN Calendars ON Events.calendar_id = Calendars._id;
CREATE VIEW view_instances AS SELECT _id, _id AS event_id, dtstart AS begin, COALESCE(dtend, lastDate, dtstart) AS end,
    title, description, eventLocation, allDay, calendar_id, eventTimezone, calendar_displayName, calendar_color,
    visible FROM view_events WHERE rrule IS NULL AND rdate IS NULL AND deleted = 0;
"""


class CalendarProvider(SQLiteProvider):
    """Calendars and their events."""

    authority = AUTHORITY
    schema = _SCHEMA
    initial = """
        INSERT INTO Calendars (_id, account_name, account_type, name, calendar_displayName, calendar_color,
            calendar_access_level, visible, sync_events, calendar_timezone, ownerAccount, isPrimary)
            VALUES (1, 'Phone', 'LOCAL', 'Phone', 'Phone', -14069085, 700, 1, 1, 'UTC', 'Phone', 1);
    """
    routes = {
        "calendars": Route("Calendars", columns=CALENDAR_COLUMNS, mime="calendar"),
        "calendars/#": Route("Calendars", item=True, columns=CALENDAR_COLUMNS, mime="calendar"),
        "events": Route("view_events", write_table="Events", columns=EVENT_COLUMNS, mime="event"),
        "events/#": Route("view_events", item=True, write_table="Events", columns=EVENT_COLUMNS, mime="event"),
        "instances/when/*/*": Route(
            "view_instances",
            where="end >= CAST(? AS INTEGER) AND begin <= CAST(? AS INTEGER)",
            write_table="",
            columns=INSTANCE_COLUMNS,
            mime="event-instance",
        ),  # fmt: skip
    }

    def unknown(self, uri: Uri) -> ProviderError:
        return ProviderError(ILLEGAL_ARGUMENT, f"Unknown URL {uri}")

    def refused(self, uri: Uri, operation: str) -> ProviderError:
        if operation == "insert":
            return ProviderError(UNSUPPORTED, f"Cannot insert into that URL: {uri}")
        return ProviderError(UNSUPPORTED, f"Cannot {operation} that URL")

    def get_type(self, uri: Uri) -> str | None:
        segments = uri.segments
        if len(segments) == 2 and segments[0] == "time" and segments[1].isdigit():
            return "time/epoch"  # CalendarProvider2.getType: TIME ("time/#", a point in time to show)
        return super().get_type(uri)

    def before_insert(self, match: Match, values: dict[str, Any]) -> None:
        if match.pattern != "events":
            return
        validate_event(values)
        fix_all_day_time(values)
        values.setdefault("dirty", 1)
        if values.get("dtend") is not None:  # CalendarProvider2.calculateLastDate
            values.setdefault("lastDate", values["dtend"])

    def update(self, uri: Uri, values: Mapping[str, Any], where: str | None, args: Sequence[Any]) -> int:
        if self.match(uri).pattern.startswith("events"):
            values = dict(values)
            fix_all_day_time(values)  # (updateInTransaction corrects the new times too)
        return super().update(uri, values, where, args)


def fix_all_day_time(values: dict[str, Any]) -> None:
    """``CalendarProvider2.fixAllDayTime``: an all-day event's ``dtstart``/``dtend`` at midnight UTC."""
    if not _as_int(values.get("allDay")):
        return
    for key in ("dtstart", "dtend"):
        millis = _as_int(values.get(key))
        if millis is not None and millis % DAY_MS:
            values[key] = millis - millis % DAY_MS


def _as_int(value: Any) -> int | None:
    """A column value as ``ContentValues.getAsLong`` reads it (None when it is not a number)."""
    try:
        return None if value is None else int(value)
    except (TypeError, ValueError):
        return None


def validate_event(values: dict[str, Any]) -> None:
    """``CalendarProvider2.validateEventData`` (for events that do not recur).

    Raises:
        ProviderError: What is missing or contradicts, in the provider's words.
    """

    def given(key: str) -> bool:
        return values.get(key) not in (None, "")

    if not given("calendar_id"):
        raise ProviderError(ILLEGAL_ARGUMENT, "Event values must include a calendar_id")
    if not given("eventTimezone"):
        raise ProviderError(ILLEGAL_ARGUMENT, "Event values must include an eventTimezone")
    if not given("dtstart"):
        raise ProviderError(ILLEGAL_ARGUMENT, "DTSTART cannot be empty.")
    if not given("duration") and not given("dtend"):
        raise ProviderError(ILLEGAL_ARGUMENT, "DTEND and DURATION cannot both be null for an event.")
    if given("duration") and given("dtend"):
        raise ProviderError(ILLEGAL_ARGUMENT, "Cannot have both DTEND and DURATION in an event")

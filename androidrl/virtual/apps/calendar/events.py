"""The events the Calendar app shows, read from the calendar provider as AOSP's ``Event.loadEvents`` reads them.

Every view asks ``content://com.android.calendar/instances/when/BEGIN/END`` for the visible
calendars' instances in its span (sorted ``begin ASC, end DESC, title ASC``), so an event inserted
from the shell shows at once. An all-day event is stored from midnight UTC to midnight UTC and
shows on those dates whatever the phone's zone (``Utils.convertAlldayUtcToLocal``).
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

from androidrl.virtual.apps.calendar.dates import DAY_MS, day_start, local
from androidrl.virtual.system.framework.content import ContentResolver, ProviderError

AUTHORITY = "com.android.calendar"
EVENTS_URI = f"content://{AUTHORITY}/events"
INSTANCE_COLUMNS = ["event_id", "title", "begin", "end", "allDay", "eventLocation", "calendar_color"]
#: An event's colour when its calendar has none (the Phone calendar's -14069085).
DEFAULT_COLOR = (41, 82, 163)


@dataclass(frozen=True)
class Event:
    """One instance of an event, as the views draw it.

    Attributes:
        id: The event's ``_id`` (``content://com.android.calendar/events/ID``).
        title: Its title ("" when it has none).
        begin: Its start, ms since the epoch.
        end: Its end, ms since the epoch.
        all_day: Whether it is an all-day event (``begin``/``end`` at midnight UTC).
        location: Its ``eventLocation``.
        color: Its calendar's colour.
    """

    id: int
    title: str
    begin: int
    end: int
    all_day: bool
    location: str
    color: tuple[int, int, int]

    def first_day(self, tz: dt.tzinfo) -> dt.date:
        """The day it starts on (an all-day event's UTC date)."""
        return day_of(self.begin, dt.timezone.utc if self.all_day else tz)

    def last_day(self, tz: dt.tzinfo) -> dt.date:
        """The last day it covers (its end is exclusive)."""
        return day_of(max(self.begin, self.end - 1), dt.timezone.utc if self.all_day else tz)

    def on(self, day: dt.date, tz: dt.tzinfo) -> bool:
        """Whether it shows on ``day``."""
        return self.first_day(tz) <= day <= self.last_day(tz)


@functools.lru_cache(maxsize=4096)
def day_of(millis: int, tz: dt.tzinfo) -> dt.date:
    """The local date of ``millis`` (remembered: every frame asks again for the same events)."""
    return local(millis, tz).date()


def argb_to_rgb(color: object) -> tuple[int, int, int]:
    """A signed ARGB int (``calendar_color``) as RGB; the default colour when it is not one."""
    if not isinstance(color, int):
        return DEFAULT_COLOR
    color &= 0xFFFFFF
    return color >> 16, (color >> 8) & 0xFF, color & 0xFF


def load(resolver: ContentResolver, first: dt.date, last: dt.date, tz: dt.tzinfo) -> list[Event]:
    """The instances shown on the days ``first`` to ``last`` (inclusive), in the provider's order.

    The span asked for is a day wider on each side, so all-day events (at UTC midnight) of the
    edge days come too, then each is kept only if it shows on one of the days.
    """
    begin = day_start(first, tz) - DAY_MS
    end = day_start(last + dt.timedelta(days=1), tz) + DAY_MS
    try:
        rows = resolver.query(
            f"content://{AUTHORITY}/instances/when/{begin}/{end}",
            INSTANCE_COLUMNS,
            "visible=1",
            [],
            "begin ASC, end DESC, title ASC",
        )
    except ProviderError:
        return []  # (the provider is gone: its package was disabled)
    found = []
    for row in rows:
        event = Event(
            int(row["event_id"]),
            str(row["title"] or ""),
            int(row["begin"] or 0),
            int(row["end"] or row["begin"] or 0),
            bool(row["allDay"]),
            str(row["eventLocation"] or ""),
            argb_to_rgb(row["calendar_color"]),
        )
        if event.first_day(tz) <= last and event.last_day(tz) >= first:
            found.append(event)
    return found


def columns(events: list[Event]) -> dict[int, tuple[int, int]]:
    """Side-by-side columns for overlapping events (``EventGeometry``): event index -> (column, columns).

    Events that overlap each other, directly or through others, share the width of the day.
    """
    placed: dict[int, tuple[int, int]] = {}
    group: list[int] = []
    ends: list[int] = []  # the end of the last event in each column of the group
    group_end = None
    order = sorted(range(len(events)), key=lambda i: (events[i].begin, -events[i].end))

    def close() -> None:
        for i in group:
            placed[i] = (placed[i][0], len(ends))

    for i in order:
        event = events[i]
        if group_end is not None and event.begin >= group_end:
            close()
            group, ends, group_end = [], [], None
        column = next((c for c, end in enumerate(ends) if end <= event.begin), len(ends))
        if column == len(ends):
            ends.append(event.end)
        else:
            ends[column] = event.end
        placed[i] = (column, 0)
        group.append(i)
        group_end = max(group_end or event.end, event.end)
    close()
    return placed

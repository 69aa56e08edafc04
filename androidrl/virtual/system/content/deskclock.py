"""DeskClock's provider, ``content://com.android.deskclock/alarms|instances`` (``ClockContract``).

As packages/apps/DeskClock src/com/android/deskclock/provider/ClockProvider.java and
ClockDatabaseHelper.java: the ``alarm_templates`` table behind ``alarms`` (a new database holds
DeskClock's two default alarms, 8:30 on weekdays and 9:00 at weekends, both off), the
``alarm_instances`` table behind ``instances``; updates only by id (``alarms/#``), inserts only
into the tables. ``daysofweek`` is a bit set, Monday = 1 ... Sunday = 64 (``Weekdays``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from androidrl.virtual.system.framework.content import ILLEGAL_ARGUMENT, SQL, UNSUPPORTED, ProviderError, Uri
from androidrl.virtual.system.framework.database import Match, Route, SQLiteProvider

AUTHORITY = "com.android.deskclock"
ALARMS = f"content://{AUTHORITY}/alarms"
INSTANCES = f"content://{AUTHORITY}/instances"

_ALARM_COLUMNS = "(hour, minutes, daysofweek, enabled, vibrate, label, ringtone, delete_after_use)"


class ClockProvider(SQLiteProvider):
    """Alarms and their instances."""

    authority = AUTHORITY
    schema = """
        CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY,hour INTEGER NOT NULL, minutes INTEGER NOT NULL,
            daysofweek INTEGER NOT NULL, enabled INTEGER NOT NULL, vibrate INTEGER NOT NULL, label TEXT NOT NULL,
            ringtone TEXT, delete_after_use INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE alarm_instances (_id INTEGER PRIMARY KEY,year INTEGER NOT NULL, month INTEGER NOT NULL,
            day INTEGER NOT NULL, hour INTEGER NOT NULL, minutes INTEGER NOT NULL, vibrate INTEGER NOT NULL,
            label TEXT NOT NULL, ringtone TEXT, alarm_state INTEGER NOT NULL,
            alarm_id INTEGER REFERENCES alarm_templates(_id) ON UPDATE CASCADE ON DELETE CASCADE);
    """
    initial = f"""
        INSERT INTO alarm_templates {_ALARM_COLUMNS} VALUES (8, 30, 31, 0, 1, '', NULL, 0);
        INSERT INTO alarm_templates {_ALARM_COLUMNS} VALUES (9, 00, 96, 0, 1, '', NULL, 0);
    """
    routes = {
        "alarms": Route("alarm_templates", mime="alarms", update=False),
        "alarms/#": Route("alarm_templates", item=True, mime="alarms"),
        "instances": Route("alarm_instances", mime="instances", update=False),
        "instances/#": Route("alarm_instances", item=True, mime="instances"),
    }

    def refused(self, uri: Uri, operation: str) -> ProviderError:
        if operation == "update":
            return ProviderError(UNSUPPORTED, f"Cannot update URI: {uri}")
        return ProviderError(ILLEGAL_ARGUMENT, f"Cannot {operation} from URI: {uri}")

    def before_insert(self, match: Match, values: dict[str, Any]) -> None:
        """``fixAlarmInsert``: an ``_id`` that is taken is dropped, so SQLite picks a new one."""
        row_id = values.get("_id")
        taken = row_id is not None and self.run("SELECT 1 FROM alarm_templates WHERE _id = ?", [row_id]).fetchone()
        if match.pattern == "alarms" and taken:
            values["_id"] = None

    def insert(self, uri: Uri, values: Mapping[str, Any]) -> str | None:
        try:
            return super().insert(uri, values)
        except ProviderError as err:  # ClockDatabaseHelper.fixAlarmInsert
            raise ProviderError(SQL, "Failed to insert row") if err.java_class == SQL else err from None

    def get_type(self, uri: Uri) -> str | None:
        try:
            return super().get_type(uri)
        except ProviderError:
            raise ProviderError(ILLEGAL_ARGUMENT, "Unknown URI") from None

"""The call log, ``content://call_log/calls`` (``CallLog.Calls``), of the contacts provider package.

As packages/providers/ContactsProvider CallLogProvider.java and CallLogDatabaseHelper.java, in
the columns a task reads: ``number``, ``date`` (ms since the epoch), ``duration`` (seconds),
``type`` (1 incoming, 2 outgoing, 3 missed, 4 voicemail, 5 rejected, 6 blocked), ``new``,
``name``, ``is_read``... ``calls/#`` is one call; a query has no default order.
"""

from __future__ import annotations

from androidrl.virtual.system.framework.content import ILLEGAL_ARGUMENT, UNSUPPORTED, ProviderError, Uri
from androidrl.virtual.system.framework.database import Route, SQLiteProvider

AUTHORITY = "call_log"
CALLS = f"content://{AUTHORITY}/calls"
COLUMNS = (
    "_id", "number", "presentation", "post_dial_digits", "via_number", "date", "duration", "data_usage", "type",
    "features", "subscription_component_name", "subscription_id", "phone_account_address", "new", "name",
    "numbertype", "numberlabel", "countryiso", "voicemail_uri", "is_read", "geocoded_location", "lookup_uri",
    "matched_number", "normalized_number", "photo_id", "photo_uri", "formatted_number", "transcription",
    "last_modified",
)  # fmt: skip


class CallLogProvider(SQLiteProvider):
    """Calls made, received and missed."""

    authority = AUTHORITY
    schema = """
        CREATE TABLE calls (_id INTEGER PRIMARY KEY AUTOINCREMENT, number TEXT,
            presentation INTEGER NOT NULL DEFAULT 1, post_dial_digits TEXT NOT NULL DEFAULT '',
            via_number TEXT NOT NULL DEFAULT '', date INTEGER, duration INTEGER, data_usage INTEGER, type INTEGER,
            features INTEGER NOT NULL DEFAULT 0, subscription_component_name TEXT, subscription_id TEXT,
            phone_account_address TEXT, new INTEGER, name TEXT, numbertype INTEGER, numberlabel TEXT,
            countryiso TEXT, voicemail_uri TEXT, is_read INTEGER, geocoded_location TEXT, lookup_uri TEXT,
            matched_number TEXT, normalized_number TEXT, photo_id INTEGER NOT NULL DEFAULT 0, photo_uri TEXT,
            formatted_number TEXT, transcription TEXT, last_modified INTEGER DEFAULT 0);
    """
    routes = {
        "calls": Route("calls", columns=COLUMNS, mime="calls"),
        "calls/#": Route("calls", item=True, columns=COLUMNS, mime="calls", insert=False, delete=False),
    }

    def unknown(self, uri: Uri) -> ProviderError:
        return ProviderError(ILLEGAL_ARGUMENT, f"Unknown URL {uri}")

    def refused(self, uri: Uri, operation: str) -> ProviderError:
        if operation == "delete":
            return ProviderError(UNSUPPORTED, f"Cannot delete that URL: {uri}")
        return ProviderError(ILLEGAL_ARGUMENT, f"Unknown URL {uri}")

    def before_insert(self, match, values) -> None:
        values.setdefault("last_modified", self.host.now_ms() if self.host is not None else 0)

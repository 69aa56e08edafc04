"""Text messages, ``content://sms/...`` (``Telephony.Sms``), of the telephony provider package.

As packages/providers/TelephonyProvider SmsProvider.java and MmsSmsDatabaseHelper.java: the
``sms`` table (``address``, ``body``, ``date`` in ms, ``type`` 1 inbox / 2 sent / 3 draft / 4 outbox
/ 5 failed / 6 queued, ``read``, ``seen``, ``thread_id``...), seen whole (``sms``) or by box
(``sms/inbox``, ``sms/sent``...; an insert there gets the box's type), newest first unless a sort
is given; ``sms/conversations`` has a row per thread (``thread_id``, ``msg_count``, ``snippet``: the
newest message's body) and ``sms/conversations/#`` a thread's messages. An inserted message gets the
thread of its address (numbers compared as ``PHONE_NUMBERS_EQUAL`` does) and the time now when it
has no ``date``. A query of a URI it does not know finds nothing, as SmsProvider's does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from androidrl.virtual.system.content.contacts import phone_numbers_equal
from androidrl.virtual.system.framework.content import ILLEGAL_ARGUMENT, UNSUPPORTED, Cursor, ProviderError, Uri
from androidrl.virtual.system.framework.database import Match, Route, SQLiteProvider

AUTHORITY = "sms"
SMS = f"content://{AUTHORITY}"
#: ``Telephony.TextBasedSmsColumns.MESSAGE_TYPE_*`` by box.
BOXES = {"inbox": 1, "sent": 2, "draft": 3, "outbox": 4, "failed": 5, "queued": 6}
SORT = "date DESC"  # Sms.DEFAULT_SORT_ORDER


def _box_routes() -> dict[str, Route]:
    routes = {
        "": Route("sms", mime="sms", sort=SORT),
        "#": Route("sms", item=True, mime="sms", insert=False),
        "conversations": Route("view_conversations", write_table=""),
        "conversations/#": Route("sms", item=True, id_column="thread_id", mime="sms", sort=SORT, insert=False),
    }
    for box, kind in BOXES.items():
        routes[box] = Route("sms", where=f"type={kind}", values={"type": kind}, mime="sms", sort=SORT)
        routes[f"{box}/#"] = Route("sms", item=True, where=f"type={kind}", mime="sms", insert=False)
    return routes


class SmsProvider(SQLiteProvider):
    """SMS messages and their threads."""

    authority = AUTHORITY
    schema = """
        CREATE TABLE sms (_id INTEGER PRIMARY KEY, thread_id INTEGER, address TEXT, person INTEGER, date INTEGER,
            date_sent INTEGER DEFAULT 0, protocol INTEGER, read INTEGER DEFAULT 0, status INTEGER DEFAULT -1,
            type INTEGER, reply_path_present INTEGER, subject TEXT, body TEXT, service_center TEXT,
            locked INTEGER DEFAULT 0, sub_id INTEGER DEFAULT -1, error_code INTEGER DEFAULT 0, creator TEXT,
            seen INTEGER DEFAULT 0);
        CREATE TABLE threads (_id INTEGER PRIMARY KEY AUTOINCREMENT, address TEXT NOT NULL);
        CREATE VIEW view_conversations AS SELECT sms.thread_id AS thread_id, groups.msg_count AS msg_count,
            sms.body AS snippet FROM sms, (SELECT thread_id AS group_thread_id, MAX(date) AS group_date,
            COUNT(*) AS msg_count FROM sms GROUP BY thread_id) AS groups
            WHERE sms.thread_id = groups.group_thread_id AND sms.date = groups.group_date;
    """
    routes = _box_routes()

    def match(self, uri: Uri) -> Match:
        # The routes are written without the leading "sms" of the authority's URIs (content://sms/inbox).
        return super().match(Uri(uri.text, uri.scheme, uri.authority, uri.segments or ("",), uri.query))

    def query(
        self, uri: Uri, projection: Sequence[str] | None, where: str | None, args: Sequence[Any], sort: str | None
    ) -> Cursor | None:
        try:
            match = self.match(uri)
        except ProviderError:
            return None  # SmsProvider.query: "Invalid request", null
        return self.select(match, projection, where, args, sort)

    def before_insert(self, match: Match, values: dict[str, Any]) -> None:
        values.setdefault("type", BOXES["inbox"])
        if values.get("date") is None:
            values["date"] = self.host.now_ms() if self.host is not None else 0
        if not values.get("thread_id"):
            values["thread_id"] = self.thread_id(str(values.get("address") or ""))

    def thread_id(self, address: str) -> int:
        """``Threads.getOrCreateThreadId``: the thread of a recipient, made on first use."""
        for thread, known in self.run("SELECT _id, address FROM threads").fetchall():
            if known == address or phone_numbers_equal(known, address):
                return thread
        return self.run("INSERT INTO threads (address) VALUES (?)", [address]).lastrowid or 0

    def insert(self, uri: Uri, values: Mapping[str, Any]) -> str | None:
        try:
            self.match(uri)
        except ProviderError:
            return None  # SmsProvider.insertInner: "Invalid request", null
        inserted = super().insert(uri, values)
        return f"content://sms/{inserted.rsplit('/', 1)[1]}" if inserted else None

    def get_type(self, uri: Uri) -> str | None:
        """``vnd.android-dir/sms`` for a box, ``vnd.android.cursor.item/sms`` for a message (SmsProvider.getType)."""
        try:
            match = self.match(uri)
        except ProviderError:
            return None
        if match.pattern.startswith("conversations"):
            return None
        return "vnd.android.cursor.item/sms" if match.route.item else "vnd.android-dir/sms"

    def refused(self, uri: Uri, operation: str) -> ProviderError:
        if operation == "delete":
            return ProviderError(ILLEGAL_ARGUMENT, "Unknown URL")
        return ProviderError(UNSUPPORTED, f"URI {uri} not supported")

    def update(self, uri: Uri, values: Mapping[str, Any], where: str | None, args: Sequence[Any]) -> int:
        try:
            self.match(uri)
        except ProviderError:
            raise self.refused(uri, "update") from None
        return super().update(uri, values, where, args)

    def delete(self, uri: Uri, where: str | None, args: Sequence[Any]) -> int:
        try:
            self.match(uri)
        except ProviderError:
            raise self.refused(uri, "delete") from None
        return super().delete(uri, where, args)

"""The Messaging app's own provider: its conversations (``bugle_db``), with their archive status.

As packages/apps/Messaging ``datamodel/MessagingContentProvider.java`` (authority
``com.android.messaging.datamodel.MessagingContentProvider``, not exported: an emulator's
``adb root`` shell reaches it) over ``DatabaseHelper``'s ``conversations`` table, cut to the
columns a task reads: ``sms_thread_id`` (the telephony thread), ``name`` (the contact's name or
the number), ``snippet_text``, ``sort_timestamp`` (the newest message's ``date``), ``read``,
``archive_status`` (1 archived) and ``other_participant_normalized_destination`` (the number,
digits and a leading ``+``). ``conversations`` hides conversations without messages
(``sort_timestamp > 0``), as AOSP's query does.

The app keeps the table in step with the telephony provider (Bugle's ``SyncMessagesAction``)
whenever it lists conversations, so the telephony provider stays the source of truth for the
messages. AOSP's app writes its database directly and its provider refuses writes; this app
can reach its data only through a resolver, so ``conversations`` takes its inserts, updates and
deletes.
"""

from __future__ import annotations

from androidrl.virtual.system.framework.database import Route, SQLiteProvider

AUTHORITY = "com.android.messaging.datamodel.MessagingContentProvider"
CONVERSATIONS = f"content://{AUTHORITY}/conversations"


class MessagingProvider(SQLiteProvider):
    """``MessagingContentProvider``'s ``conversations`` and ``conversations/#``."""

    authority = AUTHORITY
    schema = """
        CREATE TABLE conversations (_id INTEGER PRIMARY KEY AUTOINCREMENT, sms_thread_id INT DEFAULT(0),
            name TEXT, snippet_text TEXT, sort_timestamp INT DEFAULT(0), read INT DEFAULT(1),
            archive_status INT DEFAULT(0), other_participant_normalized_destination TEXT,
            participant_count INT DEFAULT(1));
        CREATE INDEX index_conversations_sms_thread_id ON conversations(sms_thread_id);
    """
    routes = {
        "conversations": Route(
            "conversations",
            where="sort_timestamp > 0",
            mime="vnd.android.messaging.conversations",
            sort="sort_timestamp DESC",
        ),
        "conversations/#": Route("conversations", item=True, insert=False),
    }

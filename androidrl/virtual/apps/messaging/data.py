"""What the Messaging screens show, read from the providers: conversations, messages, contacts.

Messages live in the telephony provider (``content://sms``); a conversation is one of its threads.
Names come from the contacts provider (a known number shows its contact's name). The app's own
provider (:mod:`.provider`) keeps each conversation's archive status and is brought in step with
the telephony provider by :func:`sync` (Bugle's ``SyncMessagesAction``): a conversation with a
message newer than its row is unarchived, as ``BugleDatabaseOperations
.updateConversationMetadataInTransaction`` does for new messages.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from androidrl.virtual.apps.messaging.provider import CONVERSATIONS
from androidrl.virtual.apps.messaging.strings import MONTHS, WEEKDAYS

SMS = "content://sms"
SENT = "content://sms/sent"
PHONES = "content://com.android.contacts/data/phones"
INBOX = 1  # Telephony.Sms.MESSAGE_TYPE_INBOX
MINUTE_MS, HOUR_MS, DAY_MS = 60_000, 3_600_000, 86_400_000


def digits(number: Any) -> str:
    """The digits of a phone number."""
    return re.sub(r"\D", "", str(number or ""))


def normalized(number: str) -> str:
    """A number as ``other_participant_normalized_destination`` holds it: its digits, with a leading ``+`` kept."""
    text = str(number or "").strip()
    return ("+" if text.startswith("+") else "") + digits(text)


def same_number(a: Any, b: Any) -> bool:
    """``PhoneNumberUtils.compare`` (loosely): the same digits, or one ending the other with 7 or more digits."""
    x, y = digits(a), digits(b)
    if not x or not y:
        return str(a or "").strip() == str(b or "").strip()
    if x == y:
        return True
    short, long = sorted((x, y), key=len)
    return len(short) >= 7 and long.endswith(short)


class Cache:
    """What was last read from the providers, kept while none of them changed (``ContentResolver.generation``).

    A screen is rebuilt after every touch; reading the providers again only when their data
    changed keeps that cheap (Android's loaders re-query on a content change, not on a touch).
    """

    def __init__(self) -> None:
        self.key: Any = None
        self.generation = -1
        self.value: Any = None

    def get(self, resolver, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``'s value for ``key``, computed again when ``key`` or the providers' data changed."""
        if key != self.key or resolver.generation != self.generation:
            self.value = compute()
            self.key, self.generation = key, resolver.generation  # (after its own writes: they are in the value)
        return self.value


@dataclass(frozen=True)
class Person:
    """A contact's phone number (a ``data/phones`` row)."""

    contact_id: int
    name: str
    number: str
    type: int


@dataclass(frozen=True)
class Conversation:
    """One conversation of the list (a telephony thread and its row of the app's provider)."""

    id: int  # the app provider's _id
    thread_id: int
    destination: str  # the other participant's number, as the telephony provider has it
    name: str  # the contact's name, or the number
    known: bool  # the number is a contact's
    snippet: str
    outgoing: bool  # the newest message was sent, not received
    timestamp: int
    read: bool
    archived: bool


@dataclass(frozen=True)
class Message:
    """One message of a conversation (an ``sms`` row)."""

    id: int
    body: str
    date: int
    incoming: bool


def people(resolver) -> list[Person]:
    """Every contact's phone numbers, by name."""
    rows = resolver.query(PHONES, ["contact_id", "display_name", "data1", "data2"], None, (), "display_name")
    return [
        Person(int(r["contact_id"] or 0), str(r["display_name"] or ""), str(r["data1"] or ""), int(r["data2"] or 0))
        for r in rows
        if r["data1"]
    ]


def name_of(everyone: list[Person], number: str) -> str | None:
    """The name of the contact with ``number`` (``PhoneLookup``), or None."""
    return next((p.name for p in everyone if same_number(p.number, number)), None)


def _threads(resolver) -> list[dict[str, Any]]:
    """One dict per telephony thread, newest first: its number, newest message and unread state."""
    found: dict[int, dict[str, Any]] = {}
    for row in resolver.query(SMS, ["thread_id", "address", "body", "date", "type", "read"], None, (), "date DESC"):
        thread = found.get(row["thread_id"])
        if thread is None:
            thread = found[row["thread_id"]] = {
                "thread_id": int(row["thread_id"] or 0),
                "address": str(row["address"] or ""),
                "snippet": str(row["body"] or ""),
                "date": int(row["date"] or 0),
                "outgoing": row["type"] != INBOX,
                "read": True,
            }
        if row["type"] == INBOX and not row["read"]:
            thread["read"] = False
    return list(found.values())


def sync(resolver) -> list[Conversation]:
    """Bring the app's provider in step with the telephony provider; every conversation, newest first.

    Writes only what changed: a row for a new thread, new metadata (unarchiving a conversation
    with a newer message), and no row for a thread that is gone.
    """
    everyone = people(resolver)
    rows = {r["sms_thread_id"]: r for r in resolver.query(CONVERSATIONS)}
    result = []
    for thread in _threads(resolver):
        tid = thread["thread_id"]
        name = name_of(everyone, thread["address"])
        values = {
            "sms_thread_id": tid,
            "name": name or thread["address"],
            "snippet_text": thread["snippet"],
            "sort_timestamp": thread["date"],
            "read": int(thread["read"]),
            "other_participant_normalized_destination": normalized(thread["address"]),
        }
        row = rows.pop(tid, None)
        if row is None:
            uri = resolver.insert(CONVERSATIONS, values)
            row = {"_id": int(str(uri).rsplit("/", 1)[1]), "archive_status": 0}
        elif any(row[k] != v for k, v in values.items()):
            if thread["date"] > (row["sort_timestamp"] or 0) and row["archive_status"]:
                values["archive_status"] = 0
            resolver.update(f"{CONVERSATIONS}/{row['_id']}", values)
            row = {**row, **values}
        result.append(
            Conversation(
                id=int(row["_id"]),
                thread_id=tid,
                destination=thread["address"],
                name=name or thread["address"],
                known=name is not None,
                snippet=thread["snippet"],
                outgoing=thread["outgoing"],
                timestamp=thread["date"],
                read=thread["read"],
                archived=bool(row["archive_status"]),
            )
        )
    for row in rows.values():
        resolver.delete(f"{CONVERSATIONS}/{row['_id']}")
    return result


def find(conversations: list[Conversation], destination: str) -> Conversation | None:
    """The conversation with ``destination`` (compared as phone numbers), or None."""
    return next((c for c in conversations if same_number(c.destination, destination)), None)


def messages(resolver, thread_id: int) -> list[Message]:
    """A thread's messages, oldest first (as the conversation shows them, newest at the bottom)."""
    if not thread_id:
        return []
    rows = resolver.query(f"{SMS}/conversations/{thread_id}", ["_id", "body", "date", "type"], None, (), "date, _id")
    return [Message(int(r["_id"]), str(r["body"] or ""), int(r["date"] or 0), r["type"] == INBOX) for r in rows]


def mark_read(resolver, thread_id: int) -> int:
    """``MarkAsReadAction``: the thread's unread messages become read and seen in the telephony provider."""
    return resolver.update(f"{SMS}/inbox", {"read": 1, "seen": 1}, "thread_id=? AND read=0", [thread_id])


def mark_unread(resolver, thread_id: int) -> int:
    """The thread's newest received message becomes unread again."""
    rows = resolver.query(f"{SMS}/inbox", ["_id"], "thread_id=?", [thread_id], "date DESC")
    return resolver.update(f"{SMS}/{rows[0]['_id']}", {"read": 0}) if rows else 0


def set_archived(resolver, conversation_id: int, archived: bool) -> int:
    """``UpdateConversationArchiveStatusAction``: archive or unarchive a conversation."""
    return resolver.update(f"{CONVERSATIONS}/{conversation_id}", {"archive_status": int(archived)})


def delete_thread(resolver, thread_id: int, cutoff: int) -> int:
    """``DeleteConversationAction``: the thread's messages up to ``cutoff`` (ms) leave the telephony provider."""
    return resolver.delete(f"{SMS}/conversations/{thread_id}", "date<=?", [cutoff])


def send(resolver, destination: str, body: str) -> str | None:
    """Send a text: a ``sms/sent`` row (its ``date`` the phone's time now, as the provider gives it)."""
    return resolver.insert(SENT, {"address": destination, "body": body, "read": 1, "seen": 1})


def phone_type(string, kind: int) -> str:
    """``Phone.getTypeLabel``: Home, Mobile, Work, Other."""
    return string(f"type_{kind}") if kind in (1, 2, 3) else string("type_other")


def timestamp(ms: int, now_ms: int, language: str, is24: bool, zone: str, string) -> str:
    """``Dates.getConversationTimeString``: Just now, N mins, a time today, a weekday this week, a date.

    Args:
        ms: The message's time.
        now_ms: The phone's time now.
        language: The locale's language (``en``, ``de``).
        is24: 24-hour time.
        zone: The phone's time zone (``persist.sys.timezone``), UTC when empty or unknown.
        string: The app's string lookup.
    """
    diff = now_ms - ms
    if diff < MINUTE_MS:
        return string("posted_just_now")
    if diff < HOUR_MS:
        count = diff // MINUTE_MS
        return string("minutes_one" if count == 1 else "minutes_other", count)
    tz = _zone(zone)
    when = dt.datetime.fromtimestamp(ms / 1000, tz)
    now = dt.datetime.fromtimestamp(now_ms / 1000, tz)
    table = "de" if language == "de" else ""
    if when.date() == now.date():
        if is24:
            return when.strftime("%H:%M")
        return f"{when.hour % 12 or 12}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"
    if diff < 7 * DAY_MS:
        return WEEKDAYS[table][when.weekday()]
    month = MONTHS[table][when.month - 1]
    if diff < 365 * DAY_MS:
        return f"{when.day}. {month}" if table else f"{month} {when.day}"
    return (
        f"{when.day}.{when.month}.{when.year % 100:02d}" if table else f"{when.month}/{when.day}/{when.year % 100:02d}"
    )


def _zone(name: str) -> dt.tzinfo:
    if not name or name == "GMT":
        return dt.timezone.utc
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc

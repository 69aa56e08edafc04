"""What the Phone app reads from the call log and contacts providers, and how it logs a call.

The call log is ``content://call_log/calls`` (CallLog.Calls), newest first; a number is matched
to a contact as the contacts provider's ``PHONE_NUMBERS_EQUAL`` does (the same digits, or one
ending the other from 7 digits on), which is how CallerInfo finds the name Telecom caches in a
new call's row (CallLog.Calls.addCall).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
import zoneinfo
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

CALLS = "content://call_log/calls"
CONTACTS_AUTHORITY = "com.android.contacts"
CONTACTS = f"content://{CONTACTS_AUTHORITY}/contacts"
PHONES = f"content://{CONTACTS_AUTHORITY}/data/phones"
INCOMING, OUTGOING, MISSED, VOICEMAIL = 1, 2, 3, 4  # CallLog.Calls.*_TYPE
DAY_MS, HOUR_MS, MINUTE_MS = 86_400_000, 3_600_000, 60_000
_NOT_DIGITS = re.compile(r"\D")


@dataclass(frozen=True)
class Caller:
    """What a number is in the contacts (CallerInfo): the contact, its name and the number's type."""

    contact_id: int
    name: str
    type: int
    label: str | None


@dataclass(frozen=True)
class Call:
    """A call log row."""

    id: int
    number: str
    date: int
    duration: int
    type: int
    name: str | None
    new: bool


@dataclass(frozen=True)
class Person:
    """A contact as the Phone app lists it."""

    id: int
    name: str
    starred: bool
    number: str | None  # the first number, what a tap on a favourite calls
    type: int


@functools.lru_cache(maxsize=4096)
def digits(number: str) -> str:
    """The digits of a number (what matching compares)."""
    return _NOT_DIGITS.sub("", number or "")


def numbers_equal(a: str, b: str) -> bool:
    """``PHONE_NUMBERS_EQUAL``: the same digits, or one ending the other when the shorter has 7 or more."""
    x, y = digits(a), digits(b)
    if not x or not y:
        return False
    short, long_ = sorted((x, y), key=len)
    return x == y or (len(short) >= 7 and long_.endswith(short))


def phones(content: Any) -> list[dict[str, Any]]:
    """Every phone number of every contact, oldest row first."""
    return content.query(
        PHONES, ["_id", "contact_id", "display_name", "data1", "data2", "data3", "starred"], sort="_id"
    )


class Directory:
    """The contacts' numbers, indexed to find a number's contact fast (the list looks one up per row).

    Args:
        rows: :func:`phones`' rows.
    """

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        key = tuple((r["contact_id"], r["display_name"], r["data1"], r["data2"], r["data3"]) for r in rows)
        self.by_tail = _index(key)

    def lookup(self, number: str) -> Caller | None:
        """The contact whose number ``number`` is (CallerInfoAsyncQuery over ``phone_lookup``), or None."""
        wanted = digits(number)
        for candidate, caller in self.by_tail.get(wanted[-7:], ()) if wanted else ():
            if numbers_equal(candidate, wanted):
                return caller
        return None


@functools.lru_cache(maxsize=8)
def _index(rows: tuple[tuple[Any, ...], ...]) -> dict[str, list[tuple[str, Caller]]]:
    """The numbers by their last 7 digits (made once for a set of rows: every frame reads the same ones)."""
    by_tail: dict[str, list[tuple[str, Caller]]] = {}
    for contact_id, name, number, kind, label in rows:
        wanted = digits(str(number or ""))
        if wanted:
            caller = Caller(int(contact_id), str(name or ""), _int(kind), label)
            by_tail.setdefault(wanted[-7:], []).append((wanted, caller))
    return by_tail


def lookup(rows: list[dict[str, Any]], number: str) -> Caller | None:
    """The contact whose number ``number`` is, or None (one look-up: :class:`Directory` for many)."""
    return Directory(rows).lookup(number)


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def calls(content: Any) -> list[Call]:
    """The call log, newest first (CallLog.Calls.DEFAULT_SORT_ORDER)."""
    rows = content.query(
        CALLS, ["_id", "number", "date", "duration", "type", "name", "new"], sort="date DESC, _id DESC"
    )
    return [
        Call(
            int(r["_id"]),
            str(r["number"] or ""),
            _int(r["date"]),
            _int(r["duration"]),
            _int(r["type"]),
            r["name"],
            bool(_int(r["new"])),
        )
        for r in rows
    ]


def people(content: Any) -> list[Person]:
    """Every contact with its first number, sorted by name as the Contacts tab lists them."""
    first: dict[int, tuple[str, int]] = {}
    for row in phones(content):
        first.setdefault(int(row["contact_id"]), (str(row["data1"] or ""), _int(row["data2"])))
    rows = content.query(CONTACTS, ["_id", "display_name", "starred"])
    found = [
        Person(int(r["_id"]), str(r["display_name"] or ""), bool(r["starred"]), *first.get(int(r["_id"]), (None, 0)))
        for r in rows
    ]
    return sorted(found, key=lambda p: (*sort_key(p.name), p.id))


@functools.lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """``text`` without accents, case-folded (how names sort)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def bucket(name: str) -> str:
    """A name's section letter (its first letter without accents), or ``#``."""
    first = folded(name.strip())[:1].upper()
    return first if first.isalpha() else "#"


def sort_key(name: str) -> tuple[bool, str]:
    """Names sorted as the lists show them: by letter, the ``#`` bucket last."""
    return (bucket(name) == "#", folded(name))


def tel_number(uri: str | None) -> str:
    """The number of a ``tel:`` URI, decoded (``Uri.getSchemeSpecificPart``): ``tel:%2B1%20555`` -> ``+1 555``."""
    if not uri or ":" not in uri:
        return ""
    scheme, _, rest = uri.partition(":")
    return unquote(rest.split("#", 1)[0]) if scheme.lower() in ("tel", "voicemail") else ""


def strip_separators(number: str) -> str:
    """``PhoneNumberUtils.stripSeparators``: only the dialable characters (``+1 555-0142`` -> ``+15550142``)."""
    return "".join(c for c in number if c.isdigit() or c in "*#+N,;")


def log_call(content: Any, number: str, call_type: int, start_ms: int, duration_s: int, caller: Caller | None) -> str:
    """Add a call to the call log as Telecom does (CallLogManager.logCall -> CallLog.Calls.addCall).

    ``number`` (without separators: CallLogManager.getLogNumber), ``presentation`` (allowed, or
    unknown for no number), ``type``, ``features``, ``date`` (when the call was placed),
    ``duration`` (seconds it was connected), ``new`` 1, ``is_read`` 0 for a missed call, and the
    caller's cached ``name``, ``numbertype`` and ``numberlabel`` (none, 0, none for a number no
    contact has).
    """
    number = strip_separators(number) if "@" not in number else number  # (a SIP address stays as it is)
    values: dict[str, Any] = {
        "number": number,
        "presentation": 1 if number else 3,
        "type": call_type,
        "features": 0,
        "date": start_ms,
        "duration": duration_s,
        "new": 1,
    }
    if call_type == MISSED:
        values["is_read"] = 0
    if caller is not None:  # (CallerInfo: a number no contact has gives no name, type 0)
        values.update(name=caller.name, numbertype=caller.type, numberlabel=caller.label)
    else:
        values.update(name=None, numbertype=0, numberlabel=None)
    return content.insert(CALLS, values)


@functools.lru_cache(maxsize=16)
def time_zone(zone: str) -> dt.tzinfo:
    """The time zone ``zone`` names (UTC when it names none)."""
    try:
        return zoneinfo.ZoneInfo(zone) if zone and zone != "UTC" else dt.timezone.utc
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


@functools.lru_cache(maxsize=4096)
def local_day(ms: int, zone: str) -> dt.date:
    """The calendar day of ``ms`` in time zone ``zone``."""
    return dt.datetime.fromtimestamp(ms / 1000, time_zone(zone)).date()

"""The contacts provider, ``content://com.android.contacts/...`` (``ContactsContract``).

As packages/providers/ContactsProvider ContactsProvider2.java, in the columns a task reads: a
person is a ``raw_contacts`` row with ``data`` rows (``mimetype`` ``vnd.android.cursor.item/name``,
``phone_v2``, ``email_v2``... and ``data1``..``data15``), and each raw contact belongs to a
``contacts`` aggregate whose ``display_name``, ``starred`` and ``has_phone_number`` follow its raw
contacts. URIs: ``contacts``, ``contacts/#``, ``raw_contacts``, ``raw_contacts/#``, ``data``,
``data/#``, ``data/phones``, ``data/phones/#``, ``data/emails``, ``data/emails/#`` and
``phone_lookup/NUMBER``. A raw contact's display name comes from its best data row (structured
name, then nickname, organization, phone, email: ``DisplayNameSources``). Each raw contact gets a
contact of its own (Android would also join raw contacts of the same person; this provider never
does). Deleting a local raw contact removes it and its data; a contact goes with its last raw contact.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from androidrl.virtual.system.framework.content import (
    ILLEGAL_ARGUMENT,
    UNSUPPORTED,
    ProviderError,
    Uri,
)
from androidrl.virtual.system.framework.database import Match, Route, SQLiteProvider

AUTHORITY = "com.android.contacts"
MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
MIME_NICKNAME = "vnd.android.cursor.item/nickname"
MIME_ORGANIZATION = "vnd.android.cursor.item/organization"
#: ``DisplayNameSources``: which kind of data row a display name came from (higher wins).
NAME_SOURCES = {MIME_NAME: 40, MIME_NICKNAME: 35, MIME_ORGANIZATION: 30, MIME_PHONE: 20, MIME_EMAIL: 10}
_CALLER = "calling user: android.uid.shell:2000, calling package:com.android.shell"

DATA = tuple(f"data{i}" for i in range(1, 16))
RAW_COLUMNS = (
    "_id", "contact_id", "account_name", "account_type", "data_set", "sourceid", "version", "dirty", "deleted",
    "aggregation_mode", "custom_ringtone", "send_to_voicemail", "times_contacted", "last_time_contacted", "starred",
    "pinned", "display_name", "display_name_alt", "display_name_source", "phonetic_name", "sort_key",
)  # fmt: skip
CONTACT_COLUMNS = (
    "_id", "display_name", "display_name_alt", "display_name_source", "starred", "pinned", "has_phone_number",
    "lookup", "photo_id", "photo_uri", "photo_thumb_uri", "times_contacted", "last_time_contacted",
    "custom_ringtone", "send_to_voicemail", "in_visible_group", "in_default_directory", "name_raw_contact_id",
    "contact_last_updated_timestamp", "sort_key",
)  # fmt: skip
DATA_COLUMNS = (
    "_id", "raw_contact_id", "contact_id", "mimetype", "is_primary", "is_super_primary", "data_version", *DATA,
    "account_name", "account_type", "display_name", "starred", "has_phone_number", "lookup", "photo_id",
    "times_contacted", "in_visible_group",
)  # fmt: skip
LOOKUP_COLUMNS = (
    "_id", "display_name", "number", "type", "label", "normalized_number", "lookup", "starred", "has_phone_number",
    "photo_id", "custom_ringtone", "send_to_voicemail", "in_visible_group", "times_contacted", "last_time_contacted",
)  # fmt: skip
#: What ``updateContactOptions`` lets a caller change on an aggregate.
CONTACT_OPTIONS = (
    "starred",
    "pinned",
    "custom_ringtone",
    "send_to_voicemail",
    "times_contacted",
    "last_time_contacted",
)

_SCHEMA = f"""
CREATE TABLE contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT, name_raw_contact_id INTEGER, photo_id INTEGER,
    custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0, times_contacted INTEGER NOT NULL DEFAULT 0,
    last_time_contacted INTEGER, starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
    has_phone_number INTEGER NOT NULL DEFAULT 0, lookup TEXT, contact_last_updated_timestamp INTEGER);
CREATE TABLE raw_contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT, contact_id INTEGER REFERENCES contacts(_id),
    account_name TEXT, account_type TEXT, data_set TEXT, sourceid TEXT, version INTEGER NOT NULL DEFAULT 1,
    dirty INTEGER NOT NULL DEFAULT 0, deleted INTEGER NOT NULL DEFAULT 0, aggregation_mode INTEGER NOT NULL DEFAULT 0,
    custom_ringtone TEXT, send_to_voicemail INTEGER NOT NULL DEFAULT 0, times_contacted INTEGER NOT NULL DEFAULT 0,
    last_time_contacted INTEGER, starred INTEGER NOT NULL DEFAULT 0, pinned INTEGER NOT NULL DEFAULT 0,
    display_name TEXT, display_name_alt TEXT, display_name_source INTEGER NOT NULL DEFAULT 0, phonetic_name TEXT,
    sort_key TEXT);
CREATE TABLE data (_id INTEGER PRIMARY KEY AUTOINCREMENT, raw_contact_id INTEGER NOT NULL REFERENCES raw_contacts(_id),
    mimetype TEXT NOT NULL, is_primary INTEGER NOT NULL DEFAULT 0, is_super_primary INTEGER NOT NULL DEFAULT 0,
    data_version INTEGER NOT NULL DEFAULT 0, {", ".join(f"{d} TEXT" for d in DATA)});
CREATE INDEX data_raw_contact_id ON data (raw_contact_id);
CREATE VIEW view_contacts AS SELECT c._id AS _id, n.display_name AS display_name,
    n.display_name_alt AS display_name_alt, n.display_name_source AS display_name_source, c.starred AS starred,
    c.pinned AS pinned, c.has_phone_number AS has_phone_number, c.lookup AS lookup, c.photo_id AS photo_id,
    NULL AS photo_uri, NULL AS photo_thumb_uri, c.times_contacted AS times_contacted,
    c.last_time_contacted AS last_time_contacted, c.custom_ringtone AS custom_ringtone,
    c.send_to_voicemail AS send_to_voicemail, 1 AS in_visible_group, 1 AS in_default_directory,
    c.name_raw_contact_id AS name_raw_contact_id, c.contact_last_updated_timestamp AS contact_last_updated_timestamp,
    n.sort_key AS sort_key
    FROM contacts c LEFT JOIN raw_contacts n ON n._id = c.name_raw_contact_id;
CREATE VIEW view_data AS SELECT d._id AS _id, d.raw_contact_id AS raw_contact_id, r.contact_id AS contact_id,
    d.mimetype AS mimetype, d.is_primary AS is_primary, d.is_super_primary AS is_super_primary,
    d.data_version AS data_version, {", ".join(f"d.{x} AS {x}" for x in DATA)}, r.account_name AS account_name,
    r.account_type AS account_type, c.display_name AS display_name, c.starred AS starred,
    c.has_phone_number AS has_phone_number, c.lookup AS lookup, c.photo_id AS photo_id,
    c.times_contacted AS times_contacted, 1 AS in_visible_group
    FROM data d JOIN raw_contacts r ON r._id = d.raw_contact_id LEFT JOIN view_contacts c ON c._id = r.contact_id;
CREATE VIEW view_phone_lookup AS SELECT v.contact_id AS _id, v.display_name AS display_name, v.data1 AS number,
    v.data2 AS type, v.data3 AS label, v.data4 AS normalized_number, v.lookup AS lookup, v.starred AS starred,
    v.has_phone_number AS has_phone_number, v.photo_id AS photo_id, c.custom_ringtone AS custom_ringtone,
    c.send_to_voicemail AS send_to_voicemail, 1 AS in_visible_group, c.times_contacted AS times_contacted,
    c.last_time_contacted AS last_time_contacted
    FROM view_data v JOIN contacts c ON c._id = v.contact_id WHERE v.mimetype = '{MIME_PHONE}';
"""


def phone_numbers_equal(a: Any, b: Any) -> int:
    """``PHONE_NUMBERS_EQUAL`` (the provider's SQL function): the same digits, or one ending the other (7+ digits)."""
    x, y = re.sub(r"\D", "", str(a or "")), re.sub(r"\D", "", str(b or ""))
    if not x or not y:
        return 0
    short, long_ = sorted((x, y), key=len)
    return int(x == y or (len(short) >= 7 and long_.endswith(short)))


def _route(table: str, columns: tuple[str, ...], mime: str, write: str | None, where: str | None = None,
           insert: bool = True) -> tuple[Route, Route]:  # fmt: skip
    """The dir and item routes of one URI."""
    return (
        Route(table, write_table=write, where=where, columns=columns, mime=mime, insert=insert),
        Route(table, item=True, write_table=write, where=where, columns=columns, mime=mime, insert=insert),
    )


_CONTACTS, _CONTACT = _route("view_contacts", CONTACT_COLUMNS, "contact", "contacts", insert=False)
_RAWS, _RAW = _route("raw_contacts", RAW_COLUMNS, "raw_contact", None)
_DATAS, _DATUM = _route("view_data", DATA_COLUMNS, "data", "data")
_PHONES, _PHONE = _route("view_data", DATA_COLUMNS, "phone_v2", "", f"mimetype='{MIME_PHONE}'")
_EMAILS, _EMAIL = _route("view_data", DATA_COLUMNS, "email_v2", "", f"mimetype='{MIME_EMAIL}'")


class ContactsProvider(SQLiteProvider):
    """Contacts, raw contacts and their data."""

    authority = AUTHORITY
    schema = _SCHEMA
    routes = {
        "contacts": _CONTACTS,
        "contacts/#": _CONTACT,
        "raw_contacts": _RAWS,
        "raw_contacts/#": _RAW,
        "data/phones": _PHONES,
        "data/phones/#": _PHONE,
        "data/emails": _EMAILS,
        "data/emails/#": _EMAIL,
        "data": _DATAS,
        "data/#": _DATUM,
        "phone_lookup/*": Route(
            "view_phone_lookup",
            where="PHONE_NUMBERS_EQUAL(number, ?)",
            write_table="",
            columns=LOOKUP_COLUMNS,
            mime="phone_lookup",
        ),  # fmt: skip
    }

    def opened(self, db: sqlite3.Connection) -> None:
        db.create_function("PHONE_NUMBERS_EQUAL", 2, phone_numbers_equal, deterministic=True)

    def unknown(self, uri: Uri) -> ProviderError:
        return ProviderError(ILLEGAL_ARGUMENT, f"Unknown URL {uri}")  # (LegacyApiSupport.query)

    def refused(self, uri: Uri, operation: str) -> ProviderError:
        return ProviderError(UNSUPPORTED, f"URI: {uri}, {_CALLER}")  # (ContactsDatabaseHelper.exceptionMessage)

    # ------------------------------------------------------------------ writes

    def before_insert(self, match: Match, values: dict[str, Any]) -> None:
        if match.pattern == "raw_contacts":
            if (values.get("account_name") is None) != (values.get("account_type") is None):
                raise ProviderError(ILLEGAL_ARGUMENT, "Must specify both or neither of ACCOUNT_NAME and ACCOUNT_TYPE")
            for computed in ("contact_id", "display_name", "display_name_alt", "display_name_source", "sort_key"):
                values.pop(computed, None)
        elif match.pattern == "data":
            raw_id = values.get("raw_contact_id")
            if raw_id is None:
                raise ProviderError(ILLEGAL_ARGUMENT, "raw_contact_id is required")
            if not values.get("mimetype"):
                raise ProviderError(ILLEGAL_ARGUMENT, "mimetype is required")
            values.pop("contact_id", None)  # (a row of a raw contact that does not exist is kept, and never shown)

    def after_write(self, match: Match, row_ids: Sequence[int]) -> None:
        table = match.route.target
        if table == "contacts":  # a contact's star is its raw contacts' (updateContactOptions)
            listed = ",".join(str(int(i)) for i in row_ids)
            self.run("UPDATE raw_contacts SET starred = (SELECT starred FROM contacts WHERE _id = contact_id) "
                     f"WHERE contact_id IN ({listed})")  # fmt: skip
        elif table == "raw_contacts":
            self.refresh(row_ids)
        elif table == "data":
            self.refresh(self.ids("SELECT DISTINCT raw_contact_id FROM data WHERE _id IN", row_ids))

    def update(self, uri: Uri, values: Mapping[str, Any], where: str | None, args: Sequence[Any]) -> int:
        match = self.match(uri)
        if match.route.target == "contacts":
            values = {k: v for k, v in values.items() if k in CONTACT_OPTIONS}
            return super().update(uri, values, where, args) if values else 0
        values = {k: v for k, v in values.items() if k not in ("_id", "contact_id", "display_name", "sort_key")}
        return super().update(uri, values, where, args) if values else 0

    def delete(self, uri: Uri, where: str | None, args: Sequence[Any]) -> int:
        match = self.match(uri)
        route = match.route
        if not route.target:
            raise self.refused(uri, "delete")
        rows = f"SELECT _id FROM {route.table}{self.selection(match, where)}"
        with self.transaction():
            ids = [r[0] for r in self.run(rows, [*match.wildcards, *args])]
            if route.target == "contacts":
                raws = self.ids("SELECT _id FROM raw_contacts WHERE contact_id IN", ids)
                self.drop_raw_contacts(raws)
            elif route.target == "raw_contacts":
                self.drop_raw_contacts(ids)
            else:
                raws = self.ids("SELECT DISTINCT raw_contact_id FROM data WHERE _id IN", ids)
                self.run(f"DELETE FROM data WHERE _id IN ({','.join(map(str, ids))})")
                self.refresh(raws)
        if ids:
            self.notify(uri)
        return len(ids)

    # ------------------------------------------------------------------ aggregation

    def ids(self, sql: str, ids: Iterable[int]) -> list[int]:
        """The first column of ``sql (id, id, ...)`` over ``ids``."""
        listed = ",".join(str(int(i)) for i in ids)
        return [r[0] for r in self.run(f"{sql} ({listed})")] if listed else []

    def drop_raw_contacts(self, raw_ids: Sequence[int]) -> None:
        """Delete raw contacts, their data, and the contacts left with none."""
        contacts = self.ids("SELECT DISTINCT contact_id FROM raw_contacts WHERE _id IN", raw_ids)
        listed = ",".join(str(int(i)) for i in raw_ids)
        if listed:
            self.run(f"DELETE FROM data WHERE raw_contact_id IN ({listed})")
            self.run(f"DELETE FROM raw_contacts WHERE _id IN ({listed})")
        self.refresh_contacts(contacts)

    def refresh(self, raw_ids: Iterable[int]) -> None:
        """Recompute raw contacts' display names, give new ones a contact, and recompute their contacts."""
        contacts = set()
        for raw_id in raw_ids:
            row = self.run("SELECT contact_id FROM raw_contacts WHERE _id = ?", [raw_id]).fetchone()
            if row is None:
                continue
            name, alt, source = self.display_name(raw_id)
            contact_id = row[0]
            if contact_id is None:
                contact_id = self.run("INSERT INTO contacts (name_raw_contact_id) VALUES (?)", [raw_id]).lastrowid
            self.run(
                "UPDATE raw_contacts SET display_name = ?, display_name_alt = ?, display_name_source = ?, "
                "sort_key = ?, contact_id = ? WHERE _id = ?",
                [name, alt, source, name, contact_id, raw_id],
            )
            contacts.add(contact_id)
        self.refresh_contacts(contacts)

    def display_name(self, raw_id: int) -> tuple[str | None, str | None, int]:
        """(display name, alternative "family, given" name, ``DisplayNameSources`` value) of a raw contact."""
        rows = self.run(
            "SELECT mimetype, data1, data2, data3, data4, data5, data6 FROM data WHERE raw_contact_id = ? "
            "ORDER BY is_super_primary DESC, is_primary DESC, _id",
            [raw_id],
        ).fetchall()
        best = max(rows, key=lambda r: NAME_SOURCES.get(r[0], 0), default=None)
        if best is None or best[0] not in NAME_SOURCES:
            return None, None, 0
        mime, data1, given, family, prefix, middle, suffix = best
        if mime != MIME_NAME:
            return data1, data1, NAME_SOURCES[mime]
        name = data1 or " ".join(p for p in (prefix, given, middle, family, suffix) if p) or None
        alt = f"{family}, {given}" if family and given else name
        return name, alt, NAME_SOURCES[mime]

    def refresh_contacts(self, contact_ids: Iterable[int]) -> None:
        """Recompute aggregates from their raw contacts; delete those left without any."""
        now = self.host.now_ms() if self.host is not None else 0
        for contact_id in contact_ids:
            raws = self.run(
                "SELECT _id, display_name, starred FROM raw_contacts WHERE contact_id = ? AND deleted = 0 "
                "ORDER BY display_name_source DESC, _id",
                [contact_id],
            ).fetchall()
            if not raws:
                self.run("DELETE FROM contacts WHERE _id = ?", [contact_id])
                continue
            listed = ",".join(str(r[0]) for r in raws)
            phones = self.run(f"SELECT 1 FROM data WHERE raw_contact_id IN ({listed}) AND mimetype = ?", [MIME_PHONE])
            name_raw, name = raws[0][0], raws[0][1] or ""
            lookup = f"0r{name_raw}-{name.encode().hex().upper()}"  # (ContactLookupKey of a local raw contact)
            self.run(
                "UPDATE contacts SET name_raw_contact_id = ?, starred = ?, has_phone_number = ?, lookup = ?, "
                "contact_last_updated_timestamp = ? WHERE _id = ?",
                [name_raw, max(r[2] for r in raws), int(phones.fetchone() is not None), lookup, now, contact_id],
            )

"""What the Contacts app reads from and writes to the contacts provider (``ContactsContract``).

The provider is the only store: the list, a contact's details and the editor read it anew each
frame, and every change the app makes is a provider write (as ContactSaveService does), so a
``content insert`` shows in the app at once and what the user does shows in ``content query``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

AUTHORITY = "com.android.contacts"
CONTACTS = f"content://{AUTHORITY}/contacts"
RAW_CONTACTS = f"content://{AUTHORITY}/raw_contacts"
DATA = f"content://{AUTHORITY}/data"
MIME_NAME = "vnd.android.cursor.item/name"
MIME_PHONE = "vnd.android.cursor.item/phone_v2"
MIME_EMAIL = "vnd.android.cursor.item/email_v2"
#: The bucket of names that start with no letter (ContactLocaleUtils' "#"), listed last.
OTHER_BUCKET = "#"


@dataclass(frozen=True)
class Summary:
    """One row of the contact list: a ``contacts`` aggregate."""

    id: int
    name: str  # "" when the contact has no display name
    starred: bool


@dataclass(frozen=True)
class Entry:
    """A phone number or email of a contact (a ``data`` row)."""

    id: int
    value: str
    type: int
    label: str | None = None


@dataclass
class Contact:
    """A contact as its details screen and the editor show it."""

    id: int
    raw_id: int
    name: str
    starred: bool
    given: str = ""
    family: str = ""
    name_row: int | None = None
    phones: list[Entry] = field(default_factory=list)
    emails: list[Entry] = field(default_factory=list)


@functools.lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """``text`` without accents, case-folded: how names sort and match (the PHONEBOOK collation's primary strength)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def bucket(name: str) -> str:
    """The list section a name falls in: its first letter without accents, upper case, or ``#``."""
    first = folded(name.strip())[:1].upper()
    return first if first.isalpha() else OTHER_BUCKET


def sort_key(name: str) -> tuple[bool, str]:
    """Names sorted as the contact list shows them: by letter, the ``#`` bucket (and no name) last."""
    return (bucket(name) == OTHER_BUCKET, folded(name))


def contacts(content: Any) -> list[Summary]:
    """Every contact, sorted by display name as the list shows them."""
    rows = content.query(CONTACTS, ["_id", "display_name", "starred"])
    found = [Summary(int(r["_id"]), str(r["display_name"] or ""), bool(r["starred"])) for r in rows]
    return sorted(found, key=lambda s: (*sort_key(s.name), s.id))


def search(content: Any, query: str) -> list[Summary]:
    """The contacts a search finds (Contacts.CONTENT_FILTER_URI): a name word, an email or the digits of a number.

    A name matches when one of its words starts with the query (ignoring case and accents),
    an email when it starts with it, a number when the query's digits appear in it.
    """
    text = folded(query.strip())
    if not text:
        return contacts(content)
    digits = re.sub(r"\D", "", text) if re.fullmatch(r"[\d\s+()\-.]+", text) else ""
    found = []
    rows = content.query(DATA, ["contact_id", "mimetype", "data1"], "mimetype IN (?, ?)", [MIME_PHONE, MIME_EMAIL])
    by_contact: dict[int, list[tuple[str, str]]] = {}
    for row in rows:
        by_contact.setdefault(int(row["contact_id"] or 0), []).append((row["mimetype"], str(row["data1"] or "")))
    for summary in contacts(content):
        words = folded(summary.name).split()
        name_hit = any(w.startswith(text) for w in words) or folded(summary.name).startswith(text)
        data_hit = any(
            (mime == MIME_EMAIL and folded(value).startswith(text))
            or (mime == MIME_PHONE and digits and digits in re.sub(r"\D", "", value))
            for mime, value in by_contact.get(summary.id, ())
        )
        if name_hit or data_hit:
            found.append(summary)
    return found


def load(content: Any, contact_id: int) -> Contact | None:
    """A contact with its name parts, phones and emails, or None when it does not exist."""
    rows = content.query(f"{CONTACTS}/{int(contact_id)}", ["_id", "display_name", "starred", "name_raw_contact_id"])
    if not rows:
        return None
    head = rows[0]
    contact = Contact(
        int(head["_id"]), int(head["name_raw_contact_id"] or 0), str(head["display_name"] or ""), bool(head["starred"])
    )
    data = content.query(
        DATA, ["_id", "raw_contact_id", "mimetype", "data1", "data2", "data3"], "contact_id = ?", [contact.id], "_id"
    )
    for row in data:
        mime, value = row["mimetype"], str(row["data1"] or "")
        if mime == MIME_NAME and contact.name_row is None:
            contact.name_row = int(row["_id"])
            contact.given, contact.family = str(row["data2"] or ""), str(row["data3"] or "")
            if not (contact.given or contact.family) and value:
                contact.given, contact.family = split_name(value)
        elif mime in (MIME_PHONE, MIME_EMAIL) and value:
            entry = Entry(int(row["_id"]), value, _int(row["data2"]), row["data3"])
            (contact.phones if mime == MIME_PHONE else contact.emails).append(entry)
    return contact


def split_name(name: str) -> tuple[str, str]:
    """A full name as the editor's First and Last name (NameSplitter, roughly: the last word is the family name)."""
    words = name.split()
    if len(words) < 2:
        return name.strip(), ""
    return " ".join(words[:-1]), words[-1]


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def full_name(given: str, family: str) -> str:
    """The display name the provider gives a structured name of these parts."""
    return " ".join(p for p in (given.strip(), family.strip()) if p)


def save(
    content: Any,
    contact: Contact | None,
    given: str,
    family: str,
    phones: list[tuple[int | None, str, int]],
    emails: list[tuple[int | None, str, int]],
) -> int | None:
    """Write an editor's fields (ContactSaveService): a new raw contact, or the changes to ``contact``.

    Args:
        content: The content resolver.
        contact: The contact edited, or None for a new one.
        given: First name.
        family: Last name.
        phones: ``(data row id or None for a new one, number, Phone.TYPE_*)`` per phone field; an empty
            number deletes its row.
        emails: The same for the email fields.

    Returns:
        The contact's id, or None when a new contact had nothing in it (nothing is saved).
    """
    given, family = given.strip(), family.strip()
    phones = [(i, v.strip(), t) for i, v, t in phones]
    emails = [(i, v.strip(), t) for i, v, t in emails]
    if contact is None:
        if not (given or family or any(v for _, v, _ in phones) or any(v for _, v, _ in emails)):
            return None
        raw = content.insert(RAW_CONTACTS, {})
        raw_id = int(str(raw).rsplit("/", 1)[1])
        name_row = None
    else:
        raw_id, name_row = contact.raw_id, contact.name_row
    name = {"data1": full_name(given, family) or None, "data2": given or None, "data3": family or None}
    if name_row is not None:
        if given or family:
            content.update(f"{DATA}/{name_row}", name)
        else:
            content.delete(f"{DATA}/{name_row}")
    elif given or family:
        content.insert(DATA, {"raw_contact_id": raw_id, "mimetype": MIME_NAME, **name})
    for mime, fields in ((MIME_PHONE, phones), (MIME_EMAIL, emails)):
        for row_id, value, kind in fields:
            if row_id is None:
                if value:
                    content.insert(DATA, {"raw_contact_id": raw_id, "mimetype": mime, "data1": value, "data2": kind})
            elif value:
                content.update(f"{DATA}/{row_id}", {"data1": value, "data2": kind})
            else:
                content.delete(f"{DATA}/{row_id}")
    rows = content.query(f"{RAW_CONTACTS}/{raw_id}", ["contact_id"])
    return int(rows[0]["contact_id"]) if rows and rows[0]["contact_id"] is not None else None


def delete(content: Any, contact_id: int) -> int:
    """Delete a contact, its raw contacts and their data (ContactSaveService.createDeleteContactIntent)."""
    return content.delete(f"{CONTACTS}/{int(contact_id)}")


def set_starred(content: Any, contact_id: int, starred: bool) -> None:
    """Star or unstar a contact (ContactSaveService.createSetStarredIntent)."""
    content.update(f"{CONTACTS}/{int(contact_id)}", {"starred": int(starred)})


def contact_id_of(content: Any, uri: str | None) -> int | None:
    """The contact a ``content://com.android.contacts/contacts/#`` or ``raw_contacts/#`` URI names, or None."""
    match = re.fullmatch(rf"content://{re.escape(AUTHORITY)}/(contacts|raw_contacts)/(\d+)", (uri or "").split("?")[0])
    if match is None:
        return None
    if match.group(1) == "contacts":
        return int(match.group(2))
    rows = content.query(f"{RAW_CONTACTS}/{match.group(2)}", ["contact_id"])
    return int(rows[0]["contact_id"]) if rows and rows[0]["contact_id"] is not None else None

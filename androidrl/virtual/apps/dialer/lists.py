"""The Favorites and Contacts tabs (Dialer's SpeedDialFragment and ContactsFragment).

Favorites (speeddial/res/layout): the ``speed_dial_header_text`` "Favorites" and a row per
starred contact (favorite_item_layout.xml: ``avatar``, ``name``, ``phone_type``) whose tap calls
its number; none starred: "You haven't added any favorites yet". Contacts
(contactsfragment/res/layout): "Create new contact" (add_contact_row.xml), then a row per contact
(contact_row.xml: the letter ``header`` on the first of each letter, ``click_target`` with the
``photo`` badge and ``contact_name``) whose tap opens the contact in Contacts.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.dialer.calllog import Row
from androidrl.virtual.apps.dialer.data import Person, bucket
from androidrl.virtual.apps.dialer.widgets import RID
from androidrl.virtual.ui.views import (
    PRIMARY,
    TEXT_SECONDARY,
    WHITE,
    ImageView,
    LinearLayout,
    TextView,
    View,
)
from androidrl.virtual.ui.widgets import letter_tile


def favorites(host, people: list[Person]) -> list[Row]:
    """The Favorites tab's rows, each ``(kind, make)``."""
    s = host.string
    starred = [p for p in people if p.starred]
    if not starred:
        empty = partial(
            TextView,
            s("speed_dial_no_contacts_description"),
            resource_id=RID + "empty_list_view_message",
            text_color=TEXT_SECONDARY,
            gravity="center",
            height=96,
        )
        return [("empty", empty)]
    header = partial(
        TextView,
        s("favorites_header"),
        resource_id=RID + "speed_dial_header_text",
        text_color=TEXT_SECONDARY,
        bold=True,
        padding=12,
        height=44,
    )
    return [("header", header)] + [("favorite", partial(favorite, host, person)) for person in starred]


def favorite(host, person: Person) -> View:
    """A starred contact (favorite_item_layout.xml): a tap calls its number."""
    kind = host.type_label(person.type) if person.number else ""
    return LinearLayout(
        [
            letter_tile(person.name, 48, cls="android.widget.QuickContactBadge", resource_id=RID + "avatar"),
            LinearLayout(
                [
                    TextView(person.name, resource_id=RID + "name", text_size=16, height=26),
                    TextView(kind, resource_id=RID + "phone_type", text_color=TEXT_SECONDARY, height=22),
                ],
                weight=1,
                width=0,
                padding=6,
            ),
        ],
        vertical=False,
        clickable=True,
        long_clickable=True,
        focusable=True,
        height=72,
        padding=12,
        on_click=partial(host.call, person.number) if person.number else None,
    )


def contacts(host, people: list[Person]) -> list[Row]:
    """The Contacts tab's rows, each ``(kind, make)``: the contacts that have a name (ContactsCursorLoader)."""
    people = [p for p in people if p.name]
    rows: list[Row] = [("add", partial(add_contact_row, host))]
    last = None
    for person in people:
        letter = bucket(person.name)
        rows.append(("contact", partial(contact_row, host, person, letter if letter != last else None)))
        last = letter
    if not people:
        empty = partial(
            TextView, host.string("all_contacts_empty"), text_color=TEXT_SECONDARY, gravity="center", height=96
        )
        rows.append(("empty", empty))
    return rows


def add_contact_row(host) -> View:
    """add_contact_row.xml: "Create new contact"."""
    return LinearLayout(
        [
            ImageView(glyph="+", color=PRIMARY, glyph_color=WHITE, resource_id=RID + "photo", width=40, height=40),
            TextView(
                host.string("all_contacts_empty_add_contact_action"),
                resource_id=RID + "contact_name",
                text_size=16,
                padding=12,
                weight=1,
                width=0,
            ),
        ],
        vertical=False,
        resource_id=RID + "click_target",
        clickable=True,
        focusable=True,
        height=64,
        padding=12,
        on_click=host.new_contact,
    )


def contact_row(host, person: Person, letter: str | None) -> View:
    """contact_row.xml: the letter ``header`` (first of its letter), the badge and the name; a tap opens it."""
    head: View = (
        TextView(letter, resource_id=RID + "header", text_color=PRIMARY, bold=True, gravity="center", width=40)
        if letter
        else View(width=40, height=0)
    )
    target = LinearLayout(
        [
            letter_tile(person.name, 40, cls="android.widget.QuickContactBadge", resource_id=RID + "photo"),
            TextView(person.name, resource_id=RID + "contact_name", text_size=16, padding=12, weight=1, width=0),
        ],
        vertical=False,
        resource_id=RID + "click_target",
        clickable=True,
        long_clickable=True,
        focusable=True,
        weight=1,
        width=0,
        on_click=partial(host.open_contact, person.id),
    )
    return LinearLayout([head, target], vertical=False, cls="android.widget.FrameLayout", height=64, padding=8)

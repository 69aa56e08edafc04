"""``ContactSelectionActivity`` for ``INSERT_OR_EDIT``: "Add to contact" — a new contact or an existing one.

What another app starts to add a number (or an email) to the contacts, as Messaging's "Add
contact" does: ``android.intent.action.INSERT_OR_EDIT`` of ``vnd.android.cursor.item/contact``
with ContactsContract.Intents.Insert's extras (``phone``, ``email``, ``name``...). As
packages/apps/Contacts ContactSelectionActivity shows it for ACTION_INSERT_OR_EDIT_CONTACT: the
title "Add to contact" (``contactInsertOrEditActivityTitle``) over a ContactPickerFragment in edit
mode — the list's first row is "Create new contact" (HeaderEntryContactListAdapter, not while
searching), then every contact by name, photos without QuickContact. A tap on "Create new contact"
starts ``INSERT`` of a contact with the extras (the editor prefilled, and back to the caller once
saved: ``finishActivityOnSaveCompleted``), a tap on a contact ``EDIT`` of it with the extras (the
editor adds the number to it); either way this screen finishes (startActivityAndForwardResult).
"""

from __future__ import annotations

from androidrl.virtual.apps.contacts import data
from androidrl.virtual.apps.contacts.editor import TAG
from androidrl.virtual.apps.contacts.people import EDITOR, PACKAGE, PeopleActivity
from androidrl.virtual.apps.contacts.widgets import RID
from androidrl.virtual.system.framework.intent import ACTION_EDIT, ACTION_INSERT, Intent
from androidrl.virtual.ui.views import PRIMARY, WHITE, ImageView, LinearLayout, TextView, View

SELECTION = f"{PACKAGE}.activities.ContactSelectionActivity"
ACTION_INSERT_OR_EDIT = "android.intent.action.INSERT_OR_EDIT"
#: The header entry's place in the list (a contact id no row has).
CREATE = data.Summary(-1, "", False)


class ContactSelectionActivity(PeopleActivity):
    """The "Add to contact" list: pick the contact the intent's extras go to, or create one."""

    title_key, fab, quick_contact = "contactInsertOrEditActivityTitle", False, False

    def entries(self, people: list[data.Summary]) -> list[tuple[data.Summary, str | None]]:
        """The rows: "Create new contact", then everyone under their letters (a picker has no favourites)."""
        rows: list[tuple[data.Summary, str | None]] = [(CREATE, None)]
        last = None
        for person in people:
            letter = data.bucket(person.name)
            rows.append((person, letter if letter != last else None))
            last = letter
        return rows

    def row(self, person: data.Summary, header: str | None) -> View:
        if person is not CREATE:
            return super().row(person, header)
        add = ImageView(glyph="+", color=PRIMARY, glyph_color=WHITE, width=40, height=40)  # (person_add)
        label = TextView(
            self.string("header_entry_contact_list_adapter_header_title"),
            resource_id=RID + "cliv_name_textview",
            text_size=16,
            padding=12,
            weight=1,
            width=0,
        )
        return LinearLayout(
            [View(width=40, height=0), add, label],
            vertical=False,
            cls="android.view.ViewGroup",
            clickable=True,
            focusable=True,
            height=56,
            padding=8,
            on_click=self.create,
        )

    def forward(self, action: str, uri: str | None, mime: str, **extras: object) -> None:
        """ContactSelectionActivity.startActivityAndForwardResult: the editor, with the request's extras; this goes."""
        intent = Intent(
            action, component=(PACKAGE, EDITOR), data=uri, type=mime, extras={**self.intent.extras, **extras}
        )
        if self.context.start_activity(intent) == "not-found":
            self.toast(self.string("missing_app"))
        self.finish()

    def open(self, contact_id: int) -> None:
        """A contact: edit it with the extras (ContactPickerFragment.editContact)."""
        self.log(TAG, f"insert or edit: contact {contact_id}")
        self.forward(ACTION_EDIT, f"{data.CONTACTS}/{contact_id}", "vnd.android.cursor.item/contact")

    def create(self) -> None:
        """The "Create new contact" row (startCreateNewContactActivity): the editor, back to the caller once saved."""
        self.log(TAG, "insert or edit: new contact")
        self.forward(ACTION_INSERT, None, "vnd.android.cursor.dir/contact", finishActivityOnSaveCompleted=True)

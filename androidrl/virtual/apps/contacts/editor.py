"""``ContactEditorActivity``: create or edit a contact's name, phones and emails.

As packages/apps/Contacts lays the editor out (contact_editor_activity.xml, RawContactEditorView):
a toolbar with the close button ("Cancel"), the title ("Create new contact" / "Edit contact") and
``editor_menu_save_button`` ("Save"); the name's "First name" and "Last name" fields; a section
per kind (``kind_icon`` "Phone", "Email") with a field per value, each with its type ``spinner``
(Mobile, Home, Work, Other; Home, Work, Other, Mobile) and, when it holds text, ``delete_button``
— and one empty field at the end (KindSectionView.updateEmptyEditors). The fields have no
resource ids of their own (ViewIdGenerator), so the dump shows them by their hints.

``android.intent.action.INSERT`` (``vnd.android.cursor.dir/contact``) opens it prefilled with
ContactsContract.Intents.Insert's ``name``, ``phone``, ``phone_type``, ``email`` and
``email_type``; ``EDIT`` of a contact URI loads that contact (and adds those extras' values to
it). Save writes the provider, shows "NAME saved" and opens the contact (or returns to the
caller that asked for it: the details screen, "Add to contact"'s new contact); Cancel or BACK
with changes asks "Discard changes?".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from androidrl.virtual.apps.contacts import data
from androidrl.virtual.apps.contacts.people import quick_contact_intent
from androidrl.virtual.apps.contacts.strings import EMAIL_TYPES, PHONE_TYPES
from androidrl.virtual.apps.contacts.widgets import RID, toolbar
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import ACTION_EDIT
from androidrl.virtual.ui.dialogs import AlertDialog, spinner
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import (
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Button,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)

TAG = "Contacts"
#: ContactsContract.Intents.Insert's extras.
NAME, PHONE, PHONE_TYPE, EMAIL, EMAIL_TYPE = "name", "phone", "phone_type", "email", "email_type"


@dataclass
class Field:
    """One phone or email field: its data row (None for a new one), text and ``TYPE_*``."""

    row: int | None
    text: TextState
    type: int
    original: tuple[str, int] = ("", 0)  # (value, type) as loaded, to tell changes

    @property
    def changed(self) -> bool:
        return (self.text.text.strip(), self.type) != self.original if self.row is not None else bool(self.text.text)


@dataclass
class Section:
    """The fields of one kind: phones or emails."""

    kind: str  # "phone" or "email"
    types: tuple[int, ...]
    fields: list[Field] = field(default_factory=list)

    def add(self, row: int | None = None, value: str = "", kind: int | None = None) -> None:
        kind = self.types[0] if kind is None else kind
        self.fields.append(Field(row, TextState(value), kind, (value, kind)))

    def trail(self) -> None:
        """Keep one empty field at the end (KindSectionView.updateEmptyEditors)."""
        if not self.fields or self.fields[-1].text.text:
            self.add()


class ContactEditorActivity(Activity):
    """The contact editor."""

    def on_create(self) -> None:
        content = self.context.content
        extras = self.intent.extras
        self.contact = None
        if self.intent.action == ACTION_EDIT or self.intent.data:
            contact_id = data.contact_id_of(content, self.intent.data)
            self.contact = data.load(content, contact_id) if contact_id is not None else None
        self.given, self.family = TextState(), TextState()
        self.phones, self.emails = Section("phone", PHONE_TYPES), Section("email", EMAIL_TYPES)
        self.focus: tuple = ("given",)  # the field with focus: ("given",), ("family",), ("phone", i), ("email", i)
        self.scroll = ScrollState()
        if self.contact is not None:
            self.given.set(self.contact.given)
            self.family.set(self.contact.family)
            for section, entries in ((self.phones, self.contact.phones), (self.emails, self.contact.emails)):
                for entry in entries:
                    section.add(entry.id, entry.value, entry.type)
        self.original = (self.given.text, self.family.text)
        # RawContactModifier.parseExtras, for a new contact and an existing one alike (RawContactEditorView
        # applies the intent's extras to the contact it shows): a name replaces the name, a phone or an
        # email is added as a new value (an INSERT_OR_EDIT's picked contact gets the number).
        if str(extras.get(NAME) or "").strip():
            given, family = data.split_name(str(extras[NAME]))
            self.given.set(given)
            self.family.set(family)
        for section, value, kind in ((self.phones, PHONE, PHONE_TYPE), (self.emails, EMAIL, EMAIL_TYPE)):
            if extras.get(value):
                section.add(None, str(extras[value]), self.type_of(section, extras.get(kind)))
        self.phones.trail()
        self.emails.trail()

    def type_of(self, section: Section, given: object) -> int:
        """An Insert ``*_type`` extra: a ``TYPE_*`` number, or a label naming one; else the section's first type."""
        if isinstance(given, (int, str)) and str(given).isdigit() and int(given) in section.types:
            return int(given)
        if isinstance(given, str):
            key = "phoneType" if section.kind == "phone" else "emailType"
            for kind in section.types:
                if self.string(f"{key}{kind}").casefold() == given.casefold():
                    return kind
        return section.types[0]

    @property
    def title(self) -> str:  # (the window's, in the phone's locale)
        key = "contact_editor_title_existing_contact" if self.contact else "contact_editor_title_new_contact"
        return self.string(key)

    def build(self) -> View:
        s = self.string
        close = ImageView(
            glyph="x",
            color=WHITE,
            glyph_color=TEXT,
            cls="android.widget.ImageButton",
            content_desc=s("cancel_button_content_description"),
            clickable=True,
            focusable=True,
            width=48,
            height=48,
            on_click=self.revert,
        )
        title = TextView(self.title, text_size=20, padding=8, weight=1, width=0, height=56)
        save = Button(
            s("menu_save"), resource_id=RID + "editor_menu_save_button", width=96, height=40, on_click=self.save
        )
        rows: list[View] = [
            self.kind_icon("N", s("header_name_entry")),
            self.field(("given",), self.given, s("name_given")),
            self.field(("family",), self.family, s("name_family")),
        ]
        for section, glyph, hint, header in (
            (self.phones, "C", "phoneLabelsGroup", "header_phone_entry"),
            (self.emails, "@", "emailLabelsGroup", "header_email_entry"),
        ):
            rows.append(self.kind_icon(glyph, s(header)))
            rows += [self.value_row(section, i, s(hint)) for i in range(len(section.fields))]
        editors = ScrollingList(rows, state=self.scroll, cls="android.widget.ScrollView", weight=1)
        return LinearLayout([toolbar([close, title, save], background=WHITE), editors], height=-1)

    def kind_icon(self, glyph: str, description: str) -> View:
        return ImageView(
            glyph=glyph,
            color=WHITE,
            glyph_color=TEXT_SECONDARY,
            resource_id=RID + "kind_icon",
            content_desc=description,
            width=40,
            height=32,
        )

    def field(self, key: tuple, state: TextState, hint: str, numeric: bool = False) -> View:
        view = edit_text(
            self,
            state,
            self.focus == key,
            partial(self.focus_on, key),
            hint=hint,
            numeric=numeric,
            on_change=self.changed,
            on_action=partial(self.next_field, key),
        )
        view.height = 56
        return view

    def value_row(self, section: Section, index: int, hint: str) -> View:
        """A phone or email field with its type spinner (and its delete button when it holds text)."""
        item = section.fields[index]
        key = "phoneType" if section.kind == "phone" else "emailType"
        labels = [self.string(f"{key}{kind}") for kind in section.types]
        chosen = section.types.index(item.type) if item.type in section.types else -1
        if chosen < 0:  # a type the spinner does not offer (from the shell): shown as it is, first
            labels.insert(0, self.string(f"{key}{item.type}") if self._has(f"{key}{item.type}") else str(item.type))
            chosen = 0
        value = self.field((section.kind, index), item.text, hint, numeric=section.kind == "phone")
        value.weight, value.width = 1, 0
        kinds = spinner(self, labels, chosen, partial(self.set_type, section.kind, index), resource_id=RID + "spinner")
        kinds.width = 128
        children: list[View] = [value, kinds]
        if item.text.text:
            children.append(
                ImageView(
                    glyph="-",
                    color=WHITE,
                    glyph_color=TEXT_SECONDARY,
                    resource_id=RID + "delete_button",
                    content_desc=self.string("description_minus_button"),
                    clickable=True,
                    focusable=True,
                    width=40,
                    height=40,
                    on_click=partial(self.clear, section.kind, index),
                )
            )
        return LinearLayout(children, vertical=False, cls="android.widget.LinearLayout", height=56)

    def _has(self, key: str) -> bool:
        try:
            self.string(key)
        except KeyError:
            return False
        return True

    # ------------------------------------------------------------------ editing

    def section(self, kind: str) -> Section:
        return self.phones if kind == "phone" else self.emails

    def focus_on(self, key: tuple) -> None:
        self.focus = key

    def next_field(self, key: tuple) -> None:
        """The keyboard's action key (``actionNext``): focus goes to the next field; after the last, away."""
        order = [("given",), ("family",)]
        order += [(section.kind, i) for section in (self.phones, self.emails) for i in range(len(section.fields))]
        at = order.index(key) if key in order else len(order)
        self.focus = order[at + 1] if at + 1 < len(order) else ()

    def changed(self) -> None:
        self.phones.trail()
        self.emails.trail()

    def set_type(self, kind: str, index: int, choice: int) -> None:
        section = self.section(kind)
        if index < len(section.fields):
            types = list(section.types)
            if section.fields[index].type not in types:
                types.insert(0, section.fields[index].type)
            section.fields[index].type = types[choice]

    def clear(self, kind: str, index: int) -> None:
        """The field's delete button: its value goes (its row is deleted on save)."""
        section = self.section(kind)
        if index < len(section.fields):
            section.fields[index].text.set("")
            if section.fields[index].row is None and len(section.fields) > 1:
                del section.fields[index]
            self.focus = ()
            section.trail()

    def has_changes(self) -> bool:
        fields = self.phones.fields + self.emails.fields
        return (self.given.text, self.family.text) != self.original or any(f.changed for f in fields)

    def save(self) -> None:
        """Save: the provider gets the fields; the contact shows (or its details screen comes back)."""
        if not self.has_changes() and self.contact is not None:
            self.finish()
            return
        values = {
            kind: [(f.row, f.text.text, f.type) for f in self.section(kind).fields] for kind in ("phone", "email")
        }
        content = self.context.content
        contact_id = data.save(
            content, self.contact, self.given.text, self.family.text, values["phone"], values["email"]
        )
        if contact_id is None:  # nothing typed into a new contact: nothing saved
            self.finish()
            return
        saved = data.load(content, contact_id)
        name = saved.name if saved is not None else ""
        self.log(TAG, f"{'created' if self.contact is None else 'saved'} contact {contact_id} {name}")
        self.toast(self.string("contactSavedNamedToast", name) if name else self.string("contactSavedToast"))
        if not self.intent.extras.get("finishActivityOnSaveCompleted"):
            self.context.start_activity(quick_contact_intent(contact_id))
        self.finish()

    def revert(self) -> None:
        """Cancel (the close button, BACK): with changes, ask first (CancelEditDialogFragment)."""
        if not self.has_changes():
            self.finish()
            return
        s = self.string
        self.show(
            AlertDialog(
                message=s("cancel_confirmation_dialog_message"),
                positive=(s("cancel_confirmation_dialog_cancel_editing_button"), self.finish),
                negative=(s("cancel_confirmation_dialog_keep_editing_button"), None),
            )
        )

    def on_back(self) -> bool:
        self.revert()
        return True

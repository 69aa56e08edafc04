"""``QuickContactActivity``: one contact's name, phones and emails, the star, edit and delete.

As packages/apps/Contacts QuickContactActivity lays it out: the toolbar's ``menu_star`` (titled
"Add to favorites" / "Remove from favorites", ContactDisplayUtils.configureStarredMenuItem),
``menu_edit`` ("Edit") and the overflow with ``menu_delete``; the name in ``large_title``; the
``communication_card`` (ExpandingEntryCardView) with an entry per phone — ``header`` the
number, ``text`` its type, the entry's description "Call Mobile NUMBER", a tap calls
(CallUtil.getCallIntent: ``ACTION_CALL tel:``), ``icon_alternate`` ("Text NUMBER") texts
(``SENDTO smsto:``) — and per email (``SENDTO mailto:``). Delete asks first
(ContactDeletionInteraction: "Delete this contact?", Cancel / Delete).
"""

from __future__ import annotations

from functools import partial
from urllib.parse import quote

from androidrl.virtual.apps.contacts import data
from androidrl.virtual.apps.contacts.people import EDITOR, PACKAGE
from androidrl.virtual.apps.contacts.widgets import RID, action_item, toolbar
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import ACTION_EDIT, ACTION_SENDTO, FLAG_ACTIVITY_NEW_TASK, Intent
from androidrl.virtual.ui.dialogs import AlertDialog, overflow_menu
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import (
    PRIMARY,
    SURFACE,
    TEXT_SECONDARY,
    WHITE,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)
from androidrl.virtual.ui.widgets import letter_tile

ACTION_CALL = "android.intent.action.CALL"
TAG = "Contacts"


def fragment(number: str) -> str:
    """A number as ``Uri.fromParts`` encodes it in a ``tel:``/``smsto:`` URI (``+1 555`` -> ``%2B1%20555``)."""
    return quote(number, safe="-_.!~*'()")


class QuickContactActivity(Activity):
    """A contact's details."""

    def on_create(self) -> None:
        content = self.context.content
        self.contact_id = data.contact_id_of(content, self.intent.data)
        self.scroll = ScrollState()
        if self.contact_id is None or data.load(content, self.contact_id) is None:
            self.toast(self.string("invalidContactMessage"), long=True)  # (the loader's isNotFound)
            self.finish()

    def contact(self) -> data.Contact | None:
        return data.load(self.context.content, self.contact_id) if self.contact_id is not None else None

    def build(self) -> View:
        contact = self.contact()
        if contact is None:  # gone (deleted from the shell meanwhile): an empty card, as the loader's reset leaves it
            return LinearLayout([toolbar([])], height=-1)
        s = self.string
        name = contact.name or s("missing_name")
        self.title = name
        star = "menu_removeStar" if contact.starred else "menu_addStar"
        bar = toolbar(
            [
                View(width=0, height=0, weight=1),
                action_item(RID + "menu_star", s(star), "*" if contact.starred else "+", self.toggle_star),
                action_item(RID + "menu_edit", s("menu_editContact"), "E", self.edit),
                overflow_menu(self, [s("menu_deleteContact")], self.menu),
            ]
        )
        header = LinearLayout(
            [
                letter_tile(contact.name, 72),
                TextView(name, resource_id=RID + "large_title", text_size=24, padding=12, weight=1, width=0),
            ],
            vertical=False,
            resource_id=RID + "toolbar_parent",
            padding=16,
            height=104,
            background=SURFACE,
        )
        entries = [self.phone_entry(p, i == 0) for i, p in enumerate(contact.phones)]
        entries += [self.email_entry(e, i == 0) for i, e in enumerate(contact.emails)]
        card = LinearLayout(entries, cls="android.widget.FrameLayout", resource_id=RID + "communication_card")
        content = ScrollingList(
            [card] if entries else [],
            state=self.scroll,
            cls="android.widget.ScrollView",
            resource_id=RID + "content_scroller",
            weight=1,
        )
        return LinearLayout([bar, header, content], height=-1)

    def phone_entry(self, phone: data.Entry, first: bool) -> View:
        """An ExpandingEntryCardView entry for a number: tap to call, the alternate icon to text."""
        s = self.string
        label = self.type_label("phoneType", phone)
        description = " ".join(p for p in (s("call_other"), label, phone.value) if p)
        text = ImageView(
            glyph="T",
            color=WHITE,
            glyph_color=PRIMARY,
            resource_id=RID + "icon_alternate",
            content_desc=s("sms_custom", phone.value),
            clickable=True,
            focusable=True,
            width=48,
            height=48,
            on_click=partial(self.text, phone.value),
        )
        return self.entry("C" if first else "", phone.value, label, description, partial(self.call, phone.value), text)

    def email_entry(self, email: data.Entry, first: bool) -> View:
        s = self.string
        label = self.type_label("emailType", email)
        description = " ".join(p for p in (s("email_other"), label, email.value) if p)
        return self.entry("@" if first else "", email.value, label, description, partial(self.email, email.value))

    def entry(self, glyph: str, header: str, label: str, description: str, on_click, alternate=None) -> View:
        icon = ImageView(
            glyph=glyph,
            color=WHITE if glyph else SURFACE,
            glyph_color=TEXT_SECONDARY,
            resource_id=RID + "icon",
            width=56,
            height=40,
        )
        texts = LinearLayout(
            [
                TextView(header, resource_id=RID + "header", text_size=16, height=28),
                TextView(label, resource_id=RID + "text", text_color=TEXT_SECONDARY, height=22),
            ],
            weight=1,
            width=0,
        )
        children = [icon, texts] + ([alternate] if alternate is not None else [])
        return LinearLayout(
            children,
            vertical=False,
            cls="android.widget.RelativeLayout",
            content_desc=description,
            clickable=True,
            long_clickable=True,
            focusable=True,
            height=72,
            padding=8,
            on_click=on_click,
        )

    def type_label(self, kind: str, entry: data.Entry) -> str:
        """``Phone.getTypeLabel`` / ``Email.getTypeLabel``: a custom type shows its label."""
        if entry.type == 0:
            return entry.label or ""
        try:
            return self.string(f"{kind}{entry.type}")
        except KeyError:
            return self.string(f"{kind}7" if kind == "phoneType" else f"{kind}3")

    # ------------------------------------------------------------------ what taps do

    def call(self, number: str) -> None:
        self.launch(Intent(action=ACTION_CALL, data=f"tel:{fragment(number)}", flags=FLAG_ACTIVITY_NEW_TASK))

    def text(self, number: str) -> None:
        self.launch(Intent(action=ACTION_SENDTO, data=f"smsto:{fragment(number)}", flags=FLAG_ACTIVITY_NEW_TASK))

    def email(self, address: str) -> None:
        self.launch(Intent(action=ACTION_SENDTO, data=f"mailto:{fragment(address)}", flags=FLAG_ACTIVITY_NEW_TASK))

    def launch(self, intent: Intent) -> None:
        """ImplicitIntentsUtil.startActivityInAppIfPossible: no app for it is a toast."""
        if self.context.start_activity(intent) == "not-found":
            self.toast(self.string("missing_app"))

    def toggle_star(self) -> None:
        contact = self.contact()
        if contact is not None:
            data.set_starred(self.context.content, contact.id, not contact.starred)
            self.log(TAG, f"{'starred' if not contact.starred else 'unstarred'} contact {contact.id} {contact.name}")

    def edit(self) -> None:
        """Edit: the editor for this contact; saving comes back here."""
        uri = f"{data.CONTACTS}/{self.contact_id}"
        intent = Intent(
            action=ACTION_EDIT, component=(PACKAGE, EDITOR), data=uri, type="vnd.android.cursor.item/contact"
        )
        intent.extras["finishActivityOnSaveCompleted"] = True
        self.context.start_activity(intent)

    def menu(self, index: int) -> None:
        s = self.string
        self.show(
            AlertDialog(
                message=s("deleteConfirmation"),
                positive=(s("deleteConfirmation_positive_button"), self.delete),
                negative=(s("cancel"), None),
            )
        )

    def delete(self) -> None:
        contact = self.contact()
        if contact is None:
            return
        data.delete(self.context.content, contact.id)
        self.log(TAG, f"deleted contact {contact.id} {contact.name}")
        self.toast(self.string("contacts_deleted_one_named_toast", contact.name or self.string("missing_name")), True)
        self.finish()

"""``ConversationActivity``: one conversation, or the contact picker that starts a new one.

As packages/apps/Messaging ``ui/conversation/`` and ``ui/contact/``. Without a conversation it
shows ``ContactPickerFragment``: the recipient field (``recipient_text_view``, hint "To") over
the contacts (``contact_list_item_view``: ``contact_name``, ``contact_details``,
``contact_detail_type``), filtered as one types; a typed number offers "Send to NUMBER"; a tap
(or the IME action on a number) opens the conversation. A conversation (``conversation_fragment``)
shows its messages as bubbles (``message_text``, ``message_status``), received at the start with
the sender's tile, sent at the end; opening it marks its messages read in the telephony provider.
The compose bar (``compose_message_text``, hint "Send message") shows ``send_message_button``
("Send Message") once there is text; sending inserts a ``content://sms/sent`` row. A long press on
a bubble selects it: Forward, Copy text, Delete. The action bar has "Make a call" and, under "More
options", Add contact (an unknown number), Archive/Unarchive and Delete.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.messaging import data
from androidrl.virtual.apps.messaging.conversation_list import TAG, ContactActions, time_of
from androidrl.virtual.apps.messaging.widgets import RID, action_bar, action_button, avatar, message_row, selection_bar
from androidrl.virtual.system.framework.intent import Intent
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import (
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)

PACKAGE = "com.android.messaging"
FORWARD = f"{PACKAGE}.ui.conversationlist.ForwardMessageActivity"
BOTTOM = 1e9  # a scroll offset past the end: the list clamps it to its last row
PHONE_CHARS = set("+0123456789 -().*#")


def looks_like_number(text: str) -> bool:
    """Whether the recipient field holds a phone number (``PhoneNumberUtils.isWellFormedSmsAddress``, loosely)."""
    stripped = text.strip()
    return bool(stripped) and set(stripped) <= PHONE_CHARS and any(c.isdigit() for c in stripped)


def matches(person: data.Person, query: str) -> bool:
    """``Phone.CONTENT_FILTER_URI``: a word of the name starts with the query, or the number holds its digits."""
    q = query.strip().lower()
    if not q:
        return True
    name = person.name.lower()
    if name.startswith(q) or any(word.startswith(q) for word in name.split()):
        return True
    wanted = data.digits(q)
    return bool(wanted) and wanted == data.digits(q.replace(" ", "")) and wanted in data.digits(person.number)


class ConversationActivity(ContactActions):
    """A conversation, or the contact picker of a new one (extras ``conversation_id``, ``destination``, ``draft``)."""

    def on_create(self) -> None:
        extras = self.intent.extras
        given = str(extras.get("conversation_id") or "0").strip()
        self.conversation_id = int(given) if given.isdigit() else 0  # an unknown one: the contact picker
        self.destination = str(extras.get("destination") or "") or None
        if self.conversation_id and self.destination is None:
            rows = self.context.content.query(f"{data.CONVERSATIONS}/{self.conversation_id}")
            if rows:
                self.destination = str(rows[0]["other_participant_normalized_destination"] or "")
        self.compose = TextState(str(extras.get("draft") or ""))
        self.recipient = TextState()
        self.focus = "compose" if self.destination else "recipient"
        self.selected_message: int | None = None
        self.scroll, self.picker_scroll = ScrollState(), ScrollState()
        self.scroll.scroll_to(BOTTOM)
        self.menu: list[str] = []
        self.conversation: data.Conversation | None = None
        self.messages: list[data.Message] = []
        self.cache = data.Cache()

    @property
    def title(self) -> str:
        return self.conversation.name if self.conversation else self.string("app_name")

    def build(self) -> View:
        return self.build_conversation() if self.destination else self.build_picker()

    # ------------------------------------------------------------------ the contact picker

    def build_picker(self) -> View:
        s = self.string
        field = edit_text(
            self,
            self.recipient,
            self.focus == "recipient",
            partial(self.focus_on, "recipient"),
            hint=s("recipient_hint"),
            resource_id=RID + "recipient_text_view",
            on_action=self.recipient_done,
        )
        field.weight, field.width = 1, 0
        up = ImageView(
            glyph="<",
            color=SURFACE,
            glyph_color=TEXT,
            cls="android.widget.ImageButton",
            content_desc="Navigate up",
            clickable=True,
            focusable=True,
            width=48,
            height=48,
            on_click=self.finish,
        )
        toolbar = LinearLayout([up, field], vertical=False, height=56, background=SURFACE, resource_id=RID + "toolbar")
        query = self.recipient.text
        rows: list[View] = []
        if looks_like_number(query):
            rows.append(self.contact_row(s("contact_list_send_to_text", query.strip()), query.strip(), "", query))
        everyone = data.people(self.context.content)
        rows += [
            self.contact_row(p.name, p.number, data.phone_type(s, p.type), p.number, p.name)
            for p in everyone
            if matches(p, query)
        ]
        if rows:
            body: View = ScrollingList(rows, state=self.picker_scroll, resource_id=RID + "contact_pager", weight=1)
        else:
            body = TextView(
                s("contact_list_empty_text"),
                resource_id=RID + "empty_text_hint",
                gravity="center",
                text_color=TEXT_SECONDARY,
                height=96,
                padding=24,
            )
        return LinearLayout([toolbar, body], height=-1)

    def contact_row(self, name: str, number: str, kind: str, destination: str, tile: str = "") -> View:
        """``contact_list_item_view.xml``."""
        details = LinearLayout(
            [
                TextView(
                    number,
                    resource_id=RID + "contact_details",
                    text_size=14,
                    text_color=TEXT_SECONDARY,
                    height=20,
                    weight=1,
                    width=0,
                ),
                TextView(
                    kind,
                    resource_id=RID + "contact_detail_type",
                    text_size=14,
                    text_color=TEXT_SECONDARY,
                    height=20,
                    width=96,
                ),
            ],
            vertical=False,
            height=20,
        )
        texts = LinearLayout(
            [TextView(name, resource_id=RID + "contact_name", text_size=16, height=26), details],
            weight=1,
            width=0,
            padding=4,
        )
        return LinearLayout(
            [avatar(tile or destination, bool(tile), RID + "contact_icon", 40), texts],
            vertical=False,
            clickable=True,
            focusable=True,
            padding=12,
            height=72,
            on_click=partial(self.open, destination),
        )

    def recipient_done(self) -> None:
        """The IME action on the recipient field: a number, or the only contact that matches."""
        query = self.recipient.text.strip()
        if looks_like_number(query):
            self.open(query)
            return
        found = [p for p in data.people(self.context.content) if matches(p, query)]
        if query and len(found) == 1:
            self.open(found[0].number)

    def open(self, destination: str) -> None:
        """``ContactPickerFragment`` picked one recipient: its conversation (made on the first message)."""
        self.destination = destination
        self.focus = "compose"
        self.scroll.scroll_to(BOTTOM)
        self.log(TAG, f"Opened conversation with {destination}")

    # ------------------------------------------------------------------ the conversation

    def read(self) -> tuple[data.Conversation | None, str, bool, list[data.Message]]:
        """The conversation (None before its first message), its name, whether it is a contact, its messages."""
        content = self.context.content
        conversations = data.sync(content)
        found = next((c for c in conversations if c.id == self.conversation_id), None)
        found = found or data.find(conversations, self.destination or "")
        if found is None:
            named = data.name_of(data.people(content), self.destination or "")
            return None, named or self.destination or "", named is not None, []
        self.conversation_id = found.id
        self.destination = found.destination  # replies go to the thread's address as the provider has it
        if not found.read:  # ConversationData.setFocus -> MarkAsReadAction
            data.mark_read(content, found.thread_id)
            self.log(TAG, f"Marked conversation {found.id} read")
            data.sync(content)  # (the app's row follows now: no frame is built after this one)
        return found, found.name, found.known, data.messages(content, found.thread_id)

    def build_conversation(self) -> View:
        key = (self.conversation_id, self.destination)
        found, name, known, self.messages = self.cache.get(self.context.content, key, self.read)
        self.conversation = found
        if self.selected_message not in {m.id for m in self.messages}:
            self.selected_message = None
        bar = self.message_selection_bar() if self.selected_message is not None else self.bar(name, known)
        bubbles = [self.bubble(m, name, known) for m in self.messages]
        return LinearLayout(
            [
                bar,
                ScrollingList(bubbles, state=self.scroll, resource_id="android:id/list", weight=1),
                self.compose_bar(),
            ],
            height=-1,
        )

    def bar(self, name: str, known: bool) -> View:
        s = self.string
        self.menu = []
        if not known:
            self.menu.append("action_add_contact")
        if self.conversation is not None:
            self.menu += ["action_unarchive" if self.conversation.archived else "action_archive", "action_delete"]
        actions = []
        if data.digits(self.destination):
            actions.append(action_button(s("action_call"), "C", self.call, "action_call"))
        return action_bar(
            name,
            host=self,
            on_up=self.finish,
            actions=actions,
            menu=[s(k) for k in self.menu],
            on_menu=self.on_menu,
            title_id=RID + "conversation_title",
        )

    def message_selection_bar(self) -> View:
        s = self.string
        actions = [
            action_button(s("message_context_menu_forward_message"), ">", self.forward, "forward_message_menu"),
            action_button(s("message_context_menu_copy_text"), "T", self.copy_text, "copy_text"),
            action_button(s("action_delete_message"), "D", self.confirm_delete_message, "action_delete_message"),
        ]
        return selection_bar(1, self.clear_selection, actions, self, [], None)

    def bubble(self, m: data.Message, name: str, known: bool) -> View:
        s = self.string
        when = time_of(self, m.date)
        description = s("incoming_description" if m.incoming else "outgoing_description", name, m.body, when)
        selected = m.id == self.selected_message
        return message_row(
            m.body,
            when,
            not m.incoming,
            name,
            known,
            content_desc=description,
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=selected,
            background=(232, 240, 254) if selected else None,
            on_click=self.clear_selection,
            on_long_click=partial(self.select_message, m.id),
        )

    def compose_bar(self) -> View:
        s = self.string
        field = edit_text(
            self,
            self.compose,
            self.focus == "compose",
            partial(self.focus_on, "compose"),
            hint=s("compose_message_view_hint_text"),
            resource_id=RID + "compose_message_text",
        )
        field.weight, field.width = 1, 0
        attach = ImageView(
            glyph="+",
            color=WHITE,
            glyph_color=TEXT_SECONDARY,
            cls="android.widget.ImageButton",
            resource_id=RID + "attach_media_button",
            content_desc=s("attachMediaButtonContentDescription"),
            clickable=True,
            focusable=True,
            width=48,
            height=48,
        )
        if self.compose.text.strip():
            send = ImageView(
                glyph=">",
                color=PRIMARY,
                glyph_color=WHITE,
                cls="android.widget.ImageButton",
                resource_id=RID + "send_message_button",
                content_desc=s("sendButtonContentDescription"),
                clickable=True,
                focusable=True,
                width=48,
                height=48,
                on_click=self.send,
            )
        else:  # SimIconView until there is something to send
            send = ImageView(glyph="", color=(154, 160, 166), resource_id=RID + "self_send_icon", width=48, height=48)
        return LinearLayout(
            [attach, field, send],
            vertical=False,
            height=64,
            padding=4,
            resource_id=RID + "message_compose_view_container",
        )

    # ------------------------------------------------------------------ what gestures do

    def focus_on(self, field: str) -> None:
        self.focus = field

    def on_back(self) -> bool:
        if self.selected_message is not None:
            self.selected_message = None
            return True
        return False

    def send(self) -> None:
        """``ComposeMessageView.sendMessageInternal``: the text goes out as an SMS to the conversation's number."""
        body = self.compose.text.strip()
        if not body or not self.destination:
            return
        data.send(self.context.content, self.destination, body)
        label = self.conversation_id or self.destination
        self.log(TAG, f"UI initiated message sending in conversation {label}")
        self.compose.set("")
        self.scroll.scroll_to(BOTTOM)

    def call(self) -> None:
        """``UIIntents.launchPhoneCallActivity``: ``ACTION_CALL`` of ``tel:NUMBER``."""
        intent = Intent("android.intent.action.CALL", data=f"tel:{self.destination}")
        if self.context.start_activity(intent) == "not-found":
            self.toast(self.string("activity_not_found_message"))

    def on_menu(self, index: int) -> None:
        key = self.menu[index] if index < len(self.menu) else ""
        c = self.conversation
        if key == "action_add_contact":
            self.confirm_add_contact(self.destination or "")
        elif key in ("action_archive", "action_unarchive") and c is not None:
            archived = key == "action_archive"
            data.set_archived(self.context.content, c.id, archived)
            self.log(TAG, f"{'Archived' if archived else 'Unarchived'} conversation {c.id}")
            if archived:  # ConversationFragment closes an archived conversation
                self.finish()
        elif key == "action_delete" and c is not None:
            s = self.string
            self.show(
                AlertDialog(
                    s("delete_one"),
                    positive=(s("delete_conversation_confirmation_button"), self.delete_conversation),
                    negative=(s("delete_conversation_decline_button"), None),
                )
            )

    def delete_conversation(self) -> None:
        c = self.conversation
        if c is None:
            return
        count = data.delete_thread(self.context.content, c.thread_id, c.timestamp)
        self.log(TAG, f"Deleted conversation {c.id} (thread {c.thread_id}, {count} messages)")
        self.finish()

    def select_message(self, message_id: int) -> None:
        self.selected_message = message_id

    def clear_selection(self) -> None:
        self.selected_message = None

    def selected(self) -> data.Message | None:
        return next((m for m in self.messages if m.id == self.selected_message), None)

    def forward(self) -> None:
        """``UIIntents.launchForwardMessageActivity`` with the message as the draft."""
        m = self.selected()
        self.selected_message = None
        if m is not None:
            self.start(FORWARD, draft=m.body)

    def copy_text(self) -> None:
        m = self.selected()
        self.selected_message = None
        if m is not None:
            self.clipboard.set_text(m.body)
            self.log(TAG, f"Copied message {m.id}")

    def confirm_delete_message(self) -> None:
        s = self.string
        self.show(
            AlertDialog(
                s("delete_message_confirmation_dialog_title"),
                s("delete_message_confirmation_dialog_text"),
                positive=(s("delete_message_confirmation_button"), self.delete_message),
                negative=(s("delete_conversation_decline_button"), None),
            )
        )

    def delete_message(self) -> None:
        m = self.selected()
        self.selected_message = None
        if m is not None:
            self.context.content.delete(f"{data.SMS}/{m.id}")
            self.log(TAG, f"Deleted message {m.id}")

"""The conversation lists: ``ConversationListActivity`` and ``ArchivedConversationListActivity``.

As packages/apps/Messaging ``ui/conversationlist/`` (``conversation_list_fragment.xml``,
``conversation_list_item_view.xml``, ``AbstractConversationListActivity``): a RecyclerView
(``android:id/list``) of conversations, newest first, each with the contact's tile, name
(``conversation_name``, bold while unread), the newest message (``conversation_snippet``, "You: "
before a sent one) and its time (``conversation_timestamp``); the "Start new conversation" button
(``start_new_conversation_button``); "Archived" in the overflow menu. A tap opens a conversation;
a swipe either way archives it (a snackbar offers Undo); a long press starts a selection whose
bar offers Archive (Unarchive in the archived list), Delete (after a confirmation dialog), Add
contact (one unknown number) and, in its overflow menu, Mark as read / Mark as unread (ours:
AOSP has no such action). Every change is logged under ``MessagingApp``.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.messaging import data
from androidrl.virtual.apps.messaging.widgets import RID, action_bar, action_button, avatar, selection_bar
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import ACTION_INSERT, FLAG_ACTIVITY_CLEAR_TOP, Intent
from androidrl.virtual.ui.controls import dismissible
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import (
    TEXT,
    TEXT_SECONDARY,
    FrameLayout,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)
from androidrl.virtual.ui.widgets import floating_action_button

PACKAGE = "com.android.messaging"
LIST = f"{PACKAGE}.ui.conversationlist.ConversationListActivity"
ARCHIVED = f"{PACKAGE}.ui.conversationlist.ArchivedConversationListActivity"
CONVERSATION = f"{PACKAGE}.ui.conversation.ConversationActivity"
TAG = "MessagingApp"  # LogUtil.BUGLE_TAG


def open_conversation(host: Activity, **extras) -> None:
    """``UIIntentsImpl.getConversationActivityIntent``: the conversation screen with FLAG_ACTIVITY_CLEAR_TOP.

    As packages/apps/Messaging does, "so that we don't have two conversation activities in the back
    stack": a conversation already in the task finishes (with what is above it) and the new one
    takes its place.
    """
    host.context.start_activity(Intent(component=(PACKAGE, CONVERSATION), flags=FLAG_ACTIVITY_CLEAR_TOP, extras=extras))


def time_of(host: Activity, ms: int) -> str:
    """A message's time as the lists and bubbles show it (``Dates.getConversationTimeString``)."""
    context = host.context
    language = context.locale().replace("_", "-").split("-")[0].lower()
    zone = context.getprop("persist.sys.timezone")
    return data.timestamp(ms, context.current_time_millis(), language, context.is_24_hour(), zone, host.string)


class ContactActions(Activity):
    """What both the lists and a conversation offer for a number: add it to the contacts."""

    def confirm_add_contact(self, destination: str) -> None:
        """``AddContactsConfirmationDialog``: "Add to Contacts?" with the number; Add Contact opens Contacts."""
        s = self.string
        self.show(
            AlertDialog(
                s("add_contact_confirmation_dialog_title"),
                view=partial(_participant, destination),
                positive=(s("add_contact_confirmation"), partial(self.launch_add_contact, destination)),
                negative=(s("delete_conversation_decline_button"), None),
            )
        )

    def launch_add_contact(self, destination: str) -> None:
        """``UIIntents.launchAddContactActivity``: ``INSERT_OR_EDIT`` of a contact with the ``phone`` extra.

        When no app answers it, ``INSERT`` of a new contact with the same extra (Contacts' editor);
        when none answers that either, AOSP's "Could not find an appropriate application" toast.
        """
        extras = {"phone": destination}
        tried = (
            Intent("android.intent.action.INSERT_OR_EDIT", type="vnd.android.cursor.item/contact", extras=extras),
            Intent(ACTION_INSERT, type="vnd.android.cursor.dir/contact", extras=dict(extras)),
        )
        for intent in tried:
            if self.context.start_activity(intent) != "not-found":
                self.log(TAG, f"Add contact {destination}")
                return
        self.log(TAG, f"No activity found to add contact {destination}")
        self.toast(self.string("activity_not_found_message"))


def _participant(destination: str) -> View:
    """``add_contacts_confirmation_dialog_body.xml``: the tile and the number."""
    return LinearLayout(
        [
            avatar(destination, False, RID + "contact_icon", 48),
            TextView(destination, resource_id=RID + "participant_name", text_size=16, height=48, padding=12),
        ],
        vertical=False,
        height=56,
    )


class ConversationListActivity(ContactActions):
    """The list of conversations that are not archived."""

    archived_list = False

    def on_create(self) -> None:
        self.scroll = ScrollState()
        self.selected: list[int] = []  # conversation ids, in the order they were picked
        self.shown: list[data.Conversation] = []
        self.menu: list[str] = []  # the overflow menu's items (string keys) as last built
        self.cache = data.Cache()

    @property
    def title(self) -> str:
        return self.string("archived_activity_title" if self.archived_list else "app_name")

    # ------------------------------------------------------------------ views

    def build(self) -> View:
        resolver = self.context.content
        conversations = self.cache.get(resolver, None, partial(data.sync, resolver))
        self.shown = [c for c in conversations if c.archived == self.archived_list]
        ids = {c.id for c in self.shown}
        self.selected = [i for i in self.selected if i in ids]
        bar = self.selection_bar() if self.selected else self.bar()
        if self.shown:
            body: View = ScrollingList(
                [self.row(c) for c in self.shown], state=self.scroll, resource_id="android:id/list"
            )
        else:
            key = "archived_conversation_list_empty_text" if self.archived_list else "conversation_list_empty_text"
            body = LinearLayout(
                [
                    TextView(
                        self.string(key),
                        resource_id=RID + "empty_text_hint",
                        text_color=TEXT_SECONDARY,
                        gravity="center",
                        height=96,
                        padding=24,
                    )
                ],
                resource_id=RID + "no_conversations_view",
            )
        layers = [body]
        if not self.archived_list:
            layers.append(self.fab())
        return LinearLayout([bar, FrameLayout(layers, weight=1)], height=-1)

    def bar(self) -> View:
        if self.archived_list:
            return action_bar(self.title, on_up=self.finish)
        self.menu = ["action_menu_show_archived"]
        return action_bar(self.title, host=self, menu=[self.string(k) for k in self.menu], on_menu=self.on_menu)

    def selection_bar(self) -> View:
        s = self.string
        picked = [c for c in self.shown if c.id in self.selected]
        archive = ("action_unarchive", "U") if self.archived_list else ("action_archive", "A")
        actions = [
            action_button(s(archive[0]), archive[1], self.archive_selected, archive[0]),
            action_button(s("action_delete"), "D", self.confirm_delete, "action_delete"),
        ]
        if len(picked) == 1 and not picked[0].known:
            actions.append(
                action_button(s("action_add_contact"), "+", partial(self.add_contact, picked[0]), "action_add_contact")
            )
        self.menu = ["mark_read", "mark_unread"]
        return selection_bar(len(picked), self.clear_selection, actions, self, [s(k) for k in self.menu], self.on_menu)

    def row(self, c: data.Conversation) -> View:
        s = self.string
        checked = c.id in self.selected
        when = time_of(self, c.timestamp)
        snippet = (s("sent_from_you") if c.outgoing else "") + c.snippet
        description = s("outgoing_description" if c.outgoing else "incoming_description", c.name, c.snippet, when)
        texts = LinearLayout(
            [
                TextView(c.name, resource_id=RID + "conversation_name", text_size=16, height=24, bold=not c.read),
                TextView(
                    snippet,
                    resource_id=RID + "conversation_snippet",
                    text_size=14,
                    height=22,
                    bold=not c.read,
                    text_color=TEXT if not c.read else TEXT_SECONDARY,
                ),
                TextView(
                    when, resource_id=RID + "conversation_timestamp", text_size=12, height=18, text_color=TEXT_SECONDARY
                ),
            ],
            weight=1,
            width=0,
            padding=4,
        )
        content = LinearLayout(
            [avatar(c.name, c.known, RID + "conversation_icon", 48, checked), texts],
            vertical=False,
            resource_id=RID + "swipeableContent",
            padding=12,
            height=88,
        )
        row = FrameLayout(
            [content],
            resource_id=RID + "swipeableContainer",
            content_desc=description,
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=checked,
            height=88,
            background=(232, 240, 254) if checked else None,
            on_click=partial(self.tap, c),
            on_long_click=partial(self.long_press, c),
        )
        swipes = not self.archived_list and not self.selected  # isSwipeAnimatable
        return dismissible(row, partial(self.swiped, c)) if swipes else row

    def fab(self) -> View:
        metrics = self.context.metrics
        width_dp = metrics.width / metrics.scale
        return floating_action_button(
            "+",
            RID + "start_new_conversation_button",
            self.string("start_new_conversation"),
            self.start_new,
            cls="android.widget.ImageView",
            x=width_dp - 72,
            y=metrics.content_height_dp - 56 - 72 - 16,
        )

    # ------------------------------------------------------------------ what gestures do

    def on_menu(self, index: int) -> None:
        key = self.menu[index] if index < len(self.menu) else ""
        if key == "action_menu_show_archived":
            self.start(ARCHIVED)
        elif key in ("mark_read", "mark_unread"):
            self.mark(key == "mark_read")

    def tap(self, c: data.Conversation) -> None:
        if self.selected:
            self.toggle(c)
        else:
            open_conversation(self, conversation_id=c.id)

    def long_press(self, c: data.Conversation) -> None:
        self.toggle(c)

    def toggle(self, c: data.Conversation) -> None:
        if c.id in self.selected:
            self.selected.remove(c.id)
        else:
            self.selected.append(c.id)

    def clear_selection(self) -> None:
        self.selected = []

    def on_back(self) -> bool:
        if self.selected:  # BACK ends the selection first (ActionMode)
            self.selected = []
            return True
        return False

    def start_new(self) -> None:
        """``UIIntents.launchCreateNewConversationActivity``: the conversation screen with the contact picker."""
        open_conversation(self)

    def picked(self) -> list[data.Conversation]:
        return [c for c in self.shown if c.id in self.selected]

    def swiped(self, c: data.Conversation, direction: str) -> None:
        """``ConversationListItemView.onSwipeComplete``: archive, with Undo."""
        self.set_archived([c.id], True)

    def archive_selected(self) -> None:
        self.set_archived([c.id for c in self.picked()], not self.archived_list)
        self.selected = []

    def set_archived(self, ids: list[int], archived: bool) -> None:
        for conversation_id in ids:
            data.set_archived(self.context.content, conversation_id, archived)
            self.log(TAG, f"{'Archived' if archived else 'Unarchived'} conversation {conversation_id}")
        key = "archived_toast_message" if archived else "unarchived_toast_message"
        undo = partial(self.undo_archive, tuple(ids), archived)
        self.show_snackbar(self.string(key, len(ids)), self.string("snack_bar_undo"), undo, long=True)

    def undo_archive(self, ids: tuple[int, ...], archived: bool) -> None:
        for conversation_id in ids:
            data.set_archived(self.context.content, conversation_id, not archived)
            self.log(TAG, f"{'Unarchived' if archived else 'Archived'} conversation {conversation_id} (undo)")

    def confirm_delete(self) -> None:
        s = self.string
        count = len(self.picked())
        self.show(
            AlertDialog(
                s("delete_one" if count == 1 else "delete_other"),
                positive=(s("delete_conversation_confirmation_button"), self.delete_selected),
                negative=(s("delete_conversation_decline_button"), None),
            )
        )

    def delete_selected(self) -> None:
        for c in self.picked():
            count = data.delete_thread(self.context.content, c.thread_id, c.timestamp)
            self.log(TAG, f"Deleted conversation {c.id} (thread {c.thread_id}, {count} messages)")
        self.selected = []

    def add_contact(self, c: data.Conversation) -> None:
        self.selected = []
        self.confirm_add_contact(c.destination)

    def mark(self, read: bool) -> None:
        for c in self.picked():
            if read:
                data.mark_read(self.context.content, c.thread_id)
            else:
                data.mark_unread(self.context.content, c.thread_id)
            self.log(TAG, f"Marked conversation {c.id} {'read' if read else 'unread'}")
        self.selected = []


class ArchivedConversationListActivity(ConversationListActivity):
    """The archived conversations (no swipe, no new-conversation button; Up goes back)."""

    archived_list = True

"""How other apps reach Messaging: ``sms:``/``smsto:`` intents, a share, a forwarded message.

``LaunchConversationActivity`` (packages/apps/Messaging ``ui/conversation/
LaunchConversationActivity.java``) answers ``VIEW``/``SENDTO`` of ``sms:``, ``smsto:``, ``mms:``
and ``mmsto:``: the recipients are the URI's scheme-specific part up to ``?`` (``;`` or ``,``
between several; this app opens the first), the body the ``sms_body`` extra, else the URI's
``body=`` parameter, else ``android.intent.extra.TEXT`` of a ``text/plain`` intent. It opens the
conversation with the body in the compose field (or the contact picker when there is no
recipient) and finishes at once, never showing. ``ForwardMessageActivity`` lists the
conversations to forward a message to (a tap opens one with the message as its draft; "Start new
conversation" picks a contact), and ``ShareIntentActivity`` does the same for a ``SEND`` of
``text/plain`` (AOSP shows that list in a dialog).
"""

from __future__ import annotations

from urllib.parse import unquote

from androidrl.virtual.apps.messaging import data
from androidrl.virtual.apps.messaging.conversation_list import TAG, ConversationListActivity, open_conversation
from androidrl.virtual.apps.messaging.widgets import action_bar
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui.views import View

SMS_SCHEMES = ("sms", "smsto", "mms", "mmsto")
EXTRA_TEXT = "android.intent.extra.TEXT"


def recipients(uri: str | None) -> list[str]:
    """``UriUtil.parseRecipientsFromSmsMmsUri``: the destinations of an ``smsto:`` URI (decoded)."""
    if not uri or ":" not in uri:
        return []
    scheme, _, rest = uri.partition(":")
    if scheme.lower() not in SMS_SCHEMES:
        return []
    part = unquote(rest.split("#", 1)[0].split("?", 1)[0]).replace(";", ",")
    return [r.strip() for r in part.split(",") if r.strip()]


def body_of(uri: str | None) -> str:
    """``LaunchConversationActivity.getBody``: the ``body=`` parameter of the URI's query."""
    if not uri or "?" not in uri:
        return ""
    for param in uri.split("?", 1)[1].split("&"):
        if param.startswith("body="):
            return unquote(param[5:].replace("+", " "))
    return ""


class LaunchConversationActivity(Activity):
    """A trampoline: opens the conversation an ``sms:``/``smsto:`` intent names, and finishes."""

    def on_create(self) -> None:
        intent = self.intent
        if intent.action not in ("android.intent.action.SENDTO", "android.intent.action.VIEW"):
            self.log(TAG, f"Unsupported conversation intent action : {intent.action}")
            self.finish()
            return
        found = recipients(intent.data)
        if not found and intent.extras.get("address"):
            found = [str(intent.extras["address"])]
        body = str(intent.extras.get("sms_body") or "") or body_of(intent.data)
        if not body and intent.type == "text/plain":
            body = str(intent.extras.get(EXTRA_TEXT) or "")
        extras = {"draft": body} if body else {}
        if found:
            extras["destination"] = found[0]
        self.log(TAG, f"Launching conversation with {found[0] if found else 'a new recipient'}")
        open_conversation(self, **extras)
        self.finish()  # "activities without a visible window must finish before onResume completes"

    def build(self) -> View:  # never shown: it finished in on_create
        return View()


class ForwardMessageActivity(ConversationListActivity):
    """The "Forward message" list: pick the conversation (or a new recipient) the draft goes to."""

    title_key = "forward_message_activity_title"

    def on_create(self) -> None:
        super().on_create()
        self.draft = str(self.intent.extras.get("draft") or "")

    @property
    def title(self) -> str:
        return self.string(self.title_key)

    def bar(self) -> View:
        return action_bar(self.title, on_up=self.finish)

    def row(self, c: data.Conversation) -> View:
        row = super().row(c)
        row.long_clickable, row.on_long_click = False, None
        return row

    def build(self) -> View:
        self.selected = []
        return super().build()

    def tap(self, c: data.Conversation) -> None:
        open_conversation(self, conversation_id=c.id, destination=c.destination, draft=self.draft)
        self.finish()

    def start_new(self) -> None:
        open_conversation(self, draft=self.draft)
        self.finish()


class ShareIntentActivity(ForwardMessageActivity):
    """A ``SEND`` of ``text/plain`` from another app: "Select conversation" for the shared text."""

    title_key = "share_intent_activity_label"

    def on_create(self) -> None:
        super().on_create()
        self.draft = str(self.intent.extras.get(EXTRA_TEXT) or "")

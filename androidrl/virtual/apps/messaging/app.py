"""``com.android.messaging``: AOSP's Messaging app (its manifest).

Activities, intent filters and provider as packages/apps/Messaging ``AndroidManifest.xml``
declares them: ``ConversationListActivity`` (the launcher's), ``LaunchConversationActivity``
(``VIEW``/``SENDTO`` of ``sms:``, ``smsto:``, ``mms:``, ``mmsto:``), ``ConversationActivity``,
``ArchivedConversationListActivity``, ``ForwardMessageActivity``, ``ShareIntentActivity`` (``SEND``
of ``text/plain``) and ``MessagingContentProvider``. Messages live in the telephony provider
(``content://sms``); names come from the contacts provider. The launcher labels it "Messages"
(as the tasks and the phones agents meet call it); inside, its title is AOSP's ``app_name``.
"""

from __future__ import annotations

from androidrl.virtual.apps.messaging.conversation import ConversationActivity
from androidrl.virtual.apps.messaging.conversation_list import (
    ARCHIVED,
    CONVERSATION,
    LIST,
    PACKAGE,
    ArchivedConversationListActivity,
    ConversationListActivity,
)
from androidrl.virtual.apps.messaging.launch import (
    SMS_SCHEMES,
    ForwardMessageActivity,
    LaunchConversationActivity,
    ShareIntentActivity,
)
from androidrl.virtual.apps.messaging.provider import MessagingProvider
from androidrl.virtual.apps.messaging.strings import STRINGS
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import (
    ACTION_SEND,
    ACTION_SENDTO,
    ACTION_VIEW,
    CATEGORY_BROWSABLE,
    CATEGORY_DEFAULT,
    IntentFilter,
)

LAUNCH = f"{PACKAGE}.ui.conversation.LaunchConversationActivity"
FORWARD = f"{PACKAGE}.ui.conversationlist.ForwardMessageActivity"
SHARE = f"{PACKAGE}.ui.conversationlist.ShareIntentActivity"

__all__ = ["ARCHIVED", "CONVERSATION", "FORWARD", "LAUNCH", "LIST", "PACKAGE", "SHARE", "messaging_app"]


def messaging_app() -> App:
    """The Messaging package."""
    filters = (
        IntentFilter(LAUNCH, (ACTION_VIEW, ACTION_SENDTO), (CATEGORY_DEFAULT, CATEGORY_BROWSABLE), schemes=SMS_SCHEMES),
        IntentFilter(SHARE, (ACTION_SEND,), mime_types=("text/plain",)),
    )
    return App(
        PACKAGE,
        "Messages",
        "M",
        (26, 115, 232),
        {
            LIST: ConversationListActivity,
            LAUNCH: LaunchConversationActivity,
            ARCHIVED: ArchivedConversationListActivity,
            CONVERSATION: ConversationActivity,
            FORWARD: ForwardMessageActivity,
            SHARE: ShareIntentActivity,
        },
        LIST,
        filters=filters,
        providers=(MessagingProvider,),
        strings=STRINGS,
    )

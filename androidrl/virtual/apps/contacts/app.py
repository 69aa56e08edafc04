"""``com.android.contacts``: the manifest of the Contacts app (packages/apps/Contacts AndroidManifest.xml).

Its activities and the intent filters they declare there: PeopleActivity (the launcher's
Contacts; ``VIEW`` of ``vnd.android.cursor.dir/contact``), QuickContactActivity (``VIEW`` of a
contact, ``QUICK_CONTACT``), ContactEditorActivity (``INSERT`` of
``vnd.android.cursor.dir/contact`` with ContactsContract.Intents.Insert's extras, and ``EDIT``
of a contact, which AOSP routes through ContactEditorSpringBoardActivity to it) and
ContactSelectionActivity (``INSERT_OR_EDIT`` of a contact item: "Add to contact"). Its data
is the contacts provider's (``com.android.providers.contacts``), which it only uses.
"""

from __future__ import annotations

from androidrl.virtual.apps.contacts.editor import ContactEditorActivity
from androidrl.virtual.apps.contacts.people import (
    ACTION_QUICK_CONTACT,
    EDITOR,
    PACKAGE,
    PEOPLE,
    QUICK_CONTACT,
    PeopleActivity,
)
from androidrl.virtual.apps.contacts.quick_contact import QuickContactActivity
from androidrl.virtual.apps.contacts.selection import ACTION_INSERT_OR_EDIT, SELECTION, ContactSelectionActivity
from androidrl.virtual.apps.contacts.strings import STRINGS
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import (
    ACTION_EDIT,
    ACTION_INSERT,
    ACTION_MAIN,
    ACTION_VIEW,
    CATEGORY_BROWSABLE,
    CATEGORY_DEFAULT,
    CATEGORY_LAUNCHER,
    IntentFilter,
)

__all__ = ["EDITOR", "PACKAGE", "PEOPLE", "QUICK_CONTACT", "contacts_app"]

_DIR = ("vnd.android.cursor.dir/person", "vnd.android.cursor.dir/contact", "vnd.android.cursor.dir/raw_contact")
_ITEM = ("vnd.android.cursor.item/person", "vnd.android.cursor.item/contact", "vnd.android.cursor.item/raw_contact")

FILTERS = (
    IntentFilter(
        PEOPLE,
        (ACTION_MAIN,),
        (CATEGORY_DEFAULT, CATEGORY_LAUNCHER, CATEGORY_BROWSABLE, "android.intent.category.APP_CONTACTS"),
    ),
    IntentFilter(
        PEOPLE,
        (
            "com.android.contacts.action.LIST_DEFAULT",
            "com.android.contacts.action.LIST_CONTACTS",
            "com.android.contacts.action.LIST_ALL_CONTACTS",
            "com.android.contacts.action.LIST_STARRED",
        ),
        (CATEGORY_DEFAULT, "android.intent.category.TAB"),
    ),
    IntentFilter(
        PEOPLE, (ACTION_VIEW,), mime_types=("vnd.android.cursor.dir/person", "vnd.android.cursor.dir/contact")
    ),
    IntentFilter(QUICK_CONTACT, (ACTION_QUICK_CONTACT, "android.provider.action.QUICK_CONTACT"), mime_types=_ITEM[:2]),
    IntentFilter(QUICK_CONTACT, (ACTION_VIEW,), mime_types=_ITEM),
    IntentFilter(EDITOR, (ACTION_INSERT,), mime_types=_DIR),
    IntentFilter(EDITOR, (ACTION_EDIT,), mime_types=_ITEM),
    IntentFilter(SELECTION, (ACTION_INSERT_OR_EDIT,), mime_types=_ITEM),
)


def contacts_app() -> App:
    """The Contacts package."""
    return App(
        PACKAGE,
        "Contacts",
        "P",
        (26, 115, 232),
        {
            PEOPLE: PeopleActivity,
            QUICK_CONTACT: QuickContactActivity,
            EDITOR: ContactEditorActivity,
            SELECTION: ContactSelectionActivity,
        },
        PEOPLE,
        filters=FILTERS,
        strings=STRINGS,
    )

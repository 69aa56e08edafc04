"""Contacts (``com.android.contacts``), driven as an agent drives it: ``input tap/swipe/text/keyevent``.

Each flow finds nodes in the ``uiautomator dump`` and taps their centres; results are read as
Android exposes them — ``content query`` of the contacts provider, ``dumpsys activity``,
``logcat`` — never from the app's objects.
"""

from __future__ import annotations

import shlex

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.tasks.state import parse_rows
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds, tap_node

PKG = "com.android.contacts"
RID = f"{PKG}:id/"
CONTACTS = "content://com.android.contacts/contacts"
DATA = "content://com.android.contacts/data"


@pytest.fixture
def seeded() -> VirtualPhone:
    """A phone with 12 seeded contacts, its clock moving only when told."""
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=5, content={"contacts": 12}, clock=Clock(stepped=True))


@pytest.fixture
def contacts(seeded: VirtualPhone) -> VirtualDevice:
    """The Contacts app opened from the launcher's icon."""
    device = VirtualDevice(seeded)
    tap_node(device, text="Contacts")
    return device


def query(device, uri: str, *options: str) -> list[dict[str, str]]:
    return parse_rows(device.shell(shlex.join(["content", "query", "--uri", uri, *options])))


def nodes(device, **attrs: str) -> list:
    return [e for e in ui_elements(device.dump_ui()) if all(getattr(e, k) == v for k, v in attrs.items())]


def names(device) -> list[str]:
    return [e.text for e in nodes(device, resource_id=RID + "cliv_name_textview")]


def resumed(device) -> str:
    """The resumed activity, as ``dumpsys activity activities`` names it."""
    line = next(x for x in device.shell("dumpsys activity activities").splitlines() if "topResumedActivity=" in x)
    return line.split()[-2]


def contact_id(device, name: str) -> str:
    return next(r["_id"] for r in query(device, CONTACTS) if r["display_name"] == name)


def type_into(device, hint: str, text: str) -> None:
    """Tap the (empty) field showing ``hint`` and type ``text``."""
    tap_node(device, text=hint)
    device.text(text)


def clear_field(device, text: str) -> None:
    """Tap the field holding ``text``, move to its end and delete it character by character."""
    tap_node(device, text=text)
    device.key("KEYCODE_MOVE_END")
    for _ in text:
        device.key("KEYCODE_DEL")


# ---------------------------------------------------------------------------- the list


def test_the_list_is_the_providers_contacts_by_name_with_letters_and_favourites_first(contacts):
    people = query(contacts, CONTACTS, "--projection", "display_name:starred")
    everyone = sorted((r["display_name"] for r in people), key=str.casefold)
    starred = sorted((r["display_name"] for r in people if r["starred"] == "1"), key=str.casefold)
    assert starred, "the seed stars some contacts"
    shown = names(contacts)
    assert shown[: len(starred)] == starred  # (favourites under the star, then everyone)
    assert shown[len(starred) :] == everyone[: len(shown) - len(starred)]
    xml = contacts.dump_ui()
    assert 'class="android.widget.ListView"' in xml and 'resource-id="android:id/list"' in xml
    assert nodes(contacts, content_desc="Favorites")
    first = everyone[0]
    assert nodes(contacts, text=first[0].upper(), content_desc=first[0].upper())  # its letter heads the section
    assert nodes(contacts, content_desc=f"Quick contact for {first}", class_name="android.widget.QuickContactBadge")


def test_a_contact_inserted_from_the_shell_shows_at_once(contacts):
    contacts.shell("content insert --uri content://com.android.contacts/raw_contacts --bind starred:i:0")
    raw = query(contacts, "content://com.android.contacts/raw_contacts", "--projection", "_id")[-1]["_id"]
    contacts.shell(
        f"content insert --uri {DATA} --bind raw_contact_id:i:{raw} "
        "--bind mimetype:s:vnd.android.cursor.item/name --bind data1:s:Aaron\\ Abbott"
    )
    assert "Aaron Abbott" in names(contacts)


def test_a_fling_reaches_a_contact_far_down_and_opens_it():
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=9, content={"contacts": 120}, clock=Clock(stepped=True))
    device = VirtualDevice(phone)
    device.shell("am start -n com.android.contacts/.activities.PeopleActivity")
    everyone = sorted((r["display_name"] for r in query(device, CONTACTS)), key=str.casefold)
    last = everyone[-1]
    assert last not in names(device)  # (a ListView attaches only the rows on screen)
    for _ in range(6):
        device.swipe(180, 650, 180, 150, 80)  # fast swipes fling on
        phone.clock.advance(5)
        if last in names(device):
            break
    assert last in names(device)
    tap_node(device, text=last, resource_id=RID + "cliv_name_textview")
    assert resumed(device) == f"{PKG}/.quickcontact.QuickContactActivity"
    assert nodes(device, resource_id=RID + "large_title")[0].text == last


def test_search_filters_by_name_and_opens_the_match(contacts):
    target = sorted(r["display_name"] for r in query(contacts, CONTACTS))[3]
    tap_node(contacts, content_desc="Search contacts")
    tap_node(contacts, resource_id=RID + "search_view")
    contacts.text(target.split()[1][:4])  # the start of the family name
    shown = names(contacts)
    assert target in shown and len(shown) < 12
    assert all(any(w.casefold().startswith(target.split()[1][:4].casefold()) for w in n.split()) for n in shown)
    tap_node(contacts, text=target, resource_id=RID + "cliv_name_textview")
    assert nodes(contacts, resource_id=RID + "large_title")[0].text == target
    contacts.key("BACK")
    assert nodes(contacts, resource_id=RID + "search_view")  # back to the search, as it was
    contacts.key("BACK")  # (the keyboard went with the field's focus) leaves the search
    assert nodes(contacts, content_desc="Search contacts") and len(names(contacts)) > len(shown)


# ---------------------------------------------------------------------------- details, star, delete


def test_details_show_numbers_with_types_and_emails_and_the_star_toggles(contacts):
    name = names(contacts)[-1]
    cid = contact_id(contacts, name)
    phone = query(contacts, DATA, "--where", f"contact_id={cid} AND mimetype='vnd.android.cursor.item/phone_v2'")[0]
    tap_node(contacts, text=name, resource_id=RID + "cliv_name_textview")
    label = {"1": "Home", "2": "Mobile", "3": "Work"}[phone["data2"]]
    assert nodes(contacts, content_desc=f"Call {label} {phone['data1']}")
    assert nodes(contacts, resource_id=RID + "text", text=label)
    assert nodes(contacts, resource_id=RID + "icon_alternate", content_desc=f"Text {phone['data1']}")
    email = query(contacts, DATA, "--where", f"contact_id={cid} AND mimetype='vnd.android.cursor.item/email_v2'")
    assert nodes(contacts, resource_id=RID + "header", text=email[0]["data1"])
    before = query(contacts, f"{CONTACTS}/{cid}", "--projection", "starred")[0]["starred"]
    tap_node(contacts, resource_id=RID + "menu_star")
    after = query(contacts, f"{CONTACTS}/{cid}", "--projection", "starred")[0]["starred"]
    assert (before, after) in (("0", "1"), ("1", "0"))
    title = "Remove from favorites" if after == "1" else "Add to favorites"
    assert nodes(contacts, resource_id=RID + "menu_star", content_desc=title)
    logged = f"{'starred' if after == '1' else 'unstarred'} contact {cid} {name}"
    assert logged in contacts.shell("logcat -d -s Contacts")


def test_delete_asks_first_and_cancel_keeps_the_contact(contacts):
    name = names(contacts)[-2]
    cid = contact_id(contacts, name)
    tap_node(contacts, text=name, resource_id=RID + "cliv_name_textview")
    tap_node(contacts, content_desc="More options")
    tap_node(contacts, text="Delete")
    assert nodes(contacts, resource_id="android:id/message", text="Delete this contact?")
    tap_node(contacts, resource_id="android:id/button2")  # Cancel
    assert query(contacts, f"{CONTACTS}/{cid}")
    tap_node(contacts, content_desc="More options")
    tap_node(contacts, text="Delete")
    tap_node(contacts, resource_id="android:id/button1")  # Delete
    assert not query(contacts, f"{CONTACTS}/{cid}")
    assert not query(contacts, DATA, "--where", f"contact_id={cid}")
    assert resumed(contacts) == f"{PKG}/.activities.PeopleActivity"
    assert name not in names(contacts)
    assert f"deleted contact {cid} {name}" in contacts.shell("logcat -d -s Contacts")


# ---------------------------------------------------------------------------- the editor


def test_create_a_contact_with_a_work_number_and_an_email(contacts):
    tap_node(contacts, content_desc="Create new contact")
    assert nodes(contacts, text="Create new contact", class_name="android.widget.TextView")
    type_into(contacts, "First name", "Zoe")
    type_into(contacts, "Last name", "Quinn")
    type_into(contacts, "Phone", "+1 555-0142")
    spinners = nodes(contacts, resource_id=RID + "spinner")
    assert spinners[0].text == "" and nodes(contacts, text="Mobile")  # the new number's type: Mobile
    contacts.tap(*center(spinners[0].bounds))
    tap_node(contacts, text="Work", resource_id="android:id/text1")
    type_into(contacts, "Email", "zoe@example.com")
    tap_node(contacts, resource_id=RID + "editor_menu_save_button")
    assert resumed(contacts) == f"{PKG}/.quickcontact.QuickContactActivity"  # the new contact shows
    cid = contact_id(contacts, "Zoe Quinn")
    rows = query(contacts, DATA, "--where", f"contact_id={cid}", "--projection", "mimetype:data1:data2:data3")
    by_kind = {r["mimetype"].rsplit("/", 1)[1]: r for r in rows}
    assert (by_kind["name"]["data2"], by_kind["name"]["data3"]) == ("Zoe", "Quinn")
    assert (by_kind["phone_v2"]["data1"], by_kind["phone_v2"]["data2"]) == ("+1 555-0142", "3")
    assert (by_kind["email_v2"]["data1"], by_kind["email_v2"]["data2"]) == ("zoe@example.com", "1")
    assert f"created contact {cid} Zoe Quinn" in contacts.shell("logcat -d -s Contacts")


def test_edit_a_phone_number_and_add_an_email(contacts):
    name = names(contacts)[-1]
    cid = contact_id(contacts, name)
    phone = query(contacts, DATA, "--where", f"contact_id={cid} AND mimetype='vnd.android.cursor.item/phone_v2'")[0]
    tap_node(contacts, text=name, resource_id=RID + "cliv_name_textview")
    tap_node(contacts, content_desc="Edit")
    assert nodes(contacts, text="Edit contact")
    clear_field(contacts, phone["data1"])
    contacts.text("555-0199")
    empty = [e for e in nodes(contacts, text="Email") if e.class_name == "android.widget.EditText"]
    contacts.tap(*center(empty[0].bounds))  # the empty email field at the end of its section
    contacts.text("new@example.com")
    tap_node(contacts, text="Save")
    assert resumed(contacts) == f"{PKG}/.quickcontact.QuickContactActivity"  # back to the details
    after = query(contacts, f"{DATA}/{phone['_id']}", "--projection", "data1")
    assert after == [{"data1": "555-0199"}]  # the same row, changed
    emails = query(contacts, DATA, "--where", f"contact_id={cid} AND mimetype='vnd.android.cursor.item/email_v2'")
    assert "new@example.com" in [e["data1"] for e in emails] and len(emails) == 2
    assert nodes(contacts, resource_id=RID + "header", text="555-0199")


def test_cancel_with_changes_asks_to_discard_and_saves_nothing(contacts):
    before = len(query(contacts, CONTACTS))
    tap_node(contacts, content_desc="Create new contact")
    type_into(contacts, "First name", "Nobody")
    contacts.key("BACK")  # the keyboard goes first
    contacts.key("BACK")
    assert nodes(contacts, text="Discard changes?")
    tap_node(contacts, text="Cancel", resource_id="android:id/button2")  # keep editing
    tap_node(contacts, content_desc="Cancel")
    tap_node(contacts, text="Discard")
    assert resumed(contacts) == f"{PKG}/.activities.PeopleActivity"
    assert len(query(contacts, CONTACTS)) == before


# ---------------------------------------------------------------------------- intents


def test_insert_intent_opens_the_editor_prefilled_and_save_keeps_it(seeded):
    device = VirtualDevice(seeded)
    device.shell(
        "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact --es name 'Ann Lee' "
        "--es phone '+1 555-0150' --ei phone_type 1 --es email ann@example.com"
    )
    assert resumed(device) == f"{PKG}/.activities.ContactEditorActivity"
    shown = [e.text for e in nodes(device, class_name="android.widget.EditText")]
    assert shown[:3] == ["Ann", "Lee", "+1 555-0150"] and "ann@example.com" in shown
    assert nodes(device, text="Home", resource_id="android:id/text1")
    tap_node(device, text="Save")
    cid = contact_id(device, "Ann Lee")
    phones = query(device, "content://com.android.contacts/data/phones", "--where", f"contact_id={cid}")
    assert [(p["data1"], p["data2"]) for p in phones] == [("+1 555-0150", "1")]


def test_view_intent_of_a_contact_shows_it_and_of_a_missing_one_shows_nothing(seeded):
    device = VirtualDevice(seeded)
    before = resumed(device)
    device.shell(f"am start -a android.intent.action.VIEW -d {CONTACTS}/999")
    assert not nodes(device, resource_id=RID + "large_title")  # ("The contact doesn't exist.", and it closes)
    assert resumed(device) == before  # (finished in onCreate: never shown, no task left behind)
    assert "QuickContactActivity" not in device.shell("dumpsys activity activities")
    cid = query(device, CONTACTS)[2]["_id"]
    name = query(device, f"{CONTACTS}/{cid}")[0]["display_name"]
    device.shell(f"am start -a android.intent.action.VIEW -d {CONTACTS}/{cid}")
    assert resumed(device) == f"{PKG}/.quickcontact.QuickContactActivity"
    assert nodes(device, resource_id=RID + "large_title")[0].text == name


def test_call_starts_the_dialers_call_and_text_opens_the_conversation_in_messages(contacts):
    name = names(contacts)[-1]
    cid = contact_id(contacts, name)
    number = query(contacts, "content://com.android.contacts/data/phones", "--where", f"contact_id={cid}")[0]["data1"]
    tap_node(contacts, text=name, resource_id=RID + "cliv_name_textview")
    tap_node(contacts, resource_id=RID + "icon_alternate")  # Text: SENDTO smsto:%2B1%20555-... (encoded)
    assert resumed(contacts) == "com.android.messaging/.ui.conversation.ConversationActivity"
    assert nodes(contacts, resource_id="com.android.messaging:id/conversation_title", text=name)
    tap_node(contacts, resource_id="com.android.messaging:id/compose_message_text")
    contacts.text("Hello")
    tap_node(contacts, content_desc="Send Message")
    sent = query(contacts, "content://sms/sent", "--projection", "address:body")
    assert sent == [{"address": number, "body": "Hello"}]  # (the number decoded, as it is in the contact)
    contacts.key("BACK")  # (the keyboard goes first)
    contacts.key("BACK")
    assert resumed(contacts) == f"{PKG}/.quickcontact.QuickContactActivity"
    tap_node(contacts, content_desc=next(e.content_desc for e in nodes(contacts) if e.content_desc.startswith("Call ")))
    assert resumed(contacts) == "com.android.dialer/com.android.incallui.InCallActivity"
    assert nodes(contacts, resource_id="com.android.dialer:id/contactgrid_contact_name", text=name)
    tap_node(contacts, content_desc="End call")
    call = query(contacts, "content://call_log/calls", "--sort", "date DESC")[0]
    assert (call["number"], call["type"], call["name"]) == (number.replace(" ", "").replace("-", ""), "2", name)


# ---------------------------------------------------------------------------- INSERT_OR_EDIT ("Add to contact")

INSERT_OR_EDIT = "am start -a android.intent.action.INSERT_OR_EDIT -t vnd.android.cursor.item/contact"


def test_insert_or_edit_creates_a_new_contact_with_the_number(seeded):
    device = VirtualDevice(seeded)
    device.shell(f"{INSERT_OR_EDIT} --es phone '+1 555-0188'")
    assert resumed(device) == f"{PKG}/.activities.ContactSelectionActivity"
    assert nodes(device, text="Add to contact")
    assert names(device)[0] == "Create new contact"  # the header entry, then the contacts
    assert not nodes(device, class_name="android.widget.QuickContactBadge")  # (a picker's photos are plain)
    tap_node(device, text="Create new contact", resource_id=RID + "cliv_name_textview")
    assert resumed(device) == f"{PKG}/.activities.ContactEditorActivity"
    assert nodes(device, text="+1 555-0188", class_name="android.widget.EditText")
    type_into(device, "First name", "Rosa")
    tap_node(device, text="Save")
    rows = query(device, "content://com.android.contacts/data/phones", "--where", "data1='+1 555-0188'")
    assert [r["display_name"] for r in rows] == ["Rosa"]
    assert "ContactSelectionActivity" not in device.shell("dumpsys activity activities")  # it finished
    assert resumed(device) != f"{PKG}/.quickcontact.QuickContactActivity"  # back to the caller once saved


def test_insert_or_edit_adds_the_number_to_a_picked_contact(seeded):
    device = VirtualDevice(seeded)
    device.shell(f"{INSERT_OR_EDIT} --es phone 5550199")
    name = names(device)[2]
    cid = contact_id(device, name)
    before = query(device, "content://com.android.contacts/data/phones", "--where", f"contact_id={cid}")
    tap_node(device, text=name, resource_id=RID + "cliv_name_textview")
    assert resumed(device) == f"{PKG}/.activities.ContactEditorActivity"
    assert nodes(device, text="Edit contact")
    assert nodes(device, text="5550199", class_name="android.widget.EditText")
    tap_node(device, text="Save")
    after = query(device, "content://com.android.contacts/data/phones", "--where", f"contact_id={cid}")
    assert [r["data1"] for r in after] == [r["data1"] for r in before] + ["5550199"]


def test_messages_add_contact_opens_add_to_contact_with_the_number(seeded):
    device = VirtualDevice(seeded)
    device.shell("content insert --uri content://sms/inbox --bind address:s:5550166 --bind body:s:Hi --bind read:i:0")
    device.shell("am start -n com.android.messaging/.ui.conversationlist.ConversationListActivity")
    device.long_press(*center(node_bounds(device.dump_ui(), text="5550166")))
    tap_node(device, content_desc="Add contact")
    tap_node(device, text="Add Contact")
    assert resumed(device) == f"{PKG}/.activities.ContactSelectionActivity"
    tap_node(device, text="Create new contact", resource_id=RID + "cliv_name_textview")
    type_into(device, "First name", "Ines")
    tap_node(device, text="Save")
    assert resumed(device) == "com.android.messaging/.ui.conversationlist.ConversationListActivity"
    assert query(
        device,
        "content://com.android.contacts/data/phones",
        "--where",
        "data1='5550166'",
        "--projection",
        "display_name",
    ) == [{"display_name": "Ines"}]


# ---------------------------------------------------------------------------- configurations


def test_german_and_dark_draw_and_dump_the_apps_strings():
    phone = VirtualPhone(
        WIDTH, HEIGHT, DENSITY, seed=5, content={"contacts": 5}, night=True, locale="de-DE", clock=Clock(stepped=True)
    )
    device = VirtualDevice(phone)
    device.shell("am start -n com.android.contacts/.activities.PeopleActivity")
    assert nodes(device, content_desc="In Kontakten suchen") and nodes(device, content_desc="Neuen Kontakt erstellen")
    frame = device.screenshot()
    assert frame[200:700, 100:300].mean() < 100  # a dark list
    tap_node(device, content_desc="Neuen Kontakt erstellen")
    assert nodes(device, text="Vorname") and nodes(device, text="Nachname") and nodes(device, text="Speichern")
    assert nodes(device, text="Mobil", resource_id="android:id/text1")
    device.shell(f"{INSERT_OR_EDIT} --es phone 5550100")
    assert nodes(device, text="Zu Kontakt hinzufügen") and names(device)[0] == "Neuen Kontakt erstellen"


def test_one_flow_over_adb(device, phone):
    """Star a contact made from the shell, over the real adb client too (the conftest's device param)."""
    device.shell("content insert --uri content://com.android.contacts/raw_contacts --bind starred:i:0")
    device.shell(
        f"content insert --uri {DATA} --bind raw_contact_id:i:1 "
        "--bind mimetype:s:vnd.android.cursor.item/name --bind data1:s:Bea\\ Moss"
    )
    device.shell("am start -n com.android.contacts/.activities.PeopleActivity")
    device.tap(*center(node_bounds(device.dump_ui(), text="Bea Moss")))
    device.tap(*center(node_bounds(device.dump_ui(), content_desc="Add to favorites")))
    assert parse_rows(device.shell(f"content query --uri {CONTACTS} --projection starred")) == [{"starred": "1"}]

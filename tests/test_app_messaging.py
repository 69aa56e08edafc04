"""Messaging (``com.android.messaging``), driven as an agent drives it: ``input tap/swipe/text/keyevent`` only.

Every check reads what a task reads: ``content query`` of the telephony provider and of the app's
``MessagingContentProvider``, the UI dump, ``dumpsys``, ``logcat``. The phone starts with two
contacts and three conversations put in with ``content insert``, as a task's reset would.
"""

from __future__ import annotations

import re
import shlex

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds, tap_node

PKG = "com.android.messaging"
RID = f"{PKG}:id/"
LIST = f"am start -n {PKG}/.ui.conversationlist.ConversationListActivity"
BUGLE = "content://com.android.messaging.datamodel.MessagingContentProvider/conversations"
ALICE, BOB, STRANGER = "+1 555-0142", "+1 555-0157", "+1 555-0188"
HOUR = 3_600_000


def sh(device, command: str) -> str:
    return device.shell(command)


def add_contact(device, name: str, number: str) -> None:
    """A contact with a mobile number, as ``content insert`` makes one."""
    sh(device, "content insert --uri content://com.android.contacts/raw_contacts --bind starred:i:0")
    raw = sh(device, "content query --uri content://com.android.contacts/raw_contacts --projection _id")
    raw_id = re.findall(r"_id=(\d+)", raw)[-1]
    name_row = f"mimetype:s:vnd.android.cursor.item/name --bind {shlex.quote('data1:s:' + name)}"
    sh(
        device,
        f"content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:{raw_id} --bind {name_row}",
    )
    phone_row = f"mimetype:s:vnd.android.cursor.item/phone_v2 --bind {shlex.quote('data1:s:' + number)}"
    sh(
        device,
        f"content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:{raw_id} "
        f"--bind {phone_row} --bind data2:i:2",
    )


def receive(device, address: str, body: str, date: int | None = None, read: int = 0, box: str = "inbox") -> None:
    """A message arrives (or was sent: ``box='sent'``), as a task's reset inserts one."""
    binds = [f"address:s:{address}", f"body:s:{body}", f"read:i:{read}"]
    if date is not None:
        binds.append(f"date:l:{date}")
    sh(device, f"content insert --uri content://sms/{box} " + " ".join(f"--bind {shlex.quote(b)}" for b in binds))


def rows(device, uri: str, where: str = "") -> list[dict[str, str]]:
    """``content query`` rows as dicts (values as printed)."""
    out = sh(device, f"content query --uri {uri}" + (f" --where {shlex.quote(where)}" if where else ""))
    found = []
    for line in out.splitlines():
        if line.startswith("Row: "):
            body = line.split(" ", 2)[2]
            found.append(dict(re.findall(r"(\w+)=(.*?)(?=, \w+=|$)", body)))
    return found


def nodes(device, **attrs: str) -> list:
    return [e for e in ui_elements(device.dump_ui()) if all(getattr(e, k) == v for k, v in attrs.items())]


def texts(device, resource_id: str) -> list[str]:
    return [e.text for e in nodes(device, resource_id=RID + resource_id)]


def foreground(device) -> str:
    return sh(device, "dumpsys window | grep mCurrentFocus")


def type_in(device, resource_id: str, text: str) -> None:
    tap_node(device, resource_id=RID + resource_id)
    device.text(text)


@pytest.fixture
def clock() -> Clock:
    return Clock(stepped=True)


@pytest.fixture
def phone(clock) -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, clock=clock)


@pytest.fixture
def device(phone: VirtualPhone, clock: Clock) -> VirtualDevice:
    """Two contacts (Alice, Bob) and three conversations: Alice (unread), a stranger, Bob (oldest, sent)."""
    device = VirtualDevice(phone)
    add_contact(device, "Alice Smith", ALICE)
    add_contact(device, "Bob Jones", BOB)
    now = clock.now_ms()
    receive(device, BOB, "See you at noon", now - 30 * HOUR, read=1, box="sent")
    receive(device, STRANGER, "Your parcel is waiting", now - 5 * HOUR, read=1)
    receive(device, ALICE, "Lunch tomorrow?", now - 2 * HOUR)
    sh(device, LIST)
    return device


# ---------------------------------------------------------------------------- the list


def test_the_list_shows_threads_newest_first_with_contact_names(device):
    assert texts(device, "conversation_name") == ["Alice Smith", STRANGER, "Bob Jones"]
    assert texts(device, "conversation_snippet") == [
        "Lunch tomorrow?",
        "Your parcel is waiting",
        "You: See you at noon",
    ]
    assert "7:00 AM" in texts(device, "conversation_timestamp")  # 2 hours before 09:00
    row = nodes(device, resource_id=RID + "swipeableContainer")[0]
    assert row.content_desc.startswith("Message from Alice Smith: Lunch tomorrow?.")
    mirror = rows(device, BUGLE)
    assert [(r["name"], r["read"], r["archive_status"]) for r in mirror] == [
        ("Alice Smith", "0", "0"),
        (STRANGER, "1", "0"),
        ("Bob Jones", "1", "0"),
    ]
    assert mirror[0]["other_participant_normalized_destination"] == "+15550142"


def test_an_incoming_message_shows_at_once_on_top(device, clock):
    receive(device, BOB, "Running late", clock.now_ms())
    assert texts(device, "conversation_name")[0] == "Bob Jones"
    assert texts(device, "conversation_snippet")[0] == "Running late"
    assert texts(device, "conversation_timestamp")[0] == "Just now"
    assert "post" not in sh(device, "dumpsys notification --noredact")  # AOSP posts none for a provider insert


def test_a_contact_renamed_or_added_shows_at_once(device):
    where = shlex.quote("data1='Alice Smith'")
    sh(
        device,
        f"content update --uri content://com.android.contacts/data --bind 'data1:s:Alicia Smith' --where {where}",
    )
    assert texts(device, "conversation_name")[0] == "Alicia Smith"
    add_contact(device, "Carol Stone", STRANGER)
    assert texts(device, "conversation_name") == ["Alicia Smith", "Carol Stone", "Bob Jones"]
    assert [r["name"] for r in rows(device, BUGLE)] == ["Alicia Smith", "Carol Stone", "Bob Jones"]


def test_opening_a_conversation_shows_bubbles_and_marks_it_read(device):
    assert rows(device, "content://sms/inbox", "read=0")
    tap_node(device, text="Alice Smith")
    assert "ConversationActivity" in foreground(device)
    assert texts(device, "conversation_title") == ["Alice Smith"]
    assert texts(device, "message_text") == ["Lunch tomorrow?"]
    assert rows(device, "content://sms/inbox", "read=0") == []
    assert rows(device, BUGLE)[0]["read"] == "1"
    device.key("BACK")
    assert "ConversationListActivity" in foreground(device)


def test_sending_a_text_in_a_conversation_writes_a_sent_row_with_the_phones_time(device, clock):
    tap_node(device, text="Alice Smith")
    assert nodes(device, resource_id=RID + "send_message_button") == []  # the SIM icon until there is text
    type_in(device, "compose_message_text", "Sure, 1pm")
    tap_node(device, content_desc="Send Message")
    sent = rows(device, "content://sms/sent", f"address='{ALICE}'")
    assert [(r["body"], r["type"], r["date"]) for r in sent] == [("Sure, 1pm", "2", str(clock.now_ms()))]
    assert texts(device, "message_text") == ["Lunch tomorrow?", "Sure, 1pm"]
    assert nodes(device, resource_id=RID + "compose_message_text")[0].text == "Send message"  # (empty: its hint)
    assert "UI initiated message sending in conversation" in sh(device, "logcat -d -s MessagingApp")


def test_a_new_conversation_with_a_contact_picked_as_one_types(device):
    tap_node(device, content_desc="Start new conversation")
    assert "Enter" not in " ".join(texts(device, "contact_name"))
    assert texts(device, "contact_name") == ["Alice Smith", "Bob Jones"]
    device.text("bo")
    assert texts(device, "contact_name") == ["Bob Jones"]
    assert texts(device, "contact_detail_type") == ["Mobile"]
    tap_node(device, text="Bob Jones")
    type_in(device, "compose_message_text", "Hello Bob")
    tap_node(device, content_desc="Send Message")
    assert [r["body"] for r in rows(device, "content://sms/sent", f"address='{BOB}'")] == [
        "Hello Bob",
        "See you at noon",
    ]
    assert [r["thread_id"] for r in rows(device, "content://sms", f"address='{BOB}'")] == ["1", "1"]  # one thread


def test_a_new_conversation_with_a_typed_number(device):
    tap_node(device, content_desc="Start new conversation")
    device.text("5550199")
    assert texts(device, "contact_name") == ["Send to 5550199"]
    device.key("ENTER")  # the IME action on a number
    assert texts(device, "conversation_title") == ["5550199"]
    type_in(device, "compose_message_text", "Hi there")
    tap_node(device, content_desc="Send Message")
    assert [r["body"] for r in rows(device, "content://sms/sent", "address='5550199'")] == ["Hi there"]
    device.key("BACK")  # the keyboard
    device.key("BACK")
    assert texts(device, "conversation_name")[0] == "5550199"


# ---------------------------------------------------------------------------- archive, delete, read state


def test_swiping_a_conversation_archives_it_and_the_archived_list_shows_it(device):
    y = center(node_bounds(device.dump_ui(), text=STRANGER))[1]
    device.swipe(300, y, 20, y, 200)
    assert STRANGER not in texts(device, "conversation_name")
    assert texts(device, "snackbar_text") == ["1 archived"]
    archived = rows(device, BUGLE, "archive_status=1")
    assert [r["name"] for r in archived] == [STRANGER]
    assert rows(device, "content://sms", f"address='{STRANGER}'")  # archiving keeps the messages
    tap_node(device, content_desc="More options")
    tap_node(device, text="Archived")
    assert texts(device, "conversation_name") == [STRANGER]
    tap_node(device, text=STRANGER)  # opened from the archive: Unarchive is on offer
    tap_node(device, content_desc="More options")
    tap_node(device, text="Unarchive")
    assert rows(device, BUGLE, "archive_status=1") == []
    assert "Archived conversation" in sh(device, "logcat -d -s MessagingApp")


def test_undo_of_the_archive_snackbar_brings_it_back(device):
    y = center(node_bounds(device.dump_ui(), text="Bob Jones"))[1]
    device.swipe(20, y, 300, y, 200)
    assert rows(device, BUGLE, "archive_status=1")
    tap_node(device, text="Undo")
    assert rows(device, BUGLE, "archive_status=1") == []
    assert "Bob Jones" in texts(device, "conversation_name")


def test_a_new_message_unarchives_its_conversation(device, clock):
    y = center(node_bounds(device.dump_ui(), text=STRANGER))[1]
    device.swipe(300, y, 20, y, 200)
    receive(device, STRANGER, "Last reminder", clock.now_ms())
    assert texts(device, "conversation_name")[0] == STRANGER
    assert rows(device, BUGLE, "archive_status=1") == []


def test_long_press_then_delete_asks_then_deletes_the_threads_messages(device):
    device.long_press(*center(node_bounds(device.dump_ui(), text="Bob Jones")))
    assert texts(device, "action_bar_title") == ["1"]
    tap_node(device, content_desc="Delete")
    assert nodes(device, resource_id="android:id/alertTitle")[0].text == "Delete this conversation?"
    tap_node(device, resource_id="android:id/button2")  # Cancel keeps it
    assert rows(device, "content://sms", f"address='{BOB}'")
    tap_node(device, content_desc="Delete")
    tap_node(device, resource_id="android:id/button1")
    assert rows(device, "content://sms", f"address='{BOB}'") == []
    assert len(rows(device, "content://sms")) == 2  # the others stay
    assert texts(device, "conversation_name") == ["Alice Smith", STRANGER]
    assert [r["name"] for r in rows(device, BUGLE)] == ["Alice Smith", STRANGER]


def test_mark_as_unread_and_read_from_the_selection_menu(device):
    device.long_press(*center(node_bounds(device.dump_ui(), text=STRANGER)))
    tap_node(device, content_desc="More options")
    tap_node(device, text="Mark as unread")
    assert [r["body"] for r in rows(device, "content://sms/inbox", "read=0")] == [
        "Lunch tomorrow?",
        "Your parcel is waiting",
    ]
    device.long_press(*center(node_bounds(device.dump_ui(), text="Alice Smith")))
    tap_node(device, text=STRANGER)  # a tap adds to the selection
    assert texts(device, "action_bar_title") == ["2"]
    tap_node(device, content_desc="More options")
    tap_node(device, text="Mark as read")
    assert rows(device, "content://sms/inbox", "read=0") == []


def test_add_contact_offers_the_unknown_number(device):
    device.long_press(*center(node_bounds(device.dump_ui(), text=STRANGER)))
    tap_node(device, content_desc="Add contact")
    assert nodes(device, resource_id="android:id/alertTitle")[0].text == "Add to Contacts?"
    assert texts(device, "participant_name") == [STRANGER]
    tap_node(device, text="Add Contact")  # Contacts' "Add to contact" takes INSERT_OR_EDIT with the number
    assert "com.android.contacts.activities.ContactSelectionActivity" in foreground(device)
    assert f"Add contact {STRANGER}" in sh(device, "logcat -d -s MessagingApp")
    tap_node(device, text="Create new contact")
    assert nodes(device, text=STRANGER, class_name="android.widget.EditText")  # the editor, prefilled


# ---------------------------------------------------------------------------- messages: forward, copy, delete


def test_forwarding_a_message_to_another_conversation(device):
    tap_node(device, text=STRANGER)
    device.long_press(*center(node_bounds(device.dump_ui(), text="Your parcel is waiting")))
    tap_node(device, content_desc="Forward")
    assert "ForwardMessageActivity" in foreground(device)
    tap_node(device, text="Bob Jones")
    assert nodes(device, resource_id=RID + "compose_message_text")[0].text == "Your parcel is waiting"
    tap_node(device, content_desc="Send Message")
    assert [r["body"] for r in rows(device, "content://sms/sent", f"address='{BOB}'")][0] == "Your parcel is waiting"


def test_copy_text_then_paste_into_the_compose_field(device, phone):
    tap_node(device, text="Alice Smith")
    device.long_press(*center(node_bounds(device.dump_ui(), text="Lunch tomorrow?")))
    tap_node(device, content_desc="Copy text")
    left, top, _, bottom = node_bounds(device.dump_ui(), resource_id=RID + "compose_message_text")
    device.long_press(left + 20, (top + bottom) // 2)  # an empty field offers Paste
    toolbar = next(w for w in phone.display.windows() if any(v.text == "Paste" for v in w.walk()))
    device.tap(*center(next(v.bounds for v in toolbar.walk() if v.text == "Paste")))
    assert nodes(device, resource_id=RID + "compose_message_text")[0].text == "Lunch tomorrow?"


def test_deleting_one_message(device):
    tap_node(device, text="Alice Smith")
    device.long_press(*center(node_bounds(device.dump_ui(), text="Lunch tomorrow?")))
    tap_node(device, content_desc="Delete")
    assert nodes(device, resource_id="android:id/message")[0].text == "This action cannot be undone."
    tap_node(device, resource_id="android:id/button1")
    assert rows(device, "content://sms", f"address='{ALICE}'") == []


# ---------------------------------------------------------------------------- intents


@pytest.mark.parametrize(
    "command",
    [
        "am start -a android.intent.action.SENDTO -d smsto:5550142 --es sms_body 'On my way'",
        "am start -a android.intent.action.VIEW -d 'sms:%2B15550142?body=On%20my%20way'",
        # Contacts' Text (Uri.fromParts: encoded) and the call log's (Uri.parse: the number as it is)
        "am start -a android.intent.action.SENDTO -d smsto:%2B1%20555-0142 --es sms_body 'On my way'",
        "am start -a android.intent.action.SENDTO -d 'sms:+1 555-0142' --es sms_body 'On my way'",
    ],
)
def test_sendto_and_view_open_the_conversation_with_the_body(device, command):
    sh(device, command)
    assert "ConversationActivity" in foreground(device)
    assert texts(device, "conversation_title") == ["Alice Smith"]
    assert nodes(device, resource_id=RID + "compose_message_text")[0].text == "On my way"
    assert "LaunchConversationActivity" not in sh(device, "dumpsys activity activities")  # it finished at once
    tap_node(device, content_desc="Send Message")
    sent = rows(device, "content://sms/sent", f"address='{ALICE}'")  # to the thread of the number's conversation
    assert [(r["body"], r["thread_id"]) for r in sent] == [("On my way", "3")]


def test_a_conversation_gives_way_to_the_next_one_opened_in_its_task(device):
    sh(device, f"am start -a android.intent.action.SENDTO -d 'smsto:{ALICE}'")
    sh(device, f"am start -a android.intent.action.SENDTO -d 'smsto:{STRANGER}'")
    assert texts(device, "conversation_title") == [STRANGER]
    device.long_press(*center(node_bounds(device.dump_ui(), text="Your parcel is waiting")))
    tap_node(device, content_desc="Forward")
    tap_node(device, text="Bob Jones")
    assert texts(device, "conversation_title") == ["Bob Jones"]
    stack = sh(device, "dumpsys activity activities")
    assert len(re.findall(r"Hist .*\.ConversationActivity", stack)) == 1  # FLAG_ACTIVITY_CLEAR_TOP, as AOSP's
    assert "ForwardMessageActivity" not in stack


def test_send_of_text_plain_picks_a_conversation(device):
    sh(device, "am start -a android.intent.action.SEND -t text/plain --es android.intent.extra.TEXT 'Shared note'")
    assert "ShareIntentActivity" in foreground(device)
    tap_node(device, text="Alice Smith")
    assert nodes(device, resource_id=RID + "compose_message_text")[0].text == "Shared note"


def test_sendto_without_a_recipient_opens_the_picker(device):
    sh(device, "am start -a android.intent.action.SENDTO -d smsto: --es sms_body Hi")
    assert nodes(device, resource_id=RID + "recipient_text_view")[0].text == "To"  # (empty: its hint)


@pytest.mark.parametrize("extra", ["--es conversation_id nope", "--ei conversation_id 999", "--esn destination"])
def test_a_conversation_id_that_names_none_opens_the_picker(device, extra):
    sh(device, f"am start -n {PKG}/.ui.conversation.ConversationActivity {extra}")
    assert "ConversationActivity" in foreground(device)
    assert nodes(device, resource_id=RID + "recipient_text_view")[0].text == "To"  # (empty: its hint)


def test_an_intent_of_another_scheme_is_not_messagings(device):
    out = device.shell("am start -a android.intent.action.SENDTO -d mailto:someone@example.com 2>&1", check=False)
    assert "Error: Activity not started, unable to resolve Intent" in out
    assert "ConversationListActivity" in foreground(device)


# ---------------------------------------------------------------------------- configuration and snapshots


def test_german_and_dark_theme_change_what_it_draws_and_dumps(device, phone):
    light = phone.screenshot().copy()
    sh(device, "setprop persist.sys.locale de-DE")
    sh(device, "cmd uimode night yes")
    xml = device.dump_ui()
    assert 'content-desc="Neue Unterhaltung starten"' in xml
    assert 'text="SMS/MMS"' in xml
    assert "Sie: See you at noon" in xml
    dark = phone.screenshot()
    assert dark.mean() < light.mean() - 50


def test_a_snapshot_keeps_the_archive_and_the_messages(device, phone):
    phone.save_snapshot("start")
    y = center(node_bounds(device.dump_ui(), text=STRANGER))[1]
    device.swipe(300, y, 20, y, 200)
    tap_node(device, text="Alice Smith")
    phone.load_snapshot("start")
    assert rows(device, BUGLE, "archive_status=1") == []
    assert len(rows(device, "content://sms/inbox", "read=0")) == 1
    assert texts(device, "conversation_name") == ["Alice Smith", STRANGER, "Bob Jones"]


def test_pm_clear_forgets_the_archive_not_the_messages(device):
    y = center(node_bounds(device.dump_ui(), text=STRANGER))[1]
    device.swipe(300, y, 20, y, 200)
    sh(device, f"pm clear {PKG}")
    sh(device, LIST)
    assert texts(device, "conversation_name") == ["Alice Smith", STRANGER, "Bob Jones"]
    assert len(rows(device, "content://sms")) == 3


def test_a_conversation_over_the_real_adb(served, adb_server, phone, clock):
    from androidrl.device.adb import AdbDevice

    device = AdbDevice(served.serial, port=adb_server.port, timeout=5.0)
    add_contact(device, "Alice Smith", ALICE)
    receive(device, ALICE, "Lunch tomorrow?", clock.now_ms() - HOUR)
    sh(device, LIST)
    tap_node(device, text="Alice Smith")
    type_in(device, "compose_message_text", "Yes")
    tap_node(device, content_desc="Send Message")
    assert [r["body"] for r in rows(device, "content://sms/sent", f"address='{ALICE}'")] == ["Yes"]
    assert rows(device, "content://sms/inbox", "read=0") == []


def test_clear_top_to_the_task_root_starts_it_afresh(device):
    component = "com.android.messaging/.ui.conversationlist.ConversationListActivity"
    sh(device, f"am start -n {component}")
    sh(device, f"am start -a android.intent.action.SENDTO -d 'smsto:{ALICE}'")
    out = sh(device, f"am start -f 0x04000000 -n {component}")  # FLAG_ACTIVITY_CLEAR_TOP: the whole task finishes
    assert "Error" not in out and "ConversationListActivity" in foreground(device)
    stack = sh(device, "dumpsys activity activities")
    assert len(re.findall(r"Hist .*\.ConversationListActivity", stack)) == 1 and "ConversationActivity}" not in stack

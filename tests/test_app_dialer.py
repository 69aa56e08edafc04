"""Phone (``com.android.dialer``), driven as an agent drives it: ``input tap/text/keyevent``.

Flows find nodes in the ``uiautomator dump`` and tap their centres; results are read as Android
exposes them — ``content query`` of the call log and contacts, ``dumpsys activity``, ``logcat``.
Time passes as the phone's stepped clock is moved on (as an env's steps move it).
"""

from __future__ import annotations

import shlex

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.tasks.state import parse_rows
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, center, tap_node

PKG = "com.android.dialer"
RID = f"{PKG}:id/"
CALLS = "content://call_log/calls"
PHONES = "content://com.android.contacts/data/phones"
KEYS = {
    "1": "1,",
    "2": "2,ABC",
    "3": "3,DEF",
    "4": "4,GHI",
    "5": "5,JKL",
    "6": "6,MNO",
    "7": "7,PQRS",
    "8": "8,TUV",
    "9": "9,WXYZ",
    "0": "0",
    "*": "*",
    "#": "#",
}


@pytest.fixture
def seeded() -> VirtualPhone:
    return VirtualPhone(
        WIDTH, HEIGHT, DENSITY, seed=3, content={"contacts": 12, "calls": 10}, clock=Clock(stepped=True)
    )


@pytest.fixture
def dialer(seeded: VirtualPhone) -> VirtualDevice:
    """The Phone app opened from the launcher's icon."""
    device = VirtualDevice(seeded)
    tap_node(device, text="Phone")
    return device


def query(device, uri: str, *options: str) -> list[dict[str, str]]:
    return parse_rows(device.shell(shlex.join(["content", "query", "--uri", uri, *options])))


def nodes(device, **attrs: str) -> list:
    return [e for e in ui_elements(device.dump_ui()) if all(getattr(e, k) == v for k, v in attrs.items())]


def resumed(device) -> str:
    line = next(x for x in device.shell("dumpsys activity activities").splitlines() if "topResumedActivity=" in x)
    return line.split()[-2]


def digits(device) -> str:
    return nodes(device, resource_id=RID + "digits")[0].text


def dial(device, number: str) -> None:
    for key in number:
        tap_node(device, content_desc=KEYS[key])


def stripped(number: str) -> str:
    """A number as the call log keeps it (PhoneNumberUtils.stripSeparators: ``+1 555-0142`` -> ``+15550142``)."""
    return "".join(c for c in number if c.isdigit() or c in "+*#")


def newest_call(device) -> dict[str, str]:
    return query(device, CALLS, "--sort", "date DESC")[0]


# ---------------------------------------------------------------------------- tabs and dialpad


def test_the_tabs_switch_and_the_last_one_comes_back(dialer):
    assert nodes(dialer, resource_id=RID + "speed_dial_tab")[0] and nodes(dialer, text="Favorites")
    starred = [
        r["display_name"] for r in query(dialer, "content://com.android.contacts/contacts", "--where", "starred=1")
    ]
    assert sorted(e.text for e in nodes(dialer, resource_id=RID + "name")) == sorted(starred)
    tap_node(dialer, resource_id=RID + "contacts_tab")
    assert nodes(dialer, resource_id=RID + "contact_name", text="Create new contact")
    tap_node(dialer, resource_id=RID + "call_log_tab")
    assert nodes(dialer, resource_id=RID + "call_log_day_group_label")
    assert "tab call_log_tab" in dialer.shell("logcat -d -s Dialer")
    dialer.shell("am force-stop com.android.dialer")
    tap_node(dialer, text="Phone")  # (from the launcher, where force-stop left the phone)
    assert nodes(dialer, resource_id=RID + "call_log_day_group_label")  # Recents again


def test_the_dialpad_types_deletes_and_a_long_press_on_zero_types_plus(dialer):
    tap_node(dialer, content_desc="key pad")
    assert digits(dialer) == ""
    dial(dialer, "5550")
    tap_node(dialer, content_desc="backspace")
    assert digits(dialer) == "555"
    x, y = center(nodes(dialer, content_desc="0")[0].bounds)
    dialer.long_press(x, y)
    dialer.text("12")  # typed keys reach the digits field too
    assert digits(dialer) == "555+12"
    x, y = center(nodes(dialer, content_desc="backspace")[0].bounds)
    dialer.long_press(x, y)  # clears
    assert digits(dialer) == ""
    dialer.key("BACK")
    assert nodes(dialer, content_desc="key pad")  # the dialpad went, the tabs are back


# ---------------------------------------------------------------------------- calls and the call log


def test_a_call_from_the_dialpad_is_logged_outgoing_with_its_duration_and_cached_name(dialer, seeded):
    contact = query(dialer, PHONES)[0]
    number = contact["data1"]
    tap_node(dialer, content_desc="key pad")
    dialer.text(number)
    tap_node(dialer, content_desc="dial")
    assert resumed(dialer) == "com.android.incallui.InCallActivity".join([f"{PKG}/", ""])
    assert nodes(dialer, resource_id=RID + "contactgrid_status_text", text="Calling…")
    assert nodes(dialer, resource_id=RID + "contactgrid_contact_name", text=contact["display_name"])
    seeded.clock.advance(9)  # rings 2 s, then 7 s connected
    assert nodes(dialer, resource_id=RID + "contactgrid_bottom_timer", text="00:07")
    dialer.key("BACK")  # (the call goes on)
    assert resumed(dialer).endswith("InCallActivity")
    tap_node(dialer, content_desc="End call")
    call = newest_call(dialer)
    assert (call["number"], call["type"], call["duration"]) == (stripped(number), "2", "7")
    assert (call["name"], call["numbertype"], call["new"]) == (contact["display_name"], contact["data2"], "1")
    assert f"call to {number} ended after 7 s" in dialer.shell("logcat -d -s Dialer")
    assert resumed(dialer) == f"{PKG}/.main.impl.MainActivity"


def test_an_unknown_number_is_logged_without_a_name_and_the_dial_button_redials_it(dialer):
    tap_node(dialer, content_desc="key pad")
    dial(dialer, "5550123")
    tap_node(dialer, content_desc="dial")
    tap_node(dialer, content_desc="End call")  # before it connected
    call = newest_call(dialer)
    assert (call["number"], call["duration"], call["name"]) == ("5550123", "0", "NULL")
    tap_node(dialer, content_desc="key pad")
    tap_node(dialer, content_desc="dial")  # no digits: the last number called comes back
    assert digits(dialer) == "5550123"


def test_calling_back_the_last_missed_call_from_recents(dialer):
    missed = query(dialer, CALLS, "--where", "type=3", "--sort", "date DESC")[0]
    tap_node(dialer, resource_id=RID + "call_log_tab")
    row = next(e for e in nodes(dialer, resource_id=RID + "primary_action_view") if "Missed call" in e.content_desc)
    name = row.content_desc.removeprefix("Missed call from ").split(",")[0]
    buttons = [e for e in nodes(dialer, resource_id=RID + "primary_action_button") if e.content_desc == f"Call {name}"]
    dialer.tap(*center(buttons[0].bounds))
    assert resumed(dialer).endswith("InCallActivity")
    tap_node(dialer, content_desc="End call")
    assert (newest_call(dialer)["number"], newest_call(dialer)["type"]) == (stripped(missed["number"]), "2")


def test_a_new_call_log_row_shows_at_once_and_a_caller_can_be_saved_as_a_contact(dialer):
    dialer.shell(
        f"content insert --uri {CALLS} --bind number:s:5550177 --bind type:i:3 --bind date:l:1781514000000 "
        "--bind duration:i:0 --bind new:i:1"
    )
    tap_node(dialer, resource_id=RID + "call_log_tab")
    assert nodes(dialer, resource_id=RID + "name", text="5550177")
    assert nodes(dialer, resource_id=RID + "call_log_day_group_label", text="Today")
    tap_node(dialer, resource_id=RID + "name", text="5550177")  # the row opens its actions
    tap_node(dialer, resource_id=RID + "create_new_contact_action")
    assert resumed(dialer) == "com.android.contacts/.activities.ContactEditorActivity"
    assert nodes(dialer, text="5550177", class_name="android.widget.EditText")  # the number is in
    tap_node(dialer, text="First name")
    dialer.text("Maya")
    tap_node(dialer, text="Save")
    rows = query(dialer, PHONES, "--where", "data1='5550177'", "--projection", "display_name")
    assert rows == [{"display_name": "Maya"}]
    dialer.key("BACK")  # the new contact's details, then the call log
    assert nodes(dialer, resource_id=RID + "name", text="Maya")  # the log now names the caller


def test_the_contacts_tab_opens_a_contact_in_contacts(dialer):
    tap_node(dialer, resource_id=RID + "contacts_tab")
    name = nodes(dialer, resource_id=RID + "contact_name")[1].text
    tap_node(dialer, resource_id=RID + "contact_name", text=name)
    assert resumed(dialer) == "com.android.contacts/.quickcontact.QuickContactActivity"
    assert nodes(dialer, resource_id="com.android.contacts:id/large_title", text=name)


# ---------------------------------------------------------------------------- intents and configurations


def test_dial_and_view_tel_prefill_the_dialpad_call_calls_and_view_calls_shows_recents(seeded):
    device = VirtualDevice(seeded)
    device.shell("am start -a android.intent.action.DIAL -d tel:5550142")
    assert resumed(device) == f"{PKG}/.main.impl.MainActivity" and digits(device) == "5550142"
    device.shell("am start -a android.intent.action.VIEW -d tel:911")
    assert digits(device) == "911"
    device.shell("am start -a android.intent.action.CALL -d tel:%2B1%20555-0101")
    assert nodes(device, resource_id=RID + "contactgrid_contact_name", text="+1 555-0101")
    tap_node(device, content_desc="End call")
    assert newest_call(device)["number"] == "+15550101"  # (the log strips separators)
    device.shell("am force-stop com.android.dialer")
    device.shell("am start -a android.intent.action.VIEW -t vnd.android.cursor.dir/calls")
    assert nodes(device, resource_id=RID + "call_log_tab")[0].bounds and nodes(device, resource_id=RID + "name")


def test_german_and_dark_dump_the_dialers_strings():
    phone = VirtualPhone(
        WIDTH,
        HEIGHT,
        DENSITY,
        seed=3,
        content={"contacts": 4, "calls": 4},
        night=True,
        locale="de-DE",
        clock=Clock(stepped=True),
    )
    device = VirtualDevice(phone)
    device.shell("am start -n com.android.dialer/.main.impl.MainActivity")
    assert nodes(device, text="Kurzwahl") and nodes(device, text="Anrufliste") and nodes(device, text="Kontakte")
    assert device.screenshot()[150:600, :].mean() < 100
    tap_node(device, content_desc="key pad")
    assert nodes(device, content_desc="Rücktaste") and nodes(device, content_desc="Wählen")


def test_one_call_over_adb(device, phone):
    """Dial a number and end the call over the real adb client too (the conftest's device param)."""
    device.shell("am start -a android.intent.action.DIAL -d tel:12")
    tap_node(device, content_desc="dial")
    tap_node(device, content_desc="End call")
    assert parse_rows(device.shell(f"content query --uri {CALLS} --projection number:type")) == [
        {"number": "12", "type": "2"}
    ]


# ---------------------------------------------------------------------------- with Messages


def test_a_call_log_rows_message_action_opens_the_conversation_in_messages(dialer):
    call = next(c for c in query(dialer, CALLS, "--sort", "date DESC") if c["name"])
    tap_node(dialer, resource_id=RID + "call_log_tab")
    tap_node(dialer, resource_id=RID + "name", text=call["name"])  # the row opens its actions
    tap_node(dialer, resource_id=RID + "send_message_action")  # SENDTO sms:NUMBER, the number as it is
    assert resumed(dialer) == "com.android.messaging/.ui.conversation.ConversationActivity"
    assert nodes(dialer, resource_id="com.android.messaging:id/conversation_title", text=call["name"])


def test_messages_call_button_places_the_call_on_the_in_call_screen(seeded):
    device = VirtualDevice(seeded)
    number = query(device, PHONES)[0]
    device.shell(f"am start -a android.intent.action.SENDTO -d smsto:{shlex.quote(number['data1'])}")
    tap_node(device, content_desc="Make a call")  # CALL tel:NUMBER (Uri.parse: not encoded)
    assert resumed(device) == "com.android.dialer/com.android.incallui.InCallActivity"
    assert nodes(device, resource_id=RID + "contactgrid_contact_name", text=number["display_name"])
    device.shell("sleep 3")  # (the call connects after 2 s on the phone's clock)
    tap_node(device, content_desc="End call")
    call = newest_call(device)
    assert (call["number"], call["type"], call["name"]) == (stripped(number["data1"]), "2", number["display_name"])
    assert int(call["duration"]) >= 1

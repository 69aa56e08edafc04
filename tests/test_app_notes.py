"""Notes (``com.androidrl.notes``), driven as an agent drives it; checks read its provider with ``content query``."""

from __future__ import annotations

import re

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.virtual.phone import VirtualPhone

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds, tap_node

NOTES = "content://com.androidrl.notes/notes"
RID = "com.androidrl.notes:id/"


@pytest.fixture
def device() -> VirtualDevice:
    return VirtualDevice(VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=3))


def rows(device) -> list[tuple[str, str]]:
    """(title, body) of every note, newest change first."""
    out = device.shell(f"content query --uri {NOTES} --projection title:body")
    return re.findall(r"title=(.*?), body=(.*)", out)


def add(device, title: str, body: str) -> None:
    device.shell(f"content insert --uri {NOTES} --bind 'title:s:{title}' --bind 'body:s:{body}'")


def menu(device, item: str) -> None:
    tap_node(device, content_desc="More options")
    tap_node(device, text=item)


def test_a_new_note_gets_its_title_and_body_and_the_list_shows_it(device):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    tap_node(device, resource_id=RID + "new_note")
    assert 'text="New note"' in device.dump_ui()
    device.text("Groceries")  # the title has focus
    tap_node(device, resource_id=RID + "body")
    device.text("milk")
    tap_node(device, resource_id=RID + "save")
    assert rows(device) == [("Groceries", "milk")]
    xml = device.dump_ui()
    assert 'text="Groceries" resource-id="com.androidrl.notes:id/note_item"' in xml
    assert 'text="milk" resource-id="com.androidrl.notes:id/note_body"' in xml
    assert "created note 1: Groceries" in device.shell("logcat -d -s Notes")


def test_back_saves_an_edit_and_leaves_an_empty_new_note_unsaved(device):
    add(device, "Plan", "call Ann")
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    tap_node(device, text="Plan")
    device.text(" today")  # a saved note opens with its body focused, the cursor at the end
    device.back()
    assert rows(device) == [("Plan", "call Ann today")]
    tap_node(device, resource_id=RID + "new_note")
    device.back()
    assert len(rows(device)) == 1


def test_delete_asks_first_and_cancel_keeps_the_note(device):
    add(device, "Old", "x")
    add(device, "Keep", "y")
    device.shell(f"am start -a android.intent.action.EDIT -d {NOTES}/1")
    tap_node(device, resource_id=RID + "delete")
    assert 'text="Delete this note?"' in device.dump_ui()
    tap_node(device, text="Cancel")
    assert len(rows(device)) == 2
    tap_node(device, resource_id=RID + "delete")
    tap_node(device, text="Delete")
    assert rows(device) == [("Keep", "y")]
    device.shell(f"am start -a android.intent.action.EDIT -d {NOTES}/1")  # gone: the editor closes at once
    assert "com.androidrl.notes:id/title" not in device.dump_ui()


def test_a_long_press_selects_notes_which_copy_and_delete_together(device):
    for title in ("One", "Two", "Three"):
        add(device, title, title.lower())
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    device.long_press(*center(node_bounds(device.dump_ui(), text="One")))
    tap_node(device, text="Three")  # while selecting, a tap toggles
    xml = device.dump_ui()
    assert 'text="2 selected"' in xml and xml.count('selected="true"') == 2
    tap_node(device, resource_id=RID + "action_copy")
    assert 'text="2 selected"' not in device.dump_ui()
    tap_node(device, resource_id=RID + "new_note")
    tap_node(device, resource_id=RID + "body")
    menu(device, "Paste")
    device.back()
    assert device.shell(f"content query --uri {NOTES}/4 --projection body") == "Row: 0 body=one\nthree\n"
    device.long_press(*center(node_bounds(device.dump_ui(), text="Two")))
    tap_node(device, resource_id=RID + "action_delete")
    tap_node(device, text="Delete")
    assert [t for t, _ in rows(device)] == ["", "Three", "One"]


def test_the_menu_copies_a_field_and_pastes_it_into_another(device):
    add(device, "Code", "4711")
    device.shell(f"am start -a android.intent.action.EDIT -d {NOTES}/1")
    menu(device, "Copy")  # the body has focus; nothing selected: all of it
    tap_node(device, resource_id=RID + "title")
    device.key("MOVE_END")
    menu(device, "Paste")
    tap_node(device, resource_id=RID + "save")
    assert rows(device) == [("Code4711", "4711")]
    device.shell(f"am start -a android.intent.action.EDIT -d {NOTES}/1")
    tap_node(device, resource_id=RID + "title")
    menu(device, "Select all")
    device.text("PIN")  # typing replaces the selection
    device.back()
    assert rows(device) == [("PIN", "4711")]


def test_send_and_insert_intents_open_a_prefilled_new_note(device):
    device.shell(
        "am start -n com.androidrl.notes/.EditActivity -a android.intent.action.SEND -t text/plain "
        "--es android.intent.extra.SUBJECT Shared --es android.intent.extra.TEXT 'from Messages'"
    )
    tap_node(device, resource_id=RID + "save")
    device.shell("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/vnd.androidrl.note")
    assert 'text="New note"' in device.dump_ui()
    assert rows(device) == [("Shared", "from Messages")]
    assert device.shell(f"content gettype --uri {NOTES}/1") == "Result: vnd.android.cursor.item/vnd.androidrl.note\n"


def test_notes_from_the_shell_show_at_once_and_pm_clear_wipes_them(device):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    assert 'text="No notes yet"' in device.dump_ui()
    add(device, "", "pushed")
    assert 'text="pushed" resource-id="com.androidrl.notes:id/note_item"' in device.dump_ui()
    assert 'text="1 saved"' in device.dump_ui()
    device.shell("pm clear com.androidrl.notes")
    assert rows(device) == []

"""Files (``com.android.documentsui``) and HTML Viewer, driven as an agent drives them.

Every flow goes through ``input tap/swipe/text/keyevent`` on nodes found in the UI dump, and
every check reads what Android exposes: ``ls``/``cat`` of ``/sdcard``, ``content query`` of
MediaStore, ``logcat``, ``dumpsys`` — never the app's objects.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import numpy as np
import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, center

RID = "com.android.documentsui:id/"
FILES = "am start -n com.android.documentsui/.files.FilesActivity"
IMAGES = "content://media/external/images/media"


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=3, clock=Clock(stepped=True), content={"files": 6, "photos": 3})


@pytest.fixture
def files(phone: VirtualPhone) -> VirtualDevice:
    device = VirtualDevice(phone)
    device.shell(FILES)
    return device


def nodes(device, **attrs) -> list[SimpleNamespace]:
    """The dump's nodes whose attributes (``resource_id``, ``text``, ``content_desc``...) equal ``attrs``."""
    return [n for n in parse(device.dump_ui()) if all(getattr(n, k) == v for k, v in attrs.items())]


def parse(xml: str) -> list[SimpleNamespace]:
    """Every node of a UI dump with its attributes (dashes as underscores; flags as bools; bounds as a tuple)."""
    found = []
    for node in ET.fromstring(xml).iter("node"):
        attrs = {k.replace("-", "_"): v for k, v in node.attrib.items()}
        for k, v in attrs.items():
            if v in ("true", "false"):
                attrs[k] = v == "true"
        attrs["bounds"] = tuple(int(n) for n in re.findall(r"-?\d+", attrs["bounds"]))
        found.append(SimpleNamespace(**attrs))
    return found


def tap(device, **attrs: str) -> None:
    found = nodes(device, **attrs)
    assert found, f"no node with {attrs}"
    device.tap(*center(found[0].bounds))


def long_press(device, **attrs: str) -> None:
    found = nodes(device, **attrs)
    assert found, f"no node with {attrs}"
    x, y = center(found[0].bounds)
    device.shell(f"input swipe {x} {y} {x} {y} 800")


def titles(device) -> list[str]:
    """The names the folder's list shows, top to bottom."""
    return [e.text for e in nodes(device, resource_id="android:id/title") if e.bounds[1] > 100]


def row_of(device, name: str):
    """The ``item_root`` row that holds the title ``name``."""
    x, y = center(nodes(device, resource_id="android:id/title", text=name)[0].bounds)
    return next(e for e in nodes(device, resource_id=RID + "item_root") if e.bounds[1] <= y < e.bounds[3])


def ls(device, path: str) -> list[str]:
    return device.shell(f"ls -1 '{path}'").splitlines()


def open_device_root(device) -> None:
    tap(device, content_desc="Show roots")
    tap(device, resource_id="android:id/title", text="androidrl Virtual Phone")


def open_documents(device) -> None:
    open_device_root(device)
    tap(device, resource_id="android:id/title", text="Documents")


def menu(device, item: str) -> None:
    tap(device, content_desc="More options")
    tap(device, resource_id="android:id/title", text=item)


def log(device) -> str:
    return device.shell("logcat -d -s DocumentsUI")


# ---------------------------------------------------------------------------- browsing


def test_the_launcher_opens_downloads_and_the_drawer_lists_the_roots(phone):
    device = VirtualDevice(phone)
    tap(device, text="Files")
    assert phone.foreground() == ("com.android.documentsui", "com.android.documentsui.files.FilesActivity")
    assert nodes(device, resource_id=RID + "toolbar")
    assert titles(device) == ls(device, "/sdcard/Download")  # (name order: DocumentsUI's default)
    tap(device, content_desc="Show roots")
    roots = [e.text for e in nodes(device, resource_id="android:id/title")]
    assert roots[-6:] == ["Recent", "Images", "Videos", "Audio", "Downloads", "androidrl Virtual Phone"]
    assert nodes(device, resource_id="android:id/summary")[0].text.endswith(" MB free")
    device.shell("input keyevent BACK")  # BACK closes the drawer first
    assert not nodes(device, resource_id=RID + "drawer_roots")
    assert phone.foreground()[0] == "com.android.documentsui"


def test_the_device_root_is_the_device_name_and_folders_open_with_breadcrumbs(files):
    files.shell("settings put global device_name Pixel")
    tap(files, content_desc="Show roots")
    tap(files, resource_id="android:id/title", text="Pixel")
    assert titles(files) == ls(files, "/sdcard")
    tap(files, resource_id="android:id/title", text="DCIM")
    tap(files, resource_id="android:id/title", text="Camera")
    assert [e.text for e in nodes(files, resource_id=RID + "breadcrumb_text")] == ["Pixel", "DCIM", "Camera"]
    assert titles(files) == ls(files, "/sdcard/DCIM/Camera")
    tap(files, resource_id=RID + "breadcrumb_text", text="Pixel")
    assert titles(files) == ls(files, "/sdcard")
    tap(files, resource_id="android:id/title", text="Documents")
    files.shell("input keyevent BACK")  # BACK goes up a folder
    assert titles(files) == ls(files, "/sdcard")


def test_a_file_pushed_from_the_shell_shows_at_once(files):
    before = titles(files)
    files.shell("echo hello > /sdcard/Download/arrived.txt")
    assert titles(files) == sorted([*before, "arrived.txt"])
    metadata = nodes(files, resource_id=RID + "metadata")[titles(files).index("arrived.txt")].text
    assert metadata == "9:00 AM, 6 B, TXT document"


def test_sort_by_date_shows_the_newest_first(files, phone):
    open_documents(files)
    phone.clock.advance(3600)
    files.shell("echo new > /sdcard/Documents/zz_latest.txt")
    menu(files, "Sort by...")
    tap(files, text="Modified (newest first)")
    assert titles(files)[0] == "zz_latest.txt"
    assert "sort date_desc" in log(files)
    menu(files, "Sort by...")
    tap(files, text="File name (Z to A)")
    assert titles(files) == sorted(ls(files, "/sdcard/Documents"), reverse=True)


# ---------------------------------------------------------------------------- changing files


def test_new_folder_is_made_in_sdcard_and_opened(files):
    open_documents(files)
    menu(files, "New folder")
    files.shell("input text Trip")
    tap(files, resource_id="android:id/button1")
    assert files.shell("ls -d /sdcard/Documents/Trip").strip() == "/sdcard/Documents/Trip"
    assert [e.text for e in nodes(files, resource_id=RID + "breadcrumb_text")][-1] == "Trip"
    assert nodes(files, resource_id=RID + "message", text="No items")
    files.shell("input keyevent BACK")
    menu(files, "New folder")
    files.shell("input text Trip")
    tap(files, resource_id="android:id/button1")  # a taken name gets " (1)", as buildUniqueFile gives it
    assert "Trip (1)" in ls(files, "/sdcard/Documents")
    assert "created folder /sdcard/Documents/Trip (1)" in log(files)


def test_new_folder_without_a_name_is_refused_in_the_dialog(files):
    open_documents(files)
    before = ls(files, "/sdcard/Documents")
    menu(files, "New folder")
    tap(files, resource_id="android:id/button1")
    assert nodes(files, resource_id=RID + "textinput_error", text="You need to add a folder name")
    tap(files, resource_id="android:id/button2")
    assert ls(files, "/sdcard/Documents") == before


def test_rename_replaces_the_name_and_keeps_the_extension(files):
    open_documents(files)
    first = titles(files)[0]
    long_press(files, resource_id="android:id/title", text=first)
    assert nodes(files, resource_id="android:id/action_bar_title", text="1 selected")
    assert nodes(files, resource_id=RID + "item_root")[0].selected
    menu(files, "Rename")
    assert nodes(files, resource_id="android:id/text1")[0].text == first
    files.shell("input text report")
    tap(files, resource_id="android:id/button1")
    names = ls(files, "/sdcard/Documents")
    assert first not in names and "report" + first[first.rindex(".") :] in names
    assert not nodes(files, resource_id="android:id/action_bar_title")  # the selection ended


def test_rename_to_a_taken_name_is_refused(files):
    open_documents(files)
    first, second = titles(files)[:2]
    long_press(files, resource_id="android:id/title", text=first)
    menu(files, "Rename")
    files.shell("input keyevent MOVE_END")
    for _ in first:
        files.shell("input keyevent DEL")
    files.shell(f"input text {second}")
    tap(files, resource_id="android:id/button1")
    assert nodes(files, resource_id=RID + "textinput_error", text="A file with this name already exists.")
    assert first in ls(files, "/sdcard/Documents")


def test_move_to_a_folder_moves_the_file_and_its_mediastore_row(files):
    open_device_root(files)
    tap(files, resource_id="android:id/title", text="DCIM")
    tap(files, resource_id="android:id/title", text="Camera")
    photo = titles(files)[0]
    long_press(files, resource_id="android:id/title", text=photo)
    menu(files, "Move to…")
    assert files.phone.foreground()[1] == "com.android.documentsui.picker.PickActivity"
    tap(files, resource_id=RID + "breadcrumb_text", text="androidrl Virtual Phone")
    tap(files, resource_id="android:id/title", text="Pictures")
    tap(files, resource_id="android:id/button1", text="Move")
    assert photo in ls(files, "/sdcard/Pictures") and photo not in ls(files, "/sdcard/DCIM/Camera")
    where = f"\"_display_name='{photo}'\""
    row = files.shell(f"content query --uri {IMAGES} --projection _data:bucket_display_name --where {where}")
    assert f"_data=/storage/emulated/0/Pictures/{photo}, bucket_display_name=Pictures" in row
    assert f"moved /sdcard/DCIM/Camera/{photo} to /sdcard/Pictures/{photo}" in log(files)
    assert photo not in titles(files)  # back in Files, the folder shows it gone


def test_copy_to_a_folder_keeps_the_original(files):
    open_documents(files)
    first = titles(files)[0]
    long_press(files, resource_id="android:id/title", text=first)
    menu(files, "Copy to…")
    tap(files, resource_id=RID + "breadcrumb_text", text="androidrl Virtual Phone")
    tap(files, resource_id="android:id/title", text="Download")
    tap(files, resource_id="android:id/button1", text="Copy")
    assert files.shell(f"cat /sdcard/Download/{first}") == files.shell(f"cat /sdcard/Documents/{first}")


def test_a_folder_cannot_be_moved_into_itself(files):
    open_documents(files)
    menu(files, "New folder")
    files.shell("input text Box")
    tap(files, resource_id="android:id/button1")
    files.shell("input keyevent BACK")
    long_press(files, resource_id="android:id/title", text="Box")
    menu(files, "Move to…")
    assert row_of(files, "Box").enabled is False
    tap(files, resource_id="android:id/title", text="Box")  # greyed out: it does not open
    assert [e.text for e in nodes(files, resource_id=RID + "breadcrumb_text")][-1] == "Documents"


def test_delete_asks_first_and_takes_the_file_and_its_row(files):
    open_device_root(files)
    tap(files, resource_id="android:id/title", text="DCIM")
    tap(files, resource_id="android:id/title", text="Camera")
    photo = titles(files)[0]
    long_press(files, resource_id="android:id/title", text=photo)
    tap(files, content_desc="Delete")
    assert nodes(files, resource_id="android:id/message", text=f'Delete "{photo}"?')
    tap(files, resource_id="android:id/button2")  # Cancel
    assert photo in ls(files, "/sdcard/DCIM/Camera")
    tap(files, content_desc="Delete")
    tap(files, resource_id="android:id/button1")
    assert photo not in ls(files, "/sdcard/DCIM/Camera")
    rows = files.shell(f"content query --uri {IMAGES} --projection _display_name")
    assert photo not in rows and rows.count("Row:") == 2


def test_delete_of_several_counts_them(files):
    open_documents(files)
    first, second = titles(files)[:2]
    long_press(files, resource_id="android:id/title", text=first)
    tap(files, resource_id="android:id/title", text=second)  # (in a selection a tap adds to it)
    assert nodes(files, resource_id="android:id/action_bar_title", text="2 selected")
    tap(files, content_desc="Delete")
    assert nodes(files, resource_id="android:id/message", text="Delete 2 files?")
    tap(files, resource_id="android:id/button1")
    assert first not in ls(files, "/sdcard/Documents") and second not in ls(files, "/sdcard/Documents")


def test_back_ends_the_selection_before_leaving(files, phone):
    open_documents(files)
    long_press(files, resource_id="android:id/title", text=titles(files)[0])
    files.shell("input keyevent BACK")
    assert not nodes(files, resource_id="android:id/action_bar_title")
    files.shell("input keyevent BACK")  # up to the device's root
    files.shell("input keyevent BACK")  # and out
    assert phone.foreground()[0] == "com.android.launcher3"


# ---------------------------------------------------------------------------- opening files and intents


def test_a_text_file_opens_in_html_viewer(files, phone):
    open_documents(files)
    name = next(n for n in titles(files) if n.endswith(".txt"))
    tap(files, resource_id="android:id/title", text=name)
    assert phone.foreground() == ("com.android.htmlviewer", "com.android.htmlviewer.HTMLViewerActivity")
    first_line = files.shell(f"head -n 1 /sdcard/Documents/{name}").strip()
    assert nodes(files, text=first_line) and nodes(files, text=name)
    assert "com.android.externalstorage.documents" in files.shell("logcat -d -s HTMLViewer")
    files.shell("input keyevent BACK")
    assert phone.foreground()[0] == "com.android.documentsui"


def test_an_image_from_the_images_root_opens_in_gallery(files, phone):
    tap(files, content_desc="Show roots")
    tap(files, resource_id="android:id/title", text="Images")
    tap(files, resource_id="android:id/title", text="Camera")  # (a bucket, shown as a grid)
    assert nodes(files, resource_id=RID + "icon_thumb")
    name = nodes(files, resource_id="android:id/title")[0].text
    tap(files, resource_id="android:id/title", text=name)
    assert phone.foreground()[0] == "com.android.gallery3d"
    assert nodes(files, resource_id="com.android.gallery3d:id/photo_view", content_desc=name)


def test_view_intents(phone):
    device = VirtualDevice(phone)
    device.shell("am start -a android.intent.action.VIEW_DOWNLOADS")
    assert phone.foreground() == ("com.android.documentsui", "com.android.documentsui.ViewDownloadsActivity")
    assert nodes(device, text="Downloads")
    device.shell("echo 'first line' > /sdcard/Download/note.txt")
    out = device.shell("am start -a android.intent.action.VIEW -d file:///sdcard/Download/note.txt -t text/plain")
    assert "Error" not in out
    assert phone.foreground()[0] == "com.android.htmlviewer" and nodes(device, text="first line")
    uri = "content://com.android.externalstorage.documents/document/primary%3ADocuments"
    device.shell(f"am start -a android.intent.action.VIEW -d {uri} -t vnd.android.document/directory")
    assert phone.foreground()[0] == "com.android.documentsui"
    assert titles(device) == ls(device, "/sdcard/Documents")
    # Without a type a file: URI resolves to nothing, as on Android (only content: URIs get their provider's type).
    out = device.execute("am start -a android.intent.action.VIEW -d file:///sdcard/Download/note.txt")
    assert "unable to resolve Intent" in out.text + out.stderr.decode()


# ---------------------------------------------------------------------------- configurations and adb


def test_german_and_dark_theme(phone):
    dark = VirtualPhone(WIDTH, HEIGHT, DENSITY, night=True, locale="de-DE", content={"files": 2})
    device = VirtualDevice(dark)
    device.shell(FILES)
    tap(device, content_desc="Root-Verzeichnis anzeigen")
    roots = [e.text for e in nodes(device, resource_id="android:id/title")]
    assert "Zuletzt verwendet" in roots and "Bilder" in roots
    assert nodes(device, resource_id="android:id/summary")[0].text.endswith(" MB verfügbar")
    device.shell("input keyevent BACK")
    tap(device, content_desc="Weitere Optionen")
    assert [e.text for e in nodes(device, resource_id="android:id/title")][:2] == ["Neuer Ordner", "Sortieren nach…"]
    light = VirtualDevice(phone)
    light.shell(FILES)
    assert np.asarray(device.screenshot()).mean() < np.asarray(light.screenshot()).mean() - 60


def test_create_and_delete_over_adb(device):
    device.shell(FILES)
    open_documents(device)
    menu(device, "New folder")
    device.shell("input text Holiday")
    tap(device, resource_id="android:id/button1")
    assert device.shell("ls /sdcard/Documents").split().count("Holiday") == 1
    device.shell("input keyevent BACK")
    long_press(device, resource_id="android:id/title", text="Holiday")
    tap(device, content_desc="Delete")
    assert nodes(device, resource_id="android:id/message", text='Delete folder "Holiday" and its contents?')
    tap(device, resource_id="android:id/button1")
    assert "Holiday" not in device.shell("ls /sdcard/Documents").split()


def test_a_file_pushed_with_adb_shows_at_once(served, adb_server, tmp_path):
    from androidrl.device.adb import AdbDevice

    device = AdbDevice(served.serial, port=adb_server.port, timeout=5.0)
    device.shell(FILES)
    local = tmp_path / "pushed.txt"
    local.write_text("over the wire\n")
    adb_server.adb("-s", served.serial, "push", str(local), "/sdcard/Download/pushed.txt")
    assert "pushed.txt" in titles(device)
    tap(device, resource_id="android:id/title", text="pushed.txt")
    assert nodes(device, text="over the wire")

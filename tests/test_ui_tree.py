"""The in-process phone's UI nodes without XML text: exactly the parsed ``uiautomator dump`` (also over adb)."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from androidrl.device.adb import AdbDevice
from androidrl.device.virtual import VirtualDevice
from androidrl.errors import DeviceBusyError
from androidrl.ui import Snapshot, parse_ui
from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.ui.views import EditText, FrameLayout, LinearLayout, TextView, View

ODD = "com.example.odd"


class OddActivity(Activity):
    """Views the dump treats specially: passwords, escapes, control characters, NAF, hidden children."""

    title = "Odd"

    def build(self) -> View:
        return LinearLayout(
            [
                EditText("secret", resource_id=f"{ODD}:id/pin", password=True),
                TextView('a & b < c > "d"\ttab\nline\rret\x07bell\x85nel', content_desc="x\x01y"),
                View(cls="android.view.View", clickable=True, height=40),  # NAF: clickable, no text anywhere
                View(cls="android.widget.GridView", clickable=True, height=40),  # exempt from NAF
                FrameLayout([TextView("inside")], clickable=True, height=40),  # text below: not NAF
                View(cls="android.view.View", height=0),  # not shown: left out, but counted in index
                TextView("last", checkable=True, checked=True, selected=True, enabled=False),
            ],
            height=-1,
        )


def same(a: ET.Element, b: ET.Element) -> bool:
    return a.tag == b.tag and a.attrib == b.attrib and len(a) == len(b) and all(map(same, a, b))


def screens(device, phone, taps: int = 8):
    """Every installed app's screens: launched, then tapped at seeded random places."""
    rng = np.random.default_rng(0)
    phone.apps[ODD] = App(ODD, "Odd", "O", (0, 0, 0), {f"{ODD}.OddActivity": OddActivity}, f"{ODD}.OddActivity")
    packages = [line.split(":")[1] for line in device.shell("pm list packages").split()]
    assert ODD in packages
    for package in packages:
        launch = f"am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER -p {package}"
        device.shell(launch, check=False)  # (the launcher has no LAUNCHER activity: am exits 1, nothing starts)
        for _ in range(taps):
            yield package
            device.tap(int(rng.integers(360)), int(rng.integers(800)))


def test_the_nodes_are_the_parsed_dump_on_every_screen(phone, served, adb_server):
    here = VirtualDevice(phone)
    there = AdbDevice(served.serial, port=adb_server.port, timeout=5.0)
    seen = set()
    for package in screens(here, phone):
        tree = here.ui_tree()
        assert same(tree, parse_ui(here.dump_ui())), package
        assert same(tree, parse_ui(there.dump_ui())), package  # what a task gets over adb
        seen |= {k for node in tree.iter("node") for k, v in node.attrib.items() if v == "true"}
    assert {"NAF", "password", "checked", "scrollable"} <= seen  # (the special cases did come up)


def test_the_same_nodes_come_back_until_the_screen_changes(phone):
    device = VirtualDevice(phone)
    tree = device.ui_tree()
    assert device.ui_tree() is tree
    device.shell("am start -n com.android.settings/.Settings")
    changed = device.ui_tree()
    assert changed is not tree and same(changed, parse_ui(device.dump_ui()))


def test_a_busy_screen_is_busy_for_the_nodes_too(phone):
    device = VirtualDevice(phone)
    device.ui_dump_retries = 1
    device.shell("am start -n com.androidrl.practice/.TargetActivity --ez animate true")
    with pytest.raises(DeviceBusyError, match="could not get idle state"):
        device.ui_tree()


def test_a_snapshot_reads_nodes_without_xml_in_process_and_the_dump_over_adb(phone, served, adb_server):
    here = Snapshot(VirtualDevice(phone))
    assert not here.has_xml and here.elements and "ui" in here.timings_ms  # in process: no XML text at all
    # An unchanged screen reuses the last step's elements.
    again = Snapshot(here.device, here)
    assert again.elements is here.elements
    there = Snapshot(AdbDevice(served.serial, port=adb_server.port, timeout=5.0))
    assert there.elements == here.elements
    assert there.has_xml and "ui" not in there.timings_ms  # over adb: one dump, parsed
    assert Snapshot(there.device, there).elements is there.elements  # the same dump: the same parse
    here.device.shell("am start -n com.android.settings/.Settings")
    assert Snapshot(here.device, again).elements != here.elements

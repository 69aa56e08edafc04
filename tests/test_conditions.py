"""Condition evaluation on recorded UI dumps and shell output (through the device, not mocks)."""

from pathlib import Path

import pytest

from androidrl.device import VirtualDevice
from androidrl.tasks.base import Needs
from androidrl.tasks.conditions import find_nodes, foreground, holds, needs
from androidrl.tasks.spec import TaskSpec
from androidrl.ui import Snapshot, node_center

DATA = Path(__file__).with_name("data")
RECYCLER = "androidx.recyclerview.widget.RecyclerView"


class RecordedSnapshot(Snapshot):
    """A snapshot whose UI dump is a recorded file; shell queries still go to a real phone."""

    def __init__(self, xml: str, device=None) -> None:
        super().__init__(device or VirtualDevice(width=360, height=800, density=160))
        self._xml = xml


def cond(data):
    return TaskSpec.model_validate({"name": "t", "success": data}).success


@pytest.fixture
def network():
    return RecordedSnapshot((DATA / "network_settings.xml").read_text())


@pytest.fixture
def launcher():
    return RecordedSnapshot((DATA / "real_device_launcher.xml").read_text())


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ({"node": {"text": "Wi-Fi"}}, True),
        ({"node": {"text": "wi-fi"}}, False),
        ({"node": {"text_regex": "^Wi-"}}, True),
        ({"node": {"text": "Wi-Fi"}, "present": False}, False),
        ({"node": {"resource_id": "android:id/switch_widget"}, "min_count": 2, "max_count": 2}, True),
        ({"node": {"resource_id": "android:id/switch_widget", "checked": True}}, False),
        ({"node": {"class": "android.widget.Switch", "checkable": True}}, True),
        (
            {
                "node": {
                    "clickable": True,
                    "has": [{"text": "Wi-Fi"}, {"class": "android.widget.Switch", "checked": False}],
                }
            },
            True,
        ),
        ({"node": {"has": [{"text": "Wi-Fi"}, {"text": "Airplane mode"}], "clickable": True}}, False),
        ({"node": {"class": "android.widget.Switch", "within": {"clickable": True, "has": [{"text": "Wi-Fi"}]}}}, True),
        (
            {
                "node": {"class": "android.widget.Switch", "within": {"clickable": True, "has": [{"text": "VPN"}]}},
                "present": False,
            },
            True,
        ),
        ({"node": {"text": "Wi-Fi", "within": {"class": RECYCLER}}, "min_count": 1, "max_count": 1}, True),
        (  # (nested layouts around it find it once)
            {
                "node": {"text": "Wi-Fi", "within": {"class": "android.widget.LinearLayout"}},
                "min_count": 1,
                "max_count": 1,
            },
            True,
        ),
        ({"node": {"text": "Wi-Fi", "within": {"text": "Wi-Fi"}}}, False),  # (an ancestor, not the node itself)
        ({"node": {"package": "com.android.settings", "text": "Network &amp; internet"}}, False),
        ({"node": {"package": "com.android.settings", "text": "Network & internet"}}, True),
        ({"all": [{"node": {"text": "VPN"}}, {"not": {"node": {"text": "Bluetooth"}}}]}, True),
        ({"any": [{"node": {"text": "Bluetooth"}}, {"node": {"content_desc": "Navigate up"}}]}, True),
    ],
)
def test_node_conditions_on_a_recorded_settings_dump(network, condition, expected):
    assert holds(cond(condition), network) is expected


def test_real_device_dump(launcher):
    assert holds(cond({"node": {"text": "Messages", "clickable": True}}), launcher)
    assert holds(cond({"node": {"scrollable": True, "has": [{"content_desc": "Phone"}]}}), launcher)
    nodes = find_nodes(launcher.hierarchy, cond({"node": {"content_desc": "Phone"}}).node)
    assert node_center(nodes[0]) == (172, 1847)


def test_shell_conditions_run_each_command_once_per_snapshot():
    device = VirtualDevice(width=360, height=800, density=160)
    device.shell("settings put global wifi_on 0")
    snapshot = Snapshot(device)
    phone = device.phone
    before = len(phone.command_log)
    for data, expected in [
        ({"shell": "settings get global wifi_on", "equals": "0"}, True),
        ({"shell": "settings get global wifi_on", "matches": "^[12]$"}, False),
        ({"shell": "getprop ro.product.model", "contains": "Virtual"}, True),
        ({"shell": "cat /nope", "exit_code": 1}, True),
    ]:
        assert holds(cond(data), snapshot) is expected
    assert len(phone.command_log) - before == 3  # wifi_on was asked once


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "  mCurrentFocus=Window{5f1c3a2 u0 com.android.settings/com.android.settings.Settings}",
            ("com.android.settings", "com.android.settings.Settings"),
        ),
        (
            "  mCurrentFocus=null\n  mFocusedApp=ActivityRecord{8d3e0b1 u0 com.android.settings/.Settings t12}",
            ("com.android.settings", "com.android.settings.Settings"),
        ),
        ("nothing here", None),
    ],
)
def test_foreground_from_dumpsys(line, expected):
    assert foreground(line) == expected


def test_foreground_conditions():
    device = VirtualDevice(width=360, height=800, density=160)
    device.shell("am start -n com.android.settings/.Settings")
    snapshot = Snapshot(device)
    assert holds(cond({"foreground": {"package": "com.android.settings"}}), snapshot)
    assert holds(cond({"foreground": {"package": "com.android.settings", "activity": ".Settings"}}), snapshot)
    assert holds(cond({"foreground": {"activity_regex": "Settings$"}}), snapshot)
    assert not holds(cond({"foreground": {"package_regex": "launcher"}}), snapshot)


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ({"node": {"text": "Wi-Fi"}}, Needs.UI),
        ({"shell": "settings get global wifi_on", "equals": "1"}, Needs.SHELL),
        ({"foreground": {"package": "com.android.settings"}}, Needs.FOREGROUND),
        ({"logcat": {"matches": "enabled"}}, Needs.LOGCAT),
        ({"not": {"node": {"text": "Wi-Fi"}}}, Needs.UI),
        (
            {
                "all": [
                    {"shell": "echo 1", "equals": "1"},
                    {"any": [{"node": {"text": "A"}}, {"logcat": {"matches": "x"}}]},
                ]
            },
            Needs.SHELL | Needs.UI | Needs.LOGCAT,
        ),
    ],
)
def test_what_a_condition_needs_counts_every_branch(condition, expected):
    assert needs(cond(condition)) == expected
    assert needs(None) == Needs.NONE


def test_needs_of_something_else_is_a_type_error():
    with pytest.raises(TypeError, match="not a condition"):
        needs({"node": {"text": "Wi-Fi"}})

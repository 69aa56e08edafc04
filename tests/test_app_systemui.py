"""SystemUI's shade and Quick Settings driven by swipes and taps: the tiles switch what Settings shows
(``settings get``, ``svc``), notifications open their app and go with a swipe (``dumpsys notification``).
"""

from __future__ import annotations

import re

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds, tap_node

SYSUI = "com.android.systemui:id/"
PULL = f"input swipe {WIDTH // 2} 5 {WIDTH // 2} {HEIGHT // 2} 200"  # from the status bar down


@pytest.fixture
def device(phone: VirtualPhone) -> VirtualDevice:
    return VirtualDevice(phone, timeout=5.0)


def sh(device, command: str) -> str:
    return device.shell(command, check=False).strip()


def tile(device, label: str) -> dict[str, str]:
    """The tile's node attributes (its Switch) by its label."""
    node = re.search(rf'<node [^>]*content-desc="{re.escape(label)}" checkable="true"[^>]*>', device.dump_ui())
    assert node, f"no tile {label!r}"
    return dict(re.findall(r'(\S+)="([^"]*)"', node[0]))


def test_a_swipe_down_opens_the_shade_and_a_second_the_quick_settings(device, phone):
    device.shell("input keyevent HOME")
    device.shell(PULL)
    assert phone.status_bar.panel == "notifications"
    xml = device.dump_ui()
    assert SYSUI + "quick_qs_panel" in xml and "No notifications" in xml and SYSUI + "quick_settings_panel" not in xml
    assert re.search(r"mCurrentFocus=Window\{\w+ u0 NotificationShade\}", sh(device, "dumpsys window"))
    device.shell(f"input swipe {WIDTH // 2} 300 {WIDTH // 2} 700 200")  # again: the full Quick Settings
    assert phone.status_bar.panel == "settings" and SYSUI + "brightness_slider" in device.dump_ui()
    device.shell(f"input swipe {WIDTH // 2} 700 {WIDTH // 2} 200 200")  # up: closed
    assert not phone.status_bar.expanded and phone.foreground()[0] == "com.android.launcher3"


@pytest.mark.parametrize(
    ("label", "namespace", "key", "after"),
    [
        ("Flashlight", "secure", "flashlight_enabled", "1"),
        ("Do Not Disturb", "global", "zen_mode", "1"),
        ("Auto-rotate", "system", "accelerometer_rotation", "1"),
        ("Battery Saver", "global", "low_power", "1"),
        ("Dark theme", "secure", "ui_night_mode", "2"),
        ("Location", "secure", "location_mode", "0"),
        ("Internet", "global", "wifi_on", "0"),
        ("Bluetooth", "global", "bluetooth_on", "0"),
        ("Airplane mode", "global", "airplane_mode_on", "1"),
    ],
)
def test_each_tile_switches_the_state_settings_shows(device, label, namespace, key, after):
    device.shell("cmd statusbar expand-settings")
    before = tile(device, label)["checked"]
    tap_node(device, content_desc=label)
    assert sh(device, f"settings get {namespace} {key}") == after
    assert tile(device, label)["checked"] != before
    tap_node(device, content_desc=label)
    assert tile(device, label)["checked"] == before


def test_tiles_and_settings_agree(device):
    device.shell("svc wifi disable; settings put global zen_mode 1")
    device.shell("cmd statusbar expand-settings")
    assert tile(device, "Internet")["checked"] == "false" and tile(device, "Do Not Disturb")["checked"] == "true"
    state = next(e.text for e in ui_elements(device.dump_ui()) if e.resource_id == SYSUI + "app_label")
    assert state == "Off"  # the Internet tile's line under its label


def test_the_quick_settings_brightness_slider(device):
    device.shell("cmd statusbar expand-settings")
    left, top, right, bottom = node_bounds(device.dump_ui(), resource_id=SYSUI + "slider")
    device.shell(f"input tap {left + (bottom - top) // 2} {(top + bottom) // 2}")
    assert sh(device, "settings get system screen_brightness") == "10"  # the slider's bottom: the setting's minimum


def test_a_long_press_on_a_tile_opens_its_settings_page(device, phone):
    device.shell("cmd statusbar expand-settings")
    x, y = center(node_bounds(device.dump_ui(), content_desc="Bluetooth"))
    device.shell(f"input swipe {x} {y} {x} {y} 800")
    assert not phone.status_bar.expanded and "Pair new device" in device.dump_ui()


def test_notifications_show_their_app_open_it_and_go_with_a_swipe(device, phone):
    device.shell("cmd notification post -t Alpha first 'Text one'")
    device.shell("cmd notification post -t Beta -c activity com.androidrl.notes/.MainActivity second 'Text two'")
    device.shell(PULL)
    xml = device.dump_ui()
    assert xml.index("Beta") < xml.index("Alpha")  # newest first
    assert 'resource-id="android:id/app_name_text"' in xml and "Shell" in xml
    left, top, right, bottom = node_bounds(xml, text="Alpha")
    y = (top + bottom) // 2
    device.shell(f"input swipe 40 {y} {WIDTH - 10} {y} 200")  # swiped away
    listed = sh(device, "dumpsys notification")
    assert "tag=first" not in listed and "tag=second" in listed
    tap_node(device, text="Text two")  # its content intent
    assert not phone.status_bar.expanded and phone.foreground()[0] == "com.androidrl.notes"
    assert "tag=second" in sh(device, "dumpsys notification")  # not auto-cancel: it stays
    device.shell("cmd statusbar expand-notifications")
    tap_node(device, text="Clear all")
    assert sh(device, "cmd notification list") == ""


def test_a_blocked_app_posts_nothing(phone):
    phone.notifications.set_enabled_for_package("com.android.shell", False)
    phone.shell("cmd notification post tag text")
    assert phone.notifications.active() == []


def test_the_shade_speaks_german():
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, locale="de-DE")
    phone.shell("cmd statusbar expand-settings")
    xml = phone.dump_ui()
    assert 'content-desc="Taschenlampe"' in xml and 'content-desc="Bitte nicht stören"' in xml


def test_the_page_under_the_shade_shows_what_a_tile_changed_once_the_shade_goes(device, phone):
    device.shell("am start -a android.settings.DISPLAY_SETTINGS")
    device.shell("cmd statusbar expand-settings")
    tap_node(device, content_desc="Auto-rotate")
    device.shell("cmd statusbar collapse")
    switch = re.search(r'text="Auto-rotate screen".*?resource-id="android:id/switch_widget"[^>]*checked="(\w+)"',
                       device.dump_ui(), re.S)  # fmt: skip
    assert switch and switch[1] == "true"


def test_clocks_timer_notification_opens_clock_from_the_shade_and_settings_can_block_it():
    device = VirtualDevice(VirtualPhone(WIDTH, HEIGHT, DENSITY, clock=Clock(stepped=True)), timeout=5.0)
    extra = "android.intent.extra.alarm."
    device.shell(f"am start -a android.intent.action.SET_TIMER --ei {extra}LENGTH 5 --ez {extra}SKIP_UI true")
    device.shell("input keyevent HOME")
    device.phone.clock.advance(6)  # the timer ends: Clock posts "Time's up"
    device.shell(PULL)
    xml = device.dump_ui()
    assert "Time's up" in xml and 'text="Clock"' in xml  # its app's name over it
    tap_node(device, text="Time's up")
    assert device.phone.foreground() == ("com.android.deskclock", "com.android.deskclock.timer.ExpiredTimersActivity")
    assert "pkg=com.android.deskclock" in sh(device, "dumpsys notification --noredact")
    device.shell("am start -a android.settings.APP_NOTIFICATION_SETTINGS --es android.provider.extra.APP_PACKAGE "
                 "com.android.deskclock")  # fmt: skip
    tap_node(device, text="All Clock notifications")  # off: what it posted goes, and it posts nothing more
    assert "pkg=com.android.deskclock" not in sh(device, "dumpsys notification --noredact")
    device.shell(f"am start -a android.intent.action.SET_TIMER --ei {extra}LENGTH 5 --ez {extra}SKIP_UI true")
    device.phone.clock.advance(6)
    assert "pkg=com.android.deskclock" not in sh(device, "dumpsys notification --noredact")
    assert "importance=NONE" in sh(device, "dumpsys notification")

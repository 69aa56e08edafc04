"""The Device interface over the in-process virtual phone: checked arguments, errors, recovery."""

import time

import numpy as np
import pytest

from androidrl.device import Device, VirtualDevice, input_text_commands, keycode
from androidrl.errors import DeviceBusyError, DeviceCommandError, DeviceOfflineError, DeviceTimeoutError

from conftest import tap_node


def input_commands(phone):
    return [c for c in phone.command_log if c.startswith("input")]


def test_constructing_a_device_does_not_create_a_phone():
    device = VirtualDevice(width=200, height=400, density=80)
    assert device._phone is None
    device.connect()
    assert device.screen_size == (200, 400)


@pytest.mark.parametrize(
    ("call", "args"),
    [
        ("tap", (360, 10)),
        ("tap", (-1, 10)),
        ("tap", (10, 800)),
        ("long_press", (10, 1000)),
        ("swipe", (10, 10, 10, 900)),
        ("swipe", (400, 10, 10, 10)),
    ],
)
def test_off_screen_coordinates_raise_and_never_reach_the_phone(device, phone, call, args):
    with pytest.raises(ValueError, match=r"outside the 360x800 screen"):
        getattr(device, call)(*args)
    assert input_commands(phone) == []


def test_wrong_kinds_raise_type_error(device, phone):
    with pytest.raises(TypeError):
        device.tap("10", 20)
    with pytest.raises(TypeError):
        device.text(b"bytes")
    with pytest.raises(ValueError, match="duration_ms"):
        device.swipe(1, 1, 5, 5, 0)
    with pytest.raises(ValueError, match="unknown key"):
        device.key("jump")
    assert input_commands(phone) == []


def test_input_commands_reach_the_phone_as_android_commands(device, phone):
    device.tap(10.4, 20.6)
    device.long_press(30, 40, 700)
    device.swipe(1, 2, 3, 4, 250)
    device.key("Back")
    device.key("KEYCODE_HOME")
    device.key(66)
    assert input_commands(phone) == [
        "input tap 10 21",
        "input swipe 30 40 30 40 700",
        "input swipe 1 2 3 4 250",
        "input keyevent 4",
        "input keyevent 3",
        "input keyevent 66",
    ]


@pytest.mark.parametrize(
    ("text", "commands"),
    [
        ("hello", ["input text hello"]),
        ("a b", ["input text a%sb"]),
        ("it's", ["input text 'it'\"'\"'s'"]),
        ("$(reboot)", ["input text '$(reboot)'"]),
        ("50%s off", ["input text 50%", "input text s%soff"]),
        ("", []),
    ],
)
def test_text_is_quoted_for_the_device_shell(text, commands):
    assert input_text_commands(text) == commands


@pytest.mark.parametrize("text", ["héllo", "你好", "emoji 😀", "tab\there", "new\nline"])
def test_text_android_cannot_type_is_refused_before_sending(device, phone, text):
    with pytest.raises(ValueError, match="cannot type"):
        device.text(text)
    assert input_commands(phone) == []


def test_injection_strings_are_typed_literally_and_run_nothing(device, phone):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    tap_node(device, resource_id="com.androidrl.notes:id/note_input")
    attack = "x'; touch /sdcard/p1; echo '$(touch /sdcard/p2)`touch /sdcard/p3` && reboot | ls > /sdcard/p4"
    device.text(attack)
    assert phone.top_activity.draft == attack
    for name in ("p1", "p2", "p3", "p4"):
        assert not phone.fs.exists(f"/sdcard/{name}")
    assert phone.online


def test_keycode_names():
    assert keycode("back") == 4 and keycode("HOME") == 3 and keycode("keycode_enter") == 66
    assert keycode("backspace") == 67 and keycode(187) == 187
    with pytest.raises(ValueError):
        keycode(0)
    with pytest.raises(TypeError):
        keycode(1.5)


def test_shell_errors_carry_exit_code_and_stderr(device):
    with pytest.raises(DeviceCommandError) as info:
        device.shell("cat /nope")
    assert info.value.exit_code == 1 and "No such file or directory" in info.value.stderr
    assert device.shell("cat /nope", check=False) == ""
    assert device.execute("exit 3").exit_code == 3


def test_timeouts_raise_device_timeout(device):
    start = time.monotonic()
    with pytest.raises(DeviceTimeoutError):
        device.shell("sleep 10", timeout=0.2)
    assert time.monotonic() - start < 3


def test_screen_size_prefers_the_override(device):
    assert device.query_screen_size() == (360, 800)
    device.shell("wm size 240x500")
    assert device.query_screen_size() == (240, 500)
    assert device.screenshot().shape == (500, 240, 3)


def test_busy_screen_ui_dump_retries_then_raises(device):
    device.shell("am start -n com.androidrl.practice/.TargetActivity --ez animate true")
    with pytest.raises(DeviceBusyError, match="could not get idle state"):
        device.dump_ui()
    device.home()
    assert device.dump_ui().startswith("<?xml")


def test_shell_based_ui_dump_matches_the_direct_one(device, phone):
    assert Device._dump_ui_once(device) == phone.dump_ui()
    assert phone.fs.listdir("/data/local/tmp") == []  # no stale dump left behind


def test_offline_device_raises_then_recovers(device, phone):
    with pytest.raises(DeviceOfflineError):  # `reboot` never answers (AOSP's waits in pause()): the device goes
        device.shell("reboot")
    with pytest.raises(DeviceOfflineError):
        device.tap(10, 10)
    with pytest.raises(DeviceOfflineError):
        device.screenshot()
    device.wait_ready(timeout=5)
    assert device.shell("echo back") == "back\n"


def test_wait_ready_gives_up_on_a_powered_off_phone(device):
    with pytest.raises(DeviceOfflineError):
        device.shell("reboot -p")
    start = time.monotonic()
    with pytest.raises(DeviceOfflineError):
        device.wait_ready(timeout=0.3)
    assert time.monotonic() - start < 2


def test_screenshot_is_rgb_uint8(device):
    frame = device.screenshot()
    assert frame.shape == (800, 360, 3) and frame.dtype == np.uint8

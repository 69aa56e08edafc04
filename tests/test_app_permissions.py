"""Runtime permissions: PermissionController's GrantPermissionsActivity over Camera, as an agent meets it.

Flows go through ``pm grant/revoke``, ``am start`` and taps on nodes found in the UI dump; checks read
``dumpsys package`` (each runtime permission's granted state), ``dumpsys activity`` and the dump.
"""

from __future__ import annotations

import pytest
from test_app_camera_gallery import CAMERA, nodes, tap

from androidrl.device.virtual import VirtualDevice
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH

PC = "com.android.permissioncontroller:id/"
CAMERA_PERMISSION = "android.permission.CAMERA"


@pytest.fixture
def device() -> VirtualDevice:
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=5, clock=Clock(stepped=True), content={"photos": 2})
    return VirtualDevice(phone)


def granted(device, permission: str = CAMERA_PERMISSION) -> bool:
    return f"{permission}: granted=true" in device.shell("dumpsys package com.android.camera2")


def test_the_system_grants_the_camera_its_permissions_and_pm_clear_brings_them_back(device):
    assert granted(device) and granted(device, "android.permission.RECORD_AUDIO")
    device.shell(f"pm revoke com.android.camera2 {CAMERA_PERMISSION}")
    assert not granted(device)
    device.shell("pm clear com.android.camera2")
    assert granted(device)


def test_a_revoked_camera_asks_and_while_using_the_app_grants_and_opens_it(device):
    device.shell(f"pm revoke com.android.camera2 {CAMERA_PERMISSION}")
    device.shell(CAMERA)
    (message,) = nodes(device, resource_id=PC + "permission_message")
    assert message.text == "Allow Camera to take pictures and record video?"
    buttons = [n.text for n in nodes(device, clickable=True) if n.resource_id.startswith(PC)]
    assert buttons == ["While using the app", "Only this time", "Don't allow"]
    assert not nodes(device, resource_id="com.android.camera2:id/shutter_button")  # (behind, taking no input)
    tap(device, resource_id=PC + "permission_allow_foreground_only_button")
    assert granted(device)
    assert nodes(device, resource_id="com.android.camera2:id/shutter_button")
    activities = device.shell("dumpsys activity activities")
    assert "GrantPermissionsActivity" not in activities and "PermissionsActivity" not in activities


def test_both_missing_asks_camera_then_microphone(device):
    device.shell(f"pm revoke com.android.camera2 {CAMERA_PERMISSION}")
    device.shell("pm revoke com.android.camera2 android.permission.RECORD_AUDIO")
    device.shell(CAMERA)
    tap(device, resource_id=PC + "permission_allow_one_time_button")
    (message,) = nodes(device, resource_id=PC + "permission_message")
    assert message.text == "Allow Camera to record audio?"
    tap(device, resource_id=PC + "permission_allow_foreground_only_button")
    assert granted(device) and granted(device, "android.permission.RECORD_AUDIO")
    assert nodes(device, resource_id="com.android.camera2:id/shutter_button")


@pytest.mark.parametrize("answer", ["deny", "back"])
def test_a_denied_camera_says_camera_error_and_then_never_asks_again(device, answer):
    device.shell(f"pm revoke com.android.camera2 {CAMERA_PERMISSION}")
    device.shell(CAMERA)
    if answer == "deny":
        tap(device, resource_id=PC + "permission_deny_button")
    else:
        device.shell("input keyevent KEYCODE_BACK")
    assert not granted(device)
    assert [n.text for n in nodes(device, resource_id="android:id/alertTitle")] == ["Camera error"]
    tap(device, resource_id="android:id/button1")
    assert not nodes(device, resource_id="android:id/alertTitle")
    device.shell(CAMERA)
    assert not nodes(device, resource_id=PC + "permission_message")  # (the dialogs were seen)
    assert [n.text for n in nodes(device, resource_id="android:id/alertTitle")] == ["Camera error"]
    device.shell(f"pm grant com.android.camera2 {CAMERA_PERMISSION}")
    device.shell("am force-stop com.android.camera2")
    device.shell(CAMERA)
    assert nodes(device, resource_id="com.android.camera2:id/shutter_button")


def test_a_touch_outside_the_dialog_does_nothing(device):
    device.shell(f"pm revoke com.android.camera2 {CAMERA_PERMISSION}")
    device.shell(CAMERA)
    device.tap(WIDTH // 2, 60)
    assert nodes(device, resource_id=PC + "permission_message")
    assert not granted(device)


def test_dumpsys_package_lists_a_revoked_default_permission_as_not_granted(device):
    device.shell(f"pm revoke com.android.camera2 {CAMERA_PERMISSION}")
    assert f"{CAMERA_PERMISSION}: granted=false" in device.shell("dumpsys package com.android.camera2")

"""Android tools nobody here wrote drive the virtual phone over adb, and get Android 14's answers.

DeepMind's ``android_env`` 1.3.0 (every request kind of its ``AdbCallParser`` that needs no
APK build), AndroidViewClient 25 (its ``AdbClient`` and ``ViewClient``: dump, find, touch,
snapshot, screen and lock state) and adbutils 2.12 (its documented device calls), each as a
user runs it, against a phone behind its adbd and the real adb server. No mocks: the checks
read what the client returned and what the phone now holds. Where a client misreads
Android 14 itself (AndroidViewClient's ``isLocked`` and ``getFocusedWindowName`` look where
Android 9 printed), the phone answers as Android 14 does and the test says so.
"""

from __future__ import annotations

import re
import time

import adbutils
import numpy as np
import pytest
from android_env.components import adb_call_parser, adb_controller, config_classes
from android_env.components.errors import AdbControllerError
from android_env.proto import adb_pb2
from com.dtmilano.android.adb.adbclient import AdbClient
from com.dtmilano.android.viewclient import ViewClient

from androidrl.device.adb_server import IsolatedAdbServer, adb_path
from androidrl.virtual.phone import VirtualPhone

from conftest import DENSITY, HEIGHT, WIDTH, center, make_apk, node_bounds

Request = adb_pb2.AdbRequest
OK = adb_pb2.AdbResponse.Status.OK
SETTINGS = ("com.android.settings", "com.android.settings.Settings")
LAUNCHER = ("com.android.launcher3", "com.android.launcher3.Launcher")


def serve(adbd, adb_server, phone: VirtualPhone):
    server = adbd.serve(phone)
    adb_server.adb("connect", server.serial)
    adb_server.adb("-s", server.serial, "wait-for-device", timeout=10)
    return server


@pytest.fixture
def served34(phone, adbd, adb_server):
    server = serve(adbd, adb_server, phone)
    yield phone, server
    adbd.stop_server(server)
    adb_server.adb("disconnect", server.serial, check=False)


@pytest.fixture
def served28(adbd, adb_server):
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=0, sdk=28, boot_seconds=0.2)
    server = serve(adbd, adb_server, phone)
    yield phone, server
    adbd.stop_server(server)
    adb_server.adb("disconnect", server.serial, check=False)


def rgb(image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


# ---------------------------------------------------------------------------- android_env


@pytest.fixture(scope="module")
def restartable_adb_server():
    """android_env restarts the adb server when a command fails: give it one of its own."""
    with IsolatedAdbServer() as server:
        yield server


@pytest.fixture
def android_env_parser(phone, adbd, restartable_adb_server, monkeypatch):
    """android_env's AdbCallParser, its AdbController pointed at the phone through the isolated adb server.

    The controller copies the process environment when it is made; the server's (its port, its
    own HOME, no emulator scan) is what it should run adb with, restarts included.
    """
    server = serve(adbd, restartable_adb_server, phone)
    for key, value in restartable_adb_server.env.items():
        monkeypatch.setenv(key, value)
    config = config_classes.AdbControllerConfig(
        adb_path=adb_path(), device_name=server.serial, default_timeout=30, use_adb_server_port_from_os_env=True
    )
    parser = adb_call_parser.AdbCallParser(adb_controller.AdbController(config))
    yield parser, phone, server
    adbd.stop_server(server)
    restartable_adb_server.adb("disconnect", server.serial, check=False)


def ok(parser, **request):
    response = parser.parse(Request(**request))
    assert response.status == OK, response
    return response


def test_android_env_starts_pins_stops_and_presses(android_env_parser):
    parser, phone, _ = android_env_parser
    started = ok(parser, start_activity=Request.StartActivity(full_activity="com.android.settings/.Settings",
                                                               force_stop=True))  # fmt: skip
    assert b"Status: ok\n" in started.start_activity.output and phone.foreground() == SETTINGS
    current = ok(parser, get_current_activity=Request.GetCurrentActivity())  # `am stack list | grep visible=true`
    assert current.get_current_activity.full_activity == "com.android.settings/com.android.settings.Settings"
    ok(parser, start_screen_pinning=Request.StartScreenPinning(full_activity="/".join(SETTINGS)))
    assert phone.activities.locked_task is phone.activities.tasks[-1] and phone.foreground() == SETTINGS
    ok(parser, press_button=Request.PressButton(button=Request.PressButton.HOME))
    assert phone.foreground() == SETTINGS  # a pinned task keeps the front
    unpinned = ok(parser, generic=Request.GenericRequest(args=["shell", "am", "task", "lock", "stop"]))
    assert unpinned.generic.output == b"Activity manager is not in lockTaskMode\n"
    ok(parser, force_stop=Request.ForceStop(package_name="com.android.settings"))
    assert phone.foreground() == LAUNCHER and phone.processes.pid("com.android.settings") is None
    x, y = center(node_bounds(phone.dump_ui(), text="Settings"))
    ok(parser, tap=Request.Tap(x=x, y=y))
    assert phone.foreground() == SETTINGS
    ok(parser, press_button=Request.PressButton(button=Request.PressButton.BACK))
    assert phone.foreground() == LAUNCHER
    ok(parser, press_button=Request.PressButton(button=Request.PressButton.ENTER))
    ok(parser, press_button=Request.PressButton(button=Request.PressButton.HOME))
    assert phone.foreground() == LAUNCHER
    orientation = ok(parser, get_orientation=Request.GetOrientationRequest())  # `dumpsys input`
    assert orientation.get_orientation.orientation == 0
    ok(parser, send_broadcast=Request.SendBroadcast(action="android.intent.action.AIRPLANE_MODE"))
    assert phone.command_log[-1] == "am broadcast -a android.intent.action.AIRPLANE_MODE"


def test_android_env_installs_files_packages_and_text(android_env_parser, tmp_path):
    parser, phone, _ = android_env_parser
    apk = tmp_path / "app.apk"
    apk.write_bytes(make_apk("com.example.foreign"))
    ok(parser, install_apk=Request.InstallApk(filesystem=Request.InstallApk.Filesystem(path=str(apk))))
    assert phone.packages.get("com.example.foreign") is not None
    ok(parser, uninstall_package=Request.UninstallPackage(package_name="com.example.foreign"))
    assert phone.packages.get("com.example.foreign") is None
    pm = Request.PackageManagerRequest
    features = ok(parser, package_manager=pm(list=pm.List(features=pm.List.Features()))).package_manager.list.items
    assert "android.hardware.touchscreen" in features and "reqGlEsVersion=0x30002" in features
    libraries = ok(parser, package_manager=pm(list=pm.List(libraries=pm.List.Libraries()))).package_manager.list.items
    assert "org.apache.http.legacy" in libraries
    packages = ok(parser, package_manager=pm(list=pm.List(packages=pm.List.Packages()))).package_manager.list.items
    assert "com.androidrl.notes" in packages
    cleared = ok(parser, package_manager=pm(clear=pm.Clear(package_name="com.androidrl.notes")))
    assert cleared.package_manager.output == b"Success\n"
    ok(parser, package_manager=pm(grant=pm.Grant(package_name="com.androidrl.notes",
                                                 permissions=["android.permission.CAMERA"])))  # fmt: skip
    assert "android.permission.CAMERA" in phone.packages.granted("com.androidrl.notes")
    ok(parser, push=Request.Push(content=b"\x00binary\xff", path="/sdcard/Download/blob.bin"))
    assert phone.fs.read("/sdcard/Download/blob.bin") == b"\x00binary\xff"
    assert ok(parser, pull=Request.Pull(path="/sdcard/Download/blob.bin")).pull.content == b"\x00binary\xff"
    phone.shell("am start -n com.androidrl.notes/.MainActivity")
    x, y = center(node_bounds(phone.dump_ui(), resource_id="com.androidrl.notes:id/note_input"))
    ok(parser, tap=Request.Tap(x=x, y=y))
    ok(parser, input_text=Request.InputText(text="hello"))
    assert phone.top_activity.draft == "hello"


def test_android_env_settings_and_generic(android_env_parser):
    parser, phone, _ = android_env_parser
    settings, ns = Request.SettingsRequest, Request.SettingsRequest.Namespace
    got = ok(parser, settings=settings(name_space=ns.GLOBAL, get=settings.Get(key="wifi_on")))
    assert got.settings.output == b"1\n"
    ok(parser, settings=settings(name_space=ns.GLOBAL, put=settings.Put(key="wifi_on", value="0")))
    ok(parser, settings=settings(name_space=ns.SECURE, put=settings.Put(key="foreign_key", value="7")))
    assert not phone.radios.wifi_enabled and phone.settings.get("secure", "foreign_key") == "7"
    deleted = ok(parser, settings=settings(name_space=ns.SECURE, delete_key=settings.Delete(key="foreign_key")))
    assert deleted.settings.output == b"Deleted 1 rows\n"
    mode = settings.Reset.Mode.UNTRUSTED_DEFAULTS  # the shell's writes go back to the system's defaults
    ok(parser, settings=settings(name_space=ns.GLOBAL, reset=settings.Reset(mode=mode)))
    assert phone.radios.wifi_enabled
    listed = ok(parser, settings=settings(name_space=ns.SYSTEM, list=settings.List()))
    assert b"screen_off_timeout=60000\n" in listed.settings.output
    generic = ok(parser, generic=Request.GenericRequest(args=["shell", "getprop", "ro.build.version.sdk"]))
    assert generic.generic.output == b"34\n"


def test_android_env_dumpsys_options(android_env_parser):
    parser, _, _ = android_env_parser
    dumpsys = Request.DumpsysRequest
    policy = ok(parser, dumpsys=dumpsys(service="window", args=["policy"])).dumpsys.output.decode()
    assert "interactiveState=INTERACTIVE_STATE_AWAKE" in policy
    listed = ok(parser, dumpsys=dumpsys(list_only=True)).dumpsys.output.decode()
    assert listed.startswith("Currently running services:\n") and "\n  window\n" in listed
    assert "mWakefulness=Awake" in ok(parser, dumpsys=dumpsys(service="power", timeout_sec=5)).dumpsys.output.decode()
    assert b"Display Power: state=ON" in ok(parser, dumpsys=dumpsys(service="power", timeout_ms=500)).dumpsys.output
    critical = ok(parser, dumpsys=dumpsys(priority=dumpsys.PriorityLevel.CRITICAL)).dumpsys.output.decode()
    assert critical.startswith("Currently running services:\n  activity\n  input\n  window\n")
    assert "DUMP OF SERVICE CRITICAL window:" in critical and "DUMP OF SERVICE CRITICAL power:" not in critical
    skipped = ok(parser, dumpsys=dumpsys(skip_services=["battery"])).dumpsys.output.decode()
    assert "  battery (skipped)\n" in skipped and "DUMP OF SERVICE battery:" not in skipped
    # android_env joins several with commas, which dumpsys.cpp takes as one name: nothing is skipped
    both = ok(parser, dumpsys=dumpsys(skip_services=["battery", "power"])).dumpsys.output.decode()
    assert "DUMP OF SERVICE battery:" in both


def test_android_env_start_of_a_missing_class_fails_as_on_android_14(android_env_parser, restartable_adb_server):
    # ActivityManagerShellCommand.runStartActivity returns 1 for START_CLASS_NOT_FOUND (-W prints on stdout), so
    # adb exits 1; android_env then restarts the adb server, as it does with a device, and gives up.
    parser, phone, server = android_env_parser
    with pytest.raises(AdbControllerError, match=r"am start\s+-W -n com\.android\.settings/\.Nope"):
        parser.parse(Request(start_activity=Request.StartActivity(full_activity="com.android.settings/.Nope")))
    assert phone.command_log[0].startswith("am start") and phone.foreground() == LAUNCHER
    restartable_adb_server.adb("connect", server.serial)  # (the restarted server forgot the phone)


# ---------------------------------------------------------------------------- AndroidViewClient


def avc(adb_server, server) -> AdbClient:
    return AdbClient(server.serial, hostname="127.0.0.1", port=adb_server.port)


def test_androidviewclient_reads_the_screen_state_as_android_14_prints_it(served34, adb_server):
    phone, server = served34
    device = avc(adb_server, server)
    assert device.getSdkVersion() == 34 and device.isScreenOn()  # `dumpsys window policy`: interactiveState
    assert device.display["width"] == WIDTH and device.display["height"] == HEIGHT
    device.press("KEYCODE_POWER")
    assert not device.isScreenOn() and not phone.wakefulness.awake
    assert rgb(device.takeSnapshot(reconnect=True)).max() == 0  # a sleeping screen is black
    device.wake()
    assert device.isScreenOn() and phone.keyguard.showing
    # Android 10+ print mDreamingLockscreen in `dumpsys window displays` (DisplayPolicy), not in the policy
    # AndroidViewClient reads: it cannot tell, on this phone as on an Android 14 device.
    with pytest.raises(RuntimeError, match="Couldn't determine screen lock state"):
        device.isLocked()
    assert "mDreamingLockscreen=true" in device.shell("dumpsys window displays")
    device.unlock()  # MENU, then BACK
    assert not phone.keyguard.showing
    assert device.getFocusedWindowName() is None  # (no mCurrentFocus in `dumpsys window windows` since 10)
    assert device.getTopActivityName() == "com.android.launcher3/.Launcher" and not device.isKeyboardShown()


def test_androidviewclient_reads_lock_and_focus_where_android_9_prints_them(served28, adb_server):
    phone, server = served28
    device = avc(adb_server, server)
    assert not device.isLocked() and device.getFocusedWindowName() == "/".join(LAUNCHER)
    device.press("KEYCODE_POWER")
    assert not device.isScreenOn()  # mScreenOnFully
    device.wake()
    assert device.isLocked() and device.getFocusedWindowName() == "StatusBar"  # (Android 9's keyguard window)
    device.unlock()
    assert not device.isLocked() and not phone.keyguard.showing
    assert device.getFocusedWindowName() == "/".join(LAUNCHER)
    assert device.takeSnapshot(reconnect=True).size == (WIDTH, HEIGHT)  # framebuffer: version 1, no colour space


def test_androidviewclient_dumps_finds_touches_and_types(served34, adb_server):
    phone, server = served34
    device = avc(adb_server, server)
    views = ViewClient(device, server.serial, autodump=False)
    views.dump(sleep=0)
    views.findViewWithTextOrRaise("Settings").touch()
    assert phone.foreground() == SETTINGS
    views.dump(sleep=0)
    assert views.findViewById("android:id/title") is not None
    device.forceStop("com.android.settings")
    assert phone.foreground() == LAUNCHER
    device.startActivity(package="com.android.settings")  # `cmd package resolve-activity --brief`
    assert phone.foreground() == SETTINGS
    with pytest.raises(RuntimeError, match="Error type 3"):
        device.startActivity(component="com.android.settings/.Nope")
    device.startActivity(component="com.androidrl.notes/.MainActivity")
    views.dump(sleep=0)
    views.findViewByIdOrRaise("com.androidrl.notes:id/note_input").touch()
    device.type("hi there")
    assert phone.top_activity.draft == "hi there"
    device.log("AVC", "logged", priority="W")
    assert "W AVC     : logged" in phone.shell("logcat -d -s AVC").stdout.decode()
    assert device.getProperty("ro.product.model") == "androidrl Virtual Phone"
    device.startActivity(component="com.android.settings/.Settings")
    device.longTouch(*center(node_bounds(phone.dump_ui(), text="Network & internet")), 600)  # a row only clicks
    assert phone.top_activity.cls != "com.android.settings.Settings"
    device.press("KEYCODE_BACK")
    device.drag((WIDTH // 2, HEIGHT - 150), (WIDTH // 2, 200), 300)  # `input swipe`: the list scrolls
    assert phone.top_activity.scroll > 0


def test_androidviewclient_snapshot_is_the_screen_and_the_connection_lives_on(served34, adb_server):
    phone, server = served34
    device = avc(adb_server, server)
    phone.shell("am start -n com.android.settings/.Settings")
    image = device.takeSnapshot(reconnect=True)  # the `framebuffer:` service, version 2
    assert image.size == (WIDTH, HEIGHT) and np.array_equal(rgb(image), phone.screenshot())
    assert device.shell("echo alive") == "alive\n"
    assert f"{server.serial}\tdevice" in adb_server.adb("devices").stdout


# ---------------------------------------------------------------------------- adbutils


def adbutils_device(adb_server, server) -> adbutils.AdbDevice:
    return adbutils.AdbClient(host="127.0.0.1", port=adb_server.port).device(server.serial)


def test_adbutils_shell_apps_and_properties(served34, adb_server):
    phone, server = served34
    d = adbutils_device(adb_server, server)
    assert d.shell("echo hi") == "hi" and d.get_state() == "device"
    result = d.shell2("echo out; false")
    assert result.returncode == 1 and result.output == "out\n"
    assert d.getprop("ro.build.version.sdk") == "34" and d.prop.model == "androidrl Virtual Phone"
    assert "com.androidrl.notes" in d.list_packages() and "cmd" in d.get_features().split(",")
    d.app_start("com.android.settings")  # monkey -p PKG -c LAUNCHER 1
    current = d.app_current()
    assert (current.package, current.activity) == ("com.android.settings", ".Settings")
    assert current.pid == phone.processes.pid("com.android.settings")
    d.app_start("com.androidrl.notes", ".MainActivity")
    assert phone.foreground()[0] == "com.androidrl.notes"
    d.app_stop("com.androidrl.notes")
    assert phone.processes.pid("com.androidrl.notes") is None
    info = d.app_info("com.android.settings")
    assert info.version_name == "1.0" and info.path.endswith(".apk")
    d.app_clear("com.androidrl.notes")
    assert d.dump_hierarchy().startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy")


def test_adbutils_screen_input_and_state(served34, adb_server):
    phone, server = served34
    d = adbutils_device(adb_server, server)
    assert tuple(d.window_size()) == (WIDTH, HEIGHT) and d.rotation() == 0
    assert d.wlan_ip() == "10.0.2.16" and d.battery().level == 100 and d.brightness_value == 102
    assert np.array_equal(rgb(d.screenshot()), phone.screenshot())
    assert np.array_equal(rgb(d.framebuffer()), phone.screenshot())  # the `framebuffer:` service
    assert d.shell("echo still") == "still"
    d.click(*center(node_bounds(phone.dump_ui(), text="Notes")))
    assert phone.foreground()[0] == "com.androidrl.notes"
    d.click(*center(node_bounds(phone.dump_ui(), resource_id="com.androidrl.notes:id/note_input")))
    d.send_keys("typed")
    assert phone.top_activity.draft == "typed"
    d.keyevent("HOME")
    assert phone.foreground() == LAUNCHER
    d.swipe(180, 5, 180, 500, 0.2)  # from the status bar down: the shade
    assert phone.status_bar.panel == "notifications"
    d.keyevent("BACK")
    assert not phone.status_bar.expanded
    d.switch_screen(False)  # SLEEP
    assert not d.is_screen_on() and phone.keyguard.showing
    d.switch_screen(True)  # WAKEUP
    assert d.is_screen_on() and phone.keyguard.showing
    d.swipe(180, 700, 180, 150, 0.2)  # swipe up: the insecure keyguard goes
    assert not phone.keyguard.showing
    d.switch_wifi(False)
    assert not phone.radios.wifi_enabled
    d.open_browser("example.com")
    assert phone.command_log[-1] == "am start -a android.intent.action.VIEW -d https://example.com"


def test_adbutils_sync_and_logcat(served34, adb_server, tmp_path):
    phone, server = served34
    d = adbutils_device(adb_server, server)
    d.sync.push(b"pushed\n", "/sdcard/Download/p.txt")
    assert phone.fs.read("/sdcard/Download/p.txt") == b"pushed\n"
    assert d.sync.read_bytes("/sdcard/Download/p.txt") == b"pushed\n" and d.sync.exists("/sdcard/Download/p.txt")
    assert "p.txt" in [entry.path for entry in d.sync.list("/sdcard/Download")]
    assert d.sync.stat("/sdcard/Download/p.txt").size == 7
    d.sync.pull("/sdcard/Download/p.txt", tmp_path / "p.txt")
    assert (tmp_path / "p.txt").read_bytes() == b"pushed\n"
    d.remove("/sdcard/Download/p.txt")
    assert not phone.fs.exists("/sdcard/Download/p.txt")
    phone.app_log("com.android.settings", "Before", "cleared")
    stop = d.logcat(tmp_path / "log.txt", clear=True, re_filter="Foreign")  # `logcat --clear`, then a follow
    deadline = time.monotonic() + 10
    while "Foreign" not in (tmp_path / "log.txt").read_text() and time.monotonic() < deadline:
        phone.app_log("com.android.settings", "Foreign", "line")
        time.sleep(0.1)
    stop.stop(timeout=10)  # ends at the next line the phone writes, even a quiet phone's
    text = (tmp_path / "log.txt").read_text()
    assert re.search(r"I/Foreign\s*\(\s*\d+\): line", text) and "Before" not in text

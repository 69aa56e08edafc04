# ruff: noqa: E501  (the table of formats reads best one format per line)
"""The virtual phone answers adb clients as an Android 13/14 device (or an 11 one, with sdk=30) does.

Three clients, each as it is used in the field: the real ``adb`` (Debian's, as users type
it), adbutils (uiautomator2's client) and adb-shell (a pure-Python adb that speaks the
oldest protocol version, with checksums). Each output format is checked against the form
the AOSP source named beside it prints.
"""

from __future__ import annotations

import io
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
from PIL import Image

from androidrl.device.adb import AdbDevice, snapshot_list_names
from androidrl.device.adb_server import adb_path, free_port
from androidrl.virtual.phone import VirtualPhone

from conftest import DENSITY, HEIGHT, WIDTH, make_apk, serve_as_emulator_with_console


@pytest.fixture
def phones(adbd, adb_server):
    """An Android 14, 13 and 11 phone, each behind its own adbd, connected to the adb server."""
    served = {}
    for sdk in (34, 33, 30):
        phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=0, sdk=sdk, boot_seconds=0.2)
        server = adbd.serve(phone)
        adb_server.adb("connect", server.serial)
        adb_server.adb("-s", server.serial, "wait-for-device", timeout=20)
        served[sdk] = (phone, server)
    yield served
    for _, server in served.values():
        adb_server.adb("disconnect", server.serial, check=False)
        adbd.stop_server(server)


def adb(
    adb_server, serial: str, *args: str, stdin: bytes | None = None, timeout: float = 30
) -> subprocess.CompletedProcess:
    """The real adb client, as a user runs it (bytes in, bytes out)."""
    return subprocess.run(
        [adb_path(), "-s", serial, *args], input=stdin, env=adb_server.env, capture_output=True, timeout=timeout
    )


#: The three clients, each as it is used in the field.
CLIENTS = ("adb", "adbutils", "adb-shell")


def shell_through(client: str, adb_server, server, command: str) -> tuple[str, str]:
    """(stdout, stderr) of ``adb shell COMMAND`` through ``client``.

    The real adb speaks shell protocol v2 (two streams); adbutils' ``shell2`` and adb-shell
    speak v1, where both streams arrive as one, in write order (returned as stdout).
    """
    if client == "adb":
        result = adb(adb_server, server.serial, "shell", command)
        return result.stdout.decode(), result.stderr.decode()
    if client == "adbutils":
        import adbutils

        device = adbutils.AdbClient(host="127.0.0.1", port=adb_server.port).device(server.serial)
        return device.shell2(command, timeout=30).output, ""
    from adb_shell.adb_device import AdbDeviceTcp

    device = AdbDeviceTcp("127.0.0.1", server.port, default_transport_timeout_s=10)
    device.connect(rsa_keys=None, auth_timeout_s=5)
    try:
        return device.shell(command, read_timeout_s=30), ""
    finally:
        device.close()


# --------------------------------------------------------------------------- output formats (three clients)

_VIEWPORT = rf"Viewport INTERNAL: displayId=0, uniqueId=local:\d+, port=0, orientation=0, logicalFrame=\[0, 0, {WIDTH}, {HEIGHT}\], physicalFrame=\[0, 0, {WIDTH}, {HEIGHT}\], deviceSize=\[{WIDTH}, {HEIGHT}\], isActive=\[1\]"
#: (sdk, command, regex the output must match, the stream it is on, the AOSP source whose format it follows)
FORMATS = [
    (34, "logcat -d -v threadtime", r"(?m)^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} +\d+ +\d+ [VDIWEF] \S+\s*: ", "out", "system/logging/liblog/logprint.cpp"),
    (34, "logcat -d -v brief -s ActivityTaskManager", r"(?m)^I/ActivityTaskManager\(\s*\d+\): Displayed ", "out", "liblog/logprint.cpp"),
    (34, "logcat -d -v time", r"(?m)^\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} [VDIWEF]/\S+\s*\(\s*\d+\): ", "out", "liblog/logprint.cpp"),
    (34, "logcat -d -b events", r"(?m)^--------- beginning of events\n(.*\n)*.* I wm_on_resume_called: \[\d+,", "out", "logcat/logcat.cpp"),
    (34, "logcat -d -t 1", r"^(--------- beginning of \w+\n)?[^\n]+\n$", "out", "logcat/logcat.cpp (-t N: the last N lines)"),
    (34, "ps -A", r"(?m)^USER +PID +PPID +VSZ +RSS +WCHAN +ADDR S NAME\n(.*\n)*system +612 +340 .* system_server$", "out", "toybox/toys/posix/ps.c"),
    (34, "ps -A -o PID,NAME", r"(?m)^ +PID NAME\n(.*\n)* +\d+ com\.android\.launcher3$", "out", "toybox/toys/posix/ps.c"),
    (34, "pidof system_server", r"^612\n$", "out", "toybox/toys/other/pidof.c"),
    (34, "ifconfig wlan0", r"wlan0 +Link encap:UNSPEC +HWaddr [0-9a-f:]{17}\n +inet addr:10\.0\.2\.16 ", "out", "toybox/toys/net/ifconfig.c"),
    (34, "ip addr show dev wlan0", r"^\d+: wlan0: <BROADCAST,MULTICAST,UP,LOWER_UP> .*\n +link/ether .*\n +inet 10\.0\.2\.16/24 brd ", "out", "iproute2/ip/ipaddress.c"),
    (34, "which logcat ls", r"^/system/bin/logcat\n/system/bin/ls\n$", "out", "toybox/toys/posix/which.c"),
    (34, "content query --uri content://settings/global --where \"name='wifi_on'\"", r"^Row: 0 _id=\d+, name=wifi_on, value=1\n$", "out", "frameworks/base/cmds/content/src/com/android/commands/content/Content.java"),
    (34, "dumpsys battery", r"^Current Battery Service state:\n  AC powered: false\n  USB powered: true\n(.*\n)*  level: 100\n  scale: 100\n", "out", "frameworks/base/services/core/java/com/android/server/BatteryService.java"),
    (34, "dumpsys input", r"^INPUT MANAGER \(dumpsys input\)\n(.*\n)*Event Hub State:\n", "out", "services/core/java/com/android/server/input/InputManagerService.java"),
    (34, "dumpsys input | grep physicalFrame", rf"^ {{6}}{_VIEWPORT}\n$", "out", "frameworks/native/include/input/DisplayViewport.h (DisplayViewport::toString, as AndroidWorld greps it)"),
    (34, "dumpsys window | grep mCurrentRotation", r"^ +mCurrentRotation=ROTATION_0\n$", "out", "services/core/java/com/android/server/wm/WindowOrientationListener.java (dump; AndroidWorld's get_orientation)"),
    (34, "dumpsys location", r"(?m)^  gps provider:\n    last location=null$", "out", "services/core/java/com/android/server/location/LocationManagerService.java"),
    (34, "dumpsys activity activities", r"(?m)^    topResumedActivity=ActivityRecord\{\w+ u0 com\.android\.launcher3/\.Launcher t\d+\}$", "out", "services/core/java/com/android/server/wm/ActivityTaskSupervisor.java (13+)"),
    (33, "dumpsys activity activities", r"(?m)^    topResumedActivity=ActivityRecord\{\w+ u0 com\.android\.launcher3/\.Launcher t\d+\}$", "out", "ActivityTaskSupervisor.java (13)"),
    (30, "dumpsys activity activities", r"(?m)^  mResumedActivity: ActivityRecord\{\w+ u0 com\.android\.launcher3/\.Launcher t\d+\}$", "out", "ActivityStackSupervisor.java (11)"),
    (34, "am stack list", r"(?m)^RootTask id=\d+ bounds=\[0,0\]\[\d+,\d+\] displayId=0 userId=0\n configuration=\{.*\}\n  taskId=\d+: com\.android\.launcher3/com\.android\.launcher3\.Launcher bounds=\[0,0\]\[\d+,\d+\] userId=0 visible=true topActivity=ComponentInfo\{com\.android\.launcher3/com\.android\.launcher3\.Launcher\}$", "out", "ActivityManagerShellCommand.runStackList, ActivityTaskManager.RootTaskInfo.toString (12+)"),
    (33, "am stack list", r"(?m)^  taskId=\d+: \S+ .*visible=true topActivity=ComponentInfo\{com\.android\.launcher3/", "out", "RootTaskInfo.toString (13)"),
    (30, "am stack list", r"(?m)^Stack id=\d+ (.*\n)+  taskId=\d+: com\.android\.launcher3/com\.android\.launcher3\.Launcher bounds=\[0,0\]\[\d+,\d+\] userId=0 visible=true topActivity=ComponentInfo\{", "out", "ActivityManager.StackInfo.toString (11)"),
    (34, "getprop ro.build.fingerprint", r"^androidrl/androidrl_virtual/virtual:14/UE1A\.230829\.036/\d+:userdebug/test-keys\n$", "out", "build/make/core/sysprop.mk"),
    (33, "getprop ro.build.fingerprint", r"^androidrl/androidrl_virtual/virtual:13/TE1A\.220922\.034/\d+:userdebug/test-keys\n$", "out", "build/make/core/sysprop.mk"),
    (33, "getprop ro.build.version.sdk", r"^33\n$", "out", "build/make/core/version_defaults.mk"),
    (30, "getprop ro.build.version.release", r"^11\n$", "out", "build/make/core/version_defaults.mk"),
    (34, "pm install /sdcard/not.apk", r"^Failure \[INSTALL_PARSE_FAILED_NOT_APK: Failed parse during installPackageLI: ", "out", "PackageManagerShellCommand.java (doCommitSession prints on getOutPrintWriter)"),
    (34, "pm uninstall com.android.settings", r"^Failure \[DELETE_FAILED_INTERNAL_ERROR\]\n$", "out", "PackageManagerShellCommand.java (runUninstall)"),
    (34, "pm uninstall com.no.such", r"^Failure \[DELETE_FAILED_INTERNAL_ERROR\]\n$", "out", "PackageManagerShellCommand.java (runUninstall)"),
    (34, "pm clear com.no.such", r"^Failed\n$", "err", "PackageManagerShellCommand.java (runClear)"),
    (34, "pm grant com.no.such android.permission.CAMERA", r"java\.lang\.IllegalArgumentException: Unknown package: com\.no\.such", "err", "PackageManagerShellCommand.java"),
    (34, "pm revoke com.androidrl.notes no.such.permission", r"java\.lang\.IllegalArgumentException: Unknown permission: no\.such\.permission", "err", "PackageManagerShellCommand.java"),
    (34, "pm disable-user com.androidrl.notes", r"^Package com\.androidrl\.notes new state: disabled-user\n$", "out", "PackageManagerShellCommand.java"),
    (34, "getevent -p", r'(?m)^add device 1: /dev/input/event0\n  name: +"qwerty2"\n  events:\n    KEY \(0001\): 0001  0002 (.*\n)*add device 2: /dev/input/event1\n  name: +"virtio_input_multi_touch_1"\n', "out", "system/core/toolbox/getevent.c (open_device, print_possible_events)"),
    (34, "getevent -lp /dev/input/event1", r"(?m)^    ABS \(0003\): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0\n(.*\n)* {16}ABS_MT_POSITION_X     : value 0, min 0, max 32767, (.*\n)*  input props:\n    INPUT_PROP_DIRECT\n$", "out", "toolbox/getevent.c (-l labels, getevent.h)"),
    (34, "getevent -x", r"^getevent: invalid option -x\nUsage: getevent \[-t\] \[-n\]", "err", "toolbox/getevent.c (usage)"),
    (34, "sendevent /dev/input/event7 0 0 0", r"^sendevent: /dev/input/event7: No such file or directory\n$", "err", "toybox/toys/android/sendevent.c"),
    (34, "screenrecord", r"^Must specify output file \(see --help\)\.\n$", "err", "frameworks/av/cmds/screenrecord/screenrecord.cpp"),
    (34, "screenrecord --time-limit x /sdcard/a.mp4", r"^Error parsing time limit argument\n$", "err", "screenrecord.cpp"),
    (34, "screenrecord --bit-rate 5 /sdcard/a.mp4", r"^Bit rate 5bps outside acceptable range \[100000,200000000\]\n$", "err", "screenrecord.cpp"),
    (34, "screenrecord --help", r"^Usage: screenrecord \[options\] <filename>\n\nAndroid screenrecord v1\.3\.", "err", "screenrecord.cpp (usage)"),
]  # fmt: skip


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize(
    ("sdk", "command", "form", "stream", "source"), FORMATS, ids=[f"{s}-{c[:40]}" for s, c, *_ in FORMATS]
)
def test_output_formats_follow_aosp(phones, adb_server, client, sdk, command, form, stream, source):
    phone, server = phones[sdk]
    phone.fs.write("/sdcard/not.apk", b"not a zip at all")
    phone.shell("svc wifi enable")
    out, err = shell_through(client, adb_server, server, command)
    text = (err if stream == "err" else out) if client == "adb" else out  # v1 clients get both as one
    assert re.search(form, text), f"{command} through {client} (after {source}):\n{out}{err}"


def test_androidrl_virtual_serves_the_sdk_asked_for(adb_server):
    port = free_port(exclude=range(5554, 5590))
    command = [sys.executable, "-m", "androidrl.cli", "virtual", "--port", str(port), "--sdk", "33"]
    command += ["--width", str(WIDTH), "--height", str(HEIGHT), "--density", str(DENSITY)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    serial = f"127.0.0.1:{port}"
    try:
        assert process.stdout.readline().strip() == serial
        adb_server.adb("connect", serial)
        adb_server.adb("-s", serial, "wait-for-device", timeout=20)
        props = adb(adb_server, serial, "shell", "getprop ro.build.version.sdk; getprop ro.build.version.release")
        assert props.stdout == b"33\n13\n"
        activities = adb(adb_server, serial, "shell", "dumpsys activity activities").stdout.decode()
        assert "    topResumedActivity=ActivityRecord{" in activities and "mResumedActivity" not in activities
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        process.kill()
        process.wait()
        adb_server.adb("disconnect", serial, check=False)
    bad = subprocess.run([*command[:6], "--sdk", "35"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--sdk: invalid choice: 35" in bad.stderr


def test_screencap_png_is_rgba_as_android_writes_it(phones, adb_server):
    _, server = phones[34]
    png = adb(adb_server, server.serial, "exec-out", "screencap -p").stdout
    image = Image.open(io.BytesIO(png))
    assert image.mode == "RGBA" and image.size == (WIDTH, HEIGHT)


# --------------------------------------------------------------------------- shell streams (real adb)


def test_stdin_reaches_the_command(phones, adb_server):
    _, server = phones[34]
    assert adb(adb_server, server.serial, "shell", "cat", stdin=b"x\ny\n").stdout == b"x\ny\n"
    assert adb(adb_server, server.serial, "shell", "cat > /sdcard/f.txt", stdin=b"typed\n").returncode == 0
    assert adb(adb_server, server.serial, "shell", "cat /sdcard/f.txt").stdout == b"typed\n"
    assert adb(adb_server, server.serial, "exec-in", "cat > /sdcard/g.bin", stdin=bytes(range(256))).returncode == 0
    assert adb(adb_server, server.serial, "exec-out", "cat /sdcard/g.bin").stdout == bytes(range(256))
    # exec-in closes its stream right after the input, as the real adb does: the command still runs to its end
    # (a command still busy when the close came was cancelled with it, its file never written)
    assert (
        adb(
            adb_server,
            server.serial,
            "exec-in",
            "cat > /sdcard/h0; sleep 0.3; cat /sdcard/h0 > /sdcard/h.bin",
            stdin=b"late",
        ).returncode
        == 0
    )
    for _ in range(50):
        if adb(adb_server, server.serial, "exec-out", "cat /sdcard/h.bin").stdout == b"late":
            break
        time.sleep(0.1)
    assert adb(adb_server, server.serial, "exec-out", "cat /sdcard/h.bin").stdout == b"late"
    # a command that does not read stdin does not wait for it (clients that never close it)
    assert adb(adb_server, server.serial, "shell", "echo ran", timeout=10).stdout == b"ran\n"


def test_stdin_reaches_the_command_without_shell_v2(phones, adb_server):
    """``adb shell -x cat``: shell v1 has no way to close stdin (the client keeps the stream open at
    EOF, as AOSP's does), so cat echoes each line as it arrives."""
    _, server = phones[34]
    process = subprocess.Popen(
        [adb_path(), "-s", server.serial, "shell", "-x", "cat"],
        env=adb_server.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        for line in (b"one\n", b"two\n"):
            process.stdin.write(line)
            process.stdin.flush()
            assert select.select([process.stdout], [], [], 20)[0], f"{line!r} was not echoed"
            assert process.stdout.readline() == line
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("protocol", [(), ("-x",)], ids=["shell-v2", "shell-v1"])
def test_a_line_reader_takes_its_lines_as_they_arrive(phones, adb_server, protocol):
    """``(printf 'a\\nb\\n'; sleep 3) | adb shell head -n 1`` prints a and ends, with stdin still open."""
    _, server = phones[34]
    process = subprocess.Popen(
        [adb_path(), "-s", server.serial, "shell", *protocol, "head -n 1"],
        env=adb_server.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        process.stdin.write(b"a\nb\n")
        process.stdin.flush()
        assert process.wait(timeout=20) == 0  # head ended without stdin closing
        assert process.stdout.read() == b"a\n"
    finally:
        process.kill()
        process.wait()


def test_without_shell_v2_stdout_and_stderr_come_in_write_order(phones, adb_server):
    _, server = phones[34]
    result = adb(adb_server, server.serial, "shell", "-x", "echo a; echo b >&2; echo c")
    assert result.stdout == b"a\nb\nc\n"


def test_output_streams_as_it_is_produced(phones, adb_server):
    _, server = phones[34]
    process = subprocess.Popen(
        [adb_path(), "-s", server.serial, "shell", "echo first; sleep 1.5; echo second"],
        env=adb_server.env,
        stdout=subprocess.PIPE,
    )
    start = time.monotonic()
    first = process.stdout.readline()
    at_first = time.monotonic() - start
    second = process.stdout.readline()
    at_second = time.monotonic() - start
    process.wait(timeout=10)
    assert (first, second) == (b"first\n", b"second\n")
    assert at_first < at_second - 1.0  # the first line came before the command ended


def test_an_interactive_shell_keeps_its_directory_and_variables(phones, adb_server):
    _, server = phones[34]
    session = b"cd /sdcard\npwd\nGREETING=hello\necho $GREETING\nexit 3\n"
    result = adb(adb_server, server.serial, "shell", stdin=session)
    assert b"/sdcard\n" in result.stdout and b"hello\n" in result.stdout and result.returncode == 3


def test_adb_logcat_dumps_and_follows(phones, adb_server):
    phone, server = phones[34]
    dump = adb(adb_server, server.serial, "logcat", "-d").stdout.decode()
    assert "ActivityTaskManager: Displayed com.android.launcher3/.Launcher" in dump
    follow = subprocess.Popen(
        [adb_path(), "-s", server.serial, "logcat", "-s", "WifiService"], env=adb_server.env, stdout=subprocess.PIPE
    )
    try:
        time.sleep(1.0)
        phone.shell("svc wifi disable")
        lines = [follow.stdout.readline() for _ in range(2)]  # the buffer's heading, then the new line
        assert any(b"WifiService: setWifiEnabled" in line and b"enable=false" in line for line in lines), lines
    finally:
        follow.terminate()
        follow.wait(timeout=10)
    assert adb(adb_server, server.serial, "logcat", "-c").returncode == 0
    assert "Displayed" not in adb(adb_server, server.serial, "logcat", "-d").stdout.decode()


def test_adb_logcat_reads_the_buffer_asked_for(phones, adb_server):
    phone, server = phones[34]
    phone.shell("svc wifi disable")

    def dump(*buffers: str) -> str:
        return adb(adb_server, server.serial, "logcat", "-d", *buffers).stdout.decode()

    main, system, everything = dump("-b", "main"), dump("-b", "system"), dump("-b", "all")
    assert main.startswith("--------- beginning of main\n") and "WifiService: setWifiEnabled" in main
    assert "ActivityTaskManager" not in main  # the activity manager writes to the system buffer
    assert system.startswith("--------- beginning of system\n") and "ActivityTaskManager: Displayed" in system
    assert "WifiService" not in system
    assert all(f"--------- beginning of {b}\n" in everything for b in ("main", "system", "events"))
    assert "WifiService" in dump("-b", "main,system") and "Displayed" in dump("-b", "main,system")


def test_adb_logcat_from_the_last_lines_follows(phones, adb_server):
    phone, server = phones[34]
    phone.shell("svc wifi disable")
    phone.shell("svc wifi enable")  # the newest line of the main buffer
    follow = subprocess.Popen(
        [adb_path(), "-s", server.serial, "logcat", "-v", "brief", "-b", "main", "-T", "1"],
        env=adb_server.env,
        stdout=subprocess.PIPE,
    )
    try:
        assert follow.stdout.readline() == b"--------- beginning of main\n"
        assert follow.stdout.readline().endswith(b"enable=true\n")  # -T 1: only the last line of the dump
        phone.shell("svc wifi disable")
        assert follow.stdout.readline().endswith(b"enable=false\n")  # then what comes, as it comes
    finally:
        follow.terminate()
        follow.wait(timeout=10)


# --------------------------------------------------------------------------- packages, root, forward (real adb)


def test_install_is_honest(phones, adb_server, tmp_path):
    phone, server = phones[34]
    garbage = tmp_path / "garbage.apk"
    garbage.write_bytes(b"\x00" * 4096)
    bad = adb(adb_server, server.serial, "install", str(garbage))
    # the device says Failure on stdout; the adb client reports it on its stderr
    assert (
        bad.returncode == 1
        and b"adb: failed to install" in bad.stderr
        and b"INSTALL_PARSE_FAILED_NOT_APK" in bad.stderr
    )
    phone.fs.write("/data/local/tmp/garbage.apk", b"\x00" * 4096)
    on_device = adb(adb_server, server.serial, "shell", "pm install /data/local/tmp/garbage.apk")
    assert on_device.returncode == 1 and on_device.stderr == b""
    assert on_device.stdout.startswith(b"Failure [INSTALL_PARSE_FAILED_NOT_APK: ")
    assert "com.example.fresh" not in phone.apps
    good = tmp_path / "fresh.apk"
    good.write_bytes(make_apk("com.example.fresh"))
    installed = adb(adb_server, server.serial, "install", str(good))
    assert installed.returncode == 0 and b"Success" in installed.stdout, installed
    assert b"package:com.example.fresh\n" in adb(adb_server, server.serial, "shell", "pm list packages -3").stdout
    assert adb(adb_server, server.serial, "shell", "pm uninstall com.example.fresh").stdout == b"Success\n"
    assert "com.example.fresh" not in phone.apps
    again = adb(adb_server, server.serial, "shell", "pm uninstall com.example.fresh")
    assert (again.stdout, again.stderr, again.returncode) == (b"Failure [DELETE_FAILED_INTERNAL_ERROR]\n", b"", 1)


def test_grant_revoke_and_disable_change_what_the_phone_does(phones, adb_server):
    phone, server = phones[34]

    def permissions() -> str:
        return adb(adb_server, server.serial, "shell", "dumpsys package com.androidrl.notes").stdout.decode()

    granted = adb(adb_server, server.serial, "shell", "pm grant com.androidrl.notes android.permission.CAMERA")
    assert (granted.stdout, granted.returncode) == (b"", 0)
    assert "android.permission.CAMERA: granted=true" in permissions()
    revoked = adb(adb_server, server.serial, "shell", "pm revoke com.androidrl.notes android.permission.CAMERA")
    assert (revoked.stdout, revoked.returncode) == (b"", 0)
    assert "android.permission.CAMERA" not in permissions()
    unknown = adb(adb_server, server.serial, "shell", "pm revoke com.no.such android.permission.CAMERA")
    assert unknown.returncode == 255 and b"Unknown package: com.no.such" in unknown.stderr
    adb(adb_server, server.serial, "shell", "pm disable-user com.androidrl.notes")
    out = adb(adb_server, server.serial, "shell", "am start -n com.androidrl.notes/.MainActivity")
    assert b"does not exist" in out.stderr and phone.foreground()[0] != "com.androidrl.notes"
    adb(adb_server, server.serial, "shell", "pm enable com.androidrl.notes")
    adb(adb_server, server.serial, "shell", "am start -n com.androidrl.notes/.MainActivity")
    assert phone.foreground()[0] == "com.androidrl.notes"


def test_adb_root_follows_the_build_type(phones, adb_server):
    phone, server = phones[34]
    assert adb(adb_server, server.serial, "root").stdout == b"restarting adbd as root\n"
    adb_server.adb("-s", server.serial, "wait-for-device", timeout=20)
    _until(lambda: adb(adb_server, server.serial, "shell", "id").stdout.startswith(b"uid=0(root)"))
    assert adb(adb_server, server.serial, "unroot").stdout == b"restarting adbd as non root\n"
    _until(lambda: adb(adb_server, server.serial, "shell", "whoami").stdout == b"shell\n")
    phone.props["ro.build.type"] = "user"
    assert adb(adb_server, server.serial, "root").stdout == b"adbd cannot run as root in production builds\n"


def test_a_forward_to_a_port_nothing_listens_on_is_refused(phones, adb_server):
    _, server = phones[34]
    local = adb(adb_server, server.serial, "forward", "tcp:0", "tcp:9").stdout.decode().strip()
    with socket.create_connection(("127.0.0.1", int(local)), timeout=5) as sock:
        sock.sendall(b"hello")
        assert sock.recv(100) == b""  # closed at once, as a device with no listener closes it


def test_adb_reverse_sets_lists_and_removes_listeners_as_adbd_does(phones, adb_server):
    _, server = phones[34]

    def reverse(*args: str) -> subprocess.CompletedProcess:
        return adb(adb_server, server.serial, "reverse", *args)

    def listed() -> list[str]:  # the client prints the device's list and a newline of its own
        return reverse("--list").stdout.decode().split("\n")[:-2]

    assert reverse("tcp:6000", "tcp:7000").returncode == 0
    port = reverse("tcp:0", "tcp:7001").stdout.decode().strip()  # adbd picks a port and says which
    assert port.isdigit()
    listing = listed()
    assert [line.split()[1:] for line in listing] == [["tcp:6000", "tcp:7000"], [f"tcp:{port}", "tcp:7001"]]
    assert all(line.startswith("host-") for line in listing)  # the host transport, as adbd names it
    refused = reverse("--no-rebind", "tcp:6000", "tcp:7002")
    assert refused.returncode == 1 and b"cannot rebind existing socket" in refused.stderr
    missing = reverse("--remove", "tcp:6999")
    assert missing.returncode == 1 and b"listener 'tcp:6999' not found" in missing.stderr
    assert reverse("--remove", "tcp:6000").returncode == 0
    assert [line.split()[1] for line in listed()] == [f"tcp:{port}"]
    assert reverse("--remove-all").returncode == 0
    assert reverse("--list").stdout == b"\n"


def _until(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


# --------------------------------------------------------------------------- emulator console (real adb)


def test_adb_emu_snapshots_restore_the_whole_phone(adbd, adb_server, monkeypatch):
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=0, boot_seconds=0.2)
    console, server = serve_as_emulator_with_console(adbd, phone, adb_server)
    serial = f"emulator-{console.port}"
    try:
        adb_server.adb("-s", serial, "wait-for-device", timeout=20)
        phone.shell("svc wifi disable")
        phone.fs.write("/sdcard/kept.txt", b"kept")
        assert adb(adb_server, serial, "emu", "avd", "snapshot", "save", "clean").stdout == b"OK\r\n"
        phone.shell("svc wifi enable")
        phone.shell("rm /sdcard/kept.txt")
        phone.shell("am start -n com.android.settings/.Settings")
        listing = adb(adb_server, serial, "emu", "avd", "snapshot", "list").stdout.decode()
        # QEMU's bdrv_snapshot_dump table, as the emulator prints it (android-qemu2-glue/qemu-vm-operations-impl.cpp)
        assert re.fullmatch(
            r"List of snapshots present on all disks:\r\n"
            r"ID {8}TAG {17}VM SIZE {16}DATE {7}VM CLOCK\r\n"
            r"-- {8}clean {15} *\d+(\.\d)?[KMG] \d{4}-\d\d-\d\d \d\d:\d\d:\d\d {3}\d\d:\d\d:\d\d\.\d{3}\r\nOK\r\n",
            listing,
        ), listing
        adb(adb_server, serial, "emu", "avd", "snapshot", "load", "clean")
        assert not phone.radios.wifi_enabled and phone.fs.read("/sdcard/kept.txt") == b"kept"
        assert phone.foreground()[0] == "com.android.launcher3"
        missing = adb(adb_server, serial, "emu", "avd", "snapshot", "load", "nope").stdout
        assert missing.startswith(b"KO: snapshot 'nope' does not exist")
        # the device layer reaches it the same way: AdbDevice through the console
        device = AdbDevice(serial, port=adb_server.port)
        phone.shell("svc wifi enable")
        monkeypatch.setenv("HOME", str(adb_server.home))  # where adb found the console's token
        assert "clean" in device.snapshot_names()
        device.load_snapshot("clean")
        assert not phone.radios.wifi_enabled
        # delete: gone from the list, then unknown; the device layer sees the same list
        assert adb(adb_server, serial, "emu", "avd", "snapshot", "save", "spare").stdout == b"OK\r\n"
        assert device.snapshot_names() == ["clean", "spare"]
        assert adb(adb_server, serial, "emu", "avd", "snapshot", "delete", "spare").stdout == b"OK\r\n"
        assert device.snapshot_names() == ["clean"] and phone.snapshot_names() == ["clean"]
        gone = adb(adb_server, serial, "emu", "avd", "snapshot", "delete", "spare").stdout
        assert gone.startswith(b"KO: snapshot 'spare' does not exist")
        # geo fix LONGITUDE LATITUDE [ALTITUDE]: the phone's GPS reports it
        assert adb(adb_server, serial, "emu", "geo", "fix", "2.294481", "48.858370", "35").stdout == b"OK\r\n"
        location = adb(adb_server, serial, "shell", "dumpsys location").stdout.decode()
        assert re.search(r"last location=Location\[gps 48\.858370,2\.294481 hAcc=\S+ et=\+\S+ alt=35\.0 ", location)
        bad = adb(adb_server, serial, "emu", "geo", "fix", "east", "48.8").stdout
        assert bad.startswith(b"KO: argument 'longitude' is not a number")
        assert adb(adb_server, serial, "emu", "kill").stdout.startswith(b"OK: killing emulator")
        _until(lambda: serial not in adb_server.adb("devices").stdout or not phone.online)
    finally:
        adbd.stop_server(server)
        adbd.stop_server(console)


@pytest.mark.parametrize(
    ("listing", "names"),
    [
        (  # QEMU 2's table, as emulators print it (android-qemu2-glue: qemu_listvms -> bdrv_snapshot_dump)
            "List of snapshots present on all disks:\nID        TAG                 VM SIZE                DATE       VM CLOCK\n"
            "--        default_boot            75M 2026-09-09 11:41:45   00:10:07.753\n"
            "--        fixture_test            75M 2026-09-09 16:55:38   00:10:45.114\n",
            ["default_boot", "fixture_test"],
        ),
        (  # numeric IDs (QEMU's own savevm)
            "List of snapshots present on all disks:\nID        TAG                 VM SIZE                DATE       VM CLOCK\n"
            "1         clean                  1.2G 2026-09-30 11:00:00   00:02:00.000\n",
            ["clean"],
        ),
        (  # QEMU 5+: an ICOUNT column
            "List of snapshots present on all disks:\nID        TAG               VM SIZE                DATE     VM CLOCK     ICOUNT\n"
            "--        clean             913 MiB 2026-03-25 23:42:16 00:00:28.552\n",
            ["clean"],
        ),
        ("default_boot\nclean\n", ["default_boot", "clean"]),  # newer emulators: bare names
        ("There is no snapshot available.\n", []),
    ],
    ids=["qemu2-table", "numeric-ids", "icount", "bare-names", "none"],
)
def test_snapshot_names_read_every_form_an_emulator_prints(listing, names):
    assert snapshot_list_names(listing) == names


# --------------------------------------------------------------------------- adbutils and adb-shell


def test_adbutils_reads_the_phone_as_a_device(phones, adb_server):
    import adbutils

    phone, server = phones[34]
    device = adbutils.AdbClient(host="127.0.0.1", port=adb_server.port).device(server.serial)
    phone.shell("svc wifi enable")
    assert device.wlan_ip() == "10.0.2.16"
    assert device.rotation() == 0 and tuple(device.window_size()) == (WIDTH, HEIGHT)  # dumpsys display, wm size
    battery = device.battery()
    assert battery.level == 100 and battery.usb_powered is True and battery.present is True
    phone.shell("am start -n com.android.settings/.Settings")
    current = device.app_current()  # Android 10+ print no mCurrentFocus in `dumpsys window windows`: it reads
    assert (current.package, current.activity) == ("com.android.settings", ".Settings")  # `dumpsys activity top`
    top = device.shell("dumpsys activity top")
    assert f"pid={device.shell('pidof com.android.settings').strip()}" in top
    result = device.shell2("echo out; echo err >&2; false")  # adbutils' default: shell v1, in write order
    assert result.returncode == 1 and result.output == "out\nerr\n"
    props = {k: device.getprop(k) for k in ("ro.build.version.sdk", "ro.product.cpu.abi", "ro.build.fingerprint")}
    assert (
        props["ro.build.version.sdk"] == "34"
        and props["ro.product.cpu.abi"] == "x86_64"
        and props["ro.build.fingerprint"]
    )


def test_adb_shell_connects_with_checksums_and_transfers_files(phones, tmp_path):
    from adb_shell.adb_device import AdbDeviceTcp

    phone, server = phones[34]
    device = AdbDeviceTcp("127.0.0.1", server.port, default_transport_timeout_s=10)
    device.connect(rsa_keys=None, auth_timeout_s=5)  # protocol version 0x01000000: checksums required
    try:
        assert device.shell("echo hello; getprop ro.build.version.release") == "hello\n14\n"
        data = bytes(range(256)) * 400
        (tmp_path / "in.bin").write_bytes(data)
        device.push(str(tmp_path / "in.bin"), "/sdcard/in.bin")
        assert phone.fs.read("/sdcard/in.bin") == data
        device.pull("/sdcard/in.bin", str(tmp_path / "out.bin"))
        assert (tmp_path / "out.bin").read_bytes() == data
    finally:
        device.close()


def test_two_clients_at_once_do_not_mix_streams(phones, adb_server):
    _, server = phones[34]
    results = {}

    def run(name: str, command: str) -> None:
        results[name] = adb(adb_server, server.serial, "shell", command).stdout

    threads = [threading.Thread(target=run, args=(str(i), f"echo {i}; sleep 0.3; echo {i}")) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {str(i): f"{i}\n{i}\n".encode() for i in range(4)}

"""The virtual adbd through the real ``adb`` binary: connect, shell, exec-out, sync, install, reboot."""

from __future__ import annotations

import random
import signal
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Callable

import pytest

from androidrl.device.adb_server import IsolatedAdbServer, adb_path, free_port
from androidrl.virtual.adbd.transport import MAX_PAYLOAD

from conftest import make_apk, serve_as_emulator


def connect(adb_server: IsolatedAdbServer, serial: str) -> None:
    assert f"connected to {serial}" in adb_server.adb("connect", serial).stdout
    adb_server.adb("-s", serial, "wait-for-device", timeout=10)


def adb_bytes(adb_server: IsolatedAdbServer, *args: str) -> bytes:
    """stdout of an adb command, as bytes."""
    return subprocess.run([adb_path(), *args], env=adb_server.env, capture_output=True, check=True, timeout=30).stdout


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.01)


def state(adb_server: IsolatedAdbServer, serial: str) -> str:
    result = adb_server.adb("-s", serial, "get-state", check=False)
    return result.stdout.strip() or result.stderr.strip()


def test_connect_lists_device_with_model(served, adb_server):
    assert state(adb_server, served.serial) == "device"
    listing = adb_server.adb("devices", "-l").stdout
    line = next(line for line in listing.splitlines() if line.startswith(served.serial))
    assert "product:androidrl_virtual model:androidrl_Virtual_Phone device:virtual" in line


def test_shell_exit_code_and_separate_stderr(served, adb_server):
    result = adb_server.adb("-s", served.serial, "shell", "echo out; echo err >&2; exit 3", check=False)
    assert (result.returncode, result.stdout, result.stderr) == (3, "out\n", "err\n")


def test_shell_without_shell_protocol_mixes_stderr_and_exits_0(served, adb_server):
    result = adb_server.adb("-s", served.serial, "shell", "-x", "echo out; echo err >&2; exit 3", check=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, "out\nerr\n", "")


def test_exec_out_screencap_is_byte_exact(served, adb_server, phone):
    assert adb_bytes(adb_server, "-s", served.serial, "exec-out", "screencap", "-p") == phone.screencap(png=True)
    assert adb_bytes(adb_server, "-s", served.serial, "exec-out", "screencap") == phone.screencap()


def test_shell_output_bigger_than_a_packet_is_byte_exact_and_apart_from_stderr(served, adb_server, phone):
    # one shell-protocol packet of a raw frame (1.1 MB) spans two adb packets; its header rides in the first
    frame = phone.screencap()
    assert len(frame) > MAX_PAYLOAD
    result = subprocess.run(
        [adb_path(), "-s", served.serial, "shell", "screencap; echo done >&2; exit 3"],
        env=adb_server.env,
        capture_output=True,
        timeout=30,
    )
    assert (result.returncode, result.stdout, result.stderr) == (3, frame, b"done\n")


def test_screencap_in_two_parts_is_the_raw_screencap_and_is_not_changed_by_the_next_frame(phone):
    # a writer sends the parts while the screen moves on: the next frame must be drawn into new memory
    phone.shell("am start -a android.settings.WIFI_SETTINGS")
    header, pixels = phone.display.screencap_parts()
    sent = bytes(pixels)
    assert header + sent == phone.screencap()
    partial = phone.display._renderer.partial_frames
    phone.shell("svc wifi disable")  # the switch redraws: a partial frame over a copy of this one
    assert phone.screencap() != header + sent and phone.display._renderer.partial_frames == partial + 1
    assert bytes(pixels) == sent


def test_uiautomator_dump_then_pull(served, adb_server, phone, tmp_path):
    result = adb_server.adb("-s", served.serial, "shell", "uiautomator", "dump")
    assert result.stdout == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    adb_server.adb("-s", served.serial, "pull", "/sdcard/window_dump.xml", str(tmp_path / "dump.xml"))
    assert (tmp_path / "dump.xml").read_text() == phone.dump_ui()


def test_push_and_pull_large_binary_creating_parent_dirs(served, adb_server, phone, tmp_path):
    data = random.Random(0).randbytes(3_000_000)  # many 64 KiB sync chunks and 1 MiB packets
    (tmp_path / "blob.bin").write_bytes(data)
    adb_server.adb("-s", served.serial, "push", str(tmp_path / "blob.bin"), "/sdcard/new/deeper/blob.bin")
    assert phone.fs.read("/sdcard/new/deeper/blob.bin") == data
    adb_server.adb("-s", served.serial, "pull", "/sdcard/new/deeper/blob.bin", str(tmp_path / "back.bin"))
    assert (tmp_path / "back.bin").read_bytes() == data
    adb_server.adb("-s", served.serial, "pull", "/sdcard/new", str(tmp_path))  # a directory, via LIS2
    assert (tmp_path / "new" / "deeper" / "blob.bin").read_bytes() == data


def test_pull_missing_and_push_read_only_fail_clearly(served, adb_server, tmp_path):
    result = adb_server.adb("-s", served.serial, "pull", "/sdcard/nope", str(tmp_path), check=False)
    assert result.returncode == 1
    assert "No such file or directory" in result.stdout + result.stderr  # adb 29 reports on stdout
    (tmp_path / "f").write_bytes(b"x")
    result = adb_server.adb("-s", served.serial, "push", str(tmp_path / "f"), "/system/f", check=False)
    assert result.returncode == 1
    assert "Read-only file system" in result.stdout + result.stderr


def test_ls_lists_entries_with_mode_and_size(served, adb_server, phone):
    with phone.lock:
        phone.fs.write("/sdcard/Download/notes.txt", b"hello world")
    lines = adb_server.adb("-s", served.serial, "ls", "/sdcard/Download").stdout.splitlines()
    entries = {line.split()[3]: line.split()[:2] for line in lines}
    assert entries.keys() == {".", "..", "notes.txt"}
    assert entries["notes.txt"] == ["000081b0", f"{len(b'hello world'):08x}"]
    assert entries["."][0] == "000041f9"
    assert adb_server.adb("-s", served.serial, "ls", "/sdcard/missing").stdout == ""


def device_socket(adb_server: IsolatedAdbServer, serial: str, service: str) -> socket.socket:
    """A socket to ``service`` on the device, through the adb server (smart-socket requests)."""
    sock = socket.create_connection(("127.0.0.1", adb_server.port), timeout=5)
    for request in (f"host:transport:{serial}", service):
        sock.sendall(b"%04x%s" % (len(request), request.encode()))
        assert recv_exactly(sock, 4) == b"OKAY"
    return sock


def recv_exactly(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        assert chunk, "connection closed early"
        data += chunk
    return data


def test_sync_v1_stat_and_list_for_older_clients(served, adb_server, phone):
    with phone.lock:
        phone.fs.write("/sdcard/Download/a.txt", b"12345")
    stats = []
    with device_socket(adb_server, served.serial, "sync:") as sock:
        for path in (b"/sdcard/Download/a.txt", b"/sdcard/missing"):
            sock.sendall(b"STAT" + struct.pack("<I", len(path)) + path)
            stats.append(struct.unpack("<4sIII", recv_exactly(sock, 16)))
        sock.sendall(b"LIST" + struct.pack("<I", 16) + b"/sdcard/Download")
        names = []
        while (entry := struct.unpack("<4sIIII", recv_exactly(sock, 20)))[0] == b"DENT":
            names.append(recv_exactly(sock, entry[4]).decode())
        sock.sendall(b"QUIT" + struct.pack("<I", 0))
    mtime = phone.fs.stat("/sdcard/Download/a.txt").mtime
    assert stats == [(b"STAT", 0o100660, 5, mtime), (b"STAT", 0, 0, 0)]  # all zero: missing
    assert entry == (b"DONE", 0, 0, 0, 0)  # padded to a whole entry
    assert names == [".", "..", "a.txt"]


def test_install_streams_the_file_and_prints_success(served, adb_server, phone, tmp_path):
    apk = tmp_path / "dummy.apk"
    apk.write_bytes(make_apk("com.example.dummy", random.Random(1).randbytes(200_000)))
    result = adb_server.adb("-s", served.serial, "install", str(apk))
    assert "Success" in result.stdout and "com.example.dummy" in phone.apps
    assert f"cmd package install -S {apk.stat().st_size}" in phone.command_log  # abb_exec, the APK as its stdin


def test_root_and_unroot_answer_and_return(served, adb_server, phone):
    assert adb_server.adb("-s", served.serial, "unroot").stdout == "adbd not running as root\n"
    phone.props["ro.build.type"] = "user"  # (userdebug builds restart adbd as root: tests/test_fidelity.py)
    assert adb_server.adb("-s", served.serial, "root").stdout == "adbd cannot run as root in production builds\n"


def test_interactive_shell_runs_lines_from_stdin(served, adb_server):
    def shell(stdin: bytes) -> subprocess.CompletedProcess[bytes]:  # like `echo ... | adb shell`
        command = [adb_path(), "-s", served.serial, "shell"]
        return subprocess.run(command, input=stdin, env=adb_server.env, capture_output=True, timeout=30)

    hi = shell(b"echo hi\n")
    assert (hi.returncode, hi.stdout) == (0, b"hi\n")
    ended = shell(b"echo one; false\nexit 4\necho never\n")
    assert (ended.returncode, ended.stdout) == (4, b"one\n")
    last = shell(b"echo a\nfalse")  # the last line needs no newline; its status is the shell's
    assert (last.returncode, last.stdout) == (1, b"a\n")


def test_client_killed_or_server_stopped_cancels_the_command(served, adb_server, adbd, phone):
    """Both clients sleep concurrently, so the test waits for one sleep only."""
    other = adbd.serve(phone, port=free_port())  # a second server for the same phone
    connect(adb_server, other.serial)
    commands = {server: f"sleep 2; touch /sdcard/after-{i}" for i, server in enumerate((served, other))}
    start = time.monotonic()
    clients = [
        subprocess.Popen([adb_path(), "-s", server.serial, "shell", command], env=adb_server.env)
        for server, command in commands.items()
    ]
    wait_until(lambda: all(command in phone.command_log for command in commands.values()))
    assert adb_server.adb("-s", served.serial, "shell", "echo alive").stdout == "alive\n"  # served meanwhile
    clients[0].kill()
    adbd.stop_server(other)
    for client in clients:
        client.wait(timeout=10)
    time.sleep(max(0.0, start + 2.5 - time.monotonic()))
    assert not [name for name in phone.fs.listdir("/sdcard") if name.startswith("after")]


def test_reboot_drops_the_device_until_it_boots(served, adb_server, phone):
    phone.boot_seconds = 1.0  # margin for the checks made while it is off
    adb_server.adb("-s", served.serial, "shell", "am start -n com.android.settings/.Settings")
    assert phone.foreground()[0] == "com.android.settings"
    adb_server.adb("-s", served.serial, "reboot")
    assert not phone.online
    assert state(adb_server, served.serial) != "device"
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", served.port), timeout=1).close()
    adb_server.adb("disconnect", served.serial)
    # like any script after a reboot: retry until the device is back on the network
    wait_until(lambda: "connected to" in adb_server.adb("connect", served.serial).stdout)
    adb_server.adb("-s", served.serial, "wait-for-device", timeout=10)
    assert adb_server.adb("-s", served.serial, "shell", "echo back").stdout == "back\n"
    assert phone.foreground()[0] == "com.android.launcher3"  # a boot starts at the launcher


def test_stop_server_then_serve_again_on_the_same_port(served, adb_server, adbd, phone):
    adbd.stop_server(served)
    wait_until(lambda: state(adb_server, served.serial) != "device")
    again = adbd.serve(phone, port=served.port)
    try:
        adb_server.adb("disconnect", served.serial)
        connect(adb_server, again.serial)
        assert adb_server.adb("-s", again.serial, "shell", "echo again").stdout == "again\n"
    finally:
        adbd.stop_server(again)


def test_announced_phone_is_listed_as_emulator(adb_server, adbd, phone):
    server = serve_as_emulator(adbd, phone, adb_server)
    serial = f"emulator-{server.port - 1}"
    try:
        wait_until(lambda: f"{serial}\tdevice" in adb_server.adb("devices").stdout)
        assert adb_server.adb("-s", serial, "shell", "getprop ro.product.model").stdout == "androidrl Virtual Phone\n"
    finally:
        adbd.stop_server(server)


def test_cli_serves_phones_until_sigterm(adb_server):
    port = free_port(exclude=range(5554, 5590), count=2)  # the CLI serves two phones: port and port + 1
    command = [
        sys.executable,
        "-m",
        "androidrl.cli",
        "virtual",
        "--count",
        "2",
        "--port",
        str(port),
        "--width",
        "360",
        "--height",
        "800",
        "--density",
        "160",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        serials = [process.stdout.readline().strip() for _ in range(2)]
        assert serials == [f"127.0.0.1:{port}", f"127.0.0.1:{port + 1}"]
        for serial in serials:
            connect(adb_server, serial)
            port_text = serial.rsplit(":", 1)[1]
            assert adb_server.adb("-s", serial, "shell", "getprop ro.serialno").stdout == f"virtual-{port_text}\n"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0
    finally:
        process.kill()
        for serial in (f"127.0.0.1:{port}", f"127.0.0.1:{port + 1}"):
            adb_server.adb("disconnect", serial, check=False)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_shell_reboot_never_answers_its_output_so_far_arrives_then_the_device_drops(served, adb_server, phone):
    # AOSP's reboot sets sys.powerctl and waits in pause() for init: no exit status ever comes back.
    phone.boot_seconds = 1.0
    # The adb client reads the dropped connection as the end (exit 0: `adb shell reboot && adb wait-for-device`).
    result = adb_server.adb("-s", served.serial, "shell", "echo bye; reboot; echo never")
    assert result.stdout == "bye\n" and not phone.online
    assert state(adb_server, served.serial) != "device"

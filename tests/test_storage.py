"""The phone's storage is bounded as a phone's is: ``df`` shows it, a full disk refuses writes, installs check room.

Through the real ``adb`` (push, shell redirections, install) and in process (``pm install``
of zip bombs, with the memory it took measured).
"""

from __future__ import annotations

import io
import os
import subprocess
import tracemalloc
import zipfile

import pytest

from androidrl.device.adb_server import IsolatedAdbServer, adb_path
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.apk import MAX_MANIFEST_BYTES
from androidrl.virtual.system.fs import DEFAULT_CAPACITY, VirtualFileSystem

from conftest import DENSITY, HEIGHT, WIDTH, make_apk

MIB = 2**20


@pytest.fixture
def small_phone() -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, boot_seconds=0.2, storage=MIB)


@pytest.fixture
def small_served(small_phone, adbd, adb_server):
    server = adbd.serve(small_phone)
    adb_server.adb("connect", server.serial)
    adb_server.adb("-s", server.serial, "wait-for-device", timeout=10)
    yield server
    adbd.stop_server(server)
    adb_server.adb("disconnect", server.serial, check=False)


def adb(adb_server: IsolatedAdbServer, serial: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([adb_path(), "-s", serial, *args], env=adb_server.env, capture_output=True, timeout=60)


def test_df_reports_the_phones_storage(small_phone):
    lines = small_phone.shell("df /sdcard /data/local/tmp").stdout.decode().splitlines()
    assert lines[0].split() == ["Filesystem", "1K-blocks", "Used", "Available", "Use%", "Mounted", "on"]
    assert lines[1].split() == ["/dev/fuse", "1024", "0", "1024", "0%", "/storage/emulated"]
    assert lines[2].split() == ["/dev/block/dm-5", "1024", "0", "1024", "0%", "/data"]
    small_phone.fs.write("/sdcard/half", b"x" * (MIB // 2))
    assert small_phone.shell("df -h /sdcard").stdout.decode().splitlines()[1].split() == [
        "/dev/fuse", "1.0M", "512K", "512K", "50%", "/storage/emulated"
    ]  # fmt: skip
    whole = small_phone.shell("df").stdout.decode()
    assert " /\n" in whole and "/data\n" in whole  # every mount without operands
    assert VirtualPhone(WIDTH, HEIGHT, DENSITY).fs.capacity == DEFAULT_CAPACITY


def test_df_refuses_what_toybox_refuses(small_phone):
    missing = small_phone.shell("df /nowhere")
    assert (missing.stderr, missing.exit_code) == (b"df: '/nowhere': No such file or directory\n", 1)
    unknown = small_phone.shell("df -z")
    assert (unknown.stderr, unknown.exit_code) == (b"df: Unknown option 'z' (see \"df --help\")\n", 1)


def test_a_push_beyond_the_storage_fails_as_on_a_full_phone_and_leaves_nothing(
    small_served, small_phone, adb_server, tmp_path
):
    first, second = tmp_path / "first", tmp_path / "second"
    first.write_bytes(os.urandom(600_000))
    second.write_bytes(os.urandom(900_000))
    assert adb(adb_server, small_served.serial, "push", str(first), "/sdcard/first").returncode == 0
    full = adb(adb_server, small_served.serial, "push", str(second), "/sdcard/second")
    assert full.returncode == 1
    assert b"remote write failed: No space left on device" in full.stdout + full.stderr
    assert not small_phone.fs.exists("/sdcard/second")  # adbd removes what it could not finish
    assert small_phone.fs.read("/sdcard/first") == first.read_bytes()
    assert small_phone.fs.used_bytes() == 600_000
    # a file pushed over another takes its place: the old one goes first, so 900 KB fit now
    assert adb(adb_server, small_served.serial, "push", str(second), "/sdcard/first").returncode == 0
    assert small_phone.fs.read("/sdcard/first") == second.read_bytes()


def test_a_shell_redirection_into_a_full_storage_fails_with_enospc(small_served, small_phone, adb_server):
    small_phone.fs.write("/sdcard/filler", b"x" * (MIB - 3))
    builtin = adb(adb_server, small_served.serial, "shell", "echo hello > /sdcard/greeting")
    assert (builtin.returncode, builtin.stderr) == (1, b"/system/bin/sh: echo: write: No space left on device\n")
    assert small_phone.fs.read("/sdcard/greeting") == b"hel"  # what fitted, as after write(2) ran out
    tool = adb(adb_server, small_served.serial, "shell", "cat /sdcard/filler > /data/local/tmp/copy")
    assert (tool.returncode, tool.stderr) == (1, b"cat: xwrite: No space left on device\n")
    assert small_phone.fs.used_bytes() == MIB
    assert b"100%" in adb(adb_server, small_served.serial, "shell", "df /data").stdout
    small_phone.shell("rm /data/local/tmp/copy /sdcard/greeting")
    assert adb(adb_server, small_served.serial, "shell", "echo ok > /sdcard/greeting").returncode == 0


def test_a_full_write_keeps_what_fitted_and_counts_it():
    fs = VirtualFileSystem(capacity=10)
    fs.write("/sdcard/a", b"12345")
    with pytest.raises(OSError, match="No space left on device"):
        fs.write("/sdcard/a", b"6789AB", append=True)
    assert fs.read("/sdcard/a") == b"123456789A" and fs.free_bytes() == 0
    fs.write("/sdcard/a", b"x" * 10)  # a rewrite gives the old bytes back first (O_TRUNC)
    fs.remove("/sdcard/a")
    assert fs.used_bytes() == 0
    with pytest.raises(ValueError, match="positive number of bytes"):
        VirtualFileSystem(capacity=0)


def _bomb(entry: str, inflated: int) -> bytes:
    """An APK whose ``entry`` inflates to ``inflated`` zero bytes (a few hundred KB compressed)."""
    good = zipfile.ZipFile(io.BytesIO(make_apk("com.example.bomb")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for info in good.infolist():
            if info.filename != entry:
                archive.writestr(info.filename, good.read(info.filename))
        with archive.open(entry, "w", force_zip64=True) as file:
            for _ in range(inflated // MIB):
                file.write(bytes(MIB))
    return out.getvalue()


def _install(phone: VirtualPhone, apk: bytes) -> tuple[str, int, int]:
    """``pm install -S SIZE`` with the APK on stdin: (its stdout+stderr, exit status, peak memory it took)."""
    tracemalloc.start()
    try:
        result = phone.shell(f"pm install -S {len(apk)}", stdin=apk)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return (result.stdout + result.stderr).decode(), result.exit_code, peak


def test_a_zip_bomb_manifest_is_refused_without_inflating_it(phone):
    apk = _bomb("AndroidManifest.xml", 64 * MIB)
    assert len(apk) < MIB
    output, status, peak = _install(phone, apk)
    assert (
        output.startswith("Failure [INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: ")
        and "Failed to read manifest" in output
    )
    assert status == 1 and "com.example.bomb" not in phone.apps
    assert peak < MAX_MANIFEST_BYTES  # nothing near the 64 MiB it inflates to


def test_native_libraries_that_do_not_fit_fail_the_install_for_storage(small_phone, phone):
    apk = _bomb("lib/x86_64/libbomb.so", 4 * MIB)  # extracted on install: 4 MiB on a 1 MiB phone
    output, status, peak = _install(small_phone, apk)
    assert (output, status) == (
        "Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE: Failed to override installation location]\n",
        1,
    )
    assert "com.example.bomb" not in small_phone.apps and peak < MIB
    assert _install(phone, apk)[:2] == ("Success\n", 0)  # the same APK fits a phone with room for it


def test_an_apk_bigger_than_the_storage_is_refused_before_it_is_read(small_served, small_phone, adb_server, tmp_path):
    big = tmp_path / "big.apk"
    big.write_bytes(make_apk("com.example.big", os.urandom(2 * MIB)))
    result = adb(adb_server, small_served.serial, "install", str(big))
    assert result.returncode == 1
    assert b"adb: failed to install" in result.stderr
    assert b"No special requests, but no room on allowed volumes" in result.stderr
    assert "com.example.big" not in small_phone.apps
    small = tmp_path / "small.apk"
    small.write_bytes(make_apk("com.example.small"))
    assert (
        b"Success" in adb(adb_server, small_served.serial, "install", str(small)).stdout
    )  # the connection still works


def test_pm_install_from_stdin_needs_a_size(phone):
    result = phone.shell("pm install", stdin=make_apk("com.example.nosize"))
    assert (result.stdout, result.exit_code) == (b"Error: must either specify a package size or an APK file\n", 1)
    bad = phone.shell("pm install -S ten")
    assert bad.exit_code == 255 and b'java.lang.NumberFormatException: For input string: "ten"' in bad.stderr


def test_mv_moves_a_directory_whole_and_rename_refuses_as_the_kernel_does(phone):
    phone.shell("mkdir -p /sdcard/Trip/day1 && echo sun > /sdcard/Trip/day1/a.txt && mkdir /sdcard/Full")
    phone.shell("echo x > /sdcard/Full/f")
    assert phone.shell("mv /sdcard/Trip /sdcard/Documents/Trip").exit_code == 0
    assert phone.shell("cat /sdcard/Documents/Trip/day1/a.txt").stdout == b"sun\n"
    assert not phone.fs.exists("/sdcard/Trip")
    fs = phone.fs
    with pytest.raises(OSError, match="Directory not empty"):
        fs.rename("/sdcard/Documents/Trip", "/sdcard/Full")
    with pytest.raises(OSError, match="Invalid argument"):
        fs.rename("/sdcard/Documents/Trip", "/sdcard/Documents/Trip/day1/inner")
    with pytest.raises(IsADirectoryError):
        fs.rename("/sdcard/Full/f", "/sdcard/Documents")
    with pytest.raises(OSError, match="Read-only file system"):
        fs.rename("/sdcard/Full/f", "/system/f")
    used = fs.used_bytes()
    fs.rename("/sdcard/Full/f", "/sdcard/Documents/Trip/day1/a.txt")  # a file replaces a file
    assert fs.used_bytes() == used - 4 and fs.read("/sdcard/Documents/Trip/day1/a.txt") == b"x\n"

"""The virtual adbd's doors: loopback unless asked, adb's RSA authentication, and no shell pool to exhaust."""

import subprocess
import time
from pathlib import Path

import pytest

from androidrl.cli import main as cli_main
from androidrl.device.adb_server import IsolatedAdbServer, adb_path
from androidrl.virtual.adbd.auth import PublicKey, load_keys
from androidrl.virtual.adbd.server import AdbdServer
from androidrl.virtual.phone import VirtualPhone


def _key_of(server: IsolatedAdbServer) -> Path:
    """The adb server's public key (it makes ~/.android/adbkey.pub in its HOME at start)."""
    return Path(server.env["HOME"]) / ".android" / "adbkey.pub"


def test_listening_beyond_loopback_needs_an_explicit_flag(capsys):
    with pytest.raises(ValueError, match="beyond this machine.*--public"):
        AdbdServer(VirtualPhone(360, 800, 160), host="0.0.0.0")
    assert cli_main(["virtual", "--host", "0.0.0.0", "--port", "6199"]) == 2
    assert "add --public" in capsys.readouterr().err


def test_only_hosts_with_a_trusted_key_get_in(adbd, adb_server, phone):
    trusted = load_keys([_key_of(adb_server)])
    assert trusted[0].comment and trusted[0].exponent == 65537
    server = adbd.serve(phone, auth_keys=trusted)
    try:
        adb_server.adb("connect", server.serial)
        adb_server.adb("-s", server.serial, "wait-for-device", timeout=10)
        assert adb_server.adb("-s", server.serial, "shell", "echo in").stdout == "in\n"
    finally:
        adbd.stop_server(server)
        adb_server.adb("disconnect", server.serial, check=False)
    with IsolatedAdbServer() as stranger:  # another host, another key
        server = adbd.serve(phone, auth_keys=trusted)
        try:
            stranger.adb("connect", server.serial)
            deadline = time.monotonic() + 10
            while "unauthorized" not in (state := stranger.adb("devices").stdout) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert f"{server.serial}\tunauthorized" in state
            assert stranger.adb("-s", server.serial, "shell", "echo in", check=False).returncode != 0
        finally:
            adbd.stop_server(server)


def test_a_key_that_is_not_an_adb_key_is_refused(tmp_path):
    bad = tmp_path / "keys"
    bad.write_text("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ user@host\n")
    with pytest.raises(ValueError, match="not an adb public key"):
        load_keys([bad])
    with pytest.raises(ValueError, match="cannot read adb keys"):
        load_keys([tmp_path / "missing.pub"])
    assert not PublicKey(modulus=7 * 11, exponent=3).verifies(b"t" * 20, b"\x00")


def test_many_sleeping_shells_do_not_starve_another_client(served, adb_server):
    sleepers = [
        subprocess.Popen([adb_path(), "-s", served.serial, "shell", "sleep 8"], env=adb_server.env) for _ in range(40)
    ]
    try:
        time.sleep(1.0)  # all forty are running on the phone
        result = adb_server.adb("-s", served.serial, "shell", "echo alive", timeout=5)
        assert result.stdout == "alive\n"
        assert all(p.poll() is None for p in sleepers)  # ...while every sleeper still sleeps
    finally:
        for process in sleepers:
            process.kill()
            process.wait()

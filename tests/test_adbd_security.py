"""The virtual adbd's doors: loopback unless asked, adb's RSA authentication, and no shell pool to exhaust."""

import os
import socket
import stat
import struct
import subprocess
import time
from pathlib import Path

import pytest

from androidrl.cli import main as cli_main
from androidrl.device.adb_server import IsolatedAdbServer, adb_path
from androidrl.virtual.adbd.auth import PublicKey
from androidrl.virtual.adbd.keys import KeysDir, TrustedKeys, load_keys
from androidrl.virtual.adbd.server import AdbdServer
from androidrl.virtual.adbd.transport import MAX_HANDSHAKE_PAYLOAD
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


# ------------------------------------------------------------------ a host that speaks the wire protocol itself

A_CNXN, A_AUTH, A_OPEN, A_OKAY, A_WRTE = 0x4E584E43, 0x48545541, 0x4E45504F, 0x59414B4F, 0x45545257
AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3


class RawHost:
    """A host that speaks adb's packets on a socket of its own: it can sign garbage, offer any key, stay idle."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        header = struct.pack("<6I", command, arg0, arg1, len(data), sum(data) & 0xFFFFFFFF, command ^ 0xFFFFFFFF)
        self.sock.sendall(header + data)

    def receive(self) -> tuple[int, int, int, bytes] | None:
        """The next packet, or None once the device closed the connection."""
        header = self._exactly(24)
        if header is None:
            return None
        command, arg0, arg1, length, _, _ = struct.unpack("<6I", header)
        return command, arg0, arg1, self._exactly(length) or b""

    def packets_until_closed(self) -> list[tuple[int, int, int, bytes]]:
        """Every packet the device sends until it closes the connection (its auth timeout ends it)."""
        packets = []
        while (packet := self.receive()) is not None:
            packets.append(packet)
        return packets

    def connect(self) -> bytes:
        """Send CNXN; the AUTH TOKEN the device answers with."""
        self.send(A_CNXN, 0x01000001, 1024 * 1024, b"host::\0")
        command, kind, _, token = self.receive()
        assert (command, kind) == (A_AUTH, AUTH_TOKEN) and len(token) == 20
        return token

    def closed(self) -> bool:
        """Whether the device has closed the connection (waiting for it)."""
        return self._exactly(1) is None

    def _exactly(self, size: int) -> bytes | None:
        data = b""
        try:
            while len(data) < size:
                chunk = self.sock.recv(size - len(data))
                if not chunk:
                    return None
                data += chunk
        except ConnectionResetError:
            return None
        return data

    def close(self) -> None:
        self.sock.close()


def _signer(server: IsolatedAdbServer):
    """The real adb server's own key pair (made in its HOME at start), to sign as that host signs."""
    from adb_shell.auth.sign_cryptography import CryptographySigner

    return CryptographySigner(str(Path(server.env["HOME"]) / ".android" / "adbkey"))


def test_a_host_that_offers_a_trusted_public_key_without_signing_never_gets_in(adbd, adb_server, phone, caplog):
    trusted = load_keys([_key_of(adb_server)])
    server = adbd.serve(phone, auth_keys=trusted, auth_timeout=1.0)
    host = RawHost(server.port)
    try:
        host.connect()
        host.send(A_AUTH, AUTH_SIGNATURE, 0, os.urandom(256))  # garbage where a signature goes
        command, kind, _, _ = host.receive()
        assert (command, kind) == (A_AUTH, AUTH_TOKEN)  # a new token: try again
        host.send(A_AUTH, AUTH_RSAPUBLICKEY, 0, _key_of(adb_server).read_bytes().strip() + b"\0")  # the trusted key
        host.send(A_OPEN, 1, 0, b"shell:echo pwned\0")
        later = host.packets_until_closed()  # ...until the auth timeout closes the connection
        assert all(command == A_AUTH for command, *_ in later), later  # never CNXN, never a stream
        assert "without signing with it" in caplog.text
    finally:
        host.close()
        adbd.stop_server(server)
    assert "pwned" not in " ".join(phone.command_log)


def test_only_a_valid_signature_over_the_token_lets_a_host_in(adbd, adb_server, phone):
    server = adbd.serve(phone, auth_keys=load_keys([_key_of(adb_server)]))
    signer = _signer(adb_server)
    host = RawHost(server.port)
    try:
        token = host.connect()
        host.send(A_AUTH, AUTH_SIGNATURE, 0, signer.Sign(b"another token......."))  # valid, but not over this token
        command, kind, _, token = host.receive()
        assert (command, kind) == (A_AUTH, AUTH_TOKEN)
        host.send(A_AUTH, AUTH_SIGNATURE, 0, signer.Sign(token))
        command, *_, banner = host.receive()
        assert command == A_CNXN and banner.startswith(b"device::")
        host.send(A_OPEN, 1, 0, b"shell:echo in\0")
        command, device_id, _, _ = host.receive()
        assert command == A_OKAY
        command, _, _, output = host.receive()
        assert (command, output) == (A_WRTE, b"in\n")
    finally:
        host.close()
        adbd.stop_server(server)


def _devices(server: IsolatedAdbServer) -> str:
    return server.adb("devices").stdout


def _wait_for(condition, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_a_new_key_gets_in_only_through_the_explicit_trust_step(adbd, phone, tmp_path, capsys):
    keys_dir = KeysDir(tmp_path / "keys")
    server = adbd.serve(phone, auth_keys=TrustedKeys(keys_dir=keys_dir))
    with IsolatedAdbServer() as host:
        try:
            host.adb("connect", server.serial)
            _wait_for(lambda: f"{server.serial}\tunauthorized" in _devices(host), "the host to be unauthorized")
            _wait_for(lambda: keys_dir.requests(), "its request")
            (key,) = keys_dir.requests()
            assert key == load_keys([_key_of(host)])[0]
            assert host.adb("-s", server.serial, "shell", "echo in", check=False).returncode != 0  # not yet
            # the request and its directory are private to the user
            assert stat.S_IMODE(keys_dir.path.stat().st_mode) == 0o700
            (request,) = keys_dir.pending_dir.iterdir()
            assert stat.S_IMODE(request.stat().st_mode) == 0o600

            assert cli_main(["virtual-keys", "--keys-dir", str(keys_dir.path)]) == 0
            assert key.fingerprint in capsys.readouterr().out
            assert cli_main(["virtual-keys", "--keys-dir", str(keys_dir.path), "--allow", key.fingerprint[:8]]) == 0
            assert f"allowed {key.fingerprint}" in capsys.readouterr().out
            assert stat.S_IMODE(keys_dir.allowed_file.stat().st_mode) == 0o600
            assert keys_dir.allowed() == [key] and keys_dir.requests() == []
            # the waiting host is asked to sign again, and signs with the key now trusted
            _wait_for(lambda: f"{server.serial}\tdevice" in _devices(host), "the host to get in")
            assert host.adb("-s", server.serial, "shell", "echo in").stdout == "in\n"
        finally:
            adbd.stop_server(server)


def test_allowing_a_key_lets_in_only_a_host_that_holds_it(adbd, adb_server, phone, tmp_path):
    keys_dir = KeysDir(tmp_path / "keys")
    server = adbd.serve(phone, auth_keys=TrustedKeys(keys_dir=keys_dir), auth_timeout=5.0)
    host = RawHost(server.port)  # offers someone else's public key, which it cannot sign with
    try:
        host.connect()
        host.send(A_AUTH, AUTH_RSAPUBLICKEY, 0, _key_of(adb_server).read_bytes().strip() + b"\0")
        _wait_for(lambda: keys_dir.requests(), "the request")
        keys_dir.allow(keys_dir.requests()[0].fingerprint)
        command, kind, _, _ = host.receive()
        assert (command, kind) == (A_AUTH, AUTH_TOKEN)  # allowed: now prove it
        host.send(A_AUTH, AUTH_SIGNATURE, 0, os.urandom(256))
        assert all(command == A_AUTH for command, *_ in host.packets_until_closed())
    finally:
        host.close()
        adbd.stop_server(server)


def test_a_denied_request_leaves_the_host_out(adbd, phone, tmp_path, capsys):
    keys_dir = KeysDir(tmp_path / "keys")
    server = adbd.serve(phone, auth_keys=TrustedKeys(keys_dir=keys_dir))
    with IsolatedAdbServer() as host:
        try:
            host.adb("connect", server.serial)
            _wait_for(lambda: keys_dir.requests(), "the request")
            fingerprint = keys_dir.requests()[0].fingerprint
            assert cli_main(["virtual-keys", "--keys-dir", str(keys_dir.path), "--deny", fingerprint.lower()]) == 0
            assert keys_dir.requests() == [] and keys_dir.allowed() == []
            assert f"{server.serial}\tunauthorized" in _devices(host)
            assert host.adb("-s", server.serial, "shell", "echo in", check=False).returncode != 0
        finally:
            adbd.stop_server(server)
    capsys.readouterr()
    assert cli_main(["virtual-keys", "--keys-dir", str(keys_dir.path), "--allow", "00:11"]) == 2
    assert "matches no pending request" in capsys.readouterr().err


def test_connections_that_never_sign_in_are_limited_and_closed_after_the_timeout(adbd, adb_server, phone):
    server = adbd.serve(phone, auth_keys=load_keys([_key_of(adb_server)]), max_unauthenticated=3, auth_timeout=1.0)
    idle = [RawHost(server.port) for _ in range(3)]
    try:
        for host in idle:  # (each is counted once the server has taken it: one sign-in exchange shows that)
            host.connect()
        extra = RawHost(server.port)
        assert extra.closed()  # beyond the limit: closed at once
        extra.close()
        for host in idle:
            assert host.closed()  # ...and the idle ones when their time is up
        adb_server.adb("connect", server.serial)  # the slots are free again: a host with the key gets in
        adb_server.adb("-s", server.serial, "wait-for-device", timeout=10)
        assert adb_server.adb("-s", server.serial, "shell", "echo in").stdout == "in\n"
    finally:
        for host in idle:
            host.close()
        adbd.stop_server(server)
        adb_server.adb("disconnect", server.serial, check=False)


def test_a_handshake_packet_cannot_be_big(adbd, adb_server, phone):
    server = adbd.serve(phone, auth_keys=load_keys([_key_of(adb_server)]))
    host = RawHost(server.port)
    try:
        host.send(A_CNXN, 0x01000001, 1024 * 1024, b"host::" + b"x" * (MAX_HANDSHAKE_PAYLOAD + 1))
        assert host.closed()
    finally:
        host.close()
        adbd.stop_server(server)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "70000"], "--port 70000: expected a TCP port in 1..65535"),
        (["--port", "0"], "--port 0: expected a TCP port in 1..65535"),
        (["--port", "65535", "--count", "2"], "need ports 65535..65536, beyond 65535"),
        (["--port", "65535", "--count", "2", "--emulator"], "need ports 65535..65537 (every other one)"),
        (["--auth-prompt"], "--auth-prompt asks hosts to sign in: add --auth"),
        (["--storage", "0"], "--storage: expected a positive number of MiB, got 0"),
    ],
)
def test_bad_server_arguments_are_usage_errors(argv, message, capsys):
    assert cli_main(["virtual", *argv]) == 2
    assert message in capsys.readouterr().err

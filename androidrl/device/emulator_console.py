"""The Android emulator's console, as ``adb emu`` reaches it: snapshots of an emulator.

An emulator ``emulator-N`` answers a text console on port N of its machine (loopback
only); a session starts with ``auth <token>`` (the token in
``~/.emulator_console_auth_token``), each reply ends with ``OK`` or ``KO: reason``. A
virtual phone served with ``androidrl virtual --emulator`` answers the same console.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

from androidrl.errors import DeviceError

TOKEN_FILE = "~/.emulator_console_auth_token"
_EMULATOR = re.compile(r"emulator-(\d+)")


def console_port(serial: str) -> int | None:
    """The console port of an emulator serial (``emulator-5554`` -> 5554), or None for other devices."""
    match = _EMULATOR.fullmatch(serial)
    return int(match[1]) if match else None


def console_command(serial: str, command: str, timeout: float = 10.0, token_path: str = TOKEN_FILE) -> str:
    """Run one console command on the emulator ``serial``; its reply, without the final ``OK``.

    Raises:
        DeviceError: Not an emulator, the console cannot be reached, or it answers ``KO``.
    """
    port = console_port(serial)
    if port is None:
        raise DeviceError(f"{serial} is not an emulator: snapshots need emulator-N (or a virtual phone)", serial=serial)
    token_file = Path(token_path).expanduser()
    auth = f"auth {token_file.read_text().strip()}\n" if token_file.is_file() else ""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(f"{auth}{command}\nquit\n".encode())
            chunks = []
            while data := sock.recv(65536):
                chunks.append(data)
    except OSError as err:
        raise DeviceError(f"cannot reach the emulator console on port {port}: {err}", serial=serial) from None
    reply = b"".join(chunks).decode("utf-8", "replace")
    # After the banner's OK (and the auth reply's), the command's own output and verdict.
    parts = reply.split("OK\r\n", 2 if auth else 1)
    answer = parts[-1] if len(parts) > (2 if auth else 1) else ""
    if "KO:" in reply.split("OK\r\n", 1)[-1] and not answer.strip():
        raise DeviceError(f"emulator console: {reply.strip().splitlines()[-1]}", serial=serial)
    failure = next((line for line in answer.splitlines() if line.startswith("KO:")), None)
    if failure is not None:
        raise DeviceError(f"emulator console: `{command}`: {failure[3:].strip()}", serial=serial)
    return answer.rsplit("OK\r\n", 1)[0].replace("\r\n", "\n")

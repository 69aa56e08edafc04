"""Run ``adb ...`` command lines in process, through :class:`~androidrl.device.adb_client.AdbClient`.

MetaGPT-style code builds adb command lines as strings. This runs the common ones —
``devices``, ``get-state``, ``connect``, ``disconnect``, ``-s SERIAL shell|exec-out|pull|push``
— without a shell and without starting an ``adb`` process, with the same argument
semantics as the ``adb`` binary (the words after ``shell`` are joined by spaces and parsed
again by the device's shell). Anything else runs the real ``adb`` binary with an argument
list (never ``shell=True``) and a timeout.
"""

from __future__ import annotations

import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

from androidrl.device.adb_client import AdbClient
from androidrl.device.adb_server import adb_env, adb_path
from androidrl.errors import DeviceError


@dataclass(frozen=True)
class AdbResult:
    """Exit status and output of one adb command line."""

    returncode: int
    stdout: str
    stderr: str = ""


def run_adb_command(command: str | list[str], client: AdbClient, timeout: float | None = None) -> AdbResult:
    """Run an ``adb`` command line (a string is split like a POSIX shell would, without running one).

    Raises:
        ValueError: The command line does not start with ``adb`` or cannot be split.
    """
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv or Path(argv[0]).name != "adb":
        raise ValueError(f"not an adb command line: {command!r}")
    args, serial = argv[1:], None
    if len(args) >= 2 and args[0] == "-s":
        serial, args = args[1], args[2:]
    if not args:
        raise ValueError(f"adb command line without a command: {command!r}")
    try:
        result = _run_in_process(client, serial, args[0], args[1:], timeout)
    except (DeviceError, OSError) as err:
        return AdbResult(1, "", str(err))
    if result is not None:
        return result
    try:
        proc = subprocess.run(
            [adb_path(), *argv[1:]],
            capture_output=True,
            text=True,
            timeout=timeout or client.timeout,
            env=adb_env(client.port),
        )
    except DeviceError as err:  # adb is not installed
        return AdbResult(127, "", str(err))
    except subprocess.TimeoutExpired:
        return AdbResult(124, "", f"adb timed out after {timeout or client.timeout} s")
    return AdbResult(proc.returncode, proc.stdout, proc.stderr)


def _run_in_process(
    client: AdbClient, serial: str | None, verb: str, rest: list[str], timeout: float | None
) -> AdbResult | None:
    if verb == "devices":
        lines = ["List of devices attached"]
        for entry in client.devices():
            props = " ".join(f"{k}:{v}" for k, v in entry.properties.items())
            lines.append(f"{entry.serial}\t{entry.state}" + (f" {props}" if "-l" in rest and props else ""))
        return AdbResult(0, "\n".join(lines) + "\n\n")
    if verb == "connect" and len(rest) == 1:
        return AdbResult(0, client.connect(rest[0], timeout) + "\n")
    if verb == "disconnect" and len(rest) == 1:
        client.disconnect(rest[0], timeout)
        return AdbResult(0, f"disconnected {rest[0]}\n")
    if serial is None:
        return None
    if verb == "get-state":
        return AdbResult(0, client.get_state(serial, timeout) + "\n")
    if verb == "shell" and rest and not rest[0].startswith("-"):
        result = client.shell(serial, " ".join(rest), timeout)
        return AdbResult(result.exit_code, result.text, result.stderr.decode("utf-8", "replace"))
    if verb == "exec-out" and rest:
        return AdbResult(0, client.exec_out(serial, " ".join(rest), timeout).decode("utf-8", "replace"))
    if verb == "pull" and len(rest) == 2:
        data = client.pull(serial, rest[0], timeout)
        local = Path(rest[1])
        if local.is_dir():
            local = local / Path(rest[0]).name
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_bytes(data)
        return AdbResult(0, f"{rest[0]}: 1 file pulled, 0 skipped.\n")
    if verb == "push" and len(rest) == 2:
        client.push(serial, Path(rest[0]).read_bytes(), rest[1], timeout=timeout)
        return AdbResult(0, f"{rest[0]}: 1 file pushed, 0 skipped.\n")
    return None

"""``androidrl devices`` and ``androidrl doctor``: what the adb server (or a Ray cluster) has, and what to fix."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time

from androidrl.arguments import host_arg, port_arg

#: What to do about a device in each state adb reports besides ``device``.
STATE_HELP = {
    "offline": "not answering: reconnect it (`adb reconnect` / replug), or wait for the boot to finish",
    "unauthorized": "accept the 'Allow USB debugging' prompt on the phone's screen",
    "no permissions": "the USB device is not accessible: add a udev rule or run adb as root",
    "authorizing": "adb is still exchanging keys; retry in a moment",
    "connecting": "adb is still connecting; retry in a moment",
}


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl devices`` and ``androidrl doctor``."""
    devices = sub.add_parser(
        "devices",
        help="list devices with state, model and screen size",
        description="List the adb server's devices with their state, model and screen size, and explain "
        "offline or unauthorized ones (--cluster: the devices a Ray cluster advertises).",
    )
    add_adb_server(devices)
    devices.add_argument("--cluster", action="store_true", help="list the devices the Ray cluster advertises")
    devices.add_argument("--address", default="auto", help="the Ray cluster (default auto: the local one)")
    devices.set_defaults(func=list_devices)
    doctor = sub.add_parser(
        "doctor",
        help="check adb, the adb server and every device",
        description="Check the adb binary, the adb server and every device (shell, screenshot, UI dump), with timings.",
    )
    add_adb_server(doctor)
    doctor.set_defaults(func=check)


def add_adb_server(parser: argparse.ArgumentParser) -> None:
    """``--adb-host`` and ``--adb-port``: the adb server, spelled the same in every command that uses one."""
    parser.add_argument("--adb-host", type=host_arg, default="127.0.0.1", help="adb server host (default 127.0.0.1)")
    parser.add_argument(
        "--adb-port", type=port_arg, default=None, help="adb server port (default $ANDROID_ADB_SERVER_PORT or 5037)"
    )


def _client(args: argparse.Namespace):
    from androidrl.device.adb_client import AdbClient

    return AdbClient(args.adb_host, args.adb_port)


def list_devices(args: argparse.Namespace) -> int:
    """List the adb server's devices with state, model and screen size (or the Ray cluster's, with --cluster)."""
    from androidrl.device.adb import AdbDevice
    from androidrl.errors import DeviceError

    if args.cluster:
        from androidrl.node.command import list_cluster_devices

        return list_cluster_devices(args.address)

    client = _client(args)
    try:
        entries = client.devices()
    except DeviceError as err:
        print(f"androidrl: {err}", file=sys.stderr)
        return 1
    if not entries:
        print(
            "no devices: start an emulator, plug in a phone with USB debugging on, "
            "`adb connect HOST:PORT`, or serve virtual phones with `androidrl virtual`"
        )
        return 0
    rows = [("SERIAL", "STATE", "MODEL", "SCREEN")]
    notes = []
    for entry in entries:
        model, size = entry.properties.get("model", "-"), "-"
        if entry.state == "device":
            device = AdbDevice(entry.serial, host=args.adb_host, port=args.adb_port, timeout=5)
            try:
                model = device.shell("getprop ro.product.model").strip() or model
                size = "{}x{}".format(*device.screen_size)
            except DeviceError as err:
                notes.append(f"{entry.serial}: {err}")
        elif entry.state in STATE_HELP:
            notes.append(f"{entry.serial} is {entry.state}: {STATE_HELP[entry.state]}")
        rows.append((entry.serial, entry.state, model, size))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    for note in notes:
        print(note)
    return 0


def check(args: argparse.Namespace) -> int:
    """Check adb, the adb server and each device; print what to fix (1: something is wrong)."""
    from androidrl.device.adb import AdbDevice
    from androidrl.errors import DeviceError

    failures = 0

    def report(ok: bool, what: str, detail: str) -> None:
        nonlocal failures
        failures += not ok
        print(f"[{'ok' if ok else 'FAIL'}] {what}: {detail}")

    adb = shutil.which("adb")
    if adb is None:
        report(False, "adb", "not installed; on Debian/Ubuntu: sudo apt-get install adb")
        return 1
    version = subprocess.run([adb, "version"], capture_output=True, text=True, timeout=10).stdout.splitlines()
    report(True, "adb", f"{adb} ({version[0] if version else 'unknown version'})")
    client = _client(args)
    try:
        report(True, "adb server", f"{client.host}:{client.port}, protocol {client.version()}")
        entries = client.devices()
    except DeviceError as err:
        report(False, "adb server", str(err))
        return 1
    if not entries:
        report(False, "devices", "none; start an emulator, plug in a phone, or run `androidrl virtual`")
    for entry in entries:
        if entry.state != "device":
            report(False, entry.serial, f"{entry.state}: {STATE_HELP.get(entry.state, 'not usable')}")
            continue
        device = AdbDevice(entry.serial, host=args.adb_host, port=args.adb_port, timeout=10)
        try:
            start = time.perf_counter()
            device.shell("echo ok")
            echo_ms = (time.perf_counter() - start) * 1000
            start = time.perf_counter()
            frame = device.screenshot()
            shot_ms = (time.perf_counter() - start) * 1000
            start = time.perf_counter()
            device.dump_ui()
            xml_ms = (time.perf_counter() - start) * 1000
            report(
                True,
                entry.serial,
                f"screen {frame.shape[1]}x{frame.shape[0]}; shell {echo_ms:.1f} ms, "
                f"screenshot {shot_ms:.1f} ms, UI dump {xml_ms:.1f} ms",
            )
        except DeviceError as err:
            report(False, entry.serial, str(err))
    return 1 if failures else 0

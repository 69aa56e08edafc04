"""``androidrl node``: make this host a Ray node that advertises its Android devices.

On each host of a cluster::

    androidrl node --head                          # the first host: starts the cluster
    androidrl node --address HEAD:6379 --virtual 4 # the others join it (here with 4 virtual phones)

The command finds the devices this host's adb server lists as ``device`` (and/or starts
``--virtual N`` phones with ``androidrl virtual`` and connects them), starts or joins a
Ray node advertising each as a resource of one unit (``androidrl/device:<node>/<serial>``)
plus one naming the host (``androidrl/host:<node>``), prints what it advertises, and
stays until Ctrl-C or SIGTERM, when it stops the processes it started and theirs (by process
id, never ``ray stop``, which would stop every Ray process of the machine). Ray runs with
this host's ``ANDROID_ADB_SERVER_PORT``, so the env workers placed here use this host's adb
server; its own output goes to stderr, so stdout holds only what the node advertises,
printed once the Ray node is up.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from androidrl.device.adb_client import AdbClient
from androidrl.device.adb_server import free_port
from androidrl.errors import DeviceError
from androidrl.vector.cluster import DEVICE_RESOURCE, HOST_RESOURCE, cluster_devices, connect

STOP_GRACE = 5.0  # seconds the Ray node has to stop on SIGTERM before what is left of it is killed
STARTED = "Ray runtime started"  # what `ray start` prints once the node is up


def descendants(pid: int) -> list[tuple[int, str]]:
    """The processes under ``pid`` as (pid, start time), from ``/proc`` (none where there is no ``/proc``)."""
    children: dict[int, list[tuple[int, str]]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # it ended meanwhile
            continue
        children.setdefault(int(fields[1]), []).append((int(stat.parent.name), fields[19]))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child[0])
    return found


def alive(process: tuple[int, str]) -> bool:
    """Whether a process seen as (pid, start time) still runs (not another one that took its pid, not a zombie)."""
    try:
        fields = Path(f"/proc/{process[0]}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return False
    return fields[19] == process[1] and fields[0] != "Z"


def _stop(process: subprocess.Popen | None) -> None:
    """Stop a child started in a session of its own, and everything it started (even outside its group)."""
    if process is None or process.poll() is not None:
        return
    under = descendants(process.pid)
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(STOP_GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    deadline = time.monotonic() + STOP_GRACE
    while any(alive(p) for p in under) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid, _ in filter(alive, under):  # what left its group (Ray daemons) or ignored SIGTERM
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _relay(process: subprocess.Popen, started: threading.Event) -> None:
    """Copy the Ray node's output to stderr; set ``started`` once it says it is up."""
    for line in process.stdout:
        sys.stderr.write(line)
        if STARTED in line:
            started.set()


def _serve_virtual(args: argparse.Namespace, client: AdbClient) -> tuple[subprocess.Popen, list[str]]:
    """``androidrl virtual`` with ``args.virtual`` phones on free ports, connected to this host's adb server."""
    port = free_port(count=args.virtual)
    width, height, density = args.virtual_size
    command = [sys.executable, "-m", "androidrl.cli", "virtual", "--count", str(args.virtual), "--port", str(port)]
    command += ["--width", str(width), "--height", str(height), "--density", str(density)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    serials = [process.stdout.readline().strip() for _ in range(args.virtual)]
    for serial in serials:
        client.connect(serial)
    return process, serials


def _ray_command(args: argparse.Namespace, resources: dict[str, float]) -> list[str]:
    ray = shutil.which("ray", path=os.path.dirname(sys.executable)) or shutil.which("ray")
    if ray is None:
        raise SystemExit('androidrl node: Ray is not installed: pip install "androidrl[ray]"')
    command = [ray, "start", "--block", "--disable-usage-stats", f"--resources={json.dumps(resources)}"]
    command += (
        ["--head", f"--port={args.port}", "--include-dashboard=false"] if args.head else [f"--address={args.address}"]
    )
    if args.node_ip_address:
        command.append(f"--node-ip-address={args.node_ip_address}")
    if args.num_cpus is not None:
        command.append(f"--num-cpus={args.num_cpus}")
    if args.temp_dir:
        command.append(f"--temp-dir={args.temp_dir}")
    return command


def node(args: argparse.Namespace) -> int:
    """Run a Ray node advertising this host's devices until SIGINT/SIGTERM (see the module docstring)."""
    if args.head == bool(args.address):
        print("androidrl node: give --head (start a cluster) or --address HEAD:PORT (join one)", file=sys.stderr)
        return 2
    name = args.name or socket.gethostname()
    client = AdbClient(port=args.adb_port, timeout=10)
    phones = ray_node = None
    stop = {"signal": 0}

    def on_signal(signum: int, frame: object) -> None:
        stop["signal"] = signum

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        serials: list[str] = []
        if args.virtual:
            phones, serials = _serve_virtual(args, client)
        try:
            listed = [e.serial for e in client.devices() if e.state == "device"]
        except DeviceError as err:
            print(f"androidrl node: {err}", file=sys.stderr)
            return 1
        serials = sorted(set(serials) | set(listed))
        resources = {f"{DEVICE_RESOURCE}{name}/{serial}": 1 for serial in serials}
        resources[f"{HOST_RESOURCE}{name}"] = 1
        env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(client.port)}
        ray_node = subprocess.Popen(
            _ray_command(args, resources),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        started = threading.Event()
        threading.Thread(target=_relay, args=(ray_node, started), daemon=True).start()
        while not started.wait(0.2) and not stop["signal"] and ray_node.poll() is None:
            pass
        if not started.is_set():
            if stop["signal"]:
                return 0
            print(f"androidrl node: the Ray node failed to start (exit {ray_node.returncode}; its output is above)",
                  file=sys.stderr)  # fmt: skip
            return 1
        where = f"{args.node_ip_address or 'this host'}:{args.port}" if args.head else args.address
        print(f"node {name}: advertising {len(serials)} device(s) to the Ray cluster at {where}", flush=True)
        for serial in serials:
            print(f"  {DEVICE_RESOURCE}{name}/{serial}", flush=True)
        if args.head:
            print(f"join from other hosts with: androidrl node --address {where}", flush=True)
        while not stop["signal"] and ray_node.poll() is None:
            time.sleep(0.2)
        if not stop["signal"]:
            print(f"androidrl node: the Ray node exited with {ray_node.returncode}", file=sys.stderr)
            return 1
        return 0
    finally:
        _stop(ray_node)
        _stop(phones)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def list_cluster_devices(address: str) -> int:
    """``androidrl devices --cluster``: every device the cluster advertises, with its host and state."""
    from androidrl.vector.cluster import ClusterError

    try:
        devices = cluster_devices(connect(address))
    except ClusterError as err:
        print(f"androidrl devices: {err}", file=sys.stderr)
        return 1
    if not devices:
        print("the cluster advertises no devices: run `androidrl node` on the hosts that have them")
        return 0
    rows = [("DEVICE", "HOST", "STATE")] + [(d.name, d.host, "in use" if d.in_use else "free") for d in devices]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    return 0

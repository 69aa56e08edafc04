"""``androidrl node``: make this host a Ray node that advertises its Android devices.

On each host of a cluster::

    androidrl node --head                          # the first host: starts the cluster
    androidrl node --address HEAD:6379 --virtual 4 # the others join it (here with 4 virtual phones)

The command claims this host's adb server (one node per adb server: :mod:`.adb_owner`),
starting one if none runs, finds the devices it lists as ``device`` (and/or starts
``--virtual N`` phones with ``androidrl virtual`` on ports derived from the node's name, so
that they keep their serials across restarts), turns Ray's token authentication on
(:mod:`.auth`), starts or joins a Ray node with every port pinned (:mod:`.ray_node`)
advertising each device as a resource of one unit (``androidrl/device:<node>/<serial>``)
plus one naming the host (``androidrl/host:<node>``), and prints what it advertises, the
address Ray uses for this host, the token and the ports. It stays until Ctrl-C or SIGTERM,
when it stops the processes it started and theirs (by process id, never ``ray stop``, which
would stop every Ray process of the machine) and removes its files. Ray runs with this
host's ``ANDROID_ADB_SERVER_PORT``, so the env workers placed here use this host's adb
server; its own output goes to stderr, so stdout holds only what the node says, printed
once the Ray node is up.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from importlib import metadata
from typing import Any

from androidrl.device.adb_client import AdbClient
from androidrl.errors import DeviceError
from androidrl.node import NodeError
from androidrl.node.adb_owner import AdbClaim, start_adb_server
from androidrl.node.auth import prepare_token
from androidrl.node.ports import PORTS, bindable, check_ports, virtual_port
from androidrl.node.processes import stop
from androidrl.node.ray_node import NodeFiles, ray_command
from androidrl.provenance import commit, version
from androidrl.vector.cluster import DEVICE_RESOURCE, HOST_RESOURCE, cluster_devices, connect

STARTED = "Ray runtime started"  # what `ray start` prints once the node is up
NODE_IP = re.compile(r"Local node IP: (\S+)")  # what it prints of the address it uses for this host


def _relay(process: subprocess.Popen, started: threading.Event, seen: dict[str, str]) -> None:
    """Copy the Ray node's output to stderr; note the address it uses; set ``started`` once it says it is up."""
    for line in process.stdout:
        sys.stderr.write(line)
        found = NODE_IP.search(line)
        if found:
            seen["node_ip"] = found.group(1)
        if STARTED in line:
            started.set()


def _serve_virtual(args: argparse.Namespace, name: str, client: AdbClient, started: list[Any]) -> list[str]:
    """``androidrl virtual`` with ``args.virtual`` phones on the node's ports, connected to this host's adb server.

    What it starts goes to ``started`` at once (the node stops it, even when this fails midway).

    Raises:
        NodeError: The ports are taken, or the phones did not start.
    """
    port = args.virtual_port or virtual_port(name)
    ports = range(port, port + args.virtual)
    taken = [p for p in ports if not bindable(p)]
    if taken:
        origin = "--virtual-port" if args.virtual_port else f"derived from the node name {name!r}"
        raise NodeError(
            f"port {taken[0]} for the --virtual phones ({ports[0]}-{ports[-1]}, {origin}, so that their serials "
            "stay the same across restarts) is in use: is this node running already? Otherwise give --virtual-port"
        )
    width, height, density = args.virtual_size
    command = [sys.executable, "-m", "androidrl.cli", "virtual", "--count", str(args.virtual), "--port", str(port)]
    command += ["--width", str(width), "--height", str(height), "--density", str(density)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    started.append(process)
    serials = [process.stdout.readline().strip() for _ in range(args.virtual)]
    if not all(serials):
        raise NodeError(f"the --virtual phones did not start (`{' '.join(command)}`; its output is above)")
    started.append((client, serials))
    for serial in serials:
        client.connect(serial)
    return serials


def versions() -> str:
    """androidrl's, Ray's and Python's versions, which every host of a cluster must share (Ray checks its own two)."""
    try:
        ray = metadata.version("ray")
    except metadata.PackageNotFoundError:
        ray = "not installed"
    sha = commit()
    mine = f"androidrl {version()}" + (f" (commit {sha[:12]}{'+dirty' * sha.endswith('+dirty')})" if sha else "")
    return f"{mine}, Ray {ray}, Python {platform.python_version()}"


def _say(name: str, lines: list[str]) -> None:
    for line in lines:
        print(f"node {name}: {line}", flush=True)


def _ports_line(args: argparse.Namespace) -> str:
    """The ports other hosts must reach on this node."""
    shared = [p for p in PORTS if p.reached_from == "every host" and (args.head or not p.head_only)]
    listed = ", ".join(f"{getattr(args, p.dest)} ({p.what.split(' (')[0]})" for p in shared)
    return (
        f"ports the other hosts must reach here: {listed}, {args.min_worker_port}-{args.max_worker_port} "
        "(workers); see docs/scale-out.md"
    )


class _Node:
    """A running node's state: its name, the signal that stops it, what it started (to stop, last first)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.signal = 0
        self.started: list[Any] = []  # the adb claim, an adb server, phones, (client, serials), the Ray node
        self.files: NodeFiles | None = None

    def on_signal(self, signum: int, frame: object) -> None:
        self.signal = signum

    def shut_down(self) -> None:
        """Stop what the node started, last first, and remove its files (Ray's logs are kept unless stopped cleanly)."""
        for item in reversed(self.started):
            if isinstance(item, AdbClaim):
                item.release()
            elif isinstance(item, tuple):  # (adb client, serials): the phones leave the adb server's list
                client, serials = item
                for serial in serials:
                    with contextlib.suppress(DeviceError):
                        client.disconnect(serial, timeout=2)
            else:
                stop(item)
        if self.files is not None:
            self.files.forget_address()
            if self.signal:
                self.files.remove()
            else:
                print(f"androidrl node: Ray's logs are in {self.files.directory}", file=sys.stderr)


def node(args: argparse.Namespace) -> int:
    """Run a Ray node advertising this host's devices until SIGINT/SIGTERM (see the module docstring)."""
    if args.head == bool(args.address):
        print("androidrl node: give --head (start a cluster) or --address HEAD:PORT (join one)", file=sys.stderr)
        return 2
    state = _Node(args.name or socket.gethostname())
    previous = {sig: signal.signal(sig, state.on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        return _run(args, state)
    except (NodeError, DeviceError) as err:
        print(f"androidrl node: {err}", file=sys.stderr)
        return 1
    finally:
        state.shut_down()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _run(args: argparse.Namespace, state: _Node) -> int:
    name, adb_port = state.name, args.adb_port or AdbClient().port
    check_ports(args, args.head)
    env = {**os.environ, "ANDROID_ADB_SERVER_PORT": str(adb_port)}
    told = prepare_token(args.head, env)
    state.started.append(AdbClaim(adb_port, name))
    adb_server = start_adb_server(adb_port)
    if adb_server is not None:
        state.started.append(adb_server)
    client = AdbClient(port=adb_port, timeout=10)
    serials: list[str] = []
    if args.virtual:
        serials = _serve_virtual(args, name, client, state.started)
    listed = [e.serial for e in client.devices() if e.state == "device"]
    serials = sorted(set(serials) | set(listed))
    resources = {f"{DEVICE_RESOURCE}{name}/{serial}": 1 for serial in serials}
    resources[f"{HOST_RESOURCE}{name}"] = 1
    files = state.files = NodeFiles(args.temp_dir)
    ray_node = subprocess.Popen(
        ray_command(args, resources, files.directory),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    state.started.append(ray_node)
    up, seen = threading.Event(), {}
    threading.Thread(target=_relay, args=(ray_node, up, seen), daemon=True).start()
    while not up.wait(0.2) and not state.signal and ray_node.poll() is None:
        pass
    if not up.is_set():
        if state.signal:
            return 0
        raise NodeError(f"the Ray node failed to start (exit {ray_node.returncode}; its output is above)")
    deadline = time.monotonic() + 10  # (Ray records the address just after saying it is up)
    while not files.record_address() and time.monotonic() < deadline and ray_node.poll() is None:
        time.sleep(0.1)
    cluster = files.address or args.address
    print(f"node {name}: advertising {len(serials)} device(s) to the Ray cluster at {cluster}", flush=True)
    for serial in serials:
        print(f"  {DEVICE_RESOURCE}{name}/{serial}", flush=True)
    node_ip = seen.get("node_ip", args.node_ip_address or "?")
    how = "as given by --node-ip-address" if args.node_ip_address else "Ray's guess: give --node-ip-address to choose"
    said = [f"this host's address in the cluster: {node_ip} ({how})"]
    if node_ip.startswith("127."):
        said.append("warning: a loopback address: only this machine can reach this node")
    said.append(f"versions: {versions()} (every host must run the same)")
    if adb_server is not None:
        said.append(f"started an adb server on port {adb_port} (it stops with this node)")
    _say(name, [*said, *told, _ports_line(args)])
    if args.head:
        print(f"join from other hosts with: androidrl node --address {cluster} --node-ip-address ADDRESS", flush=True)
    while not state.signal and ray_node.poll() is None:
        time.sleep(0.2)
    if not state.signal:
        raise NodeError(f"the Ray node exited with {ray_node.returncode}")
    return 0


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

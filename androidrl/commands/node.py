"""``androidrl node``: make this host a Ray node advertising its devices (the work is in :mod:`androidrl.node`)."""

from __future__ import annotations

import argparse

from androidrl.node.ports import PORTS, WORKER_PORTS


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl node``."""
    node = sub.add_parser(
        "node",
        help="make this host a Ray node advertising its devices (--head, or --address HEAD:PORT)",
        description="Start or join a Ray cluster, advertising this host's adb devices (and --virtual phones) "
        "so that env workers run next to them. Stops its own processes on Ctrl-C or SIGTERM.",
    )
    node.add_argument("--head", action="store_true", help="start a new cluster on this host")
    node.add_argument("--address", help="join the cluster whose head is at HOST:PORT")
    node.add_argument(
        "--node-ip-address",
        help="this host's address, the one the other hosts reach (default: Ray's guess, the address of the "
        "interface of the default route; echoed once the node is up)",
    )
    node.add_argument("--name", help="the node's name in device names <name>/<serial> (default: the host name)")
    node.add_argument("--virtual", type=int, default=0, help="also serve this many virtual phones and advertise them")
    node.add_argument(
        "--virtual-port",
        type=_port,
        default=None,
        help="first port of those phones (default: derived from --name, so that a restarted node serves them "
        "under the same serials)",
    )
    node.add_argument(
        "--virtual-size", type=_virtual_size, default=(360, 800, 160), help="WxH@DPI of those phones (360x800@160)"
    )
    node.add_argument(
        "--adb-port",
        type=_port,
        default=None,
        help="this host's adb server port (default $ANDROID_ADB_SERVER_PORT or 5037); one node per adb server, "
        "started by the node if none runs there",
    )
    node.add_argument("--num-cpus", type=int, default=None, help="CPUs the node offers (default: all)")
    node.add_argument(
        "--temp-dir", help="the Ray node's temporary directory (default: a new one, removed on a clean stop)"
    )
    ports = node.add_argument_group(
        "Ray's ports", "pinned, so that a firewall between the hosts can let them through (docs/scale-out.md)"
    )
    for port in PORTS:
        head = " (with --head)" if port.head_only else ""
        ports.add_argument(
            port.flag, type=_port, default=port.default, help=f"{port.what}{head}; reached from {port.reached_from}"
        )
    low, high = WORKER_PORTS
    ports.add_argument("--min-worker-port", type=_port, default=low, help=f"first port of the workers ({low})")
    ports.add_argument("--max-worker-port", type=_port, default=high, help=f"last port of the workers ({high})")
    node.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the node until Ctrl-C or SIGTERM."""
    from androidrl.node.command import node

    return node(args)


def _port(text: str) -> int:
    """A TCP port Ray and adb take, for argparse."""
    if not text.isdigit() or not 1024 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1024 to 65535, got {text!r}")
    return int(text)


def _virtual_size(text: str) -> tuple[int, int, int]:
    """``WxH@DPI`` for argparse."""
    from androidrl.device.spec import DeviceSpec

    try:
        spec = DeviceSpec.parse(f"virtual:{text}")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return spec.width, spec.height, spec.density

"""``androidrl node``: make this host a Ray node advertising its devices (the work is in :mod:`androidrl.node`)."""

from __future__ import annotations

import argparse


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
    node.add_argument("--port", type=int, default=6379, help="the head's port (with --head; default 6379)")
    node.add_argument("--node-ip-address", help="this host's address as the cluster sees it (default: Ray's guess)")
    node.add_argument("--name", help="the node's name in device names <name>/<serial> (default: the host name)")
    node.add_argument("--virtual", type=int, default=0, help="also serve this many virtual phones and advertise them")
    node.add_argument(
        "--virtual-size", type=_virtual_size, default=(360, 800, 160), help="WxH@DPI of those phones (360x800@160)"
    )
    node.add_argument(
        "--adb-port",
        type=int,
        default=None,
        help="this host's adb server port (default $ANDROID_ADB_SERVER_PORT or 5037)",
    )
    node.add_argument("--num-cpus", type=int, default=None, help="CPUs the node offers (default: all)")
    node.add_argument("--temp-dir", help="the Ray node's temporary directory (default: Ray's, /tmp/ray)")
    node.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the node until Ctrl-C or SIGTERM."""
    from androidrl.node import node

    return node(args)


def _virtual_size(text: str) -> tuple[int, int, int]:
    """``WxH@DPI`` for argparse."""
    from androidrl.device.spec import DeviceSpec

    try:
        spec = DeviceSpec.parse(f"virtual:{text}")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return spec.width, spec.height, spec.density

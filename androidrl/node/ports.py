"""Every port of a node, pinned: Ray's (with ``ray start``'s flag names) and those of its virtual phones.

Ray listens on every interface and, left alone, on ports it picks at random; a firewall
between hosts could then only be opened wide. :data:`PORTS` and :data:`WORKER_PORTS` are the
defaults of ``androidrl node``'s flags and the list docs/scale-out.md gives ("Ports").
"""

from __future__ import annotations

import socket
import zlib
from dataclasses import dataclass

from androidrl.node import NodeError


@dataclass(frozen=True)
class RayPort:
    """A port of a Ray node: its flag (``ray start``'s, and ``androidrl node``'s), default, and who connects to it."""

    flag: str
    default: int
    what: str
    reached_from: str
    head_only: bool = False

    @property
    def dest(self) -> str:
        """The argparse attribute of the flag."""
        return self.flag.lstrip("-").replace("-", "_")


PORTS = (
    RayPort("--port", 6379, "GCS (the cluster's control store)", "every host", head_only=True),
    RayPort("--node-manager-port", 6380, "node manager (raylet)", "every host"),
    RayPort("--object-manager-port", 6381, "object manager", "every host"),
    RayPort("--runtime-env-agent-port", 6382, "runtime env agent", "this host only"),
    RayPort("--dashboard-agent-grpc-port", 6383, "dashboard agent (gRPC)", "this host only"),
    RayPort("--dashboard-agent-listen-port", 6384, "dashboard agent (HTTP)", "nobody: the dashboard is off"),
    RayPort("--metrics-export-port", 6385, "metrics export (Prometheus)", "your metrics scraper, if any"),
    RayPort("--ray-client-server-port", 6386, "Ray Client server", "nobody: androidrl uses no Ray Client", True),
)
WORKER_PORTS = (10002, 10999)  # --min-worker-port, --max-worker-port: actors and drivers, reached from every host
VIRTUAL_PORTS = (20000, 32767)  # where --virtual phones' ports are derived (below Linux's ephemeral ports)
VIRTUAL_STRIDE = 16


def ports_of(args: object, head: bool) -> dict[str, int]:
    """The pinned ports this node uses, by flag (the head's own included on the head)."""
    return {p.flag: getattr(args, p.dest) for p in PORTS if head or not p.head_only}


def check_ports(args: object, head: bool) -> None:
    """Refuse ports that clash, or that another process holds already.

    Raises:
        NodeError: Two flags name one port, a port is inside the worker range, the range is
            empty, or a port is in use on this host (naming its flag).
    """
    ports = ports_of(args, head)
    low, high = args.min_worker_port, args.max_worker_port
    if low > high:
        raise NodeError(f"--min-worker-port {low} is above --max-worker-port {high}")
    seen: dict[int, str] = {}
    for flag, port in ports.items():
        if port in seen:
            raise NodeError(f"{flag} and {seen[port]} are both {port}: give each its own port")
        if low <= port <= high:
            raise NodeError(f"{flag} {port} is inside the worker ports {low}-{high}: give a port outside them")
        seen[port] = flag
    for flag, port in ports.items():
        if not bindable(port, "0.0.0.0"):
            raise NodeError(
                f"port {port} ({flag}) is in use on this host (another Ray node?): stop what holds it, or give "
                f"{flag} another port (and open that one between the hosts, see docs/scale-out.md)"
            )


def bindable(port: int, host: str = "127.0.0.1") -> bool:
    """Whether a TCP server could listen on ``host:port`` now."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def virtual_port(name: str) -> int:
    """The first port of a node's ``--virtual`` phones, the same for the same node name.

    A phone's serial is ``127.0.0.1:PORT``; a node restarted under its name serves its phones
    under the same serials, so the actors that drove them find them again. Names map to blocks
    of :data:`VIRTUAL_STRIDE` ports in :data:`VIRTUAL_PORTS`.
    """
    blocks = (VIRTUAL_PORTS[1] - VIRTUAL_PORTS[0] + 1) // VIRTUAL_STRIDE
    return VIRTUAL_PORTS[0] + zlib.crc32(name.encode()) % blocks * VIRTUAL_STRIDE

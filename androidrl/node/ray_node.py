"""The Ray node of ``androidrl node``: its ``ray start`` command, its directory and the record ``auto`` reads."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from androidrl.node import NodeError
from androidrl.node.ports import ports_of
from androidrl.vector.cluster import address_file, ray_temp_dir


def ray_command(args: object, resources: dict[str, float], temp_dir: Path) -> list[str]:
    """``ray start`` for this node: blocking, its resources, every port pinned, the dashboard off."""
    ray = shutil.which("ray", path=os.path.dirname(sys.executable)) or shutil.which("ray")
    if ray is None:
        raise NodeError('Ray is not installed: pip install "androidrl[ray]"')
    command = [ray, "start", "--block", "--disable-usage-stats", "--log-color=false"]
    command += [f"--resources={json.dumps(resources)}", f"--temp-dir={temp_dir}"]
    command += ["--head", "--include-dashboard=false"] if args.head else [f"--address={args.address}"]
    command += [f"{flag}={port}" for flag, port in ports_of(args, args.head).items()]
    command += [f"--min-worker-port={args.min_worker_port}", f"--max-worker-port={args.max_worker_port}"]
    if args.node_ip_address:
        command.append(f"--node-ip-address={args.node_ip_address}")
    if args.num_cpus is not None:
        command.append(f"--num-cpus={args.num_cpus}")
    return command


class NodeFiles:
    """The Ray node's temporary directory, and the record of the cluster that ``address: auto`` reads.

    Without ``--temp-dir`` the node gets a new directory (under ``$RAY_TMPDIR``, ``$TMPDIR``
    or ``/tmp``), removed on a clean stop; with it, what the node added to that directory is
    removed. Ray records the cluster's address in the node's directory; it is copied to
    :func:`~androidrl.vector.cluster.address_file` while the node runs (``address: auto`` on
    this host), and removed on any stop if it still names this node's cluster.
    """

    def __init__(self, given: str | None) -> None:
        if given is None:
            parent = ray_temp_dir().parent
            parent.mkdir(parents=True, exist_ok=True)
            self.directory = Path(tempfile.mkdtemp(prefix="arl-node-", dir=parent))  # (short: socket paths)
            self._before: set[str] | None = None
        else:
            self.directory = Path(given).resolve()
            made = not self.directory.exists()
            self.directory.mkdir(parents=True, exist_ok=True)
            self._before = None if made else set(os.listdir(self.directory))
        self.address = ""
        self._recorded = False

    def record_address(self) -> str:
        """The cluster's address as Ray recorded it for this node (``HOST:PORT``), copied for ``auto``; "" if none."""
        with contextlib.suppress(OSError):
            self.address = (self.directory / "ray_current_cluster").read_text().strip()
        if self.address:
            target = address_file()
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.address)
            self._recorded = True
        return self.address

    def forget_address(self) -> None:
        """Remove the record of this node's cluster, once this node's Ray is stopped.

        Kept if it names another cluster now, or if another Ray node of this cluster still runs
        on this host (a head and a node on one machine).
        """
        target = address_file()
        with contextlib.suppress(OSError):
            if self._recorded and target.read_text().strip() == self.address and not raylets_of(self.address):
                target.unlink()
                with contextlib.suppress(OSError):
                    target.parent.rmdir()  # (only if empty: Ray's own directory may hold more)

    def remove(self) -> None:
        """Remove what the Ray node left in its directory (all of it, if the node made the directory)."""
        if self._before is None:
            shutil.rmtree(self.directory, ignore_errors=True)
            return
        for entry in self._added():
            path = self.directory / entry
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    path.unlink()

    def _added(self) -> Iterator[str]:
        with contextlib.suppress(OSError):
            yield from sorted(set(os.listdir(self.directory)) - (self._before or set()))


def raylets_of(address: str) -> list[int]:
    """The process ids of the Ray nodes (raylets) on this host that belong to the cluster at ``address``."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            argv = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and os.path.basename(argv[0]) == b"raylet" and f"--gcs-address={address}".encode() in argv:
            found.append(int(cmdline.parent.name))
    return found

"""One node per adb server: the node that advertises an adb server's devices owns it (and starts it if need be).

Two nodes on one adb server would both advertise its phones, and two workers would then drive
one phone. So a node first claims the adb server it uses: on Linux, a listening socket in the
abstract namespace named after the server's address (abstract names are per network
namespace, as ``127.0.0.1:PORT`` is: the claim covers exactly the processes that reach that
server, and ends with the process that holds it, even on ``kill -9``); elsewhere, a lock on a
file. The holder answers who it is, for the message of the node turned away.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from androidrl.device.adb_client import AdbClient
from androidrl.device.adb_server import adb_env, adb_path
from androidrl.errors import DeviceError
from androidrl.node import NodeError


class AdbClaim:
    """This node's claim on the adb server at 127.0.0.1:``port``, held until :meth:`release`.

    Args:
        port: The adb server's port.
        name: The node's name, told to a node that is turned away.

    Raises:
        NodeError: Another node holds the claim (naming it).
    """

    def __init__(self, port: int, name: str) -> None:
        self.port = port
        self.address = f"127.0.0.1:{port}"
        self._socket: socket.socket | None = None
        self._lock_file = None
        about = json.dumps({"name": name, "pid": os.getpid()}).encode()
        if sys.platform.startswith("linux"):
            self._claim_socket(about)
        else:
            self._claim_file(about)

    def _refused(self, holder: dict) -> NodeError:
        who = f"node {holder.get('name', '?')} (pid {holder.get('pid', '?')})" if holder else "another androidrl node"
        return NodeError(
            f"the adb server at {self.address} already belongs to {who}, which advertises its devices; two "
            "nodes on one adb server would put two workers on each phone. Stop that node, or give this one "
            "an adb server of its own (--adb-port)"
        )

    def _claim_socket(self, about: bytes) -> None:
        name = f"\0androidrl-node/adb-server/{self.address}"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(name)
        except OSError as err:
            sock.close()
            if err.errno != errno.EADDRINUSE:
                raise
            raise self._refused(_ask(name)) from None
        sock.listen(8)
        self._socket = sock
        threading.Thread(target=_answer, args=(sock, about), daemon=True).start()

    def _claim_file(self, about: bytes) -> None:
        import fcntl

        path = Path(tempfile.gettempdir()) / f"androidrl-node-adb-{self.port}.lock"
        handle = path.open("a+b")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            try:
                holder = json.loads(handle.read() or b"{}")
            except ValueError:
                holder = {}
            handle.close()
            raise self._refused(holder) from None
        handle.truncate(0)
        handle.write(about)
        handle.flush()
        self._lock_file = handle

    def release(self) -> None:
        """Give the claim up (idempotent)."""
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)
            self._socket.close()
            self._socket = None
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None


def _answer(sock: socket.socket, about: bytes) -> None:
    """Tell whoever asks which node holds the claim, until the socket closes."""
    while True:
        try:
            conn, _ = sock.accept()
        except OSError:
            return
        with conn, contextlib.suppress(OSError):
            conn.sendall(about)


def _ask(name: str) -> dict:
    """What the holder of an abstract socket says about itself ({} if it does not say)."""
    with contextlib.suppress(OSError, ValueError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(2)
        sock.connect(name)
        return json.loads(sock.recv(4096) or b"{}")
    return {}


def start_adb_server(port: int, seconds: float = 15.0) -> subprocess.Popen | None:
    """An adb server on ``port`` started by this node (stopped with it), or None if one already answers there.

    Raises:
        NodeError: adb is missing, or the server did not come up.
    """
    client = AdbClient(port=port, timeout=2)
    with contextlib.suppress(DeviceError):
        client.version()
        return None
    try:
        command = [adb_path(), "-P", str(port), "nodaemon", "server"]
    except DeviceError as err:
        raise NodeError(str(err)) from None
    process = subprocess.Popen(command, env=adb_env(port), stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        with contextlib.suppress(DeviceError):
            client.version()
            return process
        time.sleep(0.1)
    if process.poll() is None:
        process.kill()
    process.wait()
    raise NodeError(
        f"could not start an adb server on port {port} (`{' '.join(command)}` exited with {process.returncode}; "
        "its output is above)"
    )

"""Shared fixtures: small virtual phones and the devices and envs over them."""

from __future__ import annotations

import contextlib
import gc
import io
import signal
import struct
import time
import warnings
import zipfile
from pathlib import Path

import pytest

from androidrl.device.adb import AdbDevice
from androidrl.device.adb_server import IsolatedAdbServer
from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.ui import ui_elements
from androidrl.virtual.adbd.server import AdbdThread
from androidrl.virtual.console import ConsoleServer
from androidrl.virtual.phone import VirtualPhone

# A harness that starts the tests in the background ignores SIGINT, and every command a test starts would inherit
# that; the tests send Ctrl-C as a terminal does, so the commands must receive it as from a terminal.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Functions of the test modules go to vector workers by value, as a script's own functions do.

    Workers start from a forkserver (or spawn): a function pickled by reference would make each
    worker import its test module, and with it pytest and SB3's torch (seconds per worker).
    """
    import cloudpickle

    for module in {item.module for item in session.items if getattr(item, "module", None) is not None}:
        cloudpickle.register_pickle_by_value(module)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A failed test that used an adb server of the tests' own says whether it still answers, and its log's end."""
    report = yield
    servers = [v for v in getattr(item, "funcargs", {}).values() if isinstance(v, IsolatedAdbServer)]
    for server in servers if report.failed else ():
        state = "answers" if server.answers() else "does NOT answer (gone)"
        report.sections.append((f"adb server on port {server.port}", f"{state}\n{server.log_tail()}"))
    return report


# Small screens keep tests fast; 160 dpi makes 1 dp = 1 px.
WIDTH, HEIGHT, DENSITY = 360, 800, 160


def tiny_config(**changes: object) -> dict:
    """A tap-target training config small enough for tests; a dict given for a section updates it, anything else
    replaces it."""
    config: dict = {
        "experiment": "test",
        "devices": {"virtual": {"count": 2, "width": WIDTH, "height": HEIGHT, "density": DENSITY}},
        "task": "tap-target",
        "observation": {"shape": [84, 40]},
        "action": {"type": "grid", "rows": 3, "cols": 3, "region": [0, 0.09, 1, 0.94]},
        "algo": {"name": "PPO", "hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 1}},
        "training": {"total_timesteps": 128, "eval_freq": 0, "checkpoint_freq": 0, "progress_bar": False},
    }
    for key, value in changes.items():
        merge = isinstance(value, dict) and isinstance(config.get(key), dict)
        config[key] = {**config[key], **value} if merge else value
    return config


def start_time(pid: int) -> str | None:
    """When process ``pid`` started (field 22 of its stat), or None if it is not running (gone, or a zombie)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return None if fields[0] == "Z" else fields[19]


def wait_until_gone(pids: dict[int, str], leftovers: Path, seconds: float = 30) -> tuple[list[int], list[str]]:
    """Poll until none of ``pids`` (pid -> start time) runs and ``leftovers`` holds no androidrl directory.

    Returns what is still there after ``seconds``: the pids, the directories.
    """
    deadline = time.monotonic() + seconds
    while True:
        alive = [pid for pid, started in pids.items() if start_time(pid) == started]
        dirs = sorted(p.name for p in leftovers.glob("androidrl-*"))
        if (not alive and not dirs) or time.monotonic() > deadline:
            return alive, dirs
        time.sleep(0.2)


def children(pid: int) -> dict[int, str]:
    """The processes whose parent is ``pid``: pid -> start time (as :func:`start_time` gives it)."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # (gone meanwhile)
            continue
        if int(fields[1]) == pid:
            found[int(stat.parent.name)] = fields[19]
    return found


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=0, boot_seconds=0.2)


@pytest.fixture(scope="session")
def adb_server():
    """A private adb server (own port and HOME, no emulator scan), killed after the session."""
    with IsolatedAdbServer() as server:
        yield server


@pytest.fixture(scope="session")
def adbd():
    """A background thread serving virtual phones as adbd over TCP."""
    with AdbdThread() as thread:
        yield thread


@pytest.fixture
def served(phone: VirtualPhone, adbd: AdbdThread, adb_server: IsolatedAdbServer):
    """``phone`` behind its own virtual adbd, connected to the private adb server; yields the server."""
    server = adbd.serve(phone)
    adb_server.adb("connect", server.serial)
    adb_server.adb("-s", server.serial, "wait-for-device", timeout=10)
    yield server
    # Disconnected first: a phone that goes away while connected leaves the session's server
    # trying to reconnect to it (for minutes, beside every later test).
    adb_server.adb("disconnect", server.serial, check=False)
    adbd.stop_server(server)


@pytest.fixture(params=["inprocess", "adb"])
def device(request, phone: VirtualPhone):
    """The same phone as an in-process VirtualDevice, and behind the real adb as an AdbDevice."""
    if request.param == "inprocess":
        return VirtualDevice(phone, timeout=5.0)
    server = request.getfixturevalue("served")
    port = request.getfixturevalue("adb_server").port
    return AdbDevice(server.serial, port=port, timeout=5.0)


@pytest.fixture
def env(device: VirtualDevice, tmp_path):
    env = AndroidEnv(device, save_dir=tmp_path / "obs", reset_timeout=5.0)
    yield env
    env.close()


def node_bounds(xml: str, **attrs: str) -> tuple[int, int, int, int]:
    """Bounds of the first UI element whose fields equal ``attrs`` (text, resource_id, content_desc...)."""
    element = next((e for e in ui_elements(xml) if all(getattr(e, k) == v for k, v in attrs.items())), None)
    assert element is not None, f"no node with {attrs}"
    return element.bounds


def serve_as_emulator(adbd: AdbdThread, phone: VirtualPhone, adb_server: IsolatedAdbServer):
    """Serve ``phone`` on the first free emulator adb port (5555, 5557...), announced to ``adb_server``."""
    for port in range(5555, 5586, 2):
        try:
            return adbd.serve(phone, port=port, announce_port=adb_server.port)
        except OSError:
            continue
    pytest.skip("no free emulator port in 5555-5585")


def serve_as_emulator_with_console(adbd: AdbdThread, phone: VirtualPhone, adb_server: IsolatedAdbServer):
    """Serve ``phone`` on the first free emulator port pair: its console (with the auth token file the
    emulator writes, in the adb server's home) and its adbd, announced to ``adb_server``; (console, adbd).

    A pair whose emulator the adb server still lists (an earlier test's, gone) is passed over.
    """
    listed = adb_server.adb("devices").stdout
    for port in range(5555, 5586, 2):
        if f"emulator-{port - 1}\t" in listed:
            continue
        try:
            console = adbd.run(
                ConsoleServer(phone, port - 1, token_path=adb_server.home / ".emulator_console_auth_token")
            )
            return console, adbd.serve(phone, port=port, announce_port=adb_server.port)
        except OSError:
            continue
    pytest.skip("no free emulator port pair in 5554-5585")


@contextlib.contextmanager
def warnings_raised():
    """Every warning raised inside the block, as messages (the list fills when the block ends).

    The collector runs first: what earlier tests left behind (a pipe never closed) warns then,
    not inside the block.
    """
    gc.collect()
    messages: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield messages
    messages.extend(str(w.message) for w in caught)


def center(bounds: tuple[int, int, int, int]) -> tuple[int, int]:
    return (bounds[0] + bounds[2]) // 2, (bounds[1] + bounds[3]) // 2


def tap_node(device, **attrs: str) -> None:
    """Tap the centre of the node matching ``attrs`` in the current UI dump."""
    device.tap(*center(node_bounds(device.dump_ui(), **attrs)))


def make_apk(package: str, payload: bytes = b"dex\n035\0") -> bytes:
    """A minimal APK: a zip whose AndroidManifest.xml is binary XML with <manifest package=...>."""
    strings = ["package", package, "manifest"]
    encoded = b"".join(struct.pack("<H", len(t)) + t.encode("utf-16-le") + b"\0\0" for t in strings)
    offsets, at = [], 0
    for text in strings:
        offsets.append(at)
        at += 2 + 2 * len(text) + 2
    pool_header = 28 + 4 * len(strings)
    pool = struct.pack("<HHIIIIII", 0x0001, 28, pool_header + len(encoded), len(strings), 0, 0, pool_header, 0)
    pool += struct.pack(f"<{len(strings)}I", *offsets) + encoded
    attribute = struct.pack("<iiiHBBi", -1, 0, 1, 8, 0, 3, 1)
    element = struct.pack("<HHIIi", 0x0102, 16, 16 + 20 + len(attribute), 1, -1)
    element += struct.pack("<iiHHHHHH", -1, 2, 20, 20, 1, 0, 0, 0) + attribute
    body = pool + element
    manifest = struct.pack("<HHI", 0x0003, 8, 8 + len(body)) + body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("AndroidManifest.xml", manifest)
        archive.writestr("classes.dex", payload)
    return out.getvalue()


# ---------------------------------------------------------------------------- a one-machine Ray cluster
# Ray reads its settings when it is first imported, so they are set here, before any test module
# imports it: every node and driver on 127.0.0.1 (otherwise Ray swaps loopback for the machine's
# outward address), and token authentication on with this session's own token, whatever ~/.ray holds.
import os  # noqa: E402
import secrets  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

RAY_DIR = Path(tempfile.gettempdir()) / f"arl-ray-{os.getpid()}"  # (short: Ray's socket paths are limited)
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ["RAY_AUTH_MODE"] = "token"
os.environ["RAY_AUTH_TOKEN_PATH"] = str(RAY_DIR / "auth_token")
os.environ["RAY_TMPDIR"] = str(RAY_DIR)
for _name in ("RAY_AUTH_TOKEN", "RAY_ADDRESS"):
    os.environ.pop(_name, None)


def ray_token(path: Path) -> Path:
    """Write a new Ray authentication token to ``path`` (readable by its owner only)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(secrets.token_hex(32))
    path.chmod(0o600)
    return path


class RayTestCluster:
    """A Ray head and two nodes on 127.0.0.1; node ``n`` is host ``node<n>``, with its own adb server and 2 phones.

    The phones are served here (by one virtual adbd); node ``n`` advertises
    ``androidrl/device:node<n>/<serial>`` for each of its phones and ``androidrl/host:node<n>``,
    and its env workers use its own adb server, so an actor placed on the wrong node finds no
    phone. ``phones`` and ``servers`` are keyed by device name.
    """

    def __init__(self, directory: Path) -> None:
        self.temp_dir = str(directory / "ray")
        self.adbd = AdbdThread()
        self.adb: list[IsolatedAdbServer] = []
        self.cluster = None
        self.phones: dict[str, VirtualPhone] = {}
        self.servers: dict[str, object] = {}
        self.serials: list[list[str]] = []
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        import ray
        from ray.cluster_utils import Cluster

        self.adb = [IsolatedAdbServer().start() for _ in range(2)]
        for n, adb in enumerate(self.adb):
            serials = []
            for k in range(2):
                phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=10 * n + k, serial=f"phone-{n}{k}", boot_seconds=0.2)
                server = self.adbd.serve(phone)
                adb.adb("connect", server.serial)
                serials.append(server.serial)
                self.phones[f"node{n}/{server.serial}"], self.servers[f"node{n}/{server.serial}"] = phone, server
            self.serials.append(serials)
        self.cluster = Cluster(
            initialize_head=True,
            head_node_args={
                "node_ip_address": "127.0.0.1",
                "num_cpus": 2,
                "include_dashboard": False,
                "temp_dir": self.temp_dir,
            },
        )
        self.nodes = [self.add_node(n) for n in range(2)]
        ray.init(address=self.address, log_to_driver=False)

    @property
    def address(self) -> str:
        """The head's address, HOST:PORT."""
        return self.cluster.address

    def add_node(self, n: int):
        """Start node ``n`` (again): its devices, its host resource and its adb server."""
        from androidrl.vector.cluster import DEVICE_RESOURCE, HOST_RESOURCE

        resources = {f"{DEVICE_RESOURCE}node{n}/{s}": 1 for s in self.serials[n]}
        return self.cluster.add_node(
            num_cpus=1,
            resources={**resources, f"{HOST_RESOURCE}node{n}": 1},
            node_ip_address="127.0.0.1",
            temp_dir=self.temp_dir,
            env_vars={"ANDROID_ADB_SERVER_PORT": str(self.adb[n].port)},
        )

    def close(self) -> None:
        """Stop the driver, the nodes (by their processes, never `ray stop`), the adb servers and the phones."""
        import ray

        ray.shutdown()
        if self.cluster is not None:
            self.cluster.shutdown()
        self.adbd.close()
        for adb in self.adb:
            adb.stop()


@pytest.fixture(scope="module")
def ray_cluster():
    """One :class:`RayTestCluster` for all the Ray tests of a module (a cluster takes 15-20 s to start on 2 cores).

    Gone when the module's tests end: a connected driver and its nodes must not outlive them (the
    later tests, which send signals and fork workers, run without Ray in the process).
    """
    pytest.importorskip("ray")
    ray_token(RAY_DIR / "auth_token")
    cluster = RayTestCluster(RAY_DIR)
    yield cluster
    cluster.close()
    shutil.rmtree(RAY_DIR, ignore_errors=True)

"""The ray backend on a real one-machine cluster: a head and two nodes, each with its own adb server and phones.

The cluster is the module's (``ray_cluster`` in conftest.py): every node on 127.0.0.1, token
authentication on with a token of the test run's own, stopped by its processes, never by ``ray stop``.
An actor placed on the wrong node would reach an adb server that does not know its phone.

``pytest tests/test_ray.py -s -k fault`` prints, for each injected fault, what the learner saw and
how long the env took to come back (the figures of docs/scale-out.md).
"""

import contextlib
import csv
import json
import os
import queue
import re
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")

from androidrl.bench import main as bench_main  # noqa: E402
from androidrl.cli import main as cli_main  # noqa: E402
from androidrl.device.adb_server import IsolatedAdbServer, adb_path, free_port  # noqa: E402
from androidrl.device.spec import DeviceSpec  # noqa: E402
from androidrl.node import alive, descendants  # noqa: E402
from androidrl.node.ports import PORTS, WORKER_PORTS, virtual_port  # noqa: E402
from androidrl.train.compose import make_wrap  # noqa: E402
from androidrl.train.config import ConfigError, load_config, parse_config  # noqa: E402
from androidrl.train.runs import Run, checkpoint_steps  # noqa: E402
from androidrl.train.training import train  # noqa: E402
from androidrl.vector import VectorSettings, WorkerError, make_vector_env  # noqa: E402
from androidrl.vector.cluster import (  # noqa: E402
    DEVICE_RESOURCE,
    ClusterError,
    cluster_devices,
    make_cluster_vector_env,
    node_hosts,
)
from androidrl.vector.sb3 import MonitorFiles, RayVecEnv, SB3VecEnv, make_sb3_vec_env  # noqa: E402

from conftest import ray_token  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[1]
SMALL = (360, 800, 160)
CLI = [sys.executable, "-m", "androidrl.cli"]


# The actors import what they run: a wrap function made by the package travels to them (one
# defined in this test module would not, the actors cannot import the tests).
wrap = make_wrap(
    parse_config(
        {
            "task": "tap-target",
            "observation": {"shape": [48, 24]},
            "algo": {"policy": "MlpPolicy"},
            "action": {"type": "grid", "rows": 3, "cols": 3, "region": [0, 0.09, 1, 0.94], "swipes": False},
        }
    )
)


def _short_dir(prefix: str) -> Path:
    """A new directory with a short path (Ray's socket paths are limited to about 100 characters)."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))


def _until(process: subprocess.Popen, marker: str, seconds: float = 180) -> list[str]:
    """The lines ``process`` prints up to the first one holding ``marker`` (the test fails if it does not come)."""
    got: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in process.stdout:
            got.put(line)
            if marker in line:
                return
        got.put("")  # (it ended)

    threading.Thread(target=read, daemon=True).start()
    lines: list[str] = []
    deadline = time.monotonic() + seconds
    while not lines or marker not in lines[-1]:
        try:
            line = got.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            pytest.fail(f"{process.args}: no line with {marker!r} within {seconds:g} s; got {lines}")
        if not line:
            pytest.fail(f"{process.args} ended (exit {process.wait()}) before a line with {marker!r}; got {lines}")
        lines.append(line.rstrip("\n"))
    return lines


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class TwoHosts:
    """A network namespace standing for two hosts: 10.9.0.1 and 10.9.0.2 (a veth pair), the default route via the first.

    Commands run inside it (``nsenter``), where Ray sees no address but these and loopback:
    its guess of this host's address is 10.9.0.1 (the default route's), and a node started
    with ``--node-ip-address 10.9.0.2`` is the other host. Nothing in it reaches the machine's
    own network. (Joining a cluster with ``ray start --address`` needs
    ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` unset, which on the machine itself would let Ray swap
    127.0.0.1 for the outward address.)
    """

    HEAD, OTHER = "10.9.0.1", "10.9.0.2"

    def __init__(self) -> None:
        missing = [tool for tool in ("unshare", "nsenter", "ip", "ss") if shutil.which(tool) is None]
        if missing:
            pytest.skip(f"a network namespace of our own needs {', '.join(missing)} (util-linux, iproute2)")
        setup = (
            "ip link set lo up && ip link add v0 type veth peer name v1 && "
            f"ip addr add {self.HEAD}/24 dev v0 && ip addr add {self.OTHER}/24 dev v1 && "
            "ip link set v0 up && ip link set v1 up && ip route add default dev v0 && echo up && exec sleep 3600"
        )
        self.holder = subprocess.Popen(["unshare", "-rn", "sh", "-c", setup], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True)  # fmt: skip
        if self.holder.stdout.readline().strip() != "up":
            self.holder.kill()
            pytest.skip(f"no user and network namespaces with veth here: {self.holder.communicate()[1].strip()}")
        self.processes: list[subprocess.Popen] = []

    def command(self, args: list[str]) -> list[str]:
        """``args`` run inside the namespace (nsenter then runs them: same process, same pid)."""
        return ["nsenter", "-t", str(self.holder.pid), "-U", "-n", *args]

    def start(self, args: list[str], **options) -> subprocess.Popen:
        """Start ``args`` inside; :meth:`close` kills it (by pid) if it is still running."""
        process = subprocess.Popen(self.command(args), **options)
        self.processes.append(process)
        return process

    def run(self, args: list[str], **options) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(args), capture_output=True, text=True, timeout=180, **options)

    def listening(self) -> list[tuple[str, int, set[int]]]:
        """Every TCP socket listening inside: (address, port, pids of the processes that hold it)."""
        found = []
        for line in self.run(["ss", "-ltnpH"], check=True).stdout.splitlines():
            address, _, port = line.split()[3].rpartition(":")
            found.append((address.strip("[]"), int(port), {int(p) for p in re.findall(r"pid=(\d+)", line)}))
        return found

    def close(self) -> None:
        """Stop what runs inside (SIGTERM, then SIGKILL for it and what it started, by pid), then the namespace."""
        for process in [*self.processes, self.holder]:
            if process.poll() is None:
                under = descendants(process.pid)
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                for pid, _ in filter(alive, under):  # (a test that failed midway: nothing of it may outlive it)
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
            process.wait()


# Ports of the node on the second address (the head takes the defaults): each flag, this node's port.
OTHER_PORTS = {
    "--node-manager-port": 7380,
    "--object-manager-port": 7381,
    "--runtime-env-agent-port": 7382,
    "--dashboard-agent-grpc-port": 7383,
    "--dashboard-agent-listen-port": 7384,
    "--metrics-export-port": 7385,
    "--min-worker-port": 11002,
    "--max-worker-port": 11099,
}


def _tree(process: subprocess.Popen) -> list[tuple[int, str]]:
    return [(process.pid, Path(f"/proc/{process.pid}/stat").read_text().rpartition(")")[2].split()[19]),
            *descendants(process.pid)]  # fmt: skip


def _gone(trees: list[list[tuple[int, str]]], seconds: float = 10) -> None:
    """Check that every process of ``trees`` ends within ``seconds`` (a killed process takes a moment)."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for tree in trees for p in tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [(pid, _command_line(pid)) for tree in trees for pid, t in tree if alive((pid, t))]
    assert not left, f"processes the node commands started are still running: {left}"


def test_node_commands_make_a_cluster_of_two_hosts_with_pinned_ports_a_token_and_leave_nothing():
    """``androidrl node`` on two addresses, as on two firewalled hosts (see docs/scale-out.md).

    The head guesses its address and says it, makes the cluster's token (0600) and starts the
    adb server it needs; a second node on that adb server is turned away; the other host's
    node, given a token file readable by all, makes it private; every port they listen on
    beyond loopback is one of their flags'; a restarted node serves its virtual phone under
    the same serial; a clean stop leaves no process, no adb server it started and no file.
    """
    ns = TwoHosts()
    work = _short_dir("arl-node-")
    home, tmp = work / "home", work / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_AUTH", "RAY_ADDRESS", "RAY_ENABLE_WINDOWS"))}
    env.update(HOME=str(home), RAY_TMPDIR=str(tmp))  # (no token anywhere yet: the head makes it)
    far_adb = IsolatedAdbServer()  # the other host's adb server, running before its node starts
    lab_adb = free_port()  # nothing runs there: the head's node starts the adb server
    common = ["--virtual", "1", "--num-cpus", "1"]
    nodes: dict[str, subprocess.Popen] = {}
    try:
        ns.start([adb_path(), "-P", str(far_adb.port), "nodaemon", "server"], env=far_adb.env,
                 stderr=subprocess.DEVNULL)  # fmt: skip
        command = [*CLI, "node", "--head", "--name", "lab", "--adb-port", str(lab_adb), *common]  # ports: defaults
        nodes["lab"] = ns.start(command, stdout=subprocess.PIPE, stderr=(work / "lab.log").open("w"), text=True,
                                env=env)  # fmt: skip
        said = _until(nodes["lab"], "join from other hosts with")
        head = f"{TwoHosts.HEAD}:6379"
        assert said[0] == f"node lab: advertising 1 device(s) to the Ray cluster at {head}", said
        assert said[1] == f"  {DEVICE_RESOURCE}lab/127.0.0.1:{virtual_port('lab')}", said
        token = home / ".ray" / "auth_token"
        assert f"node lab: this host's address in the cluster: {TwoHosts.HEAD} (Ray's guess" in said[2], said
        assert f"node lab: started an adb server on port {lab_adb} (it stops with this node)" in said
        assert f"node lab: made a new Ray token in {token}" in said
        assert stat.S_IMODE(token.stat().st_mode) == 0o600
        assert any(line.startswith("node lab: ports the other hosts must reach here: 6379 (GCS)") for line in said)
        assert said[-1].startswith(f"join from other hosts with: androidrl node --address {head} --node-ip-address")

        other = [f"{flag}={port}" for flag, port in OTHER_PORTS.items()]
        begin = time.monotonic()
        second = ns.run([*CLI, "node", "--address", head, "--name", "lab2", "--adb-port", str(lab_adb), *other],
                        env=env)  # fmt: skip
        print(f"\nray fault: a second node on one adb server: refused in {time.monotonic() - begin:.1f} s")
        assert second.returncode == 1, second.stdout
        assert f"the adb server at 127.0.0.1:{lab_adb} already belongs to node lab (pid " in second.stderr

        far_token = work / "far_token"  # (the head's token copied to the other host, readable by all)
        far_token.write_text(token.read_text())
        far_token.chmod(0o644)
        far_env = {**env, "RAY_AUTH_TOKEN_PATH": str(far_token)}
        far = [*CLI, "node", "--address", head, "--node-ip-address", TwoHosts.OTHER, "--name", "far"]
        far += ["--adb-port", str(far_adb.port), *common, *other]
        nodes["far"] = ns.start(far, stdout=subprocess.PIPE, stderr=(work / "far.log").open("w"), text=True,
                                env=far_env)  # fmt: skip
        said = _until(nodes["far"], "ports the other hosts must reach here")
        far_phone = f"  {DEVICE_RESOURCE}far/127.0.0.1:{virtual_port('far')}"
        assert said[:2] == [f"node far: advertising 1 device(s) to the Ray cluster at {head}", far_phone], said
        assert (
            said[2] == f"node far: this host's address in the cluster: {TwoHosts.OTHER} (as given by --node-ip-address)"
        ), said
        assert any(f"the Ray token file {far_token} was readable by others (0644): made it 0600" in s for s in said)
        assert stat.S_IMODE(far_token.stat().st_mode) == 0o600
        assert said[-1].startswith("node far: ports the other hosts must reach here: 7380 (node manager), 7381")

        # A firewall that lets only the listed ports through between the hosts is enough: nothing else listens.
        pinned = {"lab": {p.default for p in PORTS} | set(range(WORKER_PORTS[0], WORKER_PORTS[1] + 1)),
                  "far": set(OTHER_PORTS.values()) | set(range(11002, 11100))}  # fmt: skip
        trees = {name: {pid for pid, _ in _tree(process)} for name, process in nodes.items()}
        for address, port, pids in ns.listening():
            for name, tree in trees.items():
                if pids & tree and address not in ("127.0.0.1", "::ffff:127.0.0.1", "::1"):
                    assert port in pinned[name], f"node {name} listens on {address}:{port}, not a port of its flags"

        listing = ns.run([*CLI, "devices", "--cluster"], env=env)  # address auto, and the token of ~/.ray
        assert listing.returncode == 0, listing.stderr
        rows = [line.split() for line in listing.stdout.splitlines()[1:]]
        assert sorted((row[0].split("/")[0], row[1], row[2]) for row in rows) == [
            ("far", "far", "free"),
            ("lab", "lab", "free"),
        ], listing.stdout

        started = {name: _tree(process) for name, process in nodes.items()}
        for name, tree in started.items():
            commands = [_command_line(pid) for pid, _ in tree]
            assert any("raylet" in c for c in commands), f"{name}: no raylet among {commands}"
            assert any("androidrl.cli virtual" in c for c in commands), f"{name}: no phone among {commands}"
        assert any("gcs_server" in _command_line(pid) for pid, _ in started["lab"])

        begin = time.monotonic()
        nodes["far"].send_signal(signal.SIGTERM)  # the other host's node restarts: its phone keeps its serial
        assert nodes["far"].wait(timeout=60) == 0
        stopped = time.monotonic() - begin
        _gone([started["far"]])
        assert far_phone.split(":")[-1] not in ns.run([adb_path(), "-P", str(far_adb.port), "devices"]).stdout
        nodes["far"] = ns.start(far, stdout=subprocess.PIPE, stderr=(work / "far.log").open("a"), text=True,
                                env=far_env)  # fmt: skip
        assert _until(nodes["far"], "ports the other hosts must reach here")[:2] == said[:2]
        print(f"\nray fault: node restarted: stopped in {stopped:.1f} s, advertising the same devices again "
              f"{time.monotonic() - begin:.1f} s after the stop began")  # fmt: skip
        started["far"] = _tree(nodes["far"])

        nodes["far"].send_signal(signal.SIGTERM)  # the joined node first: the head is what it talks to
        assert nodes["far"].wait(timeout=60) == 0
        nodes["lab"].send_signal(signal.SIGINT)  # (Ctrl-C)
        assert nodes["lab"].wait(timeout=60) == 0
        _gone(list(started.values()))
        assert not [s for s in ns.listening() if s[1] == lab_adb], "the adb server the head started is still there"
        assert list(tmp.iterdir()) == [], "the nodes left files (Ray's sessions, the cluster's address)"
    finally:
        ns.close()
        far_adb.stop()  # (its HOME)
        shutil.rmtree(work, ignore_errors=True)


def test_address_auto_fails_at_once_when_this_host_is_in_no_cluster():
    """``auto`` reads the cluster recorded on this host: none, or a stale one (its node is gone), is said at once."""
    work = _short_dir("arl-auto-")
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["RAY_TMPDIR"] = str(work)
    record = work / "ray" / "ray_current_cluster"
    try:
        result = subprocess.run([*CLI, "devices", "--cluster"], capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 1
        assert f"{record} does not exist" in result.stderr and "this host is in no Ray cluster" in result.stderr
        stale = f"127.0.0.1:{free_port()}"  # what a node stopped by kill -9 leaves
        record.parent.mkdir()
        record.write_text(stale)
        begin = time.monotonic()
        result = subprocess.run([*CLI, "devices", "--cluster"], capture_output=True, text=True, env=env, timeout=60)
        print(f"\nray fault: address auto, its cluster gone: said in {time.monotonic() - begin:.1f} s")
        assert result.returncode == 1
        assert f"no Ray cluster at {stale} (Connection refused) (the address recorded in {record}" in result.stderr
    finally:
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------------------- on the module's cluster


def _vec(cluster, names, **settings) -> RayVecEnv:
    return RayVecEnv(names, "tap-target", wrap, address=cluster.address, settings=VectorSettings(**settings))


def _wait_free(seconds: float = 30) -> None:
    """Wait until Ray has freed every device (an actor's unit comes back shortly after it is killed)."""
    deadline = time.monotonic() + seconds
    while any(d.in_use for d in cluster_devices(ray)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert {d.in_use for d in cluster_devices(ray)} == {False}


def test_each_actor_runs_on_the_node_that_owns_its_device(ray_cluster):
    names = [d.name for d in cluster_devices(ray)]
    assert len(names) == 4
    env = _vec(ray_cluster, names)
    try:
        where = [env.venv.transport.location(i) for i in range(4)]
        assert [w.node_id for w in where] == [ray_cluster.nodes[n].node_id for n in (0, 0, 1, 1)]
        assert [w.host for w in where] == ["node0", "node0", "node1", "node1"]
        env.seed(0)
        obs = env.reset()
        assert obs.shape == (4, 48, 24, 3) and obs.dtype == np.uint8 and obs.any()
        ended = []
        for _ in range(12):  # tap-target truncates after 10 steps
            obs, rewards, dones, infos = env.step(np.array([0, 1, 2, 3]))
            ended += [info for info, done in zip(infos, dones) if done]
        assert len(ended) >= 4 and all(i["terminal_observation"].shape == (48, 24, 3) for i in ended)
        assert {d.in_use for d in cluster_devices(ray)} == {True}
    finally:
        env.close()
    _wait_free()


def test_make_sb3_vec_env_takes_the_ray_backend_with_names_serials_and_virtual_phones(ray_cluster, tmp_path):
    named, serial = f"node0/{ray_cluster.serials[0][0]}", ray_cluster.serials[1][0]  # (a serial only node1 has)
    env = make_sb3_vec_env(
        [named, serial, "virtual:360x800@160"],
        "tap-target",
        wrap,
        backend="ray",
        address=ray_cluster.address,
        monitor_dir=tmp_path,
        seed=1,
    )
    try:
        assert isinstance(env, MonitorFiles) and isinstance(env.unwrapped, RayVecEnv)
        where = [env.unwrapped.venv.transport.location(i) for i in range(3)]
        assert [w.node_id for w in where[:2]] == [ray_cluster.nodes[0].node_id, ray_cluster.nodes[1].node_id]
        assert where[2].host == node_hosts(ray)[where[2].node_id]  # a virtual phone: wherever Ray put it
        obs = env.reset()
        finals = []
        for _ in range(12):  # every episode ends within 10 steps
            obs, _, dones, infos = env.step(np.array([0, 4, 8]))
            assert obs.flags.writeable
            finals += [info["terminal_observation"] for info, done in zip(infos, dones) if done]
        assert len(finals) >= 3
        # What Ray hands back is read-only; SB3 stores and PyTorch wraps these arrays, and warns on read-only ones.
        assert all(final.flags.writeable for final in finals)
        import torch

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            torch.as_tensor(finals[0])
    finally:
        env.close()
    for i in range(3):  # the learner writes the Monitor CSVs, with the same columns as local workers' Monitors
        with (tmp_path / f"worker_{i}.monitor.csv").open() as f:
            next(f)  # (the JSON header)
            rows = list(csv.DictReader(f))
        assert rows and set(rows[0]) == {"r", "l", "t", "is_success", "task"}
        assert {row["task"] for row in rows} == {"tap-target"} and {row["is_success"] for row in rows} <= {
            "True",
            "False",
        }
    _wait_free()


def test_devices_that_cannot_be_had_are_clear_errors(ray_cluster):
    name = cluster_devices(ray)[0].name
    host, serial = name.split("/")
    first = _vec(ray_cluster, [name])
    try:
        with pytest.raises(ClusterError, match=f"device {serial} on host {host} is already driven by another worker"):
            make_cluster_vector_env([name], "tap-target", wrap, settings=VectorSettings(placement_timeout=3))
    finally:
        first.close()
    with pytest.raises(ClusterError, match="no node advertises 'nowhere/emulator-5554'; the cluster has: node0/"):
        make_cluster_vector_env(["nowhere/emulator-5554"], "tap-target", wrap)
    with pytest.raises(ClusterError, match="device emulator-5554: no node of the Ray cluster advertises it"):
        make_cluster_vector_env([DeviceSpec("emulator-5554")], "tap-target", wrap)  # (say, only this host's adb)
    with pytest.raises(ClusterError, match=f"device {name} is listed twice"):
        make_cluster_vector_env([name, serial], "tap-target", wrap)
    _wait_free()


def test_seeded_virtual_phones_match_the_local_backend(ray_cluster):
    specs = [DeviceSpec.virtual_phone(*SMALL)] * 2
    runs = []
    for make in (
        lambda: make_cluster_vector_env(specs, "tap-target", wrap, seed=5),
        lambda: make_vector_env(specs, "tap-target", wrap, seed=5),
    ):
        env = SB3VecEnv(make())
        env.seed(3)
        frames, rewards = [env.reset()], []
        for action in ([0, 1], [4, 4], [8, 2], [5, 0]):
            obs, reward, _, _ = env.step(np.array(action))
            frames.append(obs)
            rewards.append(reward)
        env.close()
        runs.append((np.stack(frames), np.stack(rewards)))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_the_shipped_ray_config_trains_across_the_nodes(ray_cluster, tmp_path):
    overrides = [
        f"vector.address={ray_cluster.address}",
        "training.total_timesteps=1024",
        "training.eval_freq=512",
        "training.eval_episodes=2",
        "training.progress_bar=false",
    ]
    config = load_config(ROOT / "configs" / "ray_cluster.yaml", overrides)
    result = train(Run.create(config, tmp_path / "run", ["scripts/train.py"]))
    assert result.timesteps >= 1024 and result.final_model.exists()
    monitors = sorted((tmp_path / "run" / "monitor").iterdir())
    assert [p.name for p in monitors] == [f"worker_{i}.monitor.csv" for i in range(4)]  # the two nodes' four devices
    with monitors[0].open() as f:  # per-task success, as local workers write it
        next(f)
        rows = list(csv.DictReader(f))
    assert rows and {"is_success", "task"} <= set(rows[0]) and {row["task"] for row in rows} == {"tap-target"}
    assert (tmp_path / "run" / "evaluations.csv").exists()
    _wait_free()


# ---------------------------------------------------------------------------- faults


class Learner:
    """Steps a vector env the way SB3 does, counting each env's good steps (a real screen: no device_error)."""

    def __init__(self, env: RayVecEnv, names: list[str]) -> None:
        self.env = env
        self.names = names  # the device of each env, <host>/<serial>
        self.good = [0] * env.num_envs

    def step(self):
        obs, _, dones, infos = self.env.step(np.zeros(self.env.num_envs, dtype=int))  # (a tap in the top-left cell)
        for i, info in enumerate(infos):
            self.good[i] += not info.get("device_error") and not info.get("device_down")
        return obs, dones, infos


def _fault(cluster, learner, caplog, kind, hit, inject, restore=None, down_for=3.0, seconds=180.0) -> None:
    """Inject a fault hitting envs ``hit``; step until they are back; check and print what the learner saw.

    Checks: each hit env's episode ends (truncated) with a ``device_error`` naming its device and
    host, it comes back with a real screen, the other envs make good steps all along, no step
    is replayed (each hit phone received exactly one tap per good step of its env), and each
    actor that died (not a phone) was said once in the log, naming its device and host.
    """
    env, names = learner.env, learner.names
    caplog.clear()
    others = [i for i in range(env.num_envs) if i not in hit]
    learner.step()  # (nothing is in flight when the fault comes)
    for i in hit:
        cluster.phones[names[i]].command_log.clear()
    good_before = list(learner.good)
    start = time.monotonic()
    inject()
    reported: dict[int, tuple[float, str]] = {}
    back: dict[int, float] = {}
    restored = None
    while len(back) < len(hit):
        assert time.monotonic() - start < seconds, f"{kind}: envs {sorted(set(hit) - set(back))} not back"
        if (
            restore is not None
            and restored is None
            and reported.keys() == set(hit)
            and time.monotonic() > start + down_for
        ):
            restore()
            restored = time.monotonic() - start
        obs, dones, infos = learner.step()
        now = time.monotonic() - start
        for i in others:
            assert not infos[i].get("device_error"), f"{kind}: env {i}, not hit, saw {infos[i]['device_error']}"
        for i in hit:
            error = infos[i].get("device_error")
            if i not in reported:
                if kind == "actor process killed":  # its step cannot have been done: no answer, no replay
                    assert error, f"{kind}: env {i} answered its first step after the kill: {infos[i]}"
                if error:
                    host, serial = names[i].split("/")
                    assert dones[i] and infos[i]["TimeLimit.truncated"], f"{kind}: env {i}: {infos[i]}"
                    assert f"{serial} on host {host}" in error, f"{kind}: the error does not name host and device"
                    reported[i] = (now, error)
            elif i not in back and not error:
                assert obs[i].any(), f"{kind}: env {i} came back blank"
                back[i] = now
    for i in hit:  # a replayed step would tap a second time
        taps = sum(line.startswith("input tap") for line in cluster.phones[names[i]].command_log)
        assert taps == learner.good[i] - good_before[i], f"{kind}: env {i}: {taps} taps for its good steps"
    made = sum(learner.good[i] - good_before[i] for i in others)
    assert all(learner.good[i] > good_before[i] for i in others)
    deaths = [r.getMessage() for r in caplog.records if "its Ray actor died" in r.getMessage()]
    if kind == "phone killed":  # (the actor lives on: the phone's fault is the env's)
        assert not deaths, f"{kind}: {deaths}"
    else:  # one line per actor that died, naming its device and host
        for i in hit:
            host, serial = names[i].split("/")
            assert [d.startswith(f"worker {i} ({serial} on host {host}, pid ") for d in deaths].count(True) == 1, deaths
        assert len(deaths) == len(hit), f"{kind}: {deaths}"
    when = max(t for t, _ in reported.values())
    again = f" ({max(back.values()) - restored:.1f} s after it returned)" if restored is not None else ""
    saw = reported[hit[0]][1]
    print(
        f"\nray fault: {kind}: reported after {when:.1f} s, back after {max(back.values()):.1f} s{again}, "
        f"other envs made {made} good steps meanwhile, user saw: {saw}" + (f"; log: {deaths[0]}" if deaths else "")
    )


def test_faults_end_only_their_envs_episode_and_it_comes_back(ray_cluster, caplog):
    names = [d.name for d in cluster_devices(ray)]  # node0's two devices, then node1's
    env = _vec(ray_cluster, names, fault_timeout=1.0)
    learner = Learner(env, names)
    transport = env.venv.transport
    try:
        env.reset()
        killed = transport.location(0)
        _fault(ray_cluster, learner, caplog, "actor process killed", [0], lambda: os.kill(killed.pid, signal.SIGKILL))
        again = transport.location(0)
        assert again.pid != killed.pid and again.node_id == ray_cluster.nodes[0].node_id  # restarted by Ray, at home

        name = names[1]
        port = int(name.rsplit(":", 1)[1])
        _fault(
            ray_cluster,
            learner,
            caplog,
            "phone killed",
            [1],
            lambda: ray_cluster.adbd.stop_server(ray_cluster.servers[name]),
            lambda: ray_cluster.servers.__setitem__(name, ray_cluster.adbd.serve(ray_cluster.phones[name], port=port)),
        )

        def rejoin() -> None:
            ray_cluster.nodes[1] = ray_cluster.add_node(1)

        lose = lambda: ray_cluster.cluster.remove_node(ray_cluster.nodes[1])  # noqa: E731
        _fault(ray_cluster, learner, caplog, "node lost", [2, 3], lose, rejoin)
        assert {transport.location(i).node_id for i in (2, 3)} == {ray_cluster.nodes[1].node_id}
    finally:
        env.close()
    _wait_free()


def test_a_device_down_too_long_is_an_error_naming_its_host_and_device(ray_cluster, caplog):
    name = f"node1/{ray_cluster.serials[1][1]}"
    serial, port = name.split("/")[1], int(name.rsplit(":", 1)[1])
    env = _vec(ray_cluster, [name], max_down_seconds=2.0, retry_interval=0.5, fault_timeout=1.0)
    try:
        env.reset()
        ray_cluster.adbd.stop_server(ray_cluster.servers[name])
        deadline = time.monotonic() + 60
        with pytest.raises(WorkerError) as caught:
            while time.monotonic() < deadline:
                env.step(np.zeros(1, dtype=int))
        message = str(caught.value)
        assert f"({serial} on host node1): device {serial} down for" in message and "max_down_seconds 2" in message
        assert f"1 of 1 devices are down ({serial} on host node1): waiting for them" in caplog.messages
    finally:
        env.close()
        ray_cluster.servers[name] = ray_cluster.adbd.serve(ray_cluster.phones[name], port=port)
    _wait_free()


def test_training_that_loses_its_device_for_good_saves_a_checkpoint_before_it_stops(ray_cluster, tmp_path):
    name = f"node1/{ray_cluster.serials[1][0]}"
    phone, port = ray_cluster.phones[name], int(name.rsplit(":", 1)[1])
    overrides = [
        f"devices.cluster=[{name}]",
        f"vector.address={ray_cluster.address}",
        "vector.max_down_seconds=2",
        "vector.fault_timeout=1",
        "algo.hyperparams.n_steps=64",
        "algo.hyperparams.n_epochs=1",
        "training.total_timesteps=100000",
        "training.eval_freq=0",
        "training.checkpoint_freq=0",
        "training.progress_bar=false",
    ]
    run = Run.create(load_config(ROOT / "configs" / "ray_cluster.yaml", overrides), tmp_path / "run", ["train"])
    phone.command_log.clear()

    def lose_the_phone() -> None:  # after a rollout or two: 64 steps each, a tap each
        deadline = time.monotonic() + 300
        while sum(line.startswith("input ") for line in list(phone.command_log)) < 150:
            if time.monotonic() > deadline:
                return
            time.sleep(0.05)
        ray_cluster.adbd.stop_server(ray_cluster.servers[name])

    losing = threading.Thread(target=lose_the_phone, daemon=True)
    losing.start()
    try:
        with pytest.raises(WorkerError) as caught:
            train(run)
        print(f"\nray fault: a device down for good in training: {caught.value}")
    finally:
        losing.join()
        ray_cluster.servers[name] = ray_cluster.adbd.serve(phone, port=port)
    saved = run.latest_checkpoint()
    assert saved is not None and checkpoint_steps(saved) >= 64, list(run.checkpoints.glob("*"))
    message = str(caught.value)
    assert f"{name.split('/')[1]} on host node1" in message and "more than max_down_seconds 2" in message
    assert message.endswith(f"training stopped (saved {saved}; continue with --resume {run.directory} once it is back)")
    _wait_free()


# ---------------------------------------------------------------------------- bad input


def test_bad_ray_configs_are_explained():
    with pytest.raises(ConfigError, match="devices.cluster: devices of a Ray cluster need vector.backend: ray"):
        parse_config({"task": "tap-target", "devices": {"cluster": "all"}, "training": {"eval_freq": 0}})
    with pytest.raises(ConfigError, match="devices.serials: with the ray backend, workers run on the hosts"):
        parse_config(
            {
                "task": "tap-target",
                "devices": {"serials": ["emulator-5554"]},
                "vector": {"backend": "ray"},
                "training": {"eval_freq": 0},
            }
        )


def _free_ports(count: int) -> list[int]:
    ports: set[int] = set()
    while len(ports) < count:
        ports.add(free_port())
    return sorted(ports)


def test_bad_node_flags_are_refused_before_anything_starts(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(tmp_path / "token"))  # (the head would make it; a node needs it)
    free = iter(_free_ports(len(PORTS) + 2))
    pinned = {p.flag: next(free) for p in PORTS}
    head = ["node", "--head", "--name", "bad", *[f"{flag}={port}" for flag, port in pinned.items()]]
    with pytest.raises(SystemExit):
        cli_main([*head, "--port", "80"])
    assert "argument --port: expected a port from 1024 to 65535, got '80'" in capsys.readouterr().err
    joining = [f"{flag}={port}" for flag, port in pinned.items() if flag not in ("--port", "--ray-client-server-port")]
    assert cli_main(["node", "--address", "127.0.0.1:6379", "--name", "bad", *joining]) == 1
    assert (
        f"no Ray token at {tmp_path / 'token'}: a node joins a cluster with the cluster's token"
        in capsys.readouterr().err
    )
    assert not (tmp_path / "token").exists()
    held, virtual, gcs, adb = socket.socket(), next(free), pinned["--port"], free_port()
    held.bind(("127.0.0.1", next(free)))
    held.listen()
    with held, socket.socket() as phone_port:
        phone_port.bind(("127.0.0.1", virtual))
        phone_port.listen()
        for extra, said in (
            (["--node-manager-port", str(gcs)], f"--node-manager-port and --port are both {gcs}"),
            (["--object-manager-port", "10500"], "--object-manager-port 10500 is inside the worker ports 10002-10999"),
            (["--min-worker-port", "11000", "--max-worker-port", "10500"], "--min-worker-port 11000 is above --max"),
            (["--metrics-export-port", str(held.getsockname()[1])],
             f"port {held.getsockname()[1]} (--metrics-export-port) is in use on this host"),
            (["--virtual", "1", "--virtual-port", str(virtual), "--adb-port", str(adb)],
             f"port {virtual} for the --virtual phones ({virtual}-{virtual}, --virtual-port, so that their serials"),
        ):  # fmt: skip
            assert cli_main([*head, *extra]) == 1
            assert said in capsys.readouterr().err
    with pytest.raises(ConnectionRefusedError):  # the adb server the last one started was stopped with it
        socket.create_connection(("127.0.0.1", adb), timeout=5)


def test_the_docs_list_every_port_of_a_node_with_its_default_and_who_reaches_it():
    rows = {line.split("|")[2].strip(): line for line in (ROOT / "docs" / "scale-out.md").read_text().splitlines()
            if line.startswith("| ") and line.count("|") == 5}  # fmt: skip
    for port in PORTS:
        row = rows.get(f"`{port.flag}`", "")
        assert row.startswith(f"| {port.default} |") and row.rstrip(" |").endswith(port.reached_from), (port, row)
    low, high = WORKER_PORTS
    assert rows["`--min-worker-port`, `--max-worker-port`"].startswith(f"| {low}–{high} |")


def test_no_cluster_at_the_address_is_a_clear_error():
    port = free_port()
    result = subprocess.run(
        [*CLI, "devices", "--cluster", "--address", f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1 and f"no Ray cluster at 127.0.0.1:{port}" in result.stderr


def test_a_driver_without_the_clusters_token_is_told_so(ray_cluster):
    work = _short_dir("arl-auth-")
    try:
        for token in (ray_token(work / "another"), work / "missing"):  # a token of another cluster, no token
            result = subprocess.run(
                [*CLI, "devices", "--cluster", "--address", ray_cluster.address],
                capture_output=True,
                text=True,
                env={**os.environ, "RAY_AUTH_TOKEN_PATH": str(token)},
                timeout=180,
            )
            assert result.returncode == 1, result.stdout
            assert f"could not authenticate to the Ray cluster at {ray_cluster.address} (" in result.stderr
            assert "RAY_AUTH_MODE=token" in result.stderr
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_the_ray_suite_reports_env_steps_the_cost_of_a_vector_step_and_what_ray_adds(ray_cluster, tmp_path, capsys):
    out = tmp_path / "bench.json"
    args = ["--quick", "--suite", "ray", "--rounds", "1", "--size", "180x400", "--density", "80", "--json", str(out)]
    assert bench_main(args) == 0
    figures = {f["name"]: f for f in json.loads(out.read_text())["figures"]}
    rate = figures["ray backend: env-steps/s, 2 virtual phones 180x400"]
    per_step = figures["ray backend: ms per vector step (2 envs)"]
    added = figures["ray backend: ms it adds per vector step"]
    weight = figures["ray backend: KB per step and env over the wire"]
    assert set(rate["contenders"]) == set(per_step["contenders"]) == {"async (local)", "ray (actors)"}
    assert rate["unit"] == "steps/s" and per_step["unit"] == added["unit"] == "ms"
    for name in rate["contenders"]:  # a vector step steps both envs: env-steps/s = 2 x 1000 / ms per vector step
        rates, costs = rate["contenders"][name]["samples"], per_step["contenders"][name]["samples"]
        assert len(rates) == len(costs) >= 3
        assert all(r == pytest.approx(2 * 1000 / ms) for r, ms in zip(rates, costs))
    local, remote = (per_step["contenders"][n]["samples"] for n in ("async (local)", "ray (actors)"))
    assert added["contenders"]["ray - async"]["samples"] == pytest.approx([r - a for r, a in zip(remote, local)])
    answer, frame = (weight["contenders"][n]["median"] for n in ("pickled answer", "raw frame (not sent)"))
    assert 0 < answer < frame == 180 * 400 * 4 / 1024
    assert "ray backend: ms it adds per vector step" in capsys.readouterr().out
    assert ray.is_initialized()  # the suite used the module's cluster and left it connected
    assert not any(d.in_use for d in cluster_devices(ray))

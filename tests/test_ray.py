"""The ray backend on a real one-machine cluster: a head and two nodes, each with its own adb server and phones.

Every node runs on 127.0.0.1 (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` keeps Ray from swapping
loopback for the machine's outward address) and is stopped by the fixture, never by ``ray stop``.
An actor placed on the wrong node would reach an adb server that does not know its phone.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # (before Ray is imported: it reads it once)
ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

from androidrl.device.adb_server import IsolatedAdbServer, free_port  # noqa: E402
from androidrl.train.compose import make_wrap  # noqa: E402
from androidrl.train.config import ConfigError, load_config, parse_config  # noqa: E402
from androidrl.train.runs import Run  # noqa: E402
from androidrl.train.training import train  # noqa: E402
from androidrl.vector import make_vector_env  # noqa: E402
from androidrl.vector.cluster import (  # noqa: E402
    DEVICE_RESOURCE,
    ClusterError,
    cluster_devices,
    make_cluster_vector_env,
    pick_devices,
)
from androidrl.vector.sb3 import SB3VecEnv  # noqa: E402
from androidrl.virtual.adbd import AdbdThread  # noqa: E402
from androidrl.virtual.phone import VirtualPhone  # noqa: E402

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[1]
SMALL = (360, 800, 160)


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


class OneMachineCluster:
    """A head and two Ray nodes; node i has its own adb server with two virtual phones served here."""

    def __init__(self, tmp) -> None:
        os.environ["RAY_TMPDIR"] = str(tmp)
        self.adbd = AdbdThread()
        self.adb = [IsolatedAdbServer().start() for _ in range(2)]
        self.phones: dict[str, VirtualPhone] = {}
        self.servers: dict[str, object] = {}
        self.serials: list[list[str]] = []
        for n, adb in enumerate(self.adb):
            serials = []
            for k in range(2):
                phone = VirtualPhone(*SMALL, seed=10 * n + k, serial=f"phone-{n}{k}", boot_seconds=0.2)
                server = self.adbd.serve(phone)
                adb.adb("connect", server.serial)
                serials.append(server.serial)
                self.phones[f"node{n}/{server.serial}"], self.servers[f"node{n}/{server.serial}"] = phone, server
            self.serials.append(serials)
        self.cluster = Cluster(
            initialize_head=True,
            head_node_args={"node_ip_address": "127.0.0.1", "num_cpus": 2, "include_dashboard": False},
        )
        self.nodes = [self.add_node(n) for n in range(2)]
        ray.init(address=self.cluster.address, log_to_driver=False)

    def add_node(self, n: int):
        resources = {f"{DEVICE_RESOURCE}node{n}/{s}": 1 for s in self.serials[n]}
        return self.cluster.add_node(
            num_cpus=1,
            resources={**resources, f"androidrl/host:node{n}": 1},
            node_ip_address="127.0.0.1",
            env_vars={"ANDROID_ADB_SERVER_PORT": str(self.adb[n].port)},
        )

    def close(self) -> None:
        ray.shutdown()
        self.cluster.shutdown()
        self.adbd.close()
        for adb in self.adb:
            adb.stop()


@pytest.fixture(scope="module")
def cluster():
    one = OneMachineCluster(tempfile.mkdtemp(prefix="ray-"))
    yield one
    one.close()


def _vec(cluster, names, **options):
    devices = pick_devices(ray, names)
    return SB3VecEnv(make_cluster_vector_env(devices, "tap-target", wrap, address=cluster.cluster.address, **options))


def test_each_actor_runs_on_the_node_that_owns_its_device(cluster):
    names = [d.name for d in cluster_devices(ray)]
    assert len(names) == 4
    env = _vec(cluster, names)
    try:
        homes = {w.handle.node_id for w in env.venv._workers[:2]}, {w.handle.node_id for w in env.venv._workers[2:]}
        assert homes == ({cluster.nodes[0].node_id}, {cluster.nodes[1].node_id})
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
    deadline = time.monotonic() + 20
    while any(d.in_use for d in cluster_devices(ray)) and time.monotonic() < deadline:  # (Ray frees them soon)
        time.sleep(0.1)
    assert {d.in_use for d in cluster_devices(ray)} == {False}


def test_a_device_driven_twice_or_unknown_is_a_clear_error(cluster):
    name = cluster_devices(ray)[0].name
    first = _vec(cluster, [name])
    try:
        with pytest.raises(ClusterError, match=f"device {name} is already driven by another worker"):
            make_cluster_vector_env(pick_devices(ray, [name]), "tap-target", wrap, placement_timeout=3)
    finally:
        first.close()
    with pytest.raises(ClusterError, match=r"no node advertises \['nowhere/emulator-5554'\]; the cluster has: node0/"):
        pick_devices(ray, ["nowhere/emulator-5554"])


def test_seeded_virtual_phones_match_the_local_backend(cluster):
    from androidrl.device.spec import DeviceSpec

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


def test_the_shipped_ray_config_trains_across_the_nodes(cluster, tmp_path):
    overrides = [
        f"vector.address={cluster.cluster.address}",
        "training.total_timesteps=1024",
        "training.eval_freq=512",
        "training.eval_episodes=2",
        "training.progress_bar=false",
    ]
    config = load_config(ROOT / "configs" / "ray_cluster.yaml", overrides)
    result = train(Run.create(config, tmp_path / "run", ["scripts/train.py"]))
    assert result.timesteps >= 1024 and result.final_model.exists()
    monitors = sorted(p.name for p in (tmp_path / "run" / "monitor").iterdir())
    assert monitors == [f"worker_{i}.monitor.csv" for i in range(4)]  # all four devices of the two nodes
    assert (tmp_path / "run" / "evaluations.csv").exists()


def _until(env, index, predicate, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        obs, rewards, dones, infos = env.step(np.zeros(env.num_envs, dtype=int))
        if predicate(obs, dones, infos):
            return obs, dones, infos
    pytest.fail(f"env {index}: the condition did not come within {seconds} s")


def test_faults_end_only_their_envs_episode_and_it_comes_back(cluster):
    names = [d.name for d in cluster_devices(ray)]
    env = _vec(cluster, names, fault_timeout=0.5)
    try:
        env.reset()
        # an actor's process dies: Ray restarts it; its env comes back with a fresh episode
        ray.kill(env.venv._workers[0].handle.actor, no_restart=False)
        _, dones, infos = _until(env, 0, lambda o, d, i: d[0] and i[0].get("device_error"))
        assert not any(i.get("device_error") for i in infos[1:])  # (others may end their episodes as usual)
        _until(env, 0, lambda o, d, i: not i[0].get("device_down") and o[0].any())
        # a phone goes away (its adbd stops) and comes back
        name = names[1]
        cluster.adbd.stop_server(cluster.servers[name])
        _until(env, 1, lambda o, d, i: i[1].get("device_down"))
        serial = name.split("/", 1)[1]
        cluster.servers[name] = cluster.adbd.serve(cluster.phones[name], port=int(serial.rsplit(":", 1)[1]))
        _until(env, 1, lambda o, d, i: not i[1].get("device_down") and o[1].any(), seconds=90)
        # a whole node goes away: both its envs are down, the other node's step on; then it rejoins
        cluster.cluster.remove_node(cluster.nodes[1])
        _, dones, infos = _until(env, 2, lambda o, d, i: i[2].get("device_down") and i[3].get("device_down"))
        assert not infos[0].get("device_down")
        cluster.nodes[1] = cluster.add_node(1)
        _until(env, 2, lambda o, d, i: not i[2].get("device_down") and not i[3].get("device_down"), seconds=120)
    finally:
        env.close()


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


def test_the_node_command_advertises_its_phones_and_stops_cleanly(cluster):
    port = free_port()
    env = {**os.environ, "RAY_TMPDIR": tempfile.mkdtemp(prefix="rn-")}  # (short: Ray's socket paths are limited)
    with IsolatedAdbServer() as adb:
        command = [sys.executable, "-m", "androidrl.cli", "node", "--head", "--port", str(port)]
        command += ["--node-ip-address", "127.0.0.1", "--virtual", "2", "--name", "lab", "--adb-port", str(adb.port)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            lines = [process.stdout.readline() for _ in range(3)]
            assert "node lab: advertising 2 device(s)" in lines[0], lines
            assert all(line.strip().startswith(f"{DEVICE_RESOURCE}lab/127.0.0.1:") for line in lines[1:])
            listing = subprocess.run(
                [sys.executable, "-m", "androidrl.cli", "devices", "--cluster", "--address", f"127.0.0.1:{port}"],
                capture_output=True,
                text=True,
                env=env,
                timeout=120,
            )
            assert listing.returncode == 0, listing.stderr
            assert listing.stdout.count("lab/127.0.0.1:") == 2 and "free" in listing.stdout
        finally:
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=60) == 0


def test_no_cluster_at_the_address_is_a_clear_error():
    port = free_port()
    result = subprocess.run(
        [sys.executable, "-m", "androidrl.cli", "devices", "--cluster", "--address", f"127.0.0.1:{port}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and f"no Ray cluster at 127.0.0.1:{port}" in result.stderr

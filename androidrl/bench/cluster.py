"""The ray suite: the ray backend against the local async backend on the same virtual phones, in one run.

A one-machine Ray cluster (a head and one node, on 127.0.0.1) hosts the actors; each
contender steps two wrapped tap-target envs with the same random actions. Besides steps/s,
the figure of bytes per step is what crosses between the actor and the driver (a
pickled answer: the wrapped observation and the info), which is what the network would carry.
"""

from __future__ import annotations

import os
import pickle
import tempfile
import time

import numpy as np

from androidrl.bench.figures import Figure, interleave
from androidrl.device.spec import DeviceSpec
from androidrl.registration import pixel_wrap


def ray_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Steps/s of the ray and local backends on two virtual phones, and the bytes each ray step moves."""
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # (every node on 127.0.0.1)
    os.environ.setdefault("RAY_TMPDIR", tempfile.mkdtemp(prefix="ray-bench-"))
    from ray.cluster_utils import Cluster

    from androidrl.vector import make_vector_env
    from androidrl.vector.cluster import connect, make_cluster_vector_env
    from androidrl.vector.sb3 import SB3VecEnv

    cluster = Cluster(initialize_head=True, head_node_args={"node_ip_address": "127.0.0.1", "num_cpus": 0})
    cluster.add_node(num_cpus=2, node_ip_address="127.0.0.1")
    ray = connect(cluster.address)
    specs = [DeviceSpec.virtual_phone(width, height, density)] * 2
    kwargs = {"env_kwargs": {"dump_xml": False}}
    envs = {
        "async (local)": SB3VecEnv(make_vector_env(specs, "tap-target", pixel_wrap, **kwargs)),
        "ray (actors)": SB3VecEnv(make_cluster_vector_env(specs, "tap-target", pixel_wrap, **kwargs)),
    }
    steps = 50 if rounds < 8 else 200
    try:
        rng = np.random.default_rng(0)
        actions = rng.integers(0, envs["ray (actors)"].action_space.n, size=(steps, 2))
        for env in envs.values():
            env.seed(0)
            env.reset()

        def run(env):
            def go() -> None:
                for a in actions:
                    env.step(a)

            return go

        samples = interleave({name: run(env) for name, env in envs.items()}, max(3, rounds // 4), warmup=1)
        rate = Figure.rate(f"ray backend: vector steps/s, 2 virtual phones {width}x{height}", "async (local)")
        rate.samples = {name: [steps * 2 * 1000 / ms for ms in values] for name, values in samples.items()}
        venv = envs["ray (actors)"].venv
        worker = venv._workers[0]
        sizes = []
        for a in actions[:20]:  # what one actor's answer to a step weighs, pickled
            venv.transport.send(worker, "step", [a[0]])
            sizes.append(len(pickle.dumps(venv.transport.receive(worker), protocol=5)) / 1024)
        weight = Figure("ray backend: KB per step and env over the wire", "pickled answer", unit="KB")
        weight.samples["pickled answer"] = sizes
        weight.samples["raw frame (not sent)"] = [width * height * 4 / 1024] * len(sizes)
        return [rate, weight]
    finally:
        for env in envs.values():
            env.close()
        ray.shutdown()
        cluster.shutdown()
        time.sleep(0.5)

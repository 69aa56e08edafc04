"""The ray suite: the ray backend against the local async backend on the same virtual phones, in one run.

A one-machine Ray cluster (a head and one node, on 127.0.0.1) hosts the actors — or, when
this process is already connected to a Ray cluster, that one (the tests' session cluster).
Each contender steps two wrapped tap-target envs with the same random actions. The figures:
env-steps/s (a vector step is one step of each of the two envs), the milliseconds each
vector step costs and what the ray backend adds to it (Ray's round trip and serialization),
and the bytes per step that cross between the actor and the driver (a pickled answer: the
wrapped observation and the info), which is what the network would carry.
"""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
import time

import numpy as np

from androidrl.bench.figures import Figure, interleave
from androidrl.device.spec import DeviceSpec
from androidrl.registration import pixel_wrap

ENVS = 2  # envs of each contender (a vector step steps each once)


def ray_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Env-steps/s and ms per vector step of the ray and local backends on two virtual phones; bytes of a step."""
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # (every node on 127.0.0.1)
    own_dir = None
    if "RAY_TMPDIR" not in os.environ:  # (short: Ray's socket paths are limited)
        own_dir = os.environ["RAY_TMPDIR"] = tempfile.mkdtemp(prefix="ray-bench-")
    import ray
    from ray.cluster_utils import Cluster

    from androidrl.vector import make_vector_env
    from androidrl.vector.cluster import connect, make_cluster_vector_env
    from androidrl.vector.sb3 import SB3VecEnv

    specs = [DeviceSpec.virtual_phone(width, height, density)] * ENVS
    kwargs = {"env_kwargs": {"dump_xml": False}}
    envs = {}
    steps = 50 if rounds < 8 else 200
    cluster = None
    try:
        if not ray.is_initialized():  # (else: the cluster this process belongs to, left as it was found)
            cluster = Cluster(initialize_head=True, head_node_args={"node_ip_address": "127.0.0.1", "num_cpus": 0})
            cluster.add_node(num_cpus=ENVS, node_ip_address="127.0.0.1")
            connect(cluster.address)
        envs["async (local)"] = SB3VecEnv(make_vector_env(specs, "tap-target", pixel_wrap, **kwargs))
        envs["ray (actors)"] = SB3VecEnv(make_cluster_vector_env(specs, "tap-target", pixel_wrap, **kwargs))
        rng = np.random.default_rng(0)
        actions = rng.integers(0, envs["ray (actors)"].action_space.n, size=(steps, ENVS))
        for env in envs.values():
            env.seed(0)
            env.reset()

        def run(env):
            def go() -> None:
                for a in actions:
                    env.step(a)

            return go

        samples = interleave({name: run(env) for name, env in envs.items()}, max(3, rounds // 4), warmup=1)
        rate = Figure.rate(f"ray backend: env-steps/s, {ENVS} virtual phones {width}x{height}", "async (local)")
        rate.samples = {name: [steps * ENVS * 1000 / ms for ms in values] for name, values in samples.items()}
        per_step = Figure(f"ray backend: ms per vector step ({ENVS} envs)", "async (local)")
        per_step.samples = {name: [ms / steps for ms in values] for name, values in samples.items()}
        added = Figure("ray backend: ms it adds per vector step", "ray - async")
        added.samples["ray - async"] = [
            (ray_ms - local_ms) / steps for ray_ms, local_ms in zip(samples["ray (actors)"], samples["async (local)"])
        ]  # (paired by round: both ran back to back)
        venv = envs["ray (actors)"].venv
        worker = venv._workers[0]
        sizes = []
        for a in actions[:20]:  # what one actor's answer to a step weighs, pickled
            venv.transport.send(worker, "step", [a[0]])
            sizes.append(len(pickle.dumps(venv.transport.receive(worker), protocol=5)) / 1024)
        weight = Figure("ray backend: KB per step and env over the wire", "pickled answer", unit="KB")
        weight.samples["pickled answer"] = sizes
        weight.samples["raw frame (not sent)"] = [width * height * 4 / 1024] * len(sizes)
        return [rate, per_step, added, weight]
    finally:
        for env in envs.values():
            env.close()
        if cluster is not None:
            ray.shutdown()
            cluster.shutdown()
            time.sleep(0.5)
        if own_dir is not None:
            del os.environ["RAY_TMPDIR"]
            shutil.rmtree(own_dir, ignore_errors=True)

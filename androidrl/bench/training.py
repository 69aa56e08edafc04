"""Training suites: PPO steps/s and env share on the quickstart config, and worker memory."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from androidrl.bench.figures import Figure


def _quickstart(backend: str = "async"):
    """The quickstart config (its own phones: two virtual 360x800), with the given vector backend."""
    from androidrl.train.config import load_config

    return load_config("quickstart", [f"vector.backend={backend}"])


def ppo_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """PPO on the quickstart config: training steps/s and the share of wall time spent in the envs."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    from androidrl.train.compose import make_model, make_vec_env, set_torch_threads

    class Timed(VecEnvWrapper):
        """Counts the seconds the learner waits on the envs."""

        def __init__(self, venv) -> None:
            super().__init__(venv)
            self.seconds = 0.0

        def reset(self):
            start = time.perf_counter()
            obs = self.venv.reset()
            self.seconds += time.perf_counter() - start
            return obs

        def step_wait(self):
            start = time.perf_counter()
            result = self.venv.step_wait()
            self.seconds += time.perf_counter() - start
            return result

    steps = 256 if rounds < 8 else 1024 if rounds < 20 else 4096
    rate = Figure.rate("PPO training steps/s, quickstart", "subproc (SB3)")
    share = Figure("PPO: share of wall time in the envs", "subproc (SB3)", unit="%")
    for _ in range(max(1, rounds // 10)):
        for backend, name in (("subproc", "subproc (SB3)"), ("dummy", "dummy (SB3)"), ("async", "async (androidrl)")):
            config = _quickstart(backend)
            set_torch_threads(config)  # as training does
            with tempfile.TemporaryDirectory() as tmp:
                env = Timed(make_vec_env(config, config.devices))
                try:
                    model = make_model(config, env, tmp)
                    start = time.perf_counter()
                    model.learn(steps)
                    wall = time.perf_counter() - start
                finally:
                    env.close()
            rate.samples.setdefault(name, []).append(model.num_timesteps / wall)
            share.samples.setdefault(name, []).append(100 * env.seconds / wall)
    return [rate, share]


def _memory_mb(pid: int) -> dict[str, float]:
    """A process's resident memory in MB, from /proc: ``rss``, its ``peak``, and ``unique`` (shared with no other).

    A worker forked from the trainer (``start_method="fork"``) maps the trainer's pages (torch's among them)
    without copying them: they count in its RSS, not in what it adds to the machine's memory (``unique``).
    """
    fields = {}
    for name in ("status", "smaps_rollup"):
        for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
            key, _, value = line.partition(":")
            if value.strip().endswith(" kB"):
                fields[key] = int(value.split()[0]) / 1024
    return {
        "rss": fields["VmRSS"],
        "peak": fields["VmHWM"],
        "unique": fields["Private_Clean"] + fields["Private_Dirty"],
    }


def memory_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Resident memory of each vector-env worker after warm-up and after many steps (growth), and its own share.

    The quickstart's two workers, as the trainer starts them (forked: their RSS counts the trainer's
    pages), then started from a forkserver (their RSS is their own memory).
    """
    steps = 400 if rounds < 8 else 2000 if rounds < 20 else 10_000
    start, end = _worker_memory(steps, None)
    _, served = _worker_memory(steps, "forkserver")
    figure = Figure(f"worker RSS MB, after warm-up vs {steps} more steps each", "after warm-up", unit="MB")
    figure.samples["after warm-up"] = [m["rss"] for m in start]
    figure.samples[f"after {steps} steps"] = [m["rss"] for m in end]
    figure.samples["peak"] = [m["peak"] for m in end]
    unique = Figure(f"worker memory MB of its own (not shared with the trainer), after {steps} steps", "RSS", unit="MB")
    unique.samples["RSS"] = [m["rss"] for m in end]
    unique.samples["unique"] = [m["unique"] for m in end]
    methods = Figure(f"worker RSS MB by start method, after {steps} steps", "fork (default)", unit="MB")
    methods.samples["fork (default)"] = [m["rss"] for m in end]
    methods.samples["forkserver"] = [m["rss"] for m in served]
    methods.samples["forkserver, its own"] = [m["unique"] for m in served]
    return [figure, unique, methods]


def _worker_memory(steps: int, start_method: str | None) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    """The quickstart's workers' memory (:func:`_memory_mb`) after 200 warm-up steps, and after ``steps`` more."""
    from androidrl.train.compose import make_vec_env

    config = _quickstart()
    config = config.model_copy(update={"vector": config.vector.model_copy(update={"start_method": start_method})})
    env = make_vec_env(config, config.devices)
    try:
        env.seed(0)
        env.reset()
        rng = np.random.default_rng(0)
        for a in rng.integers(0, env.action_space.n, size=(200, env.num_envs)):  # warm up: caches fill
            env.step(a)
        pids = [p.pid for p in env.venv.processes]
        start = [_memory_mb(pid) for pid in pids]
        for a in rng.integers(0, env.action_space.n, size=(steps, env.num_envs)):  # ``steps`` in each worker
            env.step(a)
        return start, [_memory_mb(pid) for pid in pids]
    finally:
        env.close()

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


def _rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of a process, in MB, from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def memory_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Resident memory of each vector-env worker at the start and after many steps (growth)."""
    from androidrl.train.compose import make_vec_env

    steps = 400 if rounds < 8 else 2000 if rounds < 20 else 10_000
    config = _quickstart()
    env = make_vec_env(config, config.devices)
    try:
        env.seed(0)
        env.reset()
        rng = np.random.default_rng(0)
        for a in rng.integers(0, env.action_space.n, size=(200, env.num_envs)):  # warm up: caches fill
            env.step(a)
        pids = [p.pid for p in env.venv.processes]
        start = [_rss_mb(pid)[0] for pid in pids]
        for a in rng.integers(0, env.action_space.n, size=(steps, env.num_envs)):  # ``steps`` in each worker
            env.step(a)
        end = [_rss_mb(pid) for pid in pids]
    finally:
        env.close()
    figure = Figure(f"worker RSS MB, after warm-up vs {steps} more steps each", "after warm-up", unit="MB")
    figure.samples["after warm-up"] = start
    figure.samples[f"after {steps} steps"] = [current for current, _ in end]
    figure.samples["peak"] = [peak for _, peak in end]
    return [figure]

"""The learnability table: what each shipped config reaches, beside a random policy and the scripted oracle.

``python scripts/results.py`` trains every config it is given (each for its own budget,
with one or more seeds), evaluates the final model deterministically, reads from the run's
periodic evaluations how many steps it took to reach 90%, and plays a random policy and the
scripted solver (:mod:`androidrl.solvers`) on the same episodes (same seeds). It writes a
Markdown table (``docs/results.md``) and the runs under ``--runs``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from androidrl.solvers import solver_for
from androidrl.train.compose import eval_devices, make_env
from androidrl.train.config import Config, load_config
from androidrl.train.evaluation import evaluate, evaluate_run, summarize
from androidrl.train.runs import Run
from androidrl.train.training import train


@dataclass
class SeedResult:
    """One training run of a config."""

    seed: int
    success: float
    steps_to_90: int | None
    wall_seconds: float
    per_task: dict[str, float] = field(default_factory=dict)


@dataclass
class Row:
    """One config's line of the table."""

    config: str
    task: str
    budget: int
    seeds: list[SeedResult]
    random: float
    oracle: float
    per_task_random: dict[str, float] = field(default_factory=dict)
    per_task_oracle: dict[str, float] = field(default_factory=dict)


class RandomPolicy:
    """Uniformly random actions (only valid ones where the env has action masks)."""

    uses_action_masks = True

    def __init__(self, env: Any, seed: int = 0) -> None:
        self.space, self.rng = env.action_space, np.random.default_rng(seed)

    def predict(self, obs: Any, state: Any = None, episode_start: Any = None, deterministic: bool = True, **kw: Any):
        masks = kw.get("action_masks")
        n = len(episode_start)
        if masks is not None:
            return np.array([self.rng.choice(np.flatnonzero(m)) for m in masks]), None
        self.space.seed(int(self.rng.integers(2**31)))
        return np.array([self.space.sample() for _ in range(n)]), None


class OraclePolicy:
    """The scripted solver of each env's current task, acting through its wrappers."""

    uses_action_masks = False

    def __init__(self, env: Any, task: str) -> None:
        self.envs = _dummy(env).envs
        self.solve = solver_for(task)

    def predict(self, obs: Any, state: Any = None, episode_start: Any = None, deterministic: bool = True, **kw: Any):
        return np.array([self.solve(_outer(e)) for e in self.envs]), None


def _dummy(env: Any) -> Any:
    while not hasattr(env, "envs"):
        env = env.venv
    return env


def _outer(env: Any) -> Any:
    """The env the action wrapper sits in (the worker's envs are wrapped in Monitor and the guard)."""
    from androidrl.wrappers.action import BoxAction, DiscreteGridAction, MultiDiscreteAction, UIElementAction

    while not isinstance(env, (UIElementAction, DiscreteGridAction, MultiDiscreteAction, BoxAction)):
        env = env.env
    return env


def steps_to(run: Path, target: float = 0.9) -> int | None:
    """The first evaluation's step count at which the success rate reached ``target``."""
    path = run / "evaluations.csv"
    if not path.exists():
        return None
    for row in csv.DictReader(path.open()):
        if float(row["success_rate"]) >= target:
            return int(row["timesteps"])
    return None


def _per_task(summary: dict[str, float]) -> dict[str, float]:
    return {k.split("/", 1)[1]: v for k, v in summary.items() if k.startswith("success_rate/")}


def baselines(config: Config, episodes: int) -> tuple[dict[str, float], dict[str, float]]:
    """The random policy's and the oracle's evaluation summaries on the config's evaluation episodes."""
    task = "suite" if isinstance(config.task, list) else config.task
    out = []
    for make in (lambda env: RandomPolicy(env, config.seed), lambda env: OraclePolicy(env, task)):
        env = make_env(config, eval_devices(config), seed=config.seed + 20_000, backend="dummy", evaluation=True)
        try:
            out.append(summarize(evaluate(make(env), env, episodes, seed=config.seed + 20_000)))
        finally:
            env.close()
    return out[0], out[1]


def learnability(path: Path, seeds: list[int], episodes: int, runs: Path) -> Row:
    """Train ``path`` once per seed, evaluate each, and measure random and oracle on the same episodes."""
    base = load_config(path, ["training.progress_bar=false"])
    results = []
    for seed in seeds:
        config = load_config(path, ["training.progress_bar=false", f"seed={seed}"])
        directory = runs / f"{path.stem}-seed{seed}"
        start = time.monotonic()
        train(Run.create(config, directory, ["scripts/results.py", str(path)]))
        wall = time.monotonic() - start
        summary = evaluate_run(directory, episodes=episodes, record=False)
        results.append(SeedResult(seed, summary["success_rate"], steps_to(directory), wall, _per_task(summary)))
        print(f"{path.name} seed {seed}: success {summary['success_rate']:.0%} in {wall:.0f} s", file=sys.stderr)
    random, oracle = baselines(base, episodes)
    task = (
        base.task if isinstance(base.task, str) else " + ".join(t if isinstance(t, str) else t.name for t in base.task)
    )
    return Row(
        path.name,
        task,
        base.training.total_timesteps,
        results,
        random["success_rate"],
        oracle["success_rate"],
        _per_task(random),
        _per_task(oracle),
    )


def table(rows: list[Row], episodes: int) -> str:
    """The Markdown table."""
    lines = [
        "| config | task | budget (steps) | seeds | success after budget (mean; min–max) | steps to 90% "
        "| wall time (2 cores) | random | oracle |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        values = [s.success for s in row.seeds]
        reached = [s.steps_to_90 for s in row.seeds if s.steps_to_90 is not None]
        to_90 = (
            f"{int(np.median(reached)):,}"
            + (f" ({len(reached)}/{len(values)} seeds)" if len(reached) < len(values) else "")
            if reached
            else "not reached"
        )
        spread = f"; {min(values):.0%}–{max(values):.0%}" if len(values) > 1 else ""
        wall = np.mean([s.wall_seconds for s in row.seeds]) / 60
        lines.append(
            f"| `{row.config}` | {row.task} | {row.budget:,} | {len(values)} | **{np.mean(values):.0%}**{spread} "
            f"| {to_90} | {wall:.1f} min | {row.random:.0%} | {row.oracle:.0%} |"
        )
        for task in sorted(row.seeds[0].per_task):
            per = [s.per_task.get(task, 0.0) for s in row.seeds]
            lines.append(
                f"| | ↳ {task} | | | {np.mean(per):.0%} | | | {row.per_task_random.get(task, 0):.0%} "
                f"| {row.per_task_oracle.get(task, 0):.0%} |"
            )
    lines.append("")
    lines.append(f"Success: deterministic evaluation over {episodes} episodes (the same episodes for the random")
    lines.append("policy and the oracle), on the config's evaluation device.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``scripts/results.py``: regenerate the learnability table."""
    parser = argparse.ArgumentParser(
        prog="androidrl results", description="Train shipped configs and tabulate what they learn."
    )
    parser.add_argument("configs", nargs="+", type=Path, help="configs to train (e.g. configs/quickstart.yaml)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0], help="seeds per config (default 0)")
    parser.add_argument("--episodes", type=int, default=30, help="evaluation episodes (default 30)")
    parser.add_argument("--runs", type=Path, default=Path("runs/results"), help="where the runs go")
    parser.add_argument("--json", type=Path, help="also write the rows as JSON (to merge tables)")
    args = parser.parse_args(argv)
    rows = [learnability(path, args.seeds, args.episodes, args.runs) for path in args.configs]
    print(table(rows, args.episodes))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    return 0

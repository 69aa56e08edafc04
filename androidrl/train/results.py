"""The learnability table: what each shipped config reaches, beside a random policy and the scripted oracle.

``python scripts/results.py`` trains every config it is given (each for its own budget,
with one or more seeds), evaluates the final model deterministically, reads from the run's
periodic evaluations how many steps it took to reach 90%, and plays a random policy and the
scripted solver (:mod:`androidrl.solvers`) on the same episodes (same seeds). It prints a
Markdown table (``--out docs/results.md`` writes the whole page), keeps the runs under
``--runs``, and with ``--json`` the rows, which ``--merge`` turns back into one table (so
configs can be trained in separate invocations).
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

from androidrl.arguments import int_in, seed_arg
from androidrl.solvers import solver_for
from androidrl.train import stats
from androidrl.train.compose import evaluation_env
from androidrl.train.config import MAX_EPISODES, Config, ConfigError, load_config
from androidrl.train.evaluation import evaluate, evaluate_run, summarize
from androidrl.train.runs import Run, command_line
from androidrl.train.seeds import AFTERWARDS, evaluation_seed
from androidrl.train.training import Interrupted, interrupt_on_sigterm, train

#: Where each config's rows are kept (``--json``), so one config can be measured again and merged.
ROWS_DIR = "results/learnability"


@dataclass
class SeedResult:
    """One training run of a config."""

    seed: int
    success: float
    steps_to_90: int | None
    wall_seconds: float
    per_task: dict[str, float] = field(default_factory=dict)
    length: float = 0.0
    random: float = 0.0
    oracle: float = 0.0
    random_length: float = 0.0
    oracle_length: float = 0.0
    held: float | None = None  # the share of evaluations at 90% or more from the first such one on


@dataclass
class Row:
    """One config's line of the table."""

    config: str
    task: str
    budget: int
    seeds: list[SeedResult]
    per_task_random: dict[str, float] = field(default_factory=dict)
    per_task_oracle: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Row:
        """A row read back from ``--json``."""
        return cls(**{**data, "seeds": [SeedResult(**s) for s in data["seeds"]]})


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
        return np.array([self.solve(e) for e in self.envs]), None


def _dummy(env: Any) -> Any:
    while not hasattr(env, "envs"):
        env = env.venv
    return env


def steps_to(run: Path, target: float = 0.9) -> tuple[int | None, float | None]:
    """When the run's periodic evaluations first reached ``target``, and how often they stayed there.

    Returns:
        The step count of the first evaluation at ``target`` or above (None: never), and the
        share of the evaluations from that one on that are at ``target`` or above.
    """
    path = run / "evaluations.csv"
    if not path.exists():
        return None, None
    rates = [(int(row["timesteps"]), float(row["success_rate"])) for row in csv.DictReader(path.open())]
    first = next((i for i, (_, rate) in enumerate(rates) if rate >= target), None)
    if first is None:
        return None, None
    later = [rate >= target for _, rate in rates[first:]]
    return rates[first][0], sum(later) / len(later)


def _per_task(summary: dict[str, float]) -> dict[str, float]:
    return {k.split("/", 1)[1]: v for k, v in summary.items() if k.startswith("success_rate/")}


def baselines(config: Config, episodes: int) -> tuple[dict[str, float], dict[str, float]]:
    """The random policy's and the oracle's evaluation summaries on the trained run's evaluation episodes.

    ``evaluate_run`` plays the episodes seeded :func:`evaluation_seed` ``(seed, 0, AFTERWARDS)``; so do these.
    """
    task = "suite" if isinstance(config.task, list) else config.task
    seed = evaluation_seed(config.seed, 0, AFTERWARDS)
    out = []
    for make in (lambda env: RandomPolicy(env, config.seed), lambda env: OraclePolicy(env, task)):
        env = evaluation_env(config)
        try:
            out.append(summarize(evaluate(make(env), env, episodes, seed=seed)))
        finally:
            env.close()
    return out[0], out[1]


def learnability(path: Path, seeds: list[int], episodes: int, runs: Path, overrides: list[str] = ()) -> Row:
    """Train ``path`` once per seed, evaluate each, and measure random and oracle on the same episodes."""
    settings = ["training.progress_bar=false", *overrides]
    base = load_config(path, settings)
    results = []
    per_task_random: dict[str, list[float]] = {}
    per_task_oracle: dict[str, list[float]] = {}
    for seed in seeds:
        config = load_config(path, [*settings, f"seed={seed}"])
        directory = runs / f"{path.stem}-seed{seed}"
        start = time.monotonic()
        result = train(Run.create(config, directory, command_line("results", [str(path), "--seeds", str(seed)])))
        if result.stopped_by is not None:  # a half-trained seed is no result: stop the table
            raise Interrupted(result.stopped_by)
        wall = time.monotonic() - start
        summary = evaluate_run(directory, episodes=episodes, record=False)
        random, oracle = baselines(config, episodes)
        reached, held = steps_to(directory)
        results.append(
            SeedResult(
                seed,
                summary["success_rate"],
                reached,
                wall,
                _per_task(summary),
                summary["mean_length"],
                random["success_rate"],
                oracle["success_rate"],
                random["mean_length"],
                oracle["mean_length"],
                held,
            )
        )
        for task, value in _per_task(random).items():
            per_task_random.setdefault(task, []).append(value)
        for task, value in _per_task(oracle).items():
            per_task_oracle.setdefault(task, []).append(value)
        print(f"{path.name} seed {seed}: success {summary['success_rate']:.0%} in {wall:.0f} s", file=sys.stderr)
    task = (
        base.task if isinstance(base.task, str) else " + ".join(t if isinstance(t, str) else t.name for t in base.task)
    )
    return Row(
        path.name,
        task,
        base.training.total_timesteps,
        results,
        {task: float(np.mean(v)) for task, v in per_task_random.items()},
        {task: float(np.mean(v)) for task, v in per_task_oracle.items()},
    )


def table(rows: list[Row], episodes: int) -> str:
    """The Markdown table."""
    lines = [
        "| config | task | budget (steps) | seeds | success after budget (mean ± std; min–max; IQM [95% CI]) "
        "| steps to 90%; held "
        "| wall time (2 cores) | random | oracle | episode length: trained / random / oracle |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        values = [s.success for s in row.seeds]
        reached = [s.steps_to_90 for s in row.seeds if s.steps_to_90 is not None]
        held = [s.held for s in row.seeds if s.held is not None]
        to_90 = (
            f"{int(np.median(reached)):,}"
            + (f" ({len(reached)}/{len(values)} seeds)" if len(reached) < len(values) else "")
            + f"; held {np.mean(held):.0%}"
            if reached
            else "not reached"
        )
        low, high = stats.bootstrap_ci(values)
        spread = (
            f" ± {stats.sample_std(values):.0%}; {min(values):.0%}–{max(values):.0%}; "
            f"IQM {stats.iqm(values):.0%} [{low:.0%}–{high:.0%}]"
            if len(values) > 1
            else ""
        )
        wall = np.mean([s.wall_seconds for s in row.seeds]) / 60

        def mean(name: str, seeds: list[SeedResult] = row.seeds) -> float:
            return float(np.mean([getattr(s, name) for s in seeds]))

        lines.append(
            f"| `{row.config}` | {row.task} | {row.budget:,} | {len(values)} | **{np.mean(values):.0%}**{spread} "
            f"| {to_90} | {wall:.1f} min | {mean('random'):.0%} | {mean('oracle'):.0%} "
            f"| {mean('length'):.1f} / {mean('random_length'):.1f} / {mean('oracle_length'):.1f} |"
        )
        for task in sorted(row.seeds[0].per_task):
            per = [s.per_task.get(task, 0.0) for s in row.seeds]
            lines.append(
                f"| | ↳ {task} | | | {np.mean(per):.0%} | | | {row.per_task_random.get(task, 0):.0%} "
                f"| {row.per_task_oracle.get(task, 0):.0%} | |"
            )
    lines.append("")
    lines.append(f"Success: deterministic evaluation over {episodes} episodes on the config's evaluation device;")
    lines.append("the random policy and the scripted oracle play the same episodes (the same seeds) as each")
    lines.append("trained seed, and their figures are the mean over those seeds.")
    return "\n".join(lines)


def commands(rows: list[Row], episodes: int) -> list[str]:
    """The commands that make ``rows`` again: one per config (its rows kept in ``results/learnability/``), the merge.

    One file a config, so a config that changed is measured again alone and merged with the others' rows.
    """
    lines, parts = [], []
    for row in rows:
        seeds = " ".join(str(s.seed) for s in row.seeds)
        part = f"{ROWS_DIR}/{Path(row.config).stem}.json"
        lines.append(
            f"python scripts/results.py configs/{row.config} --seeds {seeds} --episodes {episodes} --json {part}"
        )
        parts.append(part)
    return [*lines, f"python scripts/results.py --merge {' '.join(parts)} --episodes {episodes} --out docs/results.md"]


def page(rows: list[Row], episodes: int) -> str:
    """``docs/results.md``: the table, how it was made and how to make it again."""
    return "\n".join(
        [
            "# What each shipped config learns",
            "",
            "Every shipped config trained for its own budget (`training.total_timesteps`), then its final",
            "model evaluated deterministically, beside a uniformly random policy (valid actions only",
            "where the config has action masks) and the scripted solver of each task",
            '(`androidrl/solvers.py`) acting through the same wrappers. "Steps to 90%" is the first',
            "periodic evaluation during training at 90% success or more (median over the seeds that",
            'reached it); "held" is the share of the evaluations from that one on that stayed at 90% or',
            "more (below 100%: the policy still forgot and relearned after it first succeeded). Wall",
            "time is the whole run (training and its periodic evaluations) on the 2-core machine, per seed.",
            "",
            "Not in the table: `emulators.yaml` (needs two Android emulators), `ray_cluster.yaml`",
            "(needs a Ray cluster; it trains the quickstart's task, see `tests/test_ray.py`), and the",
            "task suite's `suite_settings.yaml` and `leaderboard.yaml`, whose results are in",
            "[the leaderboard](leaderboard.md).",
            "",
            table(rows, episodes),
            "",
            "## Regenerate",
            "",
            "```bash",
            *commands(rows, episodes),
            "```",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """``scripts/results.py``: regenerate the learnability table."""
    parser = argparse.ArgumentParser(
        prog="androidrl results", description="Train shipped configs and tabulate what they learn."
    )
    parser.add_argument("configs", nargs="*", type=Path, help="configs to train (e.g. configs/quickstart.yaml)")
    parser.add_argument("--seeds", type=seed_arg, nargs="+", default=[0], help="seeds per config (default 0)")
    parser.add_argument("--episodes", type=int_in(1, MAX_EPISODES), default=30, help="evaluation episodes (default 30)")
    parser.add_argument("--runs", type=Path, default=Path("runs/results"), help="where the runs go")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="override a config key in every run"
    )
    parser.add_argument("--json", type=Path, help="also write the rows as JSON (for --merge)")
    parser.add_argument("--merge", type=Path, nargs="+", default=[], help="rows saved with --json, to tabulate too")
    parser.add_argument("--out", type=Path, help="write the whole page (e.g. docs/results.md)")
    args = parser.parse_args(argv)
    if not args.configs and not args.merge:
        parser.error("name configs to train, or --merge saved rows")
    try:
        rows = [Row.from_dict(r) for path in args.merge for r in json.loads(path.read_text())]
    except (OSError, ValueError, TypeError, KeyError) as err:
        parser.error(f"--merge: not rows saved with --json: {err}")
    try:
        with interrupt_on_sigterm():  # (between runs too, not only while one trains)
            rows += [learnability(path, args.seeds, args.episodes, args.runs, args.set) for path in args.configs]
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except Interrupted as stop:
        print(f"interrupted: the runs so far are in {args.runs}; no table written", file=sys.stderr)
        return 128 + stop.signum
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2))
    print(table(rows, args.episodes))
    if args.out:
        args.out.write_text(page(rows, args.episodes))
    return 0


if __name__ == "__main__":
    sys.exit(main())

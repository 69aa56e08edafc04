"""The suite's leaderboard: random, oracle and PPO per family and tier, and a multi-task policy per category.

``python scripts/leaderboard.py`` runs the cells it is asked for and keeps each as one JSON file
under ``--results`` (``baseline/<family>-<tier>.json``, ``ppo/<family>-<tier>-seed<N>.json``,
``multitask/<category>-seed<N>.json``); a cell already there is skipped, so a long leaderboard
is made over several sessions and a killed run loses only the cell it was on. ``render`` turns
the files into ``docs/leaderboard.md`` and ``docs/leaderboard.json``.

Every agent plays the test split (held-out parameter values) through the element observation and
action (:class:`~androidrl.wrappers.ElementObservation`, :class:`~androidrl.wrappers.ElementAction`):
the random agent picks uniformly among the actions its mask allows, the oracle is the family's
scripted solver, PPO (MaskablePPO, ``configs/leaderboard.yaml``) trains from scratch on the train
split of one family (or of a whole category, for the multi-task policy) and is evaluated on the
test split.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import signal
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.errors import ConfigError, TaskError
from androidrl.provenance import commit as git_commit
from androidrl.solvers import play_oracle, solver_for
from androidrl.tasks.family import family_specs, list_families, make_family_task
from androidrl.tasks.spec import CATEGORIES, TIERS
from androidrl.wrappers import ElementAction, ElementObservation

#: The screen every leaderboard agent plays on (the suite's default phone).
SCREEN = (360, 800, 160)
#: The PPO agent's config (its task is set per cell).
CONFIG = "leaderboard"
#: The families PPO trains on, three per category (short oracles first: where a fixed budget can show learning).
PPO_FAMILIES = {
    "navigation": ("open-app", "dialer-tab", "settings-page"),
    "gestures": ("tap-target", "find-about-phone", "scroll-to-contact"),
    "text-entry": ("notes-word", "dial-number", "search-contact"),
    "widgets": ("quick-settings-tile", "alarm-vibrate", "screen-timeout-dialog"),
    "crud": ("delete-contact", "star-contact", "delete-conversation"),
    "lookup": ("call-contact", "reply-to-sender", "call-back-missed"),
    "settings": ("wifi-on", "bluetooth-off", "airplane-home"),
    "cross-app": ("airplane-clock", "call-then-text", "message-to-note"),
    "robustness": ("toast-overlay", "wrong-app-start", "shade-pulled-down"),
}
#: Training steps of one PPO cell (one family) and of one multi-task cell (a whole category), by default.
PPO_BUDGET, MULTITASK_BUDGET = 5_000, 20_000
#: The commands that make the whole leaderboard (each resumable), as the page cites them.
REGENERATE = (
    "python scripts/leaderboard.py baselines && python scripts/leaderboard.py ppo && "
    "python scripts/leaderboard.py multitask && python scripts/leaderboard.py render"
)


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished children."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _element_env(family: str, tier: str, split: str) -> Any:
    width, height, density = SCREEN
    device = VirtualDevice(width=width, height=height, density=density, seed=0)
    task = make_family_task(family, tier, split, reward_mode="binary")
    android = AndroidEnv(device, task, screen_size=(width, height), dump_xml=False)
    return ElementAction(ElementObservation(android))


def baseline_cell(family: str, tier: str, episodes: int, split: str = "test") -> dict[str, Any]:
    """Random and oracle success, episode length and env steps/s for one family and tier (seeds 0..episodes-1)."""
    env = _element_env(family, tier, split)
    rng = np.random.default_rng(0)
    solve = solver_for("suite")
    out: dict[str, Any] = {"family": family, "tier": tier, "split": split, "episodes": episodes}
    try:
        for agent in ("random", "oracle"):
            successes, lengths, steps, start = [], [], 0, time.perf_counter()
            for seed in range(episodes):
                env.reset(seed=seed)
                if agent == "oracle":
                    success, length, _ = play_oracle(env, solve)
                else:
                    success, length, done, info = False, 0, False, {}
                    while not done:
                        allowed = np.flatnonzero(env.action_masks())
                        *_, terminated, truncated, info = env.step(int(rng.choice(allowed)))
                        length += 1
                        done = terminated or truncated
                    success = bool(info.get("is_success"))
                successes.append(success)
                lengths.append(length)
                steps += length
            out[agent] = {
                "success": float(np.mean(successes)),
                "length": float(np.mean(lengths)),
                "steps_per_second": steps / max(time.perf_counter() - start, 1e-9),
            }
    finally:
        env.close()
    return out


def _train_cell(task: dict[str, Any], seed: int, budget: int, episodes: int, runs: Path, name: str) -> dict[str, Any]:
    """Train the leaderboard config on ``task``'s train split from scratch, evaluate on its test split."""
    from androidrl.train.config import load_config
    from androidrl.train.evaluation import evaluate_run
    from androidrl.train.lock import RunLock
    from androidrl.train.runs import Run, command_line
    from androidrl.train.training import Interrupted, train

    overrides = [
        f"seed={seed}",
        f"task={json.dumps({**task, 'split': 'train', 'eval_split': 'test'})}",
        f"training.total_timesteps={budget}",
        "training.progress_bar=false",
    ]
    config = load_config(CONFIG, overrides)
    directory = runs / name
    if directory.exists():  # a cell stopped before its file was written: train it again from scratch
        with RunLock(directory):  # (unless a trainer still works there: RunInUse names it)
            print(f"{name}: removing the unfinished run {directory}", file=sys.stderr)
            shutil.rmtree(directory)
    start = time.monotonic()
    result = train(Run.create(config, directory, command_line("train", ["--config", CONFIG, *_quoted(overrides)])))
    if result.stopped_by is not None:
        raise Interrupted(result.stopped_by)
    summary = evaluate_run(directory, episodes=episodes, record=False)
    per_family = {k.split("/", 1)[1]: v for k, v in summary.items() if k.startswith("success_rate/")}
    return {
        "seed": seed,
        "budget": budget,
        "success": summary["success_rate"],
        "length": summary["mean_length"],
        "per_family": per_family,
        "wall_seconds": time.monotonic() - start,
    }


def _quoted(overrides: list[str]) -> list[str]:
    return [part for item in overrides for part in ("--set", item)]


def ppo_cell(family: str, tier: str, seed: int, budget: int, episodes: int, runs: Path) -> dict[str, Any]:
    """PPO from scratch on one family's tier (train split), evaluated on its test split."""
    task = {"suite": "all", "families": [family], "tier": tier}
    name = f"{family}-{tier}-s{seed}"
    return {"family": family, "tier": tier, **_train_cell(task, seed, budget, episodes, runs, name)}


def multitask_cell(category: str, seed: int, budget: int, episodes: int, runs: Path) -> dict[str, Any]:
    """One policy for every family of a category (easy tier, train split), evaluated on the test split."""
    task = {"suite": "all", "categories": [category], "tier": "easy"}
    name = f"multitask-{category}-s{seed}"
    return {"category": category, "tier": "easy", **_train_cell(task, seed, budget, episodes, runs, name)}


def _run_cells(cells: Iterable[tuple[Path, Any]], label: str) -> list[str]:
    """Run each (file, make) cell whose file is missing; write it as soon as it is made.

    A cell whose task fails (a reset that cannot be made, say) is reported and left missing, and
    the others still run. Returns the failed cells' names.
    """
    failed = []
    for path, make in cells:
        if path.exists():
            continue
        start = _cpu_seconds()
        try:
            cell = make()
        except TaskError as err:
            print(f"{label} {path.stem}: FAILED: {err}", file=sys.stderr)
            failed.append(path.stem)
            continue
        cell["cpu_seconds"] = _cpu_seconds() - start
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(cell, indent=1))
        tmp.replace(path)  # whole or absent, even if killed while writing
        print(f"{label} {path.stem}: {_brief(cell)}", file=sys.stderr)
    return failed


def _brief(cell: dict[str, Any]) -> str:
    if "random" in cell:
        return f"random {cell['random']['success']:.0%}, oracle {cell['oracle']['success']:.0%}"
    return f"success {cell['success']:.0%} in {cell['wall_seconds']:.0f} s"


def _load(directory: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(directory.glob("*.json"))] if directory.is_dir() else []


def render(results: Path, command: str) -> tuple[str, dict[str, Any]]:
    """``docs/leaderboard.md`` and ``docs/leaderboard.json`` from the cells under ``results``."""
    baselines, ppo, multitask = (_load(results / kind) for kind in ("baseline", "ppo", "multitask"))
    specs = family_specs()
    data = {
        "command": command,
        "commit": git_commit(),
        "cpu_seconds": round(sum(c.get("cpu_seconds", 0.0) for c in baselines + ppo + multitask), 1),
        "screen": "x".join(map(str, SCREEN[:2])) + f"@{SCREEN[2]}",
        "baseline": baselines,
        "ppo": ppo,
        "multitask": multitask,
    }
    lines = [
        "# Leaderboard",
        "",
        "Success on the **test split** (held-out parameter values) of every task family, per tier, through",
        "the element observation and action. *Random*: uniform over the actions the mask allows. *Oracle*:",
        "the family's scripted solver through the same action wrapper. *PPO*: MaskablePPO from scratch on",
        "the family's train split (`configs/leaderboard.yaml`), evaluated on its test split; mean over seeds.",
        f"Made by `{command}` at commit `{data['commit'] or 'unknown'}`, {data['cpu_seconds'] / 3600:.2f} CPU hours",
        "(2-core machine). Cells are JSON files under the results directory; `render` makes this page.",
        "",
        "## Suite score",
        "",
    ]
    score_rows = []
    for agent in ("random", "oracle"):
        cells = [c[agent]["success"] for c in baselines]
        if cells:
            score_rows.append(f"| {agent} | {np.mean(cells):.1%} | {len(cells)} family x tier cells |")
    random_of = {(c["family"], c["tier"]): c["random"]["success"] for c in baselines}
    ppo_success = [c["success"] for c in ppo]
    if ppo_success:
        cells = {(c["family"], c["tier"]) for c in ppo}
        score_rows.append(
            f"| PPO (from scratch, per family) | {np.mean(ppo_success):.1%} | {len(cells)} family x tier cells, "
            f"{len(ppo)} runs (random on those cells: {_mean_of(random_of, cells):.1%}) |"
        )
    if multitask:
        cells = {(f, "easy") for c in multitask for f in c["per_family"]}
        categories = len({c["category"] for c in multitask})
        score_rows.append(
            f"| PPO (one policy per category) | {np.mean([c['success'] for c in multitask]):.1%} | {categories} "
            f"categories' easy tiers, {len(multitask)} runs (random on those cells: {_mean_of(random_of, cells):.1%}) |"
        )
    lines += ["| agent | mean success | over |", "|---|---|---|", *score_rows, ""]
    planned = sum(map(len, PPO_FAMILIES.values()))
    budgets = sorted({c["budget"] for c in ppo + multitask})
    lines += [
        f"Made so far: {len(baselines)} of {3 * len(specs)} baseline cells; PPO {len(ppo)} of {3 * planned} cells "
        f"({planned} families, `PPO_FAMILIES`, x 3 seeds); multi-task {len(multitask)} of {3 * len(PPO_FAMILIES)} "
        f"cells. Training budgets: {', '.join(f'{b:,}' for b in budgets) or '—'} steps a run.",
        "",
    ]
    lines += [
        "## Per family and tier",
        "",
        "| family | category | tier | random | oracle | oracle length | PPO (seeds) |",
        "|---|---|---|---|---|---|---|",
    ]
    ppo_by = {}
    for cell in ppo:
        ppo_by.setdefault((cell["family"], cell["tier"]), []).append(cell["success"])
    order = {name: i for i, name in enumerate(specs)}
    for cell in sorted(baselines, key=lambda c: (order.get(c["family"], 1e9), TIERS.index(c["tier"]))):
        key = (cell["family"], cell["tier"])
        trained = ppo_by.get(key)
        ppo_text = f"{np.mean(trained):.0%} ({len(trained)})" if trained else ""
        category = specs[cell["family"]].category if cell["family"] in specs else "?"
        lines.append(
            f"| {cell['family']} | {category} | {cell['tier']} | {cell['random']['success']:.0%} "
            f"| {cell['oracle']['success']:.0%} | {cell['oracle']['length']:.1f} | {ppo_text} |"
        )
    if multitask:
        lines += [
            "",
            "## One policy per category (easy tier, train split → test split)",
            "",
            "One MaskablePPO policy trained on every family of a category at once (the families in turn), then",
            "evaluated on their test split. A family's figure comes from the few evaluation episodes it got (the",
            "cell's episodes over the category's families, in turn: one or two each), so read it as solved or not.",
            "",
            "| category | seeds | success | random (same families) | per family |",
            "|---|---|---|---|---|",
        ]
        by_category: dict[str, list[dict[str, Any]]] = {}
        for cell in multitask:
            by_category.setdefault(cell["category"], []).append(cell)
        for category, cells in sorted(by_category.items()):
            families = sorted({f for c in cells for f in c["per_family"]})
            per = ", ".join(f"{f} {np.mean([c['per_family'].get(f, 0.0) for c in cells]):.0%}" for f in families)
            random = _mean_of(random_of, {(f, "easy") for f in families})
            success = np.mean([c["success"] for c in cells])
            lines.append(f"| {category} | {len(cells)} | {success:.0%} | {random:.0%} | {per} |")
    lines.append("")
    return "\n".join(lines), data


def _mean_of(values: dict[tuple[str, str], float], cells: set[tuple[str, str]]) -> float:
    """The mean of ``values`` over the ``cells`` it has (NaN for none)."""
    found = [values[c] for c in cells if c in values]
    return float(np.mean(found)) if found else float("nan")


def main(argv: list[str] | None = None) -> int:
    """``scripts/leaderboard.py``: run leaderboard cells (resumable) and render the page (exit 1 on a run error).

    Ctrl-C or SIGTERM stops it wherever it is (training, evaluating, between cells): the cells
    written so far stay, and the same command goes on from the first missing one (exit 130/143).
    """
    from androidrl.train.training import Interrupted, interrupt_on_sigterm

    try:
        with interrupt_on_sigterm():
            return _main(argv)
    except ConfigError as err:  # e.g. a cell's run directory in use by another trainer
        print(f"error: {err}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Interrupted) as stop:
        signum = stop.signum if isinstance(stop, Interrupted) else signal.SIGINT
        print(f"\n{signal.Signals(signum).name}: stopped; the cells written so far are kept, "
              "the same command goes on", file=sys.stderr)  # fmt: skip
        return 128 + signum


def _main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/leaderboard.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["baselines", "ppo", "multitask", "render"])
    parser.add_argument("--results", type=Path, default=Path("results/leaderboard"), help="where the cells go")
    parser.add_argument(
        "--families", nargs="+", help="only these families (default: all; ppo: PPO_FAMILIES, 3 per category)"
    )
    parser.add_argument("--categories", nargs="+", choices=CATEGORIES, help="only families of these categories")
    parser.add_argument("--tiers", nargs="+", choices=TIERS, default=None, help="tiers (default: all; ppo: easy)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="training seeds (ppo, multitask)")
    parser.add_argument("--episodes", type=int, default=20, help="evaluation episodes per cell (default 20)")
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        help=f"training steps per run (default {PPO_BUDGET:,} for ppo, {MULTITASK_BUDGET:,} for multitask)",
    )
    parser.add_argument("--runs", type=Path, default=Path("runs/leaderboard"), help="where training runs go")
    parser.add_argument("--out", type=Path, default=Path("docs"), help="render: the folder of leaderboard.md/.json")
    args = parser.parse_args(argv)
    if args.budget is None:
        args.budget = MULTITASK_BUDGET if args.what == "multitask" else PPO_BUDGET
    if args.episodes < 1 or args.budget < 1:
        parser.error("--episodes and --budget must be >= 1")
    families = list_families(categories=args.categories, families=args.families)
    results = args.results
    if args.what == "baselines":
        tiers = args.tiers or list(TIERS)
        cells = (
            (
                results / "baseline" / f"{f.name}-{tier}.json",
                lambda f=f, t=tier: baseline_cell(f.name, t, args.episodes),
            )
            for f in families
            for tier in tiers
        )
        failed = _run_cells(cells, "baseline")
    elif args.what == "ppo":
        if args.families is None:  # three per category
            wanted = {f.category for f in families}
            names = [name for category, group in PPO_FAMILIES.items() if category in wanted for name in group]
        else:  # in the order given (checked by list_families above)
            names = list(dict.fromkeys(args.families))
        cells = (
            (
                results / "ppo" / f"{name}-{tier}-seed{seed}.json",
                lambda n=name, t=tier, s=seed: ppo_cell(n, t, s, args.budget, args.episodes, args.runs),
            )
            for name in names
            for tier in args.tiers or ["easy"]
            for seed in args.seeds
        )
        failed = _run_cells(cells, "ppo")
    elif args.what == "multitask":
        categories = args.categories or sorted({f.category for f in families})
        cells = (
            (
                results / "multitask" / f"{category}-seed{seed}.json",
                lambda c=category, s=seed: multitask_cell(c, s, args.budget, args.episodes, args.runs),
            )
            for category in categories
            for seed in args.seeds
        )
        failed = _run_cells(cells, "multitask")
    else:
        page, data = render(results, REGENERATE)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "leaderboard.md").write_text(page, encoding="utf-8")
        (args.out / "leaderboard.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
        print(page)
        return 0
    if failed:
        print(f"{len(failed)} cells failed (rerun to retry them): {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0

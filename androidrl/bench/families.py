"""The task suite's cost: steps/s and episode resets of every family, in process at 360x800."""

from __future__ import annotations

import sys
import time

import numpy as np

from androidrl.bench.figures import Figure
from androidrl.registration import make_virtual_env, wrap_env
from androidrl.tasks.family import list_families, make_family_task
from androidrl.tasks.spec import TIERS
from androidrl.tasks.spec_task import start_snapshot_name

#: The grid the wrapped env taps (the navigation bar left out, as in the app-screen figures).
GRID = {"type": "grid", "region": [0, 0.03, 1, 0.94]}


def families_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Per family (every tier; the easy tier alone with few rounds): steps/s and reset time, at 360x800.

    Each sample is one family and tier. Steps/s: the same random grid taps through the raw
    env and the env wrapped 84x84 (the family's success check, side effects and subgoals read
    on every step, as in training); an episode that ends is reset untimed. Reset: the
    family's ``reset()`` (its start snapshot loaded, then its reset steps: clears, inserted
    rows, launches) against loading that snapshot alone (nothing, for a family that starts
    from its reset steps). The suite always runs at 360x800
    (the suite's screen), whatever ``--size`` says.
    """
    quick = rounds < 8
    tiers = ("easy",) if quick else TIERS
    steps, resets = (40, 3) if quick else (100, 7)
    names = [family.name for family in list_families()]
    raw_rate, wrapped_rate, reset_ms, load_ms = [], [], [], []
    for index, name in enumerate(names):
        print(f"  families: {index + 1}/{len(names)} {name}", file=sys.stderr, end="\r", flush=True)
        for tier in tiers:
            raw, wrapped, reset, load = _family(name, tier, steps, resets)
            raw_rate.append(raw)
            wrapped_rate.append(wrapped)
            reset_ms.append(reset)
            load_ms.append(load)
    print(file=sys.stderr)
    where = f"{len(names)} families x {len(tiers)} tier{'s' if len(tiers) > 1 else ''}, 360x800 in process"
    rate = Figure.rate(f"suite steps/s per family, {where}", "raw AndroidEnv")
    rate.samples = {"raw AndroidEnv": raw_rate, "wrapped 84x84": wrapped_rate}
    reset_figure = Figure(f"suite episode reset per family, {where}", "snapshot load alone")
    reset_figure.samples = {"snapshot load alone": load_ms, "family reset": reset_ms}
    return [rate, reset_figure]


def _family(name: str, tier: str, steps: int, resets: int) -> tuple[float, float, float, float]:
    """(raw steps/s, wrapped steps/s, median reset ms, median snapshot-load ms) of one family and tier."""
    envs = [
        make_virtual_env(360, 800, 160, task=make_family_task(name, tier), dump_xml=False, write_files=False),
        wrap_env(
            make_virtual_env(360, 800, 160, task=make_family_task(name, tier), dump_xml=False, write_files=False),
            action=GRID,
        ),
    ]
    try:
        rng = np.random.default_rng(0)
        acts = [int(a) for a in rng.integers(0, 8 * 4, size=steps)]
        raw, wrapped = envs
        rates = [_steps_per_second(raw, [wrapped.action(a) for a in acts]), _steps_per_second(wrapped, acts)]
        android = raw.unwrapped
        snapshot = start_snapshot_name(android.task.spec)
        if snapshot not in android.device.snapshot_names():  # ``start: steps``: no snapshot to load
            snapshot = None
        reset, load = [], []
        for seed in range(resets):
            start = time.perf_counter()
            android.reset(seed=seed)
            reset.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            if snapshot is not None:
                android.device.load_snapshot(snapshot)
            load.append((time.perf_counter() - start) * 1000)
        return (*rates, float(np.median(reset)), float(np.median(load)))
    finally:
        for env in envs:
            env.close()


def _steps_per_second(env, actions: list) -> float:
    """Steps/s over ``actions`` from a fresh episode (seed 0); resets in between are not timed."""
    env.reset(seed=0)
    spent = 0.0
    for action in actions:
        start = time.perf_counter()
        *_, terminated, truncated, _ = env.step(action)
        spent += time.perf_counter() - start
        if terminated or truncated:
            env.reset()
    return len(actions) / spent

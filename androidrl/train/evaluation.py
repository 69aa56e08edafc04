"""Evaluate a trained run: play episodes, report success rate, return and length, record them.

``python scripts/evaluate.py --run RUN_DIR`` loads the run's final model (or last
checkpoint), plays ``--episodes`` episodes on the evaluation devices (one virtual phone by
default), prints a table, and writes ``RUN_DIR/eval/<timestamp>/``: ``summary.json`` and
the recorded episodes (see :mod:`androidrl.recording`).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from androidrl.errors import DeviceError
from androidrl.recording import EpisodeRecorder
from androidrl.train.compose import check_devices, eval_devices, load_model, make_env, make_wrap, template_env
from androidrl.train.config import ConfigError, Devices
from androidrl.train.runs import Run
from androidrl.validation import format_errors


@dataclass
class EpisodeResult:
    """How one evaluation episode went."""

    ret: float
    length: int
    success: bool
    task: str = ""


def evaluate(
    model: Any, env: Any, episodes: int, deterministic: bool = True, seed: int | None = None
) -> list[EpisodeResult]:
    """Play ``episodes`` episodes of ``model`` on an SB3 VecEnv (recurrent and maskable models too).

    ``model`` is anything with SB3's ``predict`` (a random or scripted policy too); with
    ``seed``, the episodes are the same whatever plays them. An episode a device fault cut
    short is not counted.

    Raises:
        DeviceError: An evaluation device is down (no results are made up for it).
    """
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    masked = getattr(model, "uses_action_masks", type(model).__name__ == "MaskablePPO") and is_masking_supported(env)
    if seed is not None:
        env.seed(seed)
    obs = env.reset()
    states = None
    starts = np.ones(env.num_envs, dtype=bool)
    returns = np.zeros(env.num_envs)
    lengths = np.zeros(env.num_envs, dtype=int)
    results: list[EpisodeResult] = []
    while len(results) < episodes:
        kwargs = {"action_masks": get_action_masks(env)} if masked else {}
        actions, states = model.predict(obs, state=states, episode_start=starts, deterministic=deterministic, **kwargs)
        obs, rewards, dones, infos = env.step(actions)
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            if infos[i].get("device_down"):
                raise DeviceError(f"an evaluation device is down: {infos[i]['device_error']}")
            if not infos[i].get("device_error"):
                success, task = bool(infos[i].get("is_success")), str(infos[i].get("task", ""))
                results.append(EpisodeResult(float(returns[i]), int(lengths[i]), success, task))
            returns[i], lengths[i] = 0.0, 0
        starts = dones
    return results[:episodes]


def summarize(results: list[EpisodeResult]) -> dict[str, float]:
    """Success rate, mean return and mean length of episode results (and ``success_rate/<task>`` for a suite)."""
    summary = {
        "success_rate": float(np.mean([r.success for r in results])) if results else 0.0,
        "mean_return": float(np.mean([r.ret for r in results])) if results else 0.0,
        "mean_length": float(np.mean([r.length for r in results])) if results else 0.0,
        "episodes": float(len(results)),
    }
    tasks = sorted({r.task for r in results})
    if len(tasks) > 1:
        for task in tasks:
            summary[f"success_rate/{task}"] = float(np.mean([r.success for r in results if r.task == task]))
    return summary


def model_path(run: Run, checkpoint: str | Path | None = None) -> Path:
    """``checkpoint``, or else the run's final model, or else its last checkpoint.

    Raises:
        ConfigError: The checkpoint does not exist, or the run has no model yet.
    """
    if checkpoint:
        if not Path(checkpoint).is_file():
            raise ConfigError(f"checkpoint {checkpoint} does not exist")
        return Path(checkpoint)
    path = run.final_model if run.final_model.exists() else run.latest_checkpoint()
    if path is None:
        raise ConfigError(f"{run.directory}: no final_model.zip and no checkpoint to evaluate")
    return path


def load_run_model(run: Run, checkpoint: str | Path | None = None) -> Any:
    """The model at :func:`model_path`, loaded safely (nothing in it is unpickled)."""
    env = template_env(run.config)
    try:
        return load_model(run.config, model_path(run, checkpoint), env)
    finally:
        env.close()


def evaluate_run(
    run_dir: str | Path,
    episodes: int = 10,
    deterministic: bool = True,
    devices: list[str] | None = None,
    record: bool = True,
    checkpoint: str | Path | None = None,
    frame_height: int | None = None,
) -> dict[str, Any]:
    """Evaluate a run and write ``RUN_DIR/eval/<timestamp>/summary.json`` (and recordings).

    ``frame_height`` is the height of the recorded screens (None: full size, for video and GIFs).

    Returns:
        The summary: success rate, mean return and length, per-episode results, where it went.

    Raises:
        ConfigError: ``run_dir`` is not a run, has no model, or its evaluation devices are
            missing or unusable (all checked before anything is written).
        DeviceError: A device went down during the evaluation.
    """
    run = Run.open(run_dir)
    config = run.config
    path = model_path(run, checkpoint)
    if devices:
        try:
            chosen = Devices(serials=devices, adb=config.devices.adb)
        except ValidationError as err:
            raise ConfigError(f"--devices: {format_errors(err)}") from None
    else:
        chosen = eval_devices(config)
    if chosen is None:
        raise ConfigError("the run trained on phones: say which devices to evaluate on with --devices")
    check_devices(config, chosen)
    out = run.eval_dir / datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    out.mkdir(parents=True)
    config_wrap = make_wrap(config)

    def wrap(env):  # the recorder goes around the config's wrappers
        env = config_wrap(env)
        return EpisodeRecorder(env, out / "episodes", frame_height) if record else env

    env = make_env(config, chosen, seed=config.seed + 20_000, backend="dummy", wrap=wrap, evaluation=True)
    try:
        model = load_model(config, path, env)
        results = evaluate(model, env, episodes, deterministic)
    finally:
        env.close()
    summary = {
        **summarize(results),
        "deterministic": deterministic,
        "episodes_detail": [asdict(r) for r in results],
        "directory": str(out),
        "recordings": str(out / "episodes") if record else None,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def main(argv: list[str] | None = None) -> int:
    """``scripts/evaluate.py``."""
    parser = argparse.ArgumentParser(
        prog="androidrl evaluate", description="Evaluate a trained run: success rate, return, recordings."
    )
    parser.add_argument("--run", required=True, help="the run directory")
    parser.add_argument("--episodes", type=int, default=10, help="episodes to evaluate (default 10)")
    parser.add_argument("--stochastic", action="store_true", help="sample actions instead of the most likely ones")
    parser.add_argument(
        "--devices", nargs="+", help="adb serials or virtual[:WxH[@DPI]] (default: the run's eval devices)"
    )
    parser.add_argument("--checkpoint", help="a checkpoint .zip instead of the final model")
    parser.add_argument("--no-record", action="store_true", help="do not save the episodes")
    args = parser.parse_args(argv)
    if args.episodes < 1:
        parser.error("--episodes must be >= 1")
    try:
        summary = evaluate_run(
            args.run, args.episodes, not args.stochastic, args.devices, not args.no_record, args.checkpoint
        )
    except (ConfigError, DeviceError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"{'task':<20} {'episodes':>8} {'success':>8} {'return':>8} {'length':>8}")
    rows = [("all", [EpisodeResult(**r) for r in summary["episodes_detail"]])]
    tasks = sorted({r.task for r in rows[0][1]})
    rows += [(task, [r for r in rows[0][1] if r.task == task]) for task in tasks] if len(tasks) > 1 else []
    for name, results in rows:
        s = summarize(results)
        print(
            f"{name:<20} {int(s['episodes']):>8} {s['success_rate']:>8.0%} {s['mean_return']:>8.2f} "
            f"{s['mean_length']:>8.1f}"
        )
    print(f"written to {summary['directory']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

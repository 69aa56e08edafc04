"""Training: ``scripts/train.py`` — a config (or a run to resume) in, a trained model in a run directory out.

The run directory's layout is in :mod:`androidrl.train.runs`. ``--resume RUN_DIR`` continues
from the last checkpoint with the step counter intact; Ctrl-C saves a checkpoint before
exiting, so a crash loses at most one checkpoint interval.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from androidrl.train.callbacks import TrainingCallback
from androidrl.train.compose import check_devices, eval_devices, make_env, make_model, set_torch_threads
from androidrl.train.config import ConfigError, algo_class, load_config
from androidrl.train.runs import Run, save_checkpoint, vecnormalize_path


@dataclass
class TrainResult:
    """What a training run produced."""

    run: Run
    timesteps: int
    final_model: Path | None
    interrupted: bool = False


def train(run: Run, resume: bool = False) -> TrainResult:
    """Train as the run's config says, in the run's directory (``Run.create(config)`` makes one).

    With ``resume``, the model is loaded from the run's last checkpoint and training
    continues to ``training.total_timesteps`` with the step counter intact.

    Raises:
        ConfigError: Nothing to resume from.
    """
    from stable_baselines3.common.vec_env import VecNormalize

    config = run.config
    set_torch_threads(config)
    checkpoint = run.latest_checkpoint() if resume else None
    if resume and checkpoint is None:
        raise ConfigError(f"{run.directory}: no checkpoint to resume from (checkpoints/ is empty)")
    env = make_env(config, config.devices, run.monitor, seed=config.seed)
    devices = eval_devices(config)
    eval_env = make_env(config, devices, seed=config.seed + 10_000, backend="dummy") if devices else None
    try:
        if config.algo.normalize_reward:
            env = VecNormalize(env, norm_obs=False, norm_reward=True)
            stats = vecnormalize_path(checkpoint) if checkpoint else None
            if stats is not None and stats.exists():
                env = VecNormalize.load(str(stats), env.venv)
        if checkpoint is not None:
            model = algo_class(config.algo.name).load(
                checkpoint, env=env, device=config.algo.device, tensorboard_log=str(run.tensorboard)
            )
        else:
            model = make_model(config, env, run)
        remaining = config.training.total_timesteps - model.num_timesteps
        callback = TrainingCallback(run, eval_env)
        interrupted = False
        if remaining > 0:
            try:
                model.learn(remaining, callback=callback, reset_num_timesteps=not resume, tb_log_name="train")
            except KeyboardInterrupt:
                interrupted = True
                path = save_checkpoint(run, model)
                print(f"\ninterrupted: saved {path}; continue with --resume {run.directory}", file=sys.stderr)
        if interrupted:
            return TrainResult(run, model.num_timesteps, None, interrupted=True)
        model.save(run.final_model)
        save_checkpoint(run, model)
        return TrainResult(run, model.num_timesteps, run.final_model)
    finally:
        env.close()
        if eval_env is not None:
            eval_env.close()


def main(argv: list[str] | None = None) -> int:
    """``scripts/train.py``: train from a config, or resume a run."""
    parser = argparse.ArgumentParser(description="Train a Stable-Baselines3 agent on Android from a YAML config.")
    parser.add_argument("--config", help="the YAML config (see configs/)")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY.PATH=VALUE",
        help="override a config key, e.g. --set training.total_timesteps=2000 (repeatable)",
    )
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue a run from its last checkpoint")
    parser.add_argument("--run-dir", help="where to put the run (default: <run_dir>/<experiment>-<timestamp>)")
    args = parser.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    try:
        if args.resume:
            if args.config:
                parser.error("--resume continues a run with its own config; do not pass --config")
            run = Run.open(args.resume, args.set)
            check_devices(run.config)
            if args.set:  # the run directory keeps the config it trains with
                run.record([sys.argv[0], *argv])
            result = train(run, resume=True)
        else:
            if not args.config:
                parser.error("--config is required (or --resume RUN_DIR)")
            config = load_config(args.config, args.set)
            check_devices(config)
            result = train(Run.create(config, args.run_dir, [sys.argv[0], *argv]))
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if result.interrupted:
        return 130
    print(f"done: {result.timesteps} steps; run in {result.run.directory}; model {result.final_model}")
    return 0

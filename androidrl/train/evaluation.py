"""Evaluate a trained run: play seeded episodes, report success rate, return and length, record them.

``androidrl evaluate --run RUN_DIR`` loads the run's final model (or last checkpoint), plays
``--episodes`` episodes on the evaluation devices (one virtual phone by default), prints a
table, and writes ``RUN_DIR/eval/<timestamp>/``: ``summary.json`` and the recorded episodes
(see :mod:`androidrl.recording`).

The episodes are played by SB3's ``evaluate_policy`` (sb3-contrib's for MaskablePPO, which
passes the action masks); what it has no place for is added by its callback: success per
task, and device faults. Every evaluation is seeded: its episodes come from the run's seed
and the evaluation's index (:func:`~androidrl.train.seeds.evaluation_seed`), so the same
config and seed give the same evaluations, whatever else ran before. An episode a device
fault cut short is not a result: the evaluation stops with a
:class:`~androidrl.errors.DeviceError` naming the device (a periodic one is skipped and
tried again at the next; ``androidrl evaluate`` exits 1).
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

from androidrl.arguments import add_trust_plugins, int_in, seed_arg
from androidrl.errors import DeviceError
from androidrl.recording import EpisodeRecorder
from androidrl.train import stats
from androidrl.train.checkpoints import CheckpointError
from androidrl.train.compose import (
    check_devices,
    evaluation_env,
    load_model,
    make_wrap,
    play_devices,
    run_spec,
    template_env,
)
from androidrl.train.config import MAX_EPISODES, ConfigError
from androidrl.train.runs import Run
from androidrl.train.seeds import AFTERWARDS, LATER_PHONES, evaluation_seed


@dataclass
class EpisodeResult:
    """How one evaluation episode went."""

    ret: float
    length: int
    success: bool
    task: str = ""


def check_spaces(model: Any, env: Any) -> None:
    """The model was trained on the env's observation and action spaces (as SB3 sees them: images channels first).

    Raises:
        ValueError: It was not, naming both spaces (an env with another grid would take the
            model's actions silently otherwise).
    """
    for kind, theirs in (("observation", _as_sb3_sees(env.observation_space)), ("action", env.action_space)):
        ours = getattr(model, f"{kind}_space", None)
        if ours is not None and ours != theirs:
            raise ValueError(
                f"the model was trained on the {kind} space {ours}, but the env has {theirs}: "
                "make the run's own env with androidrl.make_env(run_dir)"
            )


def _as_sb3_sees(space: Any) -> Any:
    """An observation space as a model holds it: SB3 transposes channel-last images (``VecTransposeImage``)."""
    from gymnasium import spaces
    from stable_baselines3.common.preprocessing import is_image_space, is_image_space_channels_first
    from stable_baselines3.common.vec_env import VecTransposeImage

    if isinstance(space, spaces.Dict):
        return spaces.Dict({key: _as_sb3_sees(sub) for key, sub in space.spaces.items()})
    if is_image_space(space) and not is_image_space_channels_first(space):
        return VecTransposeImage.transpose_space(space)
    return space


class EpisodeLog:
    """``evaluate_policy``'s callback: the success and task of each episode it counts; a faulted one raises.

    ``evaluate_policy`` calls it at every step of an env still owed episodes; the episodes it
    sees end are exactly those it counts, in the same order (every env of ours has a Monitor).
    """

    def __init__(self) -> None:
        self.episodes: list[EpisodeResult] = []

    def __call__(self, locals_: dict[str, Any], globals_: dict[str, Any]) -> None:
        info = locals_["info"]
        if not locals_["done"]:
            return
        if info.get("device_error"):  # (an episode a device cut short is no result)
            raise DeviceError(f"an evaluation episode was cut short by a device fault: {info['device_error']}")
        episode = info["episode"]  # the Monitor's: the task's rewards, whatever wrappers come after
        self.episodes.append(
            EpisodeResult(
                float(episode["r"]), int(episode["l"]), bool(info.get("is_success")), str(info.get("task", ""))
            )
        )


def evaluate(model: Any, env: Any, episodes: int, deterministic: bool = True, seed: int | None = None) -> list:
    """Play ``episodes`` episodes of ``model`` on an SB3 VecEnv with SB3's ``evaluate_policy``.

    ``model`` is anything with SB3's ``predict`` (recurrent and maskable models, a random or
    scripted policy too); one that uses action masks (a MaskablePPO, or a policy that says so
    with ``uses_action_masks``) gets them through sb3-contrib's ``evaluate_policy`` when the
    env has them. With ``seed``, the episodes are the same whatever plays them.

    Raises:
        DeviceError: An episode was cut short by a device fault (no results are made up for it).
        ValueError: The model does not fit the env's spaces.
    """
    from sb3_contrib.common.maskable.utils import is_masking_supported

    check_spaces(model, env)
    masked = getattr(model, "uses_action_masks", type(model).__name__ == "MaskablePPO") and is_masking_supported(env)
    if masked:
        from sb3_contrib.common.maskable.evaluation import evaluate_policy
    else:
        from stable_baselines3.common.evaluation import evaluate_policy
    if seed is not None:
        env.seed(seed)
    log = EpisodeLog()
    evaluate_policy(model, env, episodes, deterministic=deterministic, callback=log)
    return log.episodes


def summarize(results: list[EpisodeResult]) -> dict[str, float]:
    """Success rate, mean return and length with their sample std (ddof 1), episodes, and success per task.

    For a suite the success rate of each task is ``success_rate/<task>``.
    """
    returns, lengths = [r.ret for r in results], [r.length for r in results]
    summary = {
        "success_rate": float(np.mean([r.success for r in results])) if results else 0.0,
        "mean_return": float(np.mean(returns)) if results else 0.0,
        "std_return": stats.sample_std(returns),
        "mean_length": float(np.mean(lengths)) if results else 0.0,
        "std_length": stats.sample_std(lengths),
        "episodes": float(len(results)),
    }
    tasks = sorted({r.task for r in results})
    if len(tasks) > 1:
        for task in tasks:
            summary[f"success_rate/{task}"] = float(np.mean([r.success for r in results if r.task == task]))
    return summary


def describe(summary: dict[str, float]) -> str:
    """A summary in words: success, return and length with ± their sample std."""
    ret = stats.plus_minus(summary["mean_return"], summary["std_return"])
    length = stats.plus_minus(summary["mean_length"], summary["std_length"], ".1f")
    return f"success {summary['success_rate']:.0%}, return {ret}, length {length}"


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
    seed: int | None = None,
    trust_plugins: bool = False,
) -> dict[str, Any]:
    """Evaluate a run and write ``RUN_DIR/eval/<timestamp>/summary.json`` (and recordings).

    Args:
        run_dir: The run directory.
        episodes: How many episodes.
        deterministic: The most likely actions (else sampled ones).
        devices: Devices to play on (default: the run's evaluation devices).
        record: Record the episodes (see :mod:`androidrl.recording`).
        checkpoint: A checkpoint to evaluate instead of the final model.
        frame_height: The height of the recorded screens (None: full size, for video and GIFs).
        seed: The first episode's seed (default: the run's: ``evaluation_seed(seed, 0, AFTERWARDS)``).
        trust_plugins: Import the classes the run's config names even from modules inside the run
            directory (see :func:`~androidrl.train.config.vet_plugins`).

    Returns:
        The summary: success rate, mean return and length (± std), per-episode results, where it went.

    Raises:
        ConfigError: ``run_dir`` is not a run, has no model, or its evaluation devices are
            missing or unusable (all checked before anything is written).
        CheckpointError: The model does not load or does not fit the run's env.
        DeviceError: A device failed during the evaluation.
    """
    run = Run.open(run_dir, trust_plugins=trust_plugins)
    config = run.config
    chosen = play_devices(config, devices)
    path = model_path(run, checkpoint)
    check_devices(config, chosen)
    seed = evaluation_seed(config.seed, 0, AFTERWARDS) if seed is None else seed
    out = run.eval_dir / datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    config_wrap = make_wrap(config)
    first = chosen.specs()[0]

    def wrap(env):  # the recorder goes around the config's wrappers, and knows the env they make
        env = config_wrap(env)
        if not record:
            return env
        spec = run_spec(config, first, config.seed + LATER_PHONES, evaluation=True)
        return EpisodeRecorder(env, out / "episodes", frame_height, env_spec=spec, policy=config.algo.name)

    env = evaluation_env(config, chosen, wrap=wrap)
    try:
        model = load_model(config, path, env)
        results = evaluate(model, env, episodes, deterministic, seed)
    finally:
        env.close()
    out.mkdir(parents=True, exist_ok=True)
    summary = {
        **summarize(results),
        "deterministic": deterministic,
        "seed": seed,
        "episodes_detail": [asdict(r) for r in results],
        "directory": str(out),
        "recordings": str(out / "episodes") if record else None,
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def main(argv: list[str] | None = None) -> int:
    """``androidrl evaluate``."""
    parser = argparse.ArgumentParser(
        prog="androidrl evaluate", description="Evaluate a trained run: success rate, return, recordings."
    )
    parser.add_argument("--run", required=True, help="the run directory")
    parser.add_argument(
        "--episodes", type=int_in(1, MAX_EPISODES), default=10, help="episodes to evaluate (default 10)"
    )
    parser.add_argument("--stochastic", action="store_true", help="sample actions instead of the most likely ones")
    parser.add_argument(
        "--devices", nargs="+", help="adb serials or virtual[:WxH[@DPI]] (default: the run's eval devices)"
    )
    parser.add_argument("--checkpoint", help="a checkpoint .zip instead of the final model")
    parser.add_argument("--no-record", action="store_true", help="do not save the episodes")
    parser.add_argument(
        "--seed", type=seed_arg, help="the first episode's seed (default: one derived from the run's seed)"
    )
    add_trust_plugins(parser)
    args = parser.parse_args(argv)
    try:
        summary = evaluate_run(
            args.run, args.episodes, not args.stochastic, args.devices, not args.no_record, args.checkpoint,
            seed=args.seed, trust_plugins=args.trust_plugins,
        )  # fmt: skip
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except (CheckpointError, DeviceError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"{'task':<20} {'episodes':>8} {'success':>8} {'return (± std)':>16} {'length (± std)':>16}")
    rows = [("all", [EpisodeResult(**r) for r in summary["episodes_detail"]])]
    tasks = sorted({r.task for r in rows[0][1]})
    rows += [(task, [r for r in rows[0][1] if r.task == task]) for task in tasks] if len(tasks) > 1 else []
    for name, results in rows:
        s = summarize(results)
        print(
            f"{name:<20} {int(s['episodes']):>8} {s['success_rate']:>8.0%} "
            f"{stats.plus_minus(s['mean_return'], s['std_return']):>16} "
            f"{stats.plus_minus(s['mean_length'], s['std_length'], '.1f'):>16}"
        )
    print(f"written to {summary['directory']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

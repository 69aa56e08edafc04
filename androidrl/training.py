"""The composition root of training: config in; envs, model, callbacks and a run directory out.

A run directory holds everything needed to understand, evaluate and resume a run::

    runs/quickstart-20261122-101500/
      config.yaml          the resolved config (every default written out)
      command.txt          the exact command line
      versions.json        Python and library versions
      monitor/             SB3 Monitor CSVs, one per worker (episode return, length, success)
      tb/                  TensorBoard logs
      evaluations.csv      periodic evaluations on separate envs (success rate, mean return)
      checkpoints/         step_<N>.zip (+ vecnormalize_<N>.pkl), the last few kept
      final_model.zip      the model at the end

``--resume RUN_DIR`` continues from the last checkpoint with the step counter intact;
Ctrl-C saves a checkpoint before exiting, so a crash loses at most one checkpoint interval.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import shlex
import sys
import time
from collections import deque
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from androidrl.config import Config, ConfigError, Devices, algo_class, dump_config, hyperparams, load_config
from androidrl.vector import DeviceSpec

CONFIG_FILE = "config.yaml"


@dataclass
class Run:
    """A run directory (see the module docstring for its layout)."""

    directory: Path
    config: Config

    @property
    def checkpoints(self) -> Path:
        return self.directory / "checkpoints"

    @property
    def monitor(self) -> Path:
        return self.directory / "monitor"

    @property
    def tensorboard(self) -> Path:
        return self.directory / "tb"

    @property
    def evaluations(self) -> Path:
        return self.directory / "evaluations.csv"

    @property
    def final_model(self) -> Path:
        return self.directory / "final_model.zip"

    @classmethod
    def create(cls, config: Config, directory: str | Path | None = None, argv: list[str] | None = None) -> Run:
        """A new run directory with the resolved config, the command and the versions.

        Raises:
            ConfigError: ``directory`` exists and is not empty.
        """
        if directory is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            directory = Path(config.run_dir) / f"{config.experiment}-{stamp}"
        directory = Path(directory)
        if directory.exists() and any(directory.iterdir()):
            raise ConfigError(f"run directory {directory} exists and is not empty; resume it with --resume {directory}")
        directory.mkdir(parents=True, exist_ok=True)
        run = cls(directory, config)
        run.record(argv if argv is not None else sys.argv)
        (directory / "versions.json").write_text(json.dumps(_versions(), indent=2))
        return run

    def record(self, argv: list[str]) -> None:
        """Write the resolved config and append the command line (a resume with ``--set`` changes the config)."""
        (self.directory / CONFIG_FILE).write_text(dump_config(self.config))
        with (self.directory / "command.txt").open("a") as f:
            f.write(shlex.join([sys.executable, *argv]) + "\n")

    @classmethod
    def open(cls, directory: str | Path, overrides: list[str] | None = None) -> Run:
        """An existing run.

        Raises:
            ConfigError: ``directory`` is not a run (no config.yaml).
        """
        directory = Path(directory)
        if not (directory / CONFIG_FILE).is_file():
            raise ConfigError(f"{directory} is not a run directory: it has no {CONFIG_FILE}")
        return cls(directory, load_config(directory / CONFIG_FILE, overrides))

    @property
    def eval_dir(self) -> Path:
        return self.directory / "eval"

    def checkpoint_paths(self) -> list[Path]:
        """The checkpoints (``step_<N>.zip``), fewest steps first."""
        return sorted(self.checkpoints.glob("step_*.zip"), key=checkpoint_steps)

    def latest_checkpoint(self) -> Path | None:
        """The checkpoint with the most steps, if any."""
        found = self.checkpoint_paths()
        return found[-1] if found else None


def checkpoint_steps(path: Path) -> int:
    """N of a ``step_<N>.zip`` checkpoint."""
    return int(path.stem.split("_")[1])


def vecnormalize_path(checkpoint: Path) -> Path:
    """Where the VecNormalize statistics saved with ``checkpoint`` go."""
    return checkpoint.with_name(f"vecnormalize_{checkpoint_steps(checkpoint)}.pkl")


def _versions() -> dict[str, str]:
    import gymnasium
    import stable_baselines3
    import torch

    import androidrl

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "androidrl": androidrl.__version__,
        "gymnasium": gymnasium.__version__,
        "stable_baselines3": stable_baselines3.__version__,
        "torch": torch.__version__,
    }


# ---------------------------------------------------------------------------- building blocks


def make_wrap(config: Config):
    """The function that wraps each worker's AndroidEnv as the config says."""
    from androidrl.wrappers import (
        BoxAction,
        DiscreteGridAction,
        MultiDiscreteAction,
        ScreenshotObservation,
        UIElementAction,
    )

    obs, act = config.observation, config.action

    def wrap(env: gym.Env) -> gym.Env:
        env = ScreenshotObservation(
            env, shape=obs.shape, grayscale=obs.grayscale, fit=obs.fit, clickable_mask=obs.clickable_mask
        )
        if act.type == "grid":
            return DiscreteGridAction(
                env,
                region=act.region,
                rows=act.rows,
                cols=act.cols,
                long_press=act.long_press,
                swipes=act.swipes,
                texts=act.texts,
                back=act.back,
                home=act.home,
                enter=act.enter,
            )
        if act.type == "multidiscrete":
            types = {"types": act.types} if act.types else {}
            return MultiDiscreteAction(env, rows=act.rows, cols=act.cols, region=act.region, **types)
        if act.type == "box":
            return BoxAction(env, **({"types": act.types} if act.types else {}))
        return UIElementAction(env, max_elements=act.max_elements, back=act.back, home=act.home)

    return wrap


def make_env(
    config: Config,
    devices: Devices,
    monitor_dir: Path | None = None,
    seed: int = 0,
    backend: str | None = None,
    wrap: Any = None,
):
    """An SB3 VecEnv on ``devices`` with the config's task, wrappers (or ``wrap``) and frame stacking."""
    from stable_baselines3.common.vec_env import VecFrameStack

    from androidrl.vec_sb3 import make_sb3_vec_env

    options: dict[str, Any] = {
        "env_kwargs": config.env.model_dump(exclude_none=True),
        "monitor_dir": monitor_dir,
        "seed": seed,
        "adb_host": devices.adb.host,
        "adb_port": devices.adb.port,
    }
    backend = backend or config.vector.backend
    if backend == "async":
        options.update(step_timeout=config.vector.step_timeout, max_rebuilds=config.vector.max_rebuilds)
    env = make_sb3_vec_env(devices.specs(), config.task, wrap or make_wrap(config), backend=backend, **options)
    if config.observation.frame_stack > 1:
        env = VecFrameStack(env, n_stack=config.observation.frame_stack)
    return env


def eval_devices(config: Config) -> Devices | None:
    """Devices for periodic evaluation: the config's, or one virtual phone like the training ones."""
    if config.eval_devices is not None:
        return config.eval_devices
    if config.devices.virtual is not None:
        return Devices(virtual=config.devices.virtual.model_copy(update={"count": 1}))
    return None  # phones in use for training cannot also evaluate


def set_torch_threads(config: Config) -> int:
    """Give the learner the cores the env workers leave free (at least one), unless the config says.

    On a small machine PyTorch's default (every core) makes its helper threads spin while the
    workers step, which slows both.
    """
    import torch

    threads = config.algo.torch_threads or max(1, (os.cpu_count() or 1) - config.n_envs)
    torch.set_num_threads(threads)
    return threads


def make_model(config: Config, env, run: Run):
    """A new model for the config."""
    cls = algo_class(config.algo.name)
    return cls(
        config.algo.policy,
        env,
        seed=config.seed,
        device=config.algo.device,
        policy_kwargs=config.algo.policy_kwargs.resolved() or None,
        tensorboard_log=str(run.tensorboard),
        verbose=0,
        **hyperparams(config),
    )


# ---------------------------------------------------------------------------- callbacks


def _callbacks(run: Run, eval_env):
    from stable_baselines3.common.callbacks import BaseCallback

    from androidrl.errors import DeviceError
    from androidrl.evaluation import evaluate, summarize

    config = run.config

    class Periodic(BaseCallback):
        """Checkpoints, evaluations and the progress bar, on total env steps."""

        def __init__(self) -> None:
            super().__init__()
            self.next_checkpoint = self.next_eval = 0
            self.successes: deque[float] = deque(maxlen=100)
            self.bar = None
            self.started = time.monotonic()
            self.start_steps = 0

        def _on_training_start(self) -> None:
            train = config.training
            steps = self.model.num_timesteps
            self.start_steps = steps
            self.next_checkpoint = steps + train.checkpoint_freq if train.checkpoint_freq else -1
            self.next_eval = steps + train.eval_freq if train.eval_freq and eval_env is not None else -1
            if train.progress_bar:
                from tqdm.auto import tqdm

                self.bar = tqdm(
                    total=train.total_timesteps, initial=steps, unit="step", dynamic_ncols=True, desc=config.experiment
                )

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"]):
                if done and "is_success" in info:
                    self.successes.append(float(info["is_success"]))
            steps = self.model.num_timesteps
            if self.bar is not None:
                rate = (steps - self.start_steps) / max(1e-9, time.monotonic() - self.started)
                success = f"{np.mean(self.successes):.0%}" if self.successes else "-"
                self.bar.set_postfix_str(f"{rate:.0f} steps/s, success {success}", refresh=False)
                self.bar.update(min(steps, self.bar.total) - self.bar.n)  # redraws at most every mininterval
            if 0 <= self.next_checkpoint <= steps:
                save_checkpoint(run, self.model)
                self.next_checkpoint = steps + config.training.checkpoint_freq
            if 0 <= self.next_eval <= steps:
                self._evaluate(steps)
                self.next_eval = steps + config.training.eval_freq
            return True

        def _evaluate(self, steps: int) -> None:
            try:
                results = evaluate(
                    self.model, eval_env, config.training.eval_episodes, config.training.eval_deterministic
                )
            except DeviceError as err:  # training goes on; the next evaluation tries again
                self._say(f"evaluation at {steps} steps skipped: {err}")
                return
            summary = summarize(results)
            for key, value in summary.items():
                self.logger.record(f"eval/{key}", value)
            new = not run.evaluations.exists()
            with run.evaluations.open("a", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=["timesteps", *summary])
                if new:
                    writer.writeheader()
                writer.writerow({"timesteps": steps, **summary})
            self._say(
                f"eval at {steps} steps: success {summary['success_rate']:.0%}, "
                f"return {summary['mean_return']:.2f}, length {summary['mean_length']:.1f}"
            )

        def _say(self, text: str) -> None:
            if self.bar is not None:
                self.bar.write(text)
            else:
                print(text, file=sys.stderr)

        def _on_training_end(self) -> None:
            if self.bar is not None:
                self.bar.close()

    return Periodic()


def save_checkpoint(run: Run, model) -> Path:
    """Save the model (and VecNormalize stats) as ``checkpoints/step_<N>.zip``; keep the last few."""
    run.checkpoints.mkdir(parents=True, exist_ok=True)
    path = run.checkpoints / f"step_{model.num_timesteps}.zip"
    model.save(path)
    normalize = model.get_vec_normalize_env()
    if normalize is not None:
        normalize.save(vecnormalize_path(path))
    for old in run.checkpoint_paths()[: -run.config.training.keep_checkpoints]:
        old.unlink()
        vecnormalize_path(old).unlink(missing_ok=True)
    return path


# ---------------------------------------------------------------------------- train


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
        callback = _callbacks(run, eval_env)
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


def check_devices(config: Config, devices: Devices | None = None) -> None:
    """Before any work: every adb serial to train (and evaluate) on must be known to adb and online.

    Args:
        config: The config whose ``devices`` and ``eval_devices`` are checked.
        devices: Check these instead.

    Raises:
        ConfigError: A device that does not exist or is not usable.
    """
    from androidrl.device.adb import AdbDevice
    from androidrl.device.adb_client import AdbClient
    from androidrl.errors import DeviceError

    groups = [("devices", devices)] if devices is not None else [("devices", config.devices)]
    if devices is None and config.eval_devices is not None:
        groups.append(("eval_devices", config.eval_devices))
    for key, group in groups:
        serials = [s for s in group.serials or () if not DeviceSpec.parse(s).virtual]
        if not serials:
            continue
        client = AdbClient(group.adb.host, group.adb.port, timeout=10)
        try:
            states = {e.serial: e.state for e in client.devices()}
        except DeviceError as err:
            raise ConfigError(f"{key}: {err}") from None
        for serial in serials:
            if serial not in states and not AdbDevice(serial).is_tcp:  # host:port serials connect on demand
                known = ", ".join(states) or "none"
                raise ConfigError(f"{key}.serials: {serial} is not connected (adb lists: {known}); start it first")
            if states.get(serial, "device") != "device":
                raise ConfigError(f"{key}.serials: {serial} is {states[serial]}; run `androidrl devices` for help")

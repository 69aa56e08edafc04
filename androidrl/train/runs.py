"""Run directories: where a training run keeps everything needed to understand, evaluate and resume it.

A run directory::

    runs/quickstart-20261122-101500/
      config.yaml          the resolved config (every default written out)
      trainer.lock         held by the trainer using the run (its pid and host): one at a time
      command.txt          the command line(s) that made it, each one runnable again as written
      versions.json        SB3's get_system_info(), androidrl's version and commit, the libraries a run uses
      tokenizer.json       how instructions become token ids (with observation.instruction)
      monitor/             SB3 Monitor CSVs, one per worker (episode return, length, success)
      tb/                  TensorBoard logs
      evaluations.csv      periodic evaluations on separate envs (success rate, mean return)
      checkpoints/         rl_model_<N>_steps.zip (+ rl_model_vecnormalize_<N>_steps.npz), SB3's
                           CheckpointCallback names; the last few kept
      evaluations.npz      the same in SB3's EvalCallback format and dtypes (timesteps, results,
                           ep_lengths, successes); the same bytes for the same config and seed
      best_model.zip       the model of the best evaluation (mean return, as SB3's EvalCallback)
      final_model.zip      the model at the end
      eval/<timestamp>/    evaluations made afterwards (scripts/evaluate.py)
"""

from __future__ import annotations

import contextlib
import json
import re
import shlex
import sys
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from pathlib import Path

from androidrl import provenance
from androidrl.train.checkpoints import CheckpointError, atomic_write, atomic_write_text, save_normalize
from androidrl.train.config import Config, ConfigError, dump_config, load_config
from androidrl.train.lock import LOCK_FILE, RunLock
from androidrl.wrappers.instruction import HashTokenizer

CONFIG_FILE = "config.yaml"
#: The checkpoints' name prefix (SB3's ``CheckpointCallback`` default).
CHECKPOINT_PREFIX = "rl_model"
_CHECKPOINT_NAME = re.compile(rf"^{CHECKPOINT_PREFIX}_(\d+)_steps\.zip$")
#: What a trained model is made of: its algorithm, network and spaces. None can change when a run resumes.
MODEL_KEYS = ("algo.name", "algo.policy", "algo.policy_kwargs", "observation", "action")


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

    @property
    def best_model(self) -> Path:
        """The model of the best evaluation so far (SB3's EvalCallback convention)."""
        return self.directory / "best_model.zip"

    @classmethod
    def create(cls, config: Config, directory: str | Path | None = None, command: list[str] | None = None) -> Run:
        """A new run directory with the resolved config, the command and the versions.

        Args:
            config: The resolved config.
            directory: Where (default: ``<run_dir>/<experiment>-<timestamp>``).
            command: The command that makes the run, as :func:`command_line` gives it (default: this process's).

        Raises:
            ConfigError: ``directory`` exists and is not empty, or cannot be created or written.
            RunInUse: Another trainer is creating it.
        """
        if directory is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            directory = Path(config.run_dir) / f"{config.experiment}-{stamp}"
        directory = Path(directory)
        if directory.exists() and _holds_more_than_a_lock(directory):
            raise ConfigError(f"run directory {directory} exists and is not empty; resume it with --resume {directory}")
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ConfigError(f"run_dir: cannot write the run directory {directory}: {err.strerror or err}") from None
        with RunLock(directory):  # (two trainers started on one new directory: one writes it)
            if _holds_more_than_a_lock(directory):
                raise ConfigError(f"run directory {directory} is not empty; resume it with --resume {directory}")
            try:
                run = cls(directory, config)
                run.record(command if command is not None else sys.orig_argv)
                atomic_write_text(directory / "versions.json", json.dumps(package_versions(), indent=2))
                if config.observation.instruction is not None:
                    atomic_write_text(directory / "tokenizer.json", json.dumps(tokenizer(config).settings(), indent=2))
            except (OSError, CheckpointError) as err:
                raise ConfigError(f"run_dir: cannot write the run directory {directory}: {err}") from None
        return run

    def record(self, command: list[str] | None) -> None:
        """Write the resolved config (a resume with ``--set`` changes it) and append the command, if any."""
        atomic_write_text(self.directory / CONFIG_FILE, dump_config(self.config))
        if command is not None:
            with (self.directory / "command.txt").open("a") as f:
                f.write(shlex.join(command) + "\n")

    def saved_config(self) -> Config:
        """The config as the run directory keeps it (without this session's overrides).

        Raises:
            ConfigError: ``config.yaml`` is missing or invalid.
        """
        return load_config(self.directory / CONFIG_FILE)

    def hold(self) -> RunLock:
        """The run's lock, to hold while training (``with run.hold():``; see :mod:`androidrl.train.lock`)."""
        return RunLock(self.directory)

    @classmethod
    def open(cls, directory: str | Path, overrides: list[str] | None = None, trust_plugins: bool = False) -> Run:
        """An existing run (the classes its config names by import path are printed with where they come from).

        Raises:
            ConfigError: ``directory`` does not exist, or is not a run (no config.yaml); or its config
                names a class whose module lies inside the run directory, and not ``trust_plugins``.
        """
        directory = Path(directory)
        if not directory.exists():
            raise ConfigError(f"run directory {directory} does not exist")
        if not (directory / CONFIG_FILE).is_file():
            raise ConfigError(f"{directory} is not a run directory: it has no {CONFIG_FILE}")
        config = load_config(directory / CONFIG_FILE, overrides, run_dir=directory, trust_plugins=trust_plugins)
        return cls(directory, config)

    @property
    def eval_dir(self) -> Path:
        return self.directory / "eval"

    def checkpoint_paths(self) -> list[Path]:
        """The checkpoints (``rl_model_<N>_steps.zip``), fewest steps first."""
        found = [p for p in self.checkpoints.glob(f"{CHECKPOINT_PREFIX}_*_steps.zip") if _CHECKPOINT_NAME.match(p.name)]
        return sorted(found, key=checkpoint_steps)

    def stray_checkpoints(self) -> list[Path]:
        """Model files in ``checkpoints/`` whose names are not a checkpoint's (``rl_model_<N>_steps.zip``)."""
        return sorted(p for p in self.checkpoints.glob("*.zip") if not _CHECKPOINT_NAME.match(p.name))

    def latest_checkpoint(self) -> Path | None:
        """The checkpoint with the most steps, if any."""
        found = self.checkpoint_paths()
        return found[-1] if found else None


def _holds_more_than_a_lock(directory: Path) -> bool:
    return any(path.name != LOCK_FILE for path in directory.iterdir())


def check_resume_changes(saved: Config, config: Config, directory: Path) -> list[str]:
    """The keys ``config`` changes from the ``saved`` one of the run in ``directory``, once checked.

    Raises:
        ConfigError: A change to what the model is made of (:data:`MODEL_KEYS`: its network
            or spaces), naming each such key, the value the model was trained with and the
            new one, and the command that starts a new run with the change.
    """
    old, new = saved.model_dump(mode="json"), config.model_dump(mode="json")
    changed = _changed_keys(old, new)
    fixed = [key for key in changed if any(key == k or key.startswith(f"{k}.") for k in MODEL_KEYS)]
    if fixed:
        what = "; ".join(f"{key}: trained with {_at(old, key)!r}, got {_at(new, key)!r}" for key in fixed)
        sets = [f"--set {shlex.quote(f'{key}={json.dumps(_at(new, key))}')}" for key in fixed]
        raise ConfigError(
            f"{what}: cannot change when resuming: the model's network and spaces are fixed once trained. "
            f"Resume without it, or start a new run with it: androidrl train --config "
            f"{shlex.quote(str(directory / CONFIG_FILE))} {' '.join(sets)}"
        )
    return changed


def _changed_keys(old: object, new: object, prefix: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        keys = sorted(set(old) | set(new))
        return [c for k in keys for c in _changed_keys(old.get(k), new.get(k), f"{prefix}.{k}" if prefix else k)]
    return [prefix] if old != new else []


def _at(data: dict, key: str) -> object:
    for part in key.split("."):
        data = data.get(part) if isinstance(data, dict) else None
    return data


def command_line(command: str, argv: list[str]) -> list[str]:
    """The command line that runs ``androidrl COMMAND ARGV`` again as written: this Python, ``-m androidrl``.

    Whichever way it was started (the ``androidrl`` script, ``python -m androidrl``,
    ``scripts/train.py``), the command is recorded in the one form that works from the same
    directory without the script on the ``PATH``.
    """
    return [sys.executable, "-m", "androidrl", command, *argv]


def tokenizer(config: Config) -> HashTokenizer:
    """The tokenizer of a config's ``observation.instruction`` (which must be set)."""
    instruction = config.observation.instruction
    return HashTokenizer(vocab_size=instruction.vocab_size, max_tokens=instruction.max_tokens)


def checkpoint_path(run: Run, steps: int, kind: str = "", extension: str = "zip") -> Path:
    """Where the checkpoint of ``steps`` goes, named as SB3's ``CheckpointCallback`` names it.

    ``kind`` is ``""`` for the model and ``"vecnormalize_"`` for its normalization statistics
    (plain arrays, ``.npz``, where SB3 writes a pickle).
    """
    return run.checkpoints / f"{CHECKPOINT_PREFIX}_{kind}{steps}_steps.{extension}"


def checkpoint_steps(path: Path) -> int:
    """N of a ``rl_model_<N>_steps.zip`` checkpoint."""
    return int(path.stem.split("_")[-2])


def vecnormalize_path(checkpoint: Path) -> Path:
    """Where the VecNormalize statistics saved with ``checkpoint`` go (plain arrays, no pickle)."""
    return checkpoint.with_name(f"{CHECKPOINT_PREFIX}_vecnormalize_{checkpoint_steps(checkpoint)}_steps.npz")


def package_versions() -> dict[str, str | None]:
    """What a run ran on: SB3's ``get_system_info()``, androidrl's version and commit, the other libraries.

    SB3's part names the OS, Python, SB3, PyTorch, the GPU, NumPy and Gymnasium as SB3 saves
    them in every model; the others (sb3-contrib, Ray, Optuna, Minari) are listed when installed.
    """
    from stable_baselines3.common.utils import get_system_info

    versions: dict[str, str | None] = dict(get_system_info(print_info=False)[0])
    versions |= {"androidrl": provenance.version(), "androidrl_commit": provenance.commit()}
    for package in ("sb3-contrib", "ray", "optuna", "minari"):  # (read from the installed metadata, not imported)
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[package] = metadata.version(package)
    return versions


def save_checkpoint(run: Run, model) -> Path:
    """Save the model (and VecNormalize stats) as ``checkpoints/rl_model_<N>_steps.zip``, atomically; keep the last few.

    Raises:
        CheckpointError: The checkpoint could not be written (a full disk, say); the older
            ones are all still there.
    """
    run.checkpoints.mkdir(parents=True, exist_ok=True)
    path = checkpoint_path(run, model.num_timesteps)
    normalize = model.get_vec_normalize_env()
    if normalize is not None:  # first: a checkpoint is complete once its zip exists
        save_normalize(vecnormalize_path(path), normalize)
    atomic_write(path, model.save)
    for old in run.checkpoint_paths()[: -run.config.training.keep_checkpoints]:
        old.unlink()
        vecnormalize_path(old).unlink(missing_ok=True)
    return path


def save_final_model(run: Run, model) -> Path:
    """Save the model as ``final_model.zip``, atomically."""
    atomic_write(run.final_model, model.save)
    return run.final_model

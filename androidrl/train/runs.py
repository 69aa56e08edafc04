"""Run directories: where a training run keeps everything needed to understand, evaluate and resume it.

A run directory::

    runs/quickstart-20261122-101500/
      config.yaml          the resolved config (every default written out)
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
import shlex
import sys
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from pathlib import Path

from androidrl import provenance
from androidrl.train.checkpoints import CheckpointError, atomic_write, atomic_write_text, save_normalize
from androidrl.train.config import Config, ConfigError, dump_config, load_config
from androidrl.wrappers.instruction import HashTokenizer

CONFIG_FILE = "config.yaml"
#: The checkpoints' name prefix (SB3's ``CheckpointCallback`` default).
CHECKPOINT_PREFIX = "rl_model"


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
        """
        if directory is None:
            stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
            directory = Path(config.run_dir) / f"{config.experiment}-{stamp}"
        directory = Path(directory)
        if directory.exists() and any(directory.iterdir()):
            raise ConfigError(f"run directory {directory} exists and is not empty; resume it with --resume {directory}")
        try:
            directory.mkdir(parents=True, exist_ok=True)
            run = cls(directory, config)
            run.record(command if command is not None else sys.orig_argv)
            atomic_write_text(directory / "versions.json", json.dumps(package_versions(), indent=2))
            if config.observation.instruction is not None:
                atomic_write_text(directory / "tokenizer.json", json.dumps(tokenizer(config).settings(), indent=2))
        except (OSError, CheckpointError) as err:
            raise ConfigError(f"run_dir: cannot write the run directory {directory}: {err}") from None
        return run

    def record(self, command: list[str]) -> None:
        """Write the resolved config and append the command (a resume with ``--set`` changes the config)."""
        atomic_write_text(self.directory / CONFIG_FILE, dump_config(self.config))
        with (self.directory / "command.txt").open("a") as f:
            f.write(shlex.join(command) + "\n")

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
        return sorted(self.checkpoints.glob(f"{CHECKPOINT_PREFIX}_*_steps.zip"), key=checkpoint_steps)

    def latest_checkpoint(self) -> Path | None:
        """The checkpoint with the most steps, if any."""
        found = self.checkpoint_paths()
        return found[-1] if found else None


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

"""Run directories: where a training run keeps everything needed to understand, evaluate and resume it.

A run directory::

    runs/quickstart-20261122-101500/
      config.yaml          the resolved config (every default written out)
      command.txt          the exact command line(s)
      versions.json        Python and library versions
      tokenizer.json       how instructions become token ids (with observation.instruction)
      monitor/             SB3 Monitor CSVs, one per worker (episode return, length, success)
      tb/                  TensorBoard logs
      evaluations.csv      periodic evaluations on separate envs (success rate, mean return)
      checkpoints/         step_<N>.zip (+ vecnormalize_<N>.npz), the last few kept
      evaluations.npz      the same in SB3's EvalCallback format (timesteps, results, ep_lengths, successes)
      best_model.zip       the model of the best evaluation (success rate, then return)
      final_model.zip      the model at the end
      eval/<timestamp>/    evaluations made afterwards (scripts/evaluate.py)
"""

from __future__ import annotations

import contextlib
import json
import platform
import shlex
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from pathlib import Path

from androidrl.train.checkpoints import CheckpointError, atomic_write, atomic_write_text, save_normalize
from androidrl.train.config import Config, ConfigError, dump_config, load_config
from androidrl.wrappers.instruction import HashTokenizer

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

    @property
    def best_model(self) -> Path:
        """The model of the best evaluation so far (SB3's EvalCallback convention)."""
        return self.directory / "best_model.zip"

    @classmethod
    def create(cls, config: Config, directory: str | Path | None = None, argv: list[str] | None = None) -> Run:
        """A new run directory with the resolved config, the command and the versions.

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
            run.record(argv if argv is not None else sys.argv)
            atomic_write_text(directory / "versions.json", json.dumps(package_versions(), indent=2))
            if config.observation.instruction is not None:
                atomic_write_text(directory / "tokenizer.json", json.dumps(tokenizer(config).settings(), indent=2))
        except (OSError, CheckpointError) as err:
            raise ConfigError(f"run_dir: cannot write the run directory {directory}: {err}") from None
        return run

    def record(self, argv: list[str]) -> None:
        """Write the resolved config and append the command line (a resume with ``--set`` changes the config)."""
        atomic_write_text(self.directory / CONFIG_FILE, dump_config(self.config))
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


def tokenizer(config: Config) -> HashTokenizer:
    """The tokenizer of a config's ``observation.instruction`` (which must be set)."""
    instruction = config.observation.instruction
    return HashTokenizer(vocab_size=instruction.vocab_size, max_tokens=instruction.max_tokens)


def checkpoint_steps(path: Path) -> int:
    """N of a ``step_<N>.zip`` checkpoint."""
    return int(path.stem.split("_")[1])


def vecnormalize_path(checkpoint: Path) -> Path:
    """Where the VecNormalize statistics saved with ``checkpoint`` go (plain arrays, no pickle)."""
    return checkpoint.with_name(f"vecnormalize_{checkpoint_steps(checkpoint)}.npz")


def package_versions() -> dict[str, str]:
    """Python, the platform, androidrl (and its git commit) and the libraries a run uses, by name."""
    import gymnasium
    import stable_baselines3
    import torch

    import androidrl

    versions = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "androidrl": androidrl.__version__,
        "androidrl_commit": _git_commit(Path(androidrl.__file__).parent),
        "gymnasium": gymnasium.__version__,
        "stable_baselines3": stable_baselines3.__version__,
        "torch": torch.__version__,
    }
    for package in ("sb3-contrib", "ray", "optuna"):  # those a run may use, when installed (not imported)
        with contextlib.suppress(metadata.PackageNotFoundError):
            versions[package.replace("-", "_")] = metadata.version(package)
    return versions


def _git_commit(directory: Path) -> str | None:
    """The commit androidrl is running from (``+dirty`` with uncommitted changes), or None outside a checkout."""
    try:

        def git(*args: str) -> str:
            return subprocess.run(
                ["git", "-C", str(directory), *args], capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()

        commit = git("rev-parse", "HEAD")
        return commit + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.SubprocessError):
        return None


def save_checkpoint(run: Run, model) -> Path:
    """Save the model (and VecNormalize stats) as ``checkpoints/step_<N>.zip``, atomically; keep the last few.

    Raises:
        CheckpointError: The checkpoint could not be written (a full disk, say); the older
            ones are all still there.
    """
    run.checkpoints.mkdir(parents=True, exist_ok=True)
    path = run.checkpoints / f"step_{model.num_timesteps}.zip"
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

"""Training: ``scripts/train.py`` — a config (or a run to resume) in, a trained model in a run directory out.

The run directory's layout is in :mod:`androidrl.train.runs`. ``--resume RUN_DIR`` continues
from the last checkpoint with the step counter intact; Ctrl-C saves a checkpoint before
exiting, so a crash loses at most one checkpoint interval.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stable_baselines3.common.vec_env import VecNormalize

from androidrl.arguments import add_trust_plugins, seed_arg
from androidrl.errors import AndroidRLError
from androidrl.train import stats
from androidrl.train.callbacks import Checkpoints, Progress, evaluation_callback
from androidrl.train.checkpoints import CheckpointError, load_error, load_normalize, remove_unfinished
from androidrl.train.compose import (
    check_devices,
    eval_devices,
    evaluation_env,
    load_model,
    make_callbacks,
    make_model,
    make_vec_env,
    set_torch_threads,
)
from androidrl.train.config import ConfigError, hyperparams, load_config
from androidrl.train.runs import (
    CHECKPOINT_PREFIX,
    Run,
    check_resume_changes,
    command_line,
    save_checkpoint,
    save_final_model,
    vecnormalize_path,
)
from androidrl.vector import WorkerError


@dataclass
class TrainResult:
    """What a training run produced (``stopped_by``: the signal that stopped it, if one did)."""

    run: Run
    timesteps: int
    final_model: Path | None
    stopped_by: int | None = None

    @property
    def interrupted(self) -> bool:
        """Whether a signal stopped the training (a checkpoint was saved)."""
        return self.stopped_by is not None


class Interrupted(BaseException):
    """A signal stopped a training, or a command that runs several (a tuning trial, a table's seed): stop them all.

    Raised in the main thread when SIGTERM arrives (:func:`interrupt_on_sigterm`; SIGINT raises
    KeyboardInterrupt). A BaseException, as KeyboardInterrupt is, so that no ``except Exception``
    (a checkpoint that fails to load, a worker's fault) takes the stop for a failure and goes on.

    Attributes:
        signum: The signal (SIGINT or SIGTERM); a command exits with ``128 + signum``.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name}")
        self.signum = int(signum)


#: What a full disk (or a full quota, or a file size limit) says.
FULL_DISK = (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)


def _full_disk(run: Run, err: OSError) -> CheckpointError:
    """The error that stops a training whose run directory is full, naming where the write failed."""
    frames = traceback.extract_tb(err.__traceback__)
    if err.filename:
        where = str(err.filename)
    elif any("/tensorboard/" in frame.filename for frame in frames):  # SB3's logger, or its writer thread
        where = f"the TensorBoard log in {run.tensorboard}"
    else:
        where = f"the run directory {run.directory}"
    return CheckpointError(
        f"cannot write {where}: {err.strerror or err}; training stopped "
        f"(the checkpoints written before are intact; free space and continue with --resume {run.directory})"
    )


def _device_lost(run: Run, model: Any, err: WorkerError) -> WorkerError:
    """The error that stops a training whose device is gone for good, after a checkpoint of the model so far."""
    try:
        saved = f"saved {save_checkpoint(run, model)}; continue with --resume {run.directory} once it is back"
    except OSError as failed:
        saved = f"no checkpoint saved ({failed.strerror or failed})"
    return WorkerError(f"{err}; training stopped ({saved})", err.indices, err.serials)


@contextlib.contextmanager
def _quiet_full_disk_in_threads():
    """A full disk in a writer thread (TensorBoard's) is said once, by the training that stops on it.

    The writer thread's exception is raised again in the training thread; without this, its
    traceback would be printed first.
    """
    previous = threading.excepthook

    def hook(args: Any) -> None:
        if not (isinstance(args.exc_value, OSError) and args.exc_value.errno in FULL_DISK):
            previous(args)

    threading.excepthook = hook
    try:
        yield
    finally:
        threading.excepthook = previous


@contextlib.contextmanager
def interrupt_on_sigterm():
    """Turn SIGTERM (what schedulers send) into :class:`Interrupted`, as Ctrl-C is KeyboardInterrupt."""

    def stop(signum: int, frame: Any) -> None:
        raise Interrupted(signum)

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def train(
    run: Run,
    resume: bool = False,
    init_from: str | Path | None = None,
    on_evaluation: Callable[[int, dict], bool | None] | None = None,
    command: list[str] | None = None,
) -> TrainResult:
    """Train as the run's config says, in the run's directory (``Run.create(config)`` makes one).

    The run is held for the whole training: one trainer at a time (:mod:`androidrl.train.lock`).
    With ``resume``, the model is loaded from the run's newest checkpoint that loads (safely:
    nothing in it is unpickled; older ones are tried in turn, and each skipped one is named)
    and training continues to ``training.total_timesteps`` with the step counter intact. A
    config changed since (``--set`` on resume) is written to the run, with ``command``, only
    once the model has loaded; a change to the model's network or spaces is refused.
    Ctrl-C (SIGINT) and SIGTERM save a checkpoint and stop (``TrainResult.stopped_by``); more
    of them meanwhile wait for the checkpoint. A device down for good (a
    :class:`~androidrl.vector.WorkerError`, raised again) saves a checkpoint too.
    With ``init_from`` (a run directory or a model ``.zip``), a new run starts from that
    model's weights (rl-zoo3's ``--trained-agent``): fine-tuning, with its own step count.
    ``on_evaluation(steps, summary)`` is called after each periodic evaluation; returning
    False ends the training there (``TrainResult.final_model`` is still written).

    Raises:
        ConfigError: Nothing to resume from, a change the trained model cannot take, or an
            ``init_from`` model that does not fit the config.
        RunInUse: Another trainer holds the run (a :class:`ConfigError`).
        CheckpointError: No checkpoint loads; or a checkpoint, an evaluation or the
            TensorBoard log could not be written (a full disk, say): training stops, naming
            the file or directory; every checkpoint written before is intact.
        WorkerError: A device stayed down longer than ``vector.max_down_seconds`` (or a worker
            failed beyond its restarts); the message names the checkpoint saved first.
    """
    with run.hold():
        return _train(run, resume, init_from, on_evaluation, command)


def _train(
    run: Run, resume: bool, init_from: str | Path | None, on_evaluation: Any, command: list[str] | None
) -> TrainResult:
    config = run.config
    changed = check_resume_changes(run.saved_config(), config, run.directory) if resume else []
    set_torch_threads(config)
    checkpoints = run.checkpoint_paths()[::-1] if resume else []
    for stray in run.stray_checkpoints() if resume else []:
        name = f"{CHECKPOINT_PREFIX}_<steps>_steps.zip"
        print(f"resume: ignoring {stray.name}: not a checkpoint's name ({name})", file=sys.stderr)
    if resume and not checkpoints:
        raise ConfigError(f"{run.directory}: no checkpoint to resume from (checkpoints/ is empty)")
    env = make_vec_env(config, config.devices, run.monitor, seed=config.seed)
    periodic = config.training.eval_freq > 0 and eval_devices(config) is not None
    eval_env = evaluation_env(config, periodic=True) if periodic else None
    stopping = contextlib.ExitStack()
    try:
        if config.algo.normalize_reward:
            env = VecNormalize(env, norm_obs=False, norm_reward=True)
        model = _resume(run, env, checkpoints) if resume else make_model(config, env, run.tensorboard)
        if init_from is not None:
            _initialize(model, init_from)
        total, done = config.training.total_timesteps, model.num_timesteps
        if resume and done >= total:  # (the newest checkpoint that loads: a torn newer one does not count)
            raise ConfigError(
                f"{run.directory} is finished: it trained {done} steps of training.total_timesteps {total}; to "
                f"train it further, raise the budget: androidrl train --resume {run.directory} "
                f"--set training.total_timesteps={2 * max(total, done)}"
            )
        if changed:  # the run keeps the config it trains with, now that it does
            run.record(command)
        stopped_by = None
        try:
            with interrupt_on_sigterm(), _quiet_full_disk_in_threads():
                model.learn(
                    total - done,
                    callback=_callbacks(run, env.num_envs, eval_env, on_evaluation),
                    reset_num_timesteps=not resume,
                    tb_log_name="train",
                )
        except (KeyboardInterrupt, Interrupted) as stop:
            stopping.enter_context(_stopping())  # until the envs are closed
            stopped_by = signal.SIGINT if isinstance(stop, KeyboardInterrupt) else stop.signum
            path = save_checkpoint(run, model)
            name = signal.Signals(stopped_by).name
            print(f"\n{name}: saved {path}; continue with --resume {run.directory}", file=sys.stderr)
        except WorkerError as err:  # a device down for good: keep what was learned before saying so
            raise _device_lost(run, model, err) from None
        except OSError as err:  # (checkpoints and evaluations say which file themselves: CheckpointError)
            if err.errno not in FULL_DISK:
                raise
            raise _full_disk(run, err) from None
        if stopped_by is not None:
            return TrainResult(run, model.num_timesteps, None, stopped_by)
        save_final_model(run, model)
        save_checkpoint(run, model)
        return TrainResult(run, model.num_timesteps, run.final_model)
    finally:
        with stopping:
            env.close()
            if eval_env is not None:
                eval_env.close()


@contextlib.contextmanager
def _stopping():
    """While a stopped training saves its checkpoint and closes its envs, Ctrl-C and SIGTERM only say so.

    A second Ctrl-C would otherwise cut that short, with a traceback from wherever it landed,
    for a stop that takes about a second anyway.
    """

    def again(signum: int, frame: Any) -> None:
        name = signal.Signals(signum).name
        print(f"\n{name}: already stopping (saving a checkpoint, closing the envs)", file=sys.stderr)

    previous = {}
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, again)
    except ValueError:  # not the main thread: leave signals alone
        pass
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _callbacks(run: Run, n_envs: int, eval_env: Any, on_evaluation: Any) -> list:
    """The progress bar, SB3's checkpoints and evaluations (the run's way), and the config's own callbacks."""
    train = run.config.training
    callbacks: list = [Progress(run)]
    if train.checkpoint_freq:
        callbacks.append(Checkpoints(run, max(train.checkpoint_freq // n_envs, 1)))
    if eval_env is not None:
        callbacks.append(evaluation_callback(run, eval_env, n_envs, on_evaluation))
    return callbacks + make_callbacks(run.config)


def _resume(run: Run, env: Any, checkpoints: list[Path]) -> Any:
    """The newest checkpoint that loads (safely), with its normalization statistics; older ones are tried in turn.

    The model takes the config's hyperparameters (those a resume's ``--set`` changed too).

    Raises:
        CheckpointError: None of them loads.
    """
    for directory in (run.directory, run.checkpoints):
        for name in remove_unfinished(directory):
            print(f"resume: removed {name} (a write cut short)", file=sys.stderr)
    skipped = []
    for path in checkpoints:
        try:
            if isinstance(env, VecNormalize):
                stats = vecnormalize_path(path)
                env = load_normalize(stats, env.venv) if stats.exists() else env
            # The config's hyperparameters, not the saved ones: a resume with --set changes them (rl-zoo3 does so).
            model = load_model(run.config, path, env, tensorboard_log=str(run.tensorboard), **hyperparams(run.config))
        except CheckpointError as err:
            skipped.append(f"{path.name} ({err})")
            print(f"resume: skipping {path.name}: {err}", file=sys.stderr)
            continue
        if skipped:
            print(f"resume: continuing from {path.name} after skipping {len(skipped)}", file=sys.stderr)
        return model
    raise CheckpointError(f"{run.directory}: no checkpoint loads: {'; '.join(skipped)}")


def _model_source(source: str | Path, trust_plugins: bool = False) -> Path:
    """The model file of ``source``: the file itself, or a run directory's final model (or last checkpoint)."""
    from androidrl.train.evaluation import model_path

    path = Path(source)
    if path.is_dir():
        return model_path(Run.open(path, trust_plugins=trust_plugins))
    if not path.is_file():
        raise ConfigError(f"--init-from {source}: no such run directory or model file")
    return path


def _initialize(model: Any, source: str | Path) -> None:
    """Copy the weights (and optimizer state) of the model at ``source`` into ``model``.

    Only weights are read (``torch.load(weights_only=True)``): nothing in the file is unpickled.

    Raises:
        ConfigError: ``source`` is neither a model nor a run with one, or its network does not fit.
    """
    path = _model_source(source)
    try:
        model.set_parameters(str(path), exact_match=True, device=model.device)
    except (ValueError, RuntimeError, KeyError) as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise ConfigError(
            f"--init-from {path}: its network does not fit this config's "
            f"(same algo.name, policy, observation and action settings needed): {first}"
        ) from None
    except Exception as err:  # noqa: BLE001 (not a model file, or one whose weights are not only weights)
        raise ConfigError(f"--init-from {path}: does not load: {load_error(path, err)}") from None
    print(f"initialized from {path}", file=sys.stderr)


def _train_seeds(args: argparse.Namespace, command: list[str]) -> int:
    """``--seeds``: one run per seed, then their last evaluations side by side (mean ± std, IQM and its interval)."""
    from datetime import datetime

    from androidrl.train.analysis import evaluations

    configs = {seed: load_config(args.config, [*args.set, f"seed={seed}"]) for seed in args.seeds}  # all checked first
    init_from = _model_source(args.init_from, args.trust_plugins) if args.init_from else None
    check_devices(configs[args.seeds[0]])
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    finals = {}
    for seed, config in configs.items():
        directory = (
            Path(args.run_dir) / f"seed_{seed}"
            if args.run_dir
            else Path(config.run_dir) / f"{config.experiment}-{stamp}-seed{seed}"
        )
        result = train(Run.create(config, directory, command), init_from=init_from)
        if result.stopped_by is not None:
            return 128 + result.stopped_by
        last = evaluations(result.run.directory)
        finals[seed] = last[-1]["success_rate"] if last else float("nan")
        print(f"seed {seed}: {result.timesteps} steps, last evaluation success {finals[seed]:.0%}; {directory}")
    values = [v for v in finals.values() if v == v]
    if len(values) > 1:
        print(f"{len(values)} seeds, last evaluation success: {stats.across_runs(values)}")
    return 0


def _ignore_stops() -> None:
    """The command is ending after a stop signal: another one would only cut Python's exit short.

    Freeing the model and its libraries takes seconds after :func:`main` returns; a Ctrl-C
    then would end the process by the signal instead of with the exit code 130.
    """
    with contextlib.suppress(ValueError):  # (not the main thread)
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, signal.SIG_IGN)


def main(argv: list[str] | None = None) -> int:
    """``scripts/train.py``: train from a config, or resume a run."""
    parser = argparse.ArgumentParser(
        prog="androidrl train", description="Train a Stable-Baselines3 agent on Android from a YAML config."
    )
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
    parser.add_argument(
        "--init-from",
        metavar="RUN_DIR|MODEL.zip",
        help="start a new run from a trained model's weights (fine-tuning; the config must match its spaces)",
    )
    parser.add_argument(
        "--seeds",
        type=seed_arg,
        nargs="+",
        metavar="SEED",
        help="one run per seed, one after another (compare them in "
        "the notebook); runs go to <experiment>-<timestamp>-seed<N>, or RUN_DIR/seed_<N> with --run-dir",
    )
    add_trust_plugins(parser, "a run's (--resume, --init-from RUN_DIR)")
    args = parser.parse_args(argv)
    if args.seeds and len(set(args.seeds)) != len(args.seeds):
        parser.error(f"--seeds: each seed once (a seed twice would train the same run twice), got {args.seeds}")
    argv = sys.argv[1:] if argv is None else argv
    try:
        if args.resume:
            if args.config or args.init_from:
                parser.error(
                    "--resume continues a run with its own config and model; do not pass --config or --init-from"
                )
            run = Run.open(args.resume, args.set, trust_plugins=args.trust_plugins)
            check_devices(run.config)
            result = train(run, resume=True, command=command_line("train", argv))
        else:
            if not args.config:
                parser.error("--config is required (or --resume RUN_DIR)")
            if args.seeds:
                return _train_seeds(args, command_line("train", argv))
            config = load_config(args.config, args.set)
            # (its model, found before a run directory is made for nothing)
            init_from = _model_source(args.init_from, args.trust_plugins) if args.init_from else None
            check_devices(config)
            result = train(Run.create(config, args.run_dir, command_line("train", argv)), init_from=init_from)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except (AndroidRLError, WorkerError) as err:  # a full disk, a device gone for good...
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # before training started: nothing to save
        print("\ninterrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    if result.stopped_by is not None:
        _ignore_stops()
        return 128 + result.stopped_by  # 130 for Ctrl-C, 143 for SIGTERM, as shells report them
    print(f"done: {result.timesteps} steps; run in {result.run.directory}; model {result.final_model}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

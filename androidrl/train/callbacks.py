"""Training callbacks: SB3's EvalCallback and CheckpointCallback, with what a run directory adds; the progress bar.

* :func:`evaluation_callback` is SB3's ``EvalCallback`` (sb3-contrib's ``MaskableEvalCallback``
  for MaskablePPO): every ``training.eval_freq`` steps it plays ``evaluate_policy`` on the
  evaluation env, logs ``eval/mean_reward``, ``eval/mean_ep_length`` and ``eval/success_rate``,
  and keeps the best model by mean reward. Added on top, each a few lines: every evaluation's
  episodes are seeded from the run's seed and its index (SB3 resets the eval env unseeded,
  so its evaluations move with chance); success per task for a suite; an episode a device
  fault cut short skips the evaluation (with a message) instead of scoring it; and
  ``evaluations.npz`` (SB3's format and dtypes), ``evaluations.csv`` and ``best_model.zip`` are
  written atomically — the npz byte for byte the same for the same config and seed.
* :class:`Checkpoints` is SB3's ``CheckpointCallback`` (its frequency and its file names,
  ``rl_model_<N>_steps.zip``) saving through :func:`~androidrl.train.runs.save_checkpoint`:
  atomic files, VecNormalize statistics as plain arrays (SB3 pickles them), the last few kept.
* :class:`Progress` is our own: SB3's ``ProgressBarCallback`` shows no success rate, no
  per-task success in TensorBoard and no count of the steps a device was away.
"""

from __future__ import annotations

import csv
import sys
import time
import warnings
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback, EvalCallback

from androidrl.errors import DeviceError
from androidrl.train.checkpoints import CheckpointError, atomic_savez, atomic_write
from androidrl.train.evaluation import EpisodeLog, EpisodeResult, describe, summarize
from androidrl.train.runs import CHECKPOINT_PREFIX, Run, save_checkpoint
from androidrl.train.seeds import evaluation_seed


def say(text: str) -> None:
    """A line for the user, below the progress bar (tqdm's ``write``) when there is one."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        print(text, file=sys.stderr)
        return
    try:
        tqdm.write(text, file=sys.stderr)
    except AttributeError as err:
        # A signal's exception raised inside tqdm.write leaves tqdm's class lock half made, and its
        # clean-up then fails with AttributeError (tqdm/std.py external_write_mode): stop as the signal asked.
        if err.__context__ is not None:
            raise err.__context__ from None
        raise


class _RunEvaluation:
    """What a run adds to SB3's ``EvalCallback`` (a mixin: see :func:`evaluation_callback`)."""

    def __init__(self, run: Run, on_evaluation: Callable[[int, dict], bool | None] | None, **kwargs: Any) -> None:
        super().__init__(callback_on_new_best=_SaveBest(run), callback_after_eval=_AfterEvaluation(), **kwargs)
        self.run = run
        self.on_evaluation = on_evaluation
        #: (timesteps, episodes) of each evaluation, as ``evaluations.npz`` holds them.
        self.history: list[tuple[int, list[EpisodeResult]]] = []
        self.log = EpisodeLog()

    def _init_callback(self) -> None:
        with warnings.catch_warnings():  # (ours differ by design: a local DummyVecEnv beside the workers')
            warnings.filterwarnings("ignore", message="Training and eval env are not of the same type")
            super()._init_callback()
        self._restore(self.model.num_timesteps)

    def _on_step(self) -> bool:
        if not (self.eval_freq > 0 and self.n_calls % self.eval_freq == 0):
            return True
        self.log = EpisodeLog()
        self.eval_env.seed(evaluation_seed(self.run.config.seed, len(self.history)))
        try:
            return super()._on_step()
        except DeviceError as err:  # training goes on; the next evaluation plays these episodes again
            say(f"evaluation at {self.num_timesteps} steps skipped: {err}")
            return True

    def _log_success_callback(self, locals_: dict[str, Any], globals_: dict[str, Any]) -> None:
        self.log(locals_, globals_)  # (raises on an episode a device fault cut short)
        super()._log_success_callback(locals_, globals_)

    def after_evaluation(self) -> bool:
        """Write the evaluation's files, log success per task, and ask ``on_evaluation`` whether to go on."""
        steps, episodes = self.num_timesteps, self.log.episodes
        self.history.append((steps, episodes))
        summary = summarize(episodes)
        per_task = {k: v for k, v in summary.items() if k.startswith("success_rate/")}
        for key, value in per_task.items():
            self.logger.record(f"eval/{key}", value)
        if per_task:
            self.logger.dump(steps)
        self._write(steps, summary)
        say(f"eval at {steps} steps: {describe(summary)}")
        return not (self.on_evaluation is not None and self.on_evaluation(steps, summary) is False)

    def _write(self, steps: int, summary: dict[str, float]) -> None:
        """``evaluations.npz`` (every evaluation so far, SB3's format) and a row of ``evaluations.csv``."""
        width = max(len(episodes) for _, episodes in self.history)

        def column(field: str, dtype: type, pad: Any) -> np.ndarray:
            rows = [[getattr(e, field) for e in row] + [pad] * (width - len(row)) for _, row in self.history]
            return np.array(rows, dtype=dtype)

        atomic_savez(
            self.run.directory / "evaluations.npz",
            {
                "timesteps": np.array([steps for steps, _ in self.history], dtype=np.int64),
                "results": column("ret", np.float64, np.nan),  # (rows of fewer episodes, after a resume: padded)
                "ep_lengths": column("length", np.int64, 0),
                "successes": column("success", bool, False),
            },
        )
        path = self.run.evaluations
        new = not path.exists()
        try:
            with path.open("a", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=["timesteps", *summary])
                if new:
                    writer.writeheader()
                writer.writerow({"timesteps": steps, **summary})
        except OSError as err:  # a full disk, say: stop (as for a checkpoint) rather than lose evaluations
            raise CheckpointError(f"cannot write {path.name} in {path.parent}: {err.strerror or err}") from None

    def _restore(self, steps: int) -> None:
        """On resume: the evaluations made before, and the best mean reward among them.

        Those past ``steps`` are dropped (that stretch of training is done again);
        ``best_model.zip`` is replaced only by an evaluation better than every one before.
        """
        path = self.run.directory / "evaluations.npz"
        if not path.exists():
            return
        try:
            with np.load(path, allow_pickle=False) as data:
                rows = list(zip(data["timesteps"], data["results"], data["ep_lengths"], data["successes"]))
        except (OSError, ValueError, KeyError) as err:
            say(f"resume: {path.name} cannot be read ({err}); evaluations start again")
            return
        for timesteps, returns, lengths, successes in rows:
            played = ~np.isnan(returns)
            episodes = [EpisodeResult(float(r), int(n), bool(s)) for r, n, s in zip(returns, lengths, successes)]
            if played.any() and self.run.best_model.exists():
                self.best_mean_reward = max(self.best_mean_reward, float(np.mean(returns[played])))
            if timesteps <= steps:
                self.history.append((int(timesteps), [e for e, p in zip(episodes, played) if p]))


class RunEvalCallback(_RunEvaluation, EvalCallback):
    """SB3's ``EvalCallback`` with what a run adds (seeded episodes, success per task, faults, atomic files)."""


def evaluation_callback(
    run: Run, eval_env: Any, n_envs: int, on_evaluation: Callable[[int, dict], bool | None] | None = None
) -> EvalCallback:
    """SB3's ``EvalCallback`` (``MaskableEvalCallback`` for MaskablePPO) every ``training.eval_freq`` steps.

    Args:
        run: The run directory (its config says how often and how many episodes).
        eval_env: The evaluation VecEnv (:func:`~androidrl.train.compose.evaluation_env`).
        n_envs: Training envs: SB3 counts ``eval_freq`` in calls, each ``n_envs`` steps.
        on_evaluation: Called with (steps, summary) after each evaluation; returning False
            stops the training (a tuner's pruner does).
    """
    train = run.config.training
    kwargs = {
        "eval_env": eval_env,
        "n_eval_episodes": train.eval_episodes,
        "eval_freq": max(train.eval_freq // n_envs, 1),
        "deterministic": train.eval_deterministic,
        "verbose": 0,
    }
    if run.config.algo.name == "MaskablePPO":
        from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback

        class MaskableRunEvalCallback(_RunEvaluation, MaskableEvalCallback):
            """sb3-contrib's ``MaskableEvalCallback`` with what a run adds."""

        return MaskableRunEvalCallback(run, on_evaluation, **kwargs)
    return RunEvalCallback(run, on_evaluation, **kwargs)


class _AfterEvaluation(BaseCallback):
    """``EvalCallback``'s ``callback_after_eval``: hands over to the run's additions."""

    def _on_step(self) -> bool:
        return self.parent.after_evaluation()


class _SaveBest(BaseCallback):
    """``EvalCallback``'s ``callback_on_new_best``: ``best_model.zip``, written atomically."""

    def __init__(self, run: Run) -> None:
        super().__init__()
        self.run = run

    def _on_step(self) -> bool:
        atomic_write(self.run.best_model, self.model.save)
        return True


class Checkpoints(CheckpointCallback):
    """SB3's ``CheckpointCallback`` (every ``save_freq`` calls; ``rl_model_<N>_steps.zip``), saved the run's way."""

    def __init__(self, run: Run, save_freq: int) -> None:
        super().__init__(save_freq, str(run.checkpoints), name_prefix=CHECKPOINT_PREFIX)
        self.run = run

    def _on_step(self) -> bool:
        if self.n_calls % self.save_freq == 0:
            save_checkpoint(self.run, self.model)  # (atomic; VecNormalize as arrays; the last few kept)
        return True


class Progress(BaseCallback):
    """The progress bar (steps/s, recent success, blank steps) and rollout success per task in TensorBoard.

    Args:
        run: The run directory (its config says whether to show the bar).
    """

    def __init__(self, run: Run) -> None:
        super().__init__()
        self.run = run
        self.successes: deque[float] = deque(maxlen=100)
        #: Recent successes per task (a suite's tasks apart), for TensorBoard.
        self.task_successes: dict[str, deque[float]] = {}
        #: Blank steps per env (its device was down), shown in the bar and TensorBoard.
        self.blank: dict[int, int] = {}
        self.bar = None
        self.started = time.monotonic()
        self.start_steps = 0

    def _on_training_start(self) -> None:
        self.start_steps = self.model.num_timesteps
        if self.run.config.training.progress_bar:
            from tqdm.auto import tqdm

            self.bar = tqdm(
                total=self.run.config.training.total_timesteps,
                initial=self.start_steps,
                unit="step",
                dynamic_ncols=True,
                desc=self.run.config.experiment,
                # one rate (ours, in the postfix: steps/s since the start), not tqdm's too
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}{postfix}]",
            )

    def _on_step(self) -> bool:
        for i, (done, info) in enumerate(zip(self.locals["dones"], self.locals["infos"])):
            if done and "is_success" in info and not info.get("device_error"):
                self.successes.append(float(info["is_success"]))
                task = info.get("task", "")
                self.task_successes.setdefault(task, deque(maxlen=100)).append(float(info["is_success"]))
            if info.get("device_down"):  # a blank step: the device was away
                self.blank[i] = self.blank.get(i, 0) + 1
        if self.bar is not None:
            steps = self.model.num_timesteps
            rate = (steps - self.start_steps) / max(1e-9, time.monotonic() - self.started)
            success = f"{np.mean(self.successes):.0%}" if self.successes else "-"
            blank = f", blank {sum(self.blank.values())}" if self.blank else ""
            self.bar.set_postfix_str(f"{rate:.0f} steps/s, success {success}{blank}", refresh=False)
            if steps > self.bar.total:  # SB3 steps whole rollouts: the last one may pass the total
                self.bar.total = steps
            self.bar.update(steps - self.bar.n)  # redraws at most every mininterval
        return True

    def _on_rollout_end(self) -> None:
        if len(self.task_successes) > 1:
            for task, values in self.task_successes.items():
                self.logger.record(f"rollout/success_rate/{task}", float(np.mean(values)))
        for i, count in self.blank.items():
            self.logger.record(f"rollout/blank_steps/env_{i}", count)
        self.logger.record("rollout/blank_steps", sum(self.blank.values()))

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()

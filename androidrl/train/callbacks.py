"""The training callback: checkpoints, periodic evaluations and the progress bar, on total env steps."""

from __future__ import annotations

import csv
import sys
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from androidrl.errors import DeviceError
from androidrl.train.checkpoints import CheckpointError, atomic_write
from androidrl.train.evaluation import evaluate, summarize
from androidrl.train.runs import Run, save_checkpoint


class TrainingCallback(BaseCallback):
    """Checkpoints, evaluations (on ``eval_env``, into ``evaluations.csv`` and TensorBoard) and a progress bar.

    Args:
        run: The run directory (its config says how often to do what).
        eval_env: The evaluation VecEnv, or None to skip evaluations.
        on_evaluation: Called with (steps, summary) after each evaluation; returning False
            stops the training (a tuner's pruner does).
    """

    def __init__(
        self, run: Run, eval_env: Any = None, on_evaluation: Callable[[int, dict], bool | None] | None = None
    ) -> None:
        super().__init__()
        self.run = run
        self.eval_env = eval_env
        self.on_evaluation = on_evaluation
        self.go_on = True
        self.next_checkpoint = self.next_eval = 0
        self.successes: deque[float] = deque(maxlen=100)
        #: Recent successes per task (a suite's tasks apart), for TensorBoard.
        self.task_successes: dict[str, deque[float]] = {}
        #: Blank steps per env (its device was down), shown in the bar and TensorBoard.
        self.blank: dict[int, int] = {}
        self.history: list[tuple] = []  # (steps, returns, lengths, successes) of each evaluation
        self.best: tuple[float, float] | None = None
        self.bar = None
        self.started = time.monotonic()
        self.start_steps = 0

    def _on_training_start(self) -> None:
        train = self.run.config.training
        steps = self.model.num_timesteps
        self.start_steps = steps
        self.next_checkpoint = steps + train.checkpoint_freq if train.checkpoint_freq else -1
        self.next_eval = steps + train.eval_freq if train.eval_freq and self.eval_env is not None else -1
        self._restore_evaluations(steps)
        if train.progress_bar:
            from tqdm.auto import tqdm

            self.bar = tqdm(
                total=train.total_timesteps,
                initial=steps,
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
        steps = self.model.num_timesteps
        if self.bar is not None:
            rate = (steps - self.start_steps) / max(1e-9, time.monotonic() - self.started)
            success = f"{np.mean(self.successes):.0%}" if self.successes else "-"
            blank = f", blank {sum(self.blank.values())}" if self.blank else ""
            self.bar.set_postfix_str(f"{rate:.0f} steps/s, success {success}{blank}", refresh=False)
            if steps > self.bar.total:  # SB3 steps whole rollouts: the last one may pass the total
                self.bar.total = steps
            self.bar.update(steps - self.bar.n)  # redraws at most every mininterval
        train = self.run.config.training
        if 0 <= self.next_checkpoint <= steps:
            save_checkpoint(self.run, self.model)
            self.next_checkpoint = steps + train.checkpoint_freq
        if 0 <= self.next_eval <= steps:
            self._evaluate(steps)
            self.next_eval = steps + train.eval_freq
        return self.go_on

    def _on_rollout_end(self) -> None:
        if len(self.task_successes) > 1:
            for task, values in self.task_successes.items():
                self.logger.record(f"rollout/success_rate/{task}", float(np.mean(values)))
        for i, count in self.blank.items():
            self.logger.record(f"rollout/blank_steps/env_{i}", count)
        self.logger.record("rollout/blank_steps", sum(self.blank.values()))

    def _evaluate(self, steps: int) -> None:
        train = self.run.config.training
        try:
            results = evaluate(self.model, self.eval_env, train.eval_episodes, train.eval_deterministic)
        except DeviceError as err:  # training goes on; the next evaluation tries again
            self._say(f"evaluation at {steps} steps skipped: {err}")
            return
        summary = summarize(results)
        # SB3's EvalCallback tags (zoo plots and side-by-side TensorBoards line up), and ours.
        self.logger.record("eval/mean_reward", summary["mean_return"])
        self.logger.record("eval/mean_ep_length", summary["mean_length"])
        for key, value in summary.items():
            if key.startswith("success_rate"):
                self.logger.record(f"eval/{key}", value)
        self.logger.dump(self.num_timesteps)
        self._keep(steps, results, summary)
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
        self._say(
            f"eval at {steps} steps: success {summary['success_rate']:.0%}, "
            f"return {summary['mean_return']:.2f}, length {summary['mean_length']:.1f}"
        )
        if self.on_evaluation is not None and self.on_evaluation(steps, summary) is False:
            self.go_on = False

    def _restore_evaluations(self, steps: int) -> None:
        """On resume: the evaluations so far (from ``evaluations.npz``) and the best score among them.

        ``evaluations.npz`` goes on with the evaluations made before the resume (those past the
        checkpoint resumed from are dropped: that stretch of training is done again), and
        ``best_model.zip`` is replaced only by a better evaluation than every one before.
        """
        path = self.run.directory / "evaluations.npz"
        if not path.exists():
            return
        try:
            with np.load(path, allow_pickle=False) as data:
                rows = list(zip(data["timesteps"], data["results"], data["ep_lengths"], data["successes"]))
        except (OSError, ValueError, KeyError) as err:
            self._say(f"resume: {path.name} cannot be read ({err}); evaluations start again")
            return
        for timesteps, returns, lengths, successes in rows:
            done = ~np.isnan(returns)  # (rows are padded with NaN to the longest evaluation)
            entry = (int(timesteps), list(returns[done]), list(lengths[done]), list(successes[done]))
            if done.any() and self.run.best_model.exists():  # the score summarize() gave it
                score = (float(np.mean(entry[3])), float(np.mean(entry[1])))
                self.best = score if self.best is None else max(self.best, score)
            if timesteps <= steps:
                self.history.append(entry)

    def _keep(self, steps: int, results: list, summary: dict[str, float]) -> None:
        """SB3's ``evaluations.npz`` (every evaluation so far) and ``best_model.zip`` (the best one's model)."""
        self.history.append(
            (steps, [r.ret for r in results], [r.length for r in results], [r.success for r in results])
        )
        width = max(len(h[1]) for h in self.history)

        def column(i: int) -> np.ndarray:
            return np.array([np.pad(np.asarray(h[i], dtype=float), (0, width - len(h[i])), constant_values=np.nan)
                             for h in self.history])  # fmt: skip

        arrays = {"timesteps": np.array([h[0] for h in self.history]), "results": column(1)}
        arrays |= {"ep_lengths": column(2), "successes": column(3)}
        atomic_write(self.run.directory / "evaluations.npz", lambda f: np.savez(f, **arrays))
        score = (summary["success_rate"], summary["mean_return"])
        if self.best is None or score > self.best:
            self.best = score
            atomic_write(self.run.best_model, self.model.save)

    def _say(self, text: str) -> None:
        if self.bar is not None:
            self.bar.write(text)
        else:
            print(text, file=sys.stderr)

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()

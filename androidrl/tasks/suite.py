"""TaskSuite: several tasks for one policy, one drawn per episode; its instruction tells them apart.

Each episode the suite draws a task from the env's seeded RNG (by weight), or — in
``cycle`` mode, for evaluations that must cover every task evenly — takes them in turn;
``reset(options={"task": name})`` on the env forces one. Everything else (reset steps,
reward, termination, ``max_steps``, instruction, parameters) is the drawn task's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from androidrl.device.base import Device
from androidrl.errors import TaskError
from androidrl.tasks.base import Evaluation, Needs, Task
from androidrl.ui import Snapshot


class TaskSuite(Task):
    """Tasks drawn one per episode.

    Args:
        tasks: The tasks (names must differ).
        weights: How often each is drawn, relative (default: all alike).
        cycle: Take the tasks in turn instead of drawing them (``offset`` says where to start).
        offset: Where a cycling suite starts (vector envs give each worker its own).

    Raises:
        TaskError: Fewer than one task, names twice, or bad weights.
    """

    def __init__(
        self, tasks: Sequence[Task], weights: Sequence[float] | None = None, cycle: bool = False, offset: int = 0
    ) -> None:
        names = [t.name for t in tasks]
        if not tasks or len(set(names)) != len(names):
            raise TaskError(f"a task suite needs tasks with different names, got {names}")
        weights = list(weights) if weights is not None else [1.0] * len(tasks)
        finite = all(isinstance(w, (int, float)) and not isinstance(w, bool) and 0 <= w < math.inf for w in weights)
        if len(weights) != len(tasks) or not finite or not 0 < sum(weights) < math.inf:
            raise TaskError(
                f"suite weights must be one finite, non-negative number per task (some positive), got {weights}"
            )
        self.tasks = list(tasks)
        self.probabilities = np.asarray(weights, dtype=float) / sum(weights)
        self.cycle = cycle
        self._turn = offset
        self.current = self.tasks[0]

    @property
    def names(self) -> list[str]:
        """The tasks' names, in order."""
        return [t.name for t in self.tasks]

    @property
    def name(self) -> str:  # type: ignore[override]
        """The current task's name (what ``info["task"]`` says)."""
        return self.current.name

    @property
    def max_steps(self) -> int | None:  # type: ignore[override]
        return self.current.max_steps

    @property
    def needs(self) -> Needs:  # type: ignore[override]
        """What any of the tasks may read (a step of any episode reads no more)."""
        result = Needs.NONE
        for task in self.tasks:
            result |= task.needs
        return result

    @property
    def instruction(self) -> str:
        """The current episode's instruction."""
        return getattr(self.current, "instruction", "")

    @property
    def params(self) -> dict[str, Any]:
        """The current episode's parameters."""
        return getattr(self.current, "params", {})

    @property
    def fields(self) -> dict[str, str]:
        """The current episode's structured fields."""
        return getattr(self.current, "fields", {})

    def setup(self, device: Device) -> None:
        """Every task's setup steps."""
        for task in self.tasks:
            task.setup(device)

    def choose(self, name: str | None, rng: np.random.Generator) -> Task:
        """The task of the next episode: ``name``, or the next in turn, or one drawn by weight.

        Raises:
            TaskError: ``name`` is not in the suite.
        """
        if name is not None:
            if name not in self.names:
                raise TaskError(f"task {name!r} is not in this suite ({', '.join(self.names)})")
            return self.tasks[self.names.index(name)]
        if self.cycle:
            task, self._turn = self.tasks[self._turn % len(self.tasks)], self._turn + 1
            return task
        return self.tasks[int(rng.choice(len(self.tasks), p=self.probabilities))]

    def reset(self, device: Device, rng: np.random.Generator, task: str | None = None) -> dict[str, Any]:
        """Choose the episode's task and reset the device for it."""
        self.current = self.choose(task, rng)
        return {**self.current.reset(device, rng), "task_index": self.names.index(self.current.name)}

    def evaluate(self, snapshot: Snapshot) -> Evaluation:
        """The current task's verdict."""
        return self.current.evaluate(snapshot)

    def __repr__(self) -> str:
        return f"TaskSuite({self.names})"

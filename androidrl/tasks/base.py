"""The Task interface: what an episode starts from, what it rewards and when it ends.

:class:`AndroidEnv` asks its task to :meth:`Task.reset` the device at the start of every
episode and to :meth:`Task.evaluate` each step. A task reads the device through a
:class:`~androidrl.ui.Snapshot`, which fetches the screenshot and UI XML at most once per
step and shares them with the env's observation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from androidrl.device.base import Device
from androidrl.ui import Snapshot


@dataclass
class Evaluation:
    """A task's verdict on one step."""

    reward: float = 0.0
    terminated: bool = False
    is_success: bool = False
    info: dict[str, Any] = field(default_factory=dict)


class Task:
    """Base task: no reset steps beyond going home, reward 0, never terminates.

    Attributes:
        name: Short name, shown in ``info["task"]``.
        max_steps: Episode length after which the env truncates (None: never).
    """

    name: str = "idle"
    max_steps: int | None = None

    def setup(self, device: Device) -> None:
        """Once per env, before the first episode (install, grant, configure)."""

    def reset(self, device: Device, rng: np.random.Generator) -> dict[str, Any]:
        """Bring the device to the episode's start state; return task parameters for ``info``."""
        device.home()
        return {}

    def evaluate(self, snapshot: Snapshot) -> Evaluation:
        """Reward and termination after a step."""
        return Evaluation()


class IdleTask(Task):
    """The default task: start every episode on the home screen; reward 0, never terminates."""

"""The Task interface: what an episode starts from, what it rewards and when it ends.

:class:`AndroidEnv` asks its task to :meth:`Task.reset` the device at the start of every
episode and to :meth:`Task.evaluate` each step. A task reads the device through a
:class:`~androidrl.ui.Snapshot`, which fetches the screenshot and UI XML at most once per
step and shares them with the env's observation. A task declares in :attr:`Task.needs` what
its conditions may read (UI, shell, foreground, logcat, frame), so what reads nothing else
costs nothing else.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from androidrl.device.base import Device
from androidrl.ui import Snapshot


class Needs(enum.Flag):
    """What a step may read from the device for a task or a wrapper; combine with ``|``.

    A declaration is an upper bound: the :class:`~androidrl.ui.Snapshot` still reads lazily,
    so a condition that is not evaluated (a sub-goal already reached) reads nothing.

    Example:
        >>> Needs.UI in make_task("tap-target").needs
        True
    """

    NONE = 0
    #: The UI dump (``uiautomator dump``): node conditions, UI-element actions, clickable masks.
    UI = enum.auto()
    #: Outputs of shell commands (shell conditions).
    SHELL = enum.auto()
    #: The app in front (``dumpsys window``).
    FOREGROUND = enum.auto()
    #: Log lines since the reset (``logcat``).
    LOGCAT = enum.auto()
    #: The screenshot.
    FRAME = enum.auto()

    @property
    def labels(self) -> list[str]:
        """The kinds, in lower case and declaration order (``["ui", "shell"]``)."""
        return [kind.name.lower() for kind in Needs if kind and kind in self]


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
        needs: What :meth:`evaluate` may read from the snapshot. A subclass that reads
            something declares it (an undeclared read still works, the snapshot reads on
            demand; the declaration tells the env and the user what a step costs).
    """

    name: str = "idle"
    max_steps: int | None = None
    needs: Needs = Needs.NONE

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

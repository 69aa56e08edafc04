"""The Task interface: what an episode starts from, what it rewards and when it ends.

:class:`AndroidEnv` asks its task to :meth:`Task.reset` the device at the start of every
episode and to :meth:`Task.evaluate` each step. A task reads the device through a
:class:`Snapshot`, which fetches the screenshot and UI XML at most once per step and shares
them with the env's observation.
"""

from __future__ import annotations

import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from androidrl.device.base import CommandResult, Device
from androidrl.errors import TaskError


def parse_ui(xml: str) -> ET.Element:
    """The root element of a UI dump.

    Raises:
        TaskError: The text is not XML.
    """
    try:
        return ET.fromstring(xml)
    except ET.ParseError as err:
        raise TaskError(f"the UI dump is not valid XML ({err}): {xml[:120]!r}") from None


class Snapshot:
    """The device's screen after an action, read lazily and at most once.

    Example:
        >>> snap = Snapshot(device)
        >>> 'text="Wi-Fi"' in snap.xml  # dumps the UI now; later reads reuse it
    """

    def __init__(self, device: Device) -> None:
        self.device = device
        self._xml: str | None = None
        self._hierarchy: ET.Element | None = None
        self._frame: np.ndarray | None = None
        self._shell: dict[str, CommandResult] = {}
        #: Milliseconds spent reading each part ("screenshot", "xml").
        self.timings_ms: dict[str, float] = {}

    @property
    def xml(self) -> str:
        """The UI hierarchy XML (``uiautomator dump``)."""
        if self._xml is None:
            start = time.perf_counter()
            self._xml = self.device.dump_ui()
            self.timings_ms["xml"] = round((time.perf_counter() - start) * 1000, 3)
        return self._xml

    @property
    def frame(self) -> np.ndarray:
        """The screenshot as an RGB uint8 array."""
        if self._frame is None:
            start = time.perf_counter()
            self._frame = self.device.screenshot()
            self.timings_ms["screenshot"] = round((time.perf_counter() - start) * 1000, 3)
        return self._frame

    @property
    def hierarchy(self) -> ET.Element:
        """The parsed XML (its root element).

        Raises:
            TaskError: The dump is not valid XML.
        """
        if self._hierarchy is None:
            self._hierarchy = parse_ui(self.xml)
        return self._hierarchy

    def shell(self, command: str) -> CommandResult:
        """Output of a shell command, run once per snapshot."""
        if command not in self._shell:
            self._shell[command] = self.device.execute(command)
        return self._shell[command]

    @property
    def has_xml(self) -> bool:
        """Whether the XML was already read this step."""
        return self._xml is not None


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

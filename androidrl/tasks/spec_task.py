"""SpecTask: a :class:`~androidrl.tasks.base.Task` run from a :class:`~androidrl.tasks.spec.TaskSpec`.

Each episode draws the spec's parameters from the env's seeded RNG, fills the
``{placeholders}``, runs the reset steps (retrying a bounded number of times), and then
scores every step: the per-step reward, each sub-goal's reward the first time it holds,
and the success or failure reward when the episode ends.
"""

from __future__ import annotations

import copy
import shlex
import time
from typing import Any

import numpy as np
from pydantic import ValidationError

from androidrl.device.base import Device
from androidrl.errors import DeviceCommandError, DeviceError, TaskError
from androidrl.tasks.base import Evaluation, Needs, Task
from androidrl.tasks.conditions import find_nodes, holds, log_mark, needs
from androidrl.tasks.spec import _PLACEHOLDER, NOT_FILLED, Launch, Step, TaskSpec
from androidrl.ui import Snapshot, node_center
from androidrl.validation import format_errors

_RETRY_PAUSE = 0.5  # seconds between reset attempts


def draw_params(spec: TaskSpec, rng: np.random.Generator) -> dict[str, Any]:
    """One episode's parameter values (plus ``seed``), drawn from ``rng``."""
    values: dict[str, Any] = {}
    for name, param in spec.params.items():
        if param.choice is not None:
            values[name] = param.choice[int(rng.integers(len(param.choice)))]
        else:
            low, high = param.randint
            values[name] = int(rng.integers(low, high + 1))
    values["seed"] = int(rng.integers(0, 2**31 - 1))
    return values


def fill(data: Any, values: dict[str, Any]) -> Any:
    """Replace ``{name}``/``{name.key}`` in every string of ``data``.

    A string that is a single placeholder takes the value itself, so an int parameter
    stays an int (e.g. an ``--ei`` intent extra).
    """
    if isinstance(data, str):
        whole = _PLACEHOLDER.fullmatch(data)
        if whole:
            return _lookup(values, *whole.groups())
        return _PLACEHOLDER.sub(lambda m: str(_lookup(values, *m.groups())), data)
    if isinstance(data, dict):
        return {k: fill(v, values) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [fill(v, values) for v in data]
    return data


def _lookup(values: dict[str, Any], name: str, key: str | None) -> Any:
    value = values[name]
    if key is None:
        return value
    if not isinstance(value, dict) or key not in value:
        raise TaskError(f"placeholder {{{name}.{key}}}: {name} is {value!r}, which has no {key!r}")
    return value[key]


def spec_needs(spec: TaskSpec) -> Needs:
    """What a spec's per-step conditions (success, failure, sub-goals) may read; reset steps are not steps."""
    result = needs(spec.success) | needs(spec.failure)
    for goal in spec.reward.subgoals:
        result |= needs(goal.when)
    return result


class SpecTask(Task):
    """A task defined by a YAML spec (see :mod:`androidrl.tasks.spec`).

    Its :attr:`needs` come from the spec's conditions: a task judged by shell commands and
    the foreground app never has the UI dumped for it.
    """

    def __init__(self, spec: TaskSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.max_steps = spec.max_steps
        self._episode = spec
        self._reached: set[str] = set()
        self.params: dict[str, Any] = {}
        self.instruction = ""
        self._log_since = 0.0
        # (Placeholders fill values, never kinds of conditions: one declaration serves every episode.)
        self.needs = spec_needs(spec)

    def __repr__(self) -> str:
        return f"SpecTask({self.name!r})"

    def setup(self, device: Device) -> None:
        """Run the setup steps (once per env); then save the snapshots the reset loads, where the device lacks them."""
        run_steps(device, self.spec.setup, f"task {self.name}: setup")
        wanted = [step.snapshot for step in self.spec.reset if step.snapshot is not None]
        if wanted:
            try:
                missing = [name for name in wanted if name not in device.snapshot_names()]
                for name in missing:
                    device.save_snapshot(name)
            except DeviceError as err:
                raise TaskError(f"task {self.name}: setup: saving snapshots {wanted}: {err}") from None

    def reset(self, device: Device, rng: np.random.Generator) -> dict[str, Any]:
        """Draw parameters, fill placeholders, run the reset steps (with retries)."""
        values = draw_params(self.spec, rng)
        try:
            values["instruction"] = fill(self.spec.instruction, values)
            data = fill(self.spec.model_dump(by_alias=True, exclude_unset=True, exclude=set(NOT_FILLED)), values)
            self._episode = TaskSpec.model_validate({**data, "name": self.name})
        except (TaskError, ValidationError) as err:
            detail = format_errors(err) if isinstance(err, ValidationError) else str(err)
            raise TaskError(f"task {self.name}: the parameters {values} do not fit the spec: {detail}") from None
        self.params = {k: v for k, v in values.items() if k != "instruction"}
        self.instruction = self._episode.instruction
        self._reached = set()
        attempts = self.spec.reset_retries + 1
        for attempt in range(1, attempts + 1):
            try:
                run_steps(device, self._episode.reset, f"task {self.name}: reset")
                if Needs.LOGCAT in self.needs:  # log conditions count lines written from here on
                    self._log_since = log_mark(lambda command: device.shell(command, check=False))
                break
            except (TaskError, DeviceCommandError) as err:
                if attempt == attempts:
                    raise TaskError(f"{err} (gave up after {attempts} attempts)") from None
                time.sleep(_RETRY_PAUSE)
        return {"params": copy.deepcopy(self.params), "instruction": self.instruction}

    def evaluate(self, snapshot: Snapshot) -> Evaluation:
        """Step reward, new sub-goals, success or failure."""
        spec = self._episode
        reward = spec.reward.step
        for goal in spec.reward.subgoals:
            if goal.name not in self._reached and holds(goal.when, snapshot, self._log_since):
                self._reached.add(goal.name)
                reward += goal.reward
        success = holds(spec.success, snapshot, self._log_since)
        failure = not success and spec.failure is not None and holds(spec.failure, snapshot, self._log_since)
        if success:
            reward += spec.reward.success
        elif failure:
            reward += spec.reward.failure
        info = {"subgoals": sorted(self._reached), "failed": failure}
        return Evaluation(reward=reward, terminated=success or failure, is_success=success, info=info)


# ---------------------------------------------------------------------------- steps


def run_steps(device: Device, steps: tuple[Step, ...], where: str) -> None:
    """Run steps in order.

    Raises:
        TaskError: A step failed, naming ``where`` and the step.
    """
    for index, step in enumerate(steps, start=1):
        try:
            _run_step(device, step)
        except (TaskError, DeviceCommandError) as err:
            raise TaskError(f"{where} step {index} ({step.describe()}): {err}") from None


def _run_step(device: Device, step: Step) -> None:
    kind = step.kind
    if kind == "shell":
        device.shell(step.shell, check=step.check)
    elif kind == "home":
        device.home()
    elif kind == "back":
        device.back()
    elif kind == "key":
        device.key(step.key)
    elif kind == "text":
        device.text(step.text)
    elif kind == "sleep":
        time.sleep(step.sleep)
    elif kind == "snapshot":
        try:
            device.load_snapshot(step.snapshot)
            device.wait_ready()  # an emulator drops off adb for a moment while it loads
        except DeviceError as err:
            raise TaskError(str(err)) from None
    elif kind == "launch":
        _launch(device, step.launch)
    elif kind == "tap":
        if step.tap.node is None:
            device.tap(step.tap.x, step.tap.y)
        else:
            nodes = find_nodes(Snapshot(device).hierarchy, step.tap.node)
            if not nodes:
                raise TaskError(f"no UI node matches {step.tap.node.model_dump(exclude_defaults=True)}")
            device.tap(*node_center(nodes[0]))
    elif kind == "wait":
        deadline = time.monotonic() + step.wait.timeout
        while not holds(step.wait.until, Snapshot(device)):
            if time.monotonic() >= deadline:
                raise TaskError(f"the condition did not hold within {step.wait.timeout:g} s")
            time.sleep(step.wait.interval)


def launch_command(launch: Launch) -> str:
    """The ``am start`` command line for a launch step (extras typed: --es, --ei, --ez)."""
    parts = ["am", "start"]
    if launch.stop:
        parts.append("-S")
    if launch.component is not None:
        parts += ["-n", launch.component]
    elif launch.package is not None:
        parts += ["-a", "android.intent.action.MAIN", "-c", "android.intent.category.LAUNCHER", "-p", launch.package]
    else:
        parts += ["-a", launch.action]
    for key, value in launch.extras.items():
        flag = "--ez" if isinstance(value, bool) else "--ei" if isinstance(value, int) else "--es"
        parts += [flag, key, str(value).lower() if isinstance(value, bool) else str(value)]
    return shlex.join(parts)


def _launch(device: Device, launch: Launch) -> None:
    command = launch_command(launch)
    result = device.execute(command)
    # `am start` exits 0 even when nothing starts: its errors are on stderr.
    errors = [line for line in result.stderr.decode("utf-8", "replace").splitlines() if line.startswith("Error")]
    if result.exit_code != 0 or errors:
        raise TaskError(f"`{command}` failed: {' '.join(errors) or result.exit_code}")

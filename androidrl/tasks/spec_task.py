"""SpecTask: a :class:`~androidrl.tasks.base.Task` run from a :class:`~androidrl.tasks.spec.TaskSpec`.

Each episode draws the spec's parameters from the env's seeded RNG (values of the task's
split; dates from the phone's clock), fills the ``{placeholders}``, runs the reset steps
(retrying a bounded number of times) and checks the reset: the goal must not hold yet, else
the parameters are drawn again (``reset_retries`` times, then :class:`TaskError`; the number of
redraws is in ``info["redraws"]``). Then it takes the state of the watched side-effect sources.

Every step it scores: ``shaped`` (the spec's reward: step reward, sub-goals the first time they
hold, success or failure reward), ``binary`` (1 on success, -1 on failure, else 0) or ``time``
(MiniWoB's: ``1 - 0.5 * t / max_steps`` on success, -1 on failure). A change to a watched
source outside its ``except`` is a failure, named in ``info["side_effect"]``.
"""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
import time
import warnings
from typing import Any, Literal

import numpy as np
from pydantic import ValidationError

from androidrl.device.base import Device
from androidrl.errors import DeviceCommandError, DeviceError, TaskError
from androidrl.tasks import placeholders
from androidrl.tasks.base import Evaluation, Needs, Task
from androidrl.tasks.conditions import holds, log_mark, needs
from androidrl.tasks.generators import Draw, draw_params
from androidrl.tasks.side_effects import Watch
from androidrl.tasks.spec import NOT_FILLED, TaskSpec
from androidrl.tasks.splits import device_configs
from androidrl.tasks.steps import Step, run_step, run_steps
from androidrl.ui import Snapshot
from androidrl.validation import format_errors

_RETRY_PAUSE = 0.5  # seconds between reset attempts whose steps failed
REWARD_MODES = ("shaped", "binary", "time")
SPLITS = ("train", "test")
DEVICE_CONFIGS = ("default", "split")


def spec_needs(spec: TaskSpec) -> Needs:
    """What a spec's per-step checks (success, failure, sub-goals, side effects) may read; reset steps are not steps."""
    result = needs(spec.success) | needs(spec.failure) | (Needs.SHELL if spec.side_effects else Needs.NONE)
    for goal in spec.reward.subgoals:
        result |= needs(goal.when)
    return result


def phone_now(device: Device) -> dt.datetime:
    """The phone's clock (``date '+%s %z'``), as an aware datetime in the phone's UTC offset.

    Raises:
        TaskError: The phone printed something else.
    """
    output = device.shell("date '+%s %z'").strip()
    try:
        seconds, offset = output.split()
        sign = -1 if offset.startswith("-") else 1
        tz = dt.timezone(sign * dt.timedelta(hours=int(offset[1:3]), minutes=int(offset[3:5])))
        return dt.datetime.fromtimestamp(int(seconds), tz)
    except ValueError:
        raise TaskError(f"cannot read the phone's clock: `date '+%s %z'` printed {output!r}") from None


def start_snapshot_name(spec: TaskSpec) -> str:
    """The snapshot a task's episodes start from: named by its setup steps, so tasks alike in setup share one."""
    setup = json.dumps([step.model_dump(exclude_defaults=True) for step in spec.setup], sort_keys=True)
    return "androidrl-start-" + hashlib.sha1(setup.encode()).hexdigest()[:12]


class SpecTask(Task):
    """A task defined by a YAML spec (see :mod:`androidrl.tasks.spec`).

    Args:
        spec: The task.
        tier: Play the spec at this tier (``easy``, ``medium``, ``hard``); None: its base.
        split: Draw parameter values (and device configurations) of this split.
        reward_mode: ``shaped`` (the spec's reward), ``binary`` or ``time``.
        device_config: ``default`` (the phone's own) or ``split`` (a configuration of ``split``
            drawn and applied each episode).

    Its :attr:`needs` come from the spec's conditions: a task judged by shell commands and
    the foreground app never has the UI dumped for it.

    Raises:
        TaskError: An unknown tier, split, reward mode or device configuration choice.
    """

    def __init__(
        self,
        spec: TaskSpec,
        tier: str | None = None,
        split: Literal["train", "test"] = "train",
        reward_mode: Literal["shaped", "binary", "time"] = "shaped",
        device_config: Literal["default", "split"] = "default",
    ) -> None:
        for what, value, allowed in (
            ("split", split, SPLITS),
            ("reward_mode", reward_mode, REWARD_MODES),
            ("device_config", device_config, DEVICE_CONFIGS),
        ):
            if value not in allowed:
                raise TaskError(f"task {spec.name}: {what} must be one of {list(allowed)}, got {value!r}")
        self.base = spec
        self.spec = spec.at_tier(tier)
        self.tier = tier
        self.split = split
        self.reward_mode = reward_mode
        self.device_config = device_config
        self.name = spec.name
        self.max_steps = self.spec.max_steps
        self._episode = self.spec
        # What every episode fills (the spec is frozen: dumped once); without placeholders, the spec itself.
        self._template = self.spec.model_dump(by_alias=True, exclude_unset=True, exclude=set(NOT_FILLED))
        self._fixed = not placeholders.has_placeholders(self._template)
        self._reached: set[str] = set()
        self._watch = Watch(())
        self._steps = 0
        self._start_from: str | None = None  # the snapshot every episode starts from (set by setup)
        self.params: dict[str, Any] = {}
        self.instruction = ""
        #: The episode's structured fields: each of the spec's ``fields`` to its value's text.
        self.fields: dict[str, str] = {}
        #: How many episodes began (the oracle's runner tells episodes apart by it).
        self.episode = 0
        #: Where the episode's log begins (log conditions count lines after it).
        self.log_since = 0.0
        # (Placeholders fill values, never kinds of conditions: one declaration serves every episode.)
        self.needs = spec_needs(self.spec)

    def __repr__(self) -> str:
        tier = f", tier={self.tier!r}" if self.tier else ""
        return f"SpecTask({self.name!r}{tier})"

    @property
    def episode_spec(self) -> TaskSpec:
        """The current episode's spec: placeholders filled (its ``oracle`` is this episode's)."""
        return self._episode

    def setup(self, device: Device) -> None:
        """Run the setup steps (once per env); then save the snapshots the reset loads, where the device lacks them.

        With ``start: snapshot`` (the default) that includes the episodes' start: the phone as the setup
        left it, shared by every task with the same setup. A device that keeps no snapshots (a phone,
        not an emulator) starts its episodes from the reset steps alone, with a warning.
        """
        run_steps(device, self.spec.setup, f"task {self.name}: setup")
        self._start_from = None
        if self.spec.start == "snapshot":
            name = start_snapshot_name(self.spec)
            try:
                if name not in device.snapshot_names():
                    device.save_snapshot(name)
                self._start_from = name
            except DeviceError as err:
                warnings.warn(
                    f"task {self.name}: episodes start from the reset steps alone: {err}", RuntimeWarning, stacklevel=2
                )
        wanted = [step.snapshot for step in self.spec.reset if step.snapshot is not None]
        if wanted:
            try:
                missing = [name for name in wanted if name not in device.snapshot_names()]
                for name in missing:
                    device.save_snapshot(name)
            except DeviceError as err:
                raise TaskError(f"task {self.name}: setup: saving snapshots {wanted}: {err}") from None

    def reset(self, device: Device, rng: np.random.Generator) -> dict[str, Any]:
        """Draw parameters, fill placeholders, run the reset steps, check that the goal does not hold yet.

        Raises:
            TaskError: A reset step kept failing, or the goal held after every redraw.
        """
        self.episode += 1
        now = _Clock(device)
        redraws = 0
        while True:
            if self._start_from is not None:  # (first: the parameters read the start's clock, not the last episode's)
                run_step(device, Step(snapshot=self._start_from))
            values = draw_params(self.spec.params, Draw(rng, self.split, now))
            values["seed"] = int(rng.integers(0, 2**31 - 1))
            config = None
            if self.device_config == "split":
                configs = device_configs(self.split)
                config = configs[int(rng.integers(len(configs)))]
            self._start(values)
            if config is not None:
                run_step(device, Step(config=config))
            self._run_reset(device)
            snapshot = Snapshot(device)
            if not holds(self._episode.success, snapshot, self.log_since):
                break
            if redraws == self.spec.reset_retries:
                raise TaskError(
                    f"task {self.name}: the goal already holds after the reset, in all {redraws + 1} draws "
                    f"(the last: {self.params}); the reset must undo the goal"
                )
            redraws += 1
        self._watch = Watch(self._episode.side_effects)
        self._watch.start(snapshot)
        return {
            "params": copy.deepcopy(self.params),
            "instruction": self.instruction,
            "fields": dict(self.fields),
            "tier": self.tier or "",
            "split": self.split,
            "redraws": redraws,
        }

    def _start(self, values: dict[str, Any]) -> None:
        """Fill the spec with one draw of parameters: the episode's spec, instruction and fields."""
        try:
            values["instruction"] = placeholders.fill(self.spec.instruction, values)
            if self._fixed:
                self._episode = self.spec
            else:
                data = placeholders.fill(self._template, values)
                self._episode = TaskSpec.model_validate({**data, "name": self.name}, context={"filled": True})
            self.fields = {f: str(placeholders.lookup(values, *_split(f))) for f in self.spec.fields}
        except (TaskError, ValidationError) as err:
            detail = format_errors(err) if isinstance(err, ValidationError) else str(err)
            raise TaskError(f"task {self.name}: the parameters {values} do not fit the spec: {detail}") from None
        self.params = {k: v for k, v in values.items() if k != "instruction"}
        self.instruction = self._episode.instruction
        self._reached = set()
        self._steps = 0

    def _run_reset(self, device: Device) -> None:
        attempts = self.spec.reset_retries + 1
        for attempt in range(1, attempts + 1):
            try:
                run_steps(device, self._episode.reset, f"task {self.name}: reset")
                if Needs.LOGCAT in self.needs:  # log conditions count lines written from here on
                    self.log_since = log_mark(lambda command: device.shell(command, check=False))
                return
            except (TaskError, DeviceCommandError) as err:
                if attempt == attempts:
                    raise TaskError(f"{err} (gave up after {attempts} attempts)") from None
                time.sleep(_RETRY_PAUSE)

    def watched_state(self, snapshot: Snapshot) -> tuple[Any, ...]:
        """The watched side-effect sources as they are now (at reset: what the episode is compared with)."""
        return self._watch.read(snapshot)

    def evaluate(self, snapshot: Snapshot) -> Evaluation:
        """The step's reward, new sub-goals, success or failure (a side effect is a failure)."""
        spec = self._episode
        self._steps += 1
        new_goals = [g for g in spec.reward.subgoals if g.name not in self._reached]
        for goal in new_goals:
            if holds(goal.when, snapshot, self.log_since):
                self._reached.add(goal.name)
        success = holds(spec.success, snapshot, self.log_since)
        failure = not success and spec.failure is not None and holds(spec.failure, snapshot, self.log_since)
        side_effect = self._watch.change(snapshot) if spec.side_effects else ""
        if side_effect:
            success, failure = False, True
        reward = self._reward(success, failure, [g for g in new_goals if g.name in self._reached])
        info = {"subgoals": sorted(self._reached), "failed": failure, "side_effect": side_effect}
        return Evaluation(reward=reward, terminated=success or failure, is_success=success, info=info)

    def _reward(self, success: bool, failure: bool, reached: list[Any]) -> float:
        if self.reward_mode == "binary":
            return 1.0 if success else -1.0 if failure else 0.0
        if self.reward_mode == "time":
            return 1.0 - 0.5 * min(1.0, self._steps / self.max_steps) if success else -1.0 if failure else 0.0
        spec = self._episode.reward
        reward = spec.step + sum(goal.reward for goal in reached)
        return reward + (spec.success if success else spec.failure if failure else 0.0)


def _split(field: str) -> tuple[str, tuple[str, ...]]:
    name, _, path = field.partition(".")
    return name, tuple(path.split(".")) if path else ()


class _Clock:
    """The phone's clock, read once, when a generator first needs it."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self._now: dt.datetime | None = None

    def __call__(self) -> dt.datetime:
        if self._now is None:
            self._now = phone_now(self.device)
        return self._now

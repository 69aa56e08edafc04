"""The YAML task format: a validated schema, with errors that name the key path.

A task file looks like::

    name: wifi-on
    description: Turn Wi-Fi on in Settings.
    apps: [com.android.settings]
    stock_android: true            # runs unchanged on an emulator
    max_steps: 30
    params:                        # drawn from the env's seeded RNG every episode
      target: {choice: [wifi, bluetooth]}
    instruction: Turn {target} on
    setup: []                      # steps run once per env
    reset:                         # steps run at every episode start
      - shell: svc wifi disable
      - home
    success: {shell: settings get global wifi_on, matches: "^[12]$"}
    failure: {foreground: {package: com.android.chrome}}
    reward: {success: 1.0, step: -0.01, subgoals: [{name: settings, reward: 0.2, when: ...}]}

Steps: ``shell`` (a command; a non-zero exit fails the step unless ``check: false``),
``home``, ``back``, ``key``, ``launch`` (an app or component, with intent extras), ``tap``
(pixels or a UI node), ``text``, ``wait`` (until a condition holds, with a timeout),
``sleep`` and ``snapshot`` (load a saved snapshot of the whole device, made at setup
if missing: an emulator's, through its console, or a virtual phone's). Conditions:
``node`` (a UI node matching a selector, present, absent or counted), ``shell`` (output
compared to a value or regex), ``foreground`` (package/activity in front), ``logcat`` (a
log line since the reset: ``{tag, matches, priority, buffer}``) and ``all``/``any``/``not``. Strings may use
``{param}`` placeholders (``{param.key}`` for a field of a chosen mapping), plus
``{instruction}`` and ``{seed}`` (a fresh random int each episode).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from androidrl.device.base import input_text_commands, keycode
from androidrl.errors import TaskError
from androidrl.validation import NestedErrors, check_depth, error_items, format_errors, join_path, read_yaml

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}")
BUILTIN_PLACEHOLDERS = ("instruction", "seed")
#: Fields whose strings are not filled with parameter values.
NOT_FILLED = frozenset({"params", "name", "description"})


class _Model(BaseModel):
    # Numbers are accepted where text is expected: a whole-string placeholder such as
    # ``text: "{n}"`` takes an int parameter's value as it is.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True, coerce_numbers_to_str=True)


def _check_regex(value: str | None) -> str | None:
    if value is not None:
        try:
            re.compile(value)
        except re.error as err:
            raise ValueError(f"invalid regex {value!r}: {err}") from None
    return value


Regex = Annotated[str | None, AfterValidator(_check_regex)]


# ---------------------------------------------------------------------------- conditions


class Selector(_Model):
    """Which UI nodes match: every given attribute must hold.

    ``text``/``content_desc``/``resource_id``/``class``/``package`` match exactly; the
    ``*_regex`` forms search; booleans compare the node's flags; ``has`` lists selectors
    that must each match a descendant (e.g. the settings row that holds both the title
    "Wi-Fi" and a checked switch).
    """

    resource_id: str | None = None
    text: str | None = None
    text_regex: Regex = None
    content_desc: str | None = None
    content_desc_regex: Regex = None
    class_name: str | None = Field(default=None, alias="class")
    package: str | None = None
    checked: bool | None = None
    checkable: bool | None = None
    clickable: bool | None = None
    enabled: bool | None = None
    focused: bool | None = None
    selected: bool | None = None
    scrollable: bool | None = None
    has: tuple[Selector, ...] = ()

    @model_validator(mode="after")
    def _not_empty(self) -> Selector:
        if not self.model_dump(exclude_defaults=True):
            raise ValueError("a node selector needs at least one attribute (text, resource_id, class, ...)")
        return self


class NodeCondition(_Model):
    """A UI node: present (default), absent, or counted."""

    node: Selector
    present: bool = True
    min_count: int | None = Field(default=None, ge=0)
    max_count: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _present_or_counted(self) -> NodeCondition:
        if not self.present and (self.min_count is not None or self.max_count is not None):
            raise ValueError("a node condition is either present: false or counted (min_count/max_count), not both")
        return self


class ShellCondition(_Model):
    """A shell command's stripped output equals, matches or contains a value (or its exit code)."""

    shell: str = Field(min_length=1)
    equals: str | None = None
    matches: Regex = None
    contains: str | None = None
    exit_code: int | None = None

    @model_validator(mode="after")
    def _one_test(self) -> ShellCondition:
        tests = [f for f in ("equals", "matches", "contains", "exit_code") if getattr(self, f) is not None]
        if len(tests) != 1:
            raise ValueError(
                f"a shell condition needs exactly one of equals, matches, contains, exit_code; got {tests}"
            )
        return self


class Foreground(_Model):
    """What is in front: the package (exact or regex) and/or the activity (full or short name, or regex)."""

    package: str | None = None
    package_regex: Regex = None
    activity: str | None = None
    activity_regex: Regex = None

    @model_validator(mode="after")
    def _something(self) -> Foreground:
        if not self.model_dump(exclude_defaults=True):
            raise ValueError("foreground needs package, package_regex, activity or activity_regex")
        return self


class ForegroundCondition(_Model):
    """The foreground app or activity."""

    foreground: Foreground


class LogMatch(_Model):
    """Log lines written since the episode's reset: one with this tag (if given) whose message matches."""

    matches: Regex = Field(min_length=1)
    tag: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.$-]+$")
    priority: Literal["V", "D", "I", "W", "E", "F"] = "V"  # at least this priority
    buffer: Literal["default", "main", "system", "events", "crash", "radio", "all"] = "default"


class LogcatCondition(_Model):
    """A log line since the reset (``logcat``, as android_env's log-event tasks): runs on any device."""

    logcat: LogMatch


class AllCondition(_Model):
    """Every sub-condition holds."""

    all: Conditions


class AnyCondition(_Model):
    """At least one sub-condition holds."""

    any: Conditions


class NotCondition(_Model):
    """The sub-condition does not hold."""

    not_: ConditionField = Field(alias="not")


_CONDITION_KINDS = {
    "node": NodeCondition,
    "shell": ShellCondition,
    "foreground": ForegroundCondition,
    "logcat": LogcatCondition,
    "all": AllCondition,
    "any": AnyCondition,
    "not": NotCondition,
}


def _parse_condition(value: Any) -> Any:
    """Pick the condition model by its key, with a clear message when the key is missing."""
    if isinstance(value, BaseModel):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"a condition must be a mapping with one of {sorted(_CONDITION_KINDS)}, got {value!r}")
    kinds = [k for k in _CONDITION_KINDS if k in value]
    if len(kinds) != 1:
        raise ValueError(f"a condition needs exactly one of {sorted(_CONDITION_KINDS)}, got keys {sorted(value)}")
    try:
        return _CONDITION_KINDS[kinds[0]].model_validate(value)
    except ValidationError as err:
        raise NestedErrors(error_items(err)) from None


def _parse_conditions(value: Any) -> Any:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"expected a list of conditions, got {value!r}")
    parsed, errors = [], []
    for i, item in enumerate(value):
        try:
            parsed.append(_parse_condition(item))
        except NestedErrors as err:
            errors += [(join_path(f"[{i}]", path), message) for path, message in err.items]
        except ValueError as err:
            errors.append((f"[{i}]", str(err)))
    if errors:
        raise NestedErrors(errors)
    return tuple(parsed)


Condition = (
    NodeCondition | ShellCondition | ForegroundCondition | LogcatCondition | AllCondition | AnyCondition | NotCondition
)
#: A condition field: its model picked by its key (``node``, ``shell``...), errors with key paths.
ConditionField = Annotated[Condition, BeforeValidator(_parse_condition)]
Conditions = Annotated[tuple[Condition, ...], BeforeValidator(_parse_conditions), Field(min_length=1)]


# ---------------------------------------------------------------------------- steps


class Launch(_Model):
    """Start an app (its launcher activity) or a component, optionally stopping it first."""

    package: str | None = None
    component: str | None = None
    action: str | None = None
    extras: dict[str, str | int | bool] = Field(default_factory=dict)
    stop: bool = True

    @model_validator(mode="after")
    def _target(self) -> Launch:
        if sum(v is not None for v in (self.package, self.component, self.action)) != 1:
            raise ValueError("launch needs exactly one of package, component, action")
        if self.component is not None and "/" not in self.component:
            raise ValueError(f"component must be package/activity, got {self.component!r}")
        return self


class TapTarget(_Model):
    """Where to tap: pixels, or the centre of the first UI node matching a selector."""

    x: int | None = Field(default=None, ge=0)
    y: int | None = Field(default=None, ge=0)
    node: Selector | None = None

    @model_validator(mode="after")
    def _where(self) -> TapTarget:
        if (self.node is None) == (self.x is None or self.y is None):
            raise ValueError("tap needs either x and y, or node")
        return self


class Wait(_Model):
    """Wait until a condition holds."""

    until: ConditionField
    timeout: float = Field(default=10.0, gt=0)
    interval: float = Field(default=0.1, gt=0)


STEP_KINDS = ("shell", "home", "back", "key", "launch", "tap", "text", "wait", "sleep", "snapshot")


class Step(_Model):
    """One setup/reset step: exactly one of :data:`STEP_KINDS` is set."""

    shell: str | None = None
    check: bool = True  # for shell: fail the step on a non-zero exit code
    home: Literal[True] | None = None
    back: Literal[True] | None = None
    key: str | None = None
    launch: Launch | None = None
    tap: TapTarget | None = None
    text: str | None = None
    wait: Wait | None = None
    sleep: float | None = Field(default=None, ge=0, le=60)
    # Load this snapshot (an emulator's, or a virtual phone's); saved at setup if the device lacks it.
    snapshot: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,64}$")

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        if value in ("home", "back"):
            return {value: True}
        return value

    @model_validator(mode="after")
    def _one_action(self) -> Step:
        actions = [f for f in STEP_KINDS if getattr(self, f) is not None]
        if len(actions) != 1:
            raise ValueError(f"a step needs exactly one of {', '.join(STEP_KINDS)}; got {actions or 'none'}")
        # What a phone would refuse at reset is refused now (placeholders are checked once filled).
        if self.key is not None and not _PLACEHOLDER.search(self.key):
            keycode(self.key)
        if self.text is not None and not _PLACEHOLDER.search(self.text):
            input_text_commands(self.text)
        return self

    @property
    def kind(self) -> str:
        """Which action this step is."""
        return next(f for f in STEP_KINDS if getattr(self, f) is not None)

    def describe(self) -> str:
        """A short text for error messages."""
        value = getattr(self, self.kind)
        return self.kind if value is True else f"{self.kind}: {value if isinstance(value, str) else value!r}"


# ---------------------------------------------------------------------------- task


class Param(_Model):
    """A random parameter: one of ``choice`` (values or mappings), or an int in ``randint`` (inclusive)."""

    choice: tuple[str | int | dict[str, str | int], ...] | None = Field(default=None, min_length=1)
    randint: tuple[int, int] | None = None

    @model_validator(mode="after")
    def _one(self) -> Param:
        if (self.choice is None) == (self.randint is None):
            raise ValueError("a param needs exactly one of choice, randint")
        if self.randint is not None and self.randint[0] > self.randint[1]:
            raise ValueError(f"randint low > high: {list(self.randint)}")
        return self


class Subgoal(_Model):
    """A partial reward paid once per episode, the first time ``when`` holds."""

    name: str = Field(min_length=1)
    reward: float
    when: ConditionField


class Reward(_Model):
    """Reward shaping."""

    success: float = 1.0
    failure: float = 0.0
    step: float = 0.0
    subgoals: tuple[Subgoal, ...] = ()


class TaskSpec(_Model):
    """A task: its start state, goal, reward and length."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    description: str = ""
    apps: tuple[str, ...] = ()
    stock_android: bool = False
    max_steps: int = Field(default=50, ge=1)
    params: dict[str, Param] = Field(default_factory=dict)
    instruction: str = ""
    setup: tuple[Step, ...] = ()
    reset: tuple[Step, ...] = ()
    reset_retries: int = Field(default=2, ge=0, le=10)
    success: ConditionField
    failure: ConditionField | None = None
    reward: Reward = Field(default_factory=Reward)

    @model_validator(mode="after")
    def _placeholders(self) -> TaskSpec:
        errors = []
        for path, text in _strings(self.model_dump(by_alias=True, exclude=set(NOT_FILLED))):
            for match in _PLACEHOLDER.finditer(text):
                problem = self._placeholder_problem(*match.groups())
                if problem:
                    errors.append((path, problem))
        subgoal_names = [s.name for s in self.reward.subgoals]
        if len(set(subgoal_names)) != len(subgoal_names):
            errors.append(("reward.subgoals", f"names must be unique, got {subgoal_names}"))
        if errors:
            raise NestedErrors(errors)
        return self

    def _placeholder_problem(self, name: str, key: str | None) -> str:
        """What is wrong with placeholder ``{name}`` / ``{name.key}`` ("" if nothing)."""
        if name in BUILTIN_PLACEHOLDERS:
            return f"{{{name}.{key}}}: {name} has no fields" if key else ""
        param = self.params.get(name)
        if param is None:
            return f"unknown placeholder {{{name}}}; params are {sorted(self.params)}"
        if key and not all(isinstance(c, dict) and key in c for c in param.choice or ()):
            return f"{{{name}.{key}}}: not every choice of {name} is a mapping with {key!r}"
        if key and param.randint is not None:
            return f"{{{name}.{key}}}: {name} is a number"
        return ""


# Conditions nest: resolve the forward references now that every model exists.
for _model in (Selector, AllCondition, AnyCondition, NotCondition, Wait, Step, Subgoal, Reward, TaskSpec):
    _model.model_rebuild()


def _strings(data: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string in nested dicts/lists with its key path."""
    if isinstance(data, str):
        return [(path, data)]
    if isinstance(data, dict):
        return [item for k, v in data.items() for item in _strings(v, f"{path}.{k}" if path else str(k))]
    if isinstance(data, (list, tuple)):
        return [item for i, v in enumerate(data) for item in _strings(v, f"{path}[{i}]")]
    return []


def parse_spec(data: Any, source: str = "task") -> TaskSpec:
    """A validated :class:`TaskSpec` from a mapping.

    Raises:
        TaskError: Naming ``source`` and each offending key path.
    """
    if not isinstance(data, dict):
        raise TaskError(f"{source}: a task must be a mapping, got {type(data).__name__}")
    check_depth(data, TaskError, source)  # (deep nesting would exhaust Python's recursion, not say why)
    try:
        return TaskSpec.model_validate(data)
    except ValidationError as err:
        raise TaskError(f"{source}: invalid task\n{format_errors(err)}") from None


def load_spec(path: str | Path) -> TaskSpec:
    """Read and validate a task YAML file.

    Raises:
        TaskError: The file is missing, is not YAML, or is not a valid task (with the key paths).
    """
    return parse_spec(read_yaml(path, TaskError, "task file"), str(path))

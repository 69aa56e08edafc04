"""The YAML task format: a validated schema, with errors that name the key path.

A task file looks like::

    name: wifi-on
    description: Turn Wi-Fi on in Settings.
    category: settings             # (a family of the suite: see androidrl/tasks/families/)
    apps: [com.android.settings]
    stock_android: true            # runs unchanged on an emulator
    max_steps: 30
    params:                        # drawn from the env's seeded RNG every episode
      target: {choice: [wifi, bluetooth]}
    tiers:                         # overrides per difficulty (params, max_steps, reset)
      easy: {max_steps: 10, reset: [{launch: {action: android.settings.WIRELESS_SETTINGS}}]}
      medium: {}
      hard: {max_steps: 40}
    instruction: Turn {target} on
    fields: [target]               # structured fields: info["fields"], observations, the typing action
    setup: []                      # steps run once per env
    reset:                         # steps run at every episode start
      - shell: svc wifi disable
      - home
    success: {setting: {namespace: global, key: wifi_on, in: ["1", "2"]}}
    failure: {foreground: {package: com.android.chrome}}
    side_effects: [{settings: global, except: [wifi_on]}]
    reward: {success: 1.0, step: -0.01, subgoals: [{name: settings, reward: 0.2, when: ...}]}
    oracle: [{tap: {text: Settings}}, {tap: {text: Network & internet}}, {tap: {text: Wi-Fi}}]

Conditions are described in :mod:`androidrl.tasks.schema`, steps in :mod:`androidrl.tasks.steps`,
parameters in :mod:`androidrl.tasks.generators`, side effects in
:mod:`androidrl.tasks.side_effects`, the oracle in :mod:`androidrl.tasks.oracle`, placeholders
(``{param}``, ``{param.key}``, ``{param.minute:02d}``, ``{param!sql}``, and ``{instruction}``,
``{seed}``) in :mod:`androidrl.tasks.placeholders`. The top-level values are the task's base;
a tier overrides them (the gym ids without a tier, and ``make_task(name)``, give the base).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, ValidationInfo, model_validator

from androidrl.errors import TaskError
from androidrl.tasks import placeholders
from androidrl.tasks.generators import Param, ParamName
from androidrl.tasks.oracle import OracleSteps
from androidrl.tasks.schema import (  # noqa: F401  (the format's models, importable from here as before)
    AllCondition,
    AnyCondition,
    Condition,
    ConditionField,
    ContentCondition,
    DumpsysCondition,
    FileCondition,
    Foreground,
    ForegroundCondition,
    LogcatCondition,
    LogMatch,
    Model,
    NodeCondition,
    NotCondition,
    Selector,
    SettingCondition,
    ShellCondition,
)
from androidrl.tasks.side_effects import Sources
from androidrl.tasks.steps import Launch, Step, TapTarget, Wait  # noqa: F401
from androidrl.validation import NestedErrors, check_depth, check_expansion, format_errors, read_yaml

BUILTIN_PLACEHOLDERS = ("instruction", "seed")
#: Fields whose strings are not filled with parameter values.
NOT_FILLED = frozenset({"params", "name", "description", "tiers", "fields", "category", "apps"})
TIERS = ("easy", "medium", "hard")
CATEGORIES = (
    "navigation",
    "gestures",
    "text-entry",
    "widgets",
    "crud",
    "lookup",
    "settings",
    "cross-app",
    "robustness",
)
#: The longest episode a task may ask for.
MAX_STEPS = 10_000
#: Rewards are bounded (and finite): a reward of a million is a typo.
MAX_REWARD = 1000.0


class Subgoal(Model):
    """A partial reward paid once per episode, the first time ``when`` holds."""

    name: str = Field(min_length=1)
    reward: float = Field(ge=-MAX_REWARD, le=MAX_REWARD)
    when: ConditionField


class Reward(Model):
    """Reward shaping (the ``shaped`` reward mode)."""

    success: float = Field(default=1.0, ge=-MAX_REWARD, le=MAX_REWARD)
    failure: float = Field(default=0.0, ge=-MAX_REWARD, le=MAX_REWARD)
    step: float = Field(default=0.0, ge=-MAX_REWARD, le=MAX_REWARD)
    subgoals: tuple[Subgoal, ...] = ()


class Tier(Model):
    """A difficulty tier: parameters (by name, replacing or adding), ``max_steps`` and ``reset`` override the base."""

    params: dict[ParamName, Param] = Field(default_factory=dict)
    max_steps: int | None = Field(default=None, ge=1, le=MAX_STEPS)
    reset: tuple[Step, ...] | None = None


class TaskSpec(Model):
    """A task: its start state, goal, reward and length (and, for a family of the suite, tiers and an oracle)."""

    name: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$")
    description: str = ""
    category: Literal[CATEGORIES] | None = None  # type: ignore[valid-type]
    apps: tuple[str, ...] = ()
    stock_android: bool = False
    max_steps: int = Field(default=50, ge=1, le=MAX_STEPS)
    params: dict[ParamName, Param] = Field(default_factory=dict)
    tiers: dict[Literal[TIERS], Tier] = Field(default_factory=dict)  # type: ignore[valid-type]
    instruction: str = ""
    fields: tuple[str, ...] = ()
    setup: tuple[Step, ...] = ()
    # Where every episode starts: "snapshot" loads the phone as it was after setup (saved then; the same
    # phone, time, files and data each episode) and then runs the reset steps; "steps" runs them alone.
    start: Literal["snapshot", "steps"] = "snapshot"
    reset: tuple[Step, ...] = ()
    reset_retries: int = Field(default=2, ge=0, le=10)
    success: ConditionField
    failure: ConditionField | None = None
    side_effects: Sources = ()
    reward: Reward = Field(default_factory=Reward)
    oracle: OracleSteps = ()

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> TaskSpec:
        if info.context and info.context.get("filled"):  # an episode's spec: its placeholders are filled
            return self
        errors = self._problems("")
        for tier in self.tiers:
            known = set(errors)
            errors += [e for e in self.at_tier(tier)._problems(f"tiers.{tier}: ") if e not in known]
        subgoal_names = [s.name for s in self.reward.subgoals]
        if len(set(subgoal_names)) != len(subgoal_names):
            errors.append(("reward.subgoals", f"names must be unique, got {subgoal_names}"))
        if errors:
            raise NestedErrors(errors)
        return self

    def _problems(self, prefix: str) -> list[tuple[str, str]]:
        """(key path, problem) of the parameters' order, the placeholders and the fields."""
        errors = []
        names = list(self.params)
        for i, (name, param) in enumerate(self.params.items()):
            for ref in param.references():
                if ref not in names[:i]:
                    where = "is not a parameter" if ref not in names else "is declared after it"
                    errors.append((f"params.{name}", f"{prefix}it reads {ref!r}, which {where}"))
        for path, text in placeholders.strings(self.model_dump(by_alias=True, exclude=set(NOT_FILLED))):
            for placeholder in placeholders.find(text):
                problem = self._placeholder_problem(placeholder)
                if problem:
                    errors.append((path, prefix + problem))
        for i, field in enumerate(self.fields):
            name, _, key = field.partition(".")
            path = tuple(key.split(".")) if key else ()
            problem = self._placeholder_problem(placeholders.Placeholder(name, path, None, None))
            if problem:
                errors.append((f"fields[{i}]", prefix + problem))
        return errors

    def _placeholder_problem(self, placeholder: placeholders.Placeholder) -> str:
        """What is wrong with a placeholder ("" if nothing)."""
        name, path = placeholder.name, placeholder.path
        if name in BUILTIN_PLACEHOLDERS:
            return f"{{{name}.{path[0]}}}: {name} has no fields" if path else ""
        param = self.params.get(name)
        if param is None:
            return f"unknown placeholder {{{name}}}; params are {sorted(self.params)}"
        fields = param.fields()
        if not path or fields is None or path[0] in fields:
            return ""
        if param.randint is not None or param.kind == "number":
            return f"{{{name}.{path[0]}}}: {name} is a number"
        if param.choice is not None:
            return f"{{{name}.{path[0]}}}: not every choice of {name} is a mapping with {path[0]!r}"
        return f"{{{name}.{path[0]}}}: a {param.kind} has {sorted(fields) or 'no fields'}, not {path[0]!r}"

    def at_tier(self, tier: str | None) -> TaskSpec:
        """This task at ``tier`` (its overrides applied; no tiers left); the base for None.

        Raises:
            TaskError: The task has no such tier.
        """
        if tier is None:
            return self
        if tier not in self.tiers:
            raise TaskError(f"task {self.name!r} has no tier {tier!r}; it has {list(self.tiers) or 'none'}")
        override = self.tiers[tier]
        update: dict[str, Any] = {"params": {**self.params, **override.params}, "tiers": {}}
        if override.max_steps is not None:
            update["max_steps"] = override.max_steps
        if override.reset is not None:
            update["reset"] = override.reset
        return self.model_copy(update=update)


# Models nest: resolve the forward references now that every model exists.
for _model in (Subgoal, Reward, Tier, TaskSpec):
    _model.model_rebuild()


def parse_spec(data: Any, source: str = "task") -> TaskSpec:
    """A validated :class:`TaskSpec` from a mapping.

    Raises:
        TaskError: Naming ``source`` and each offending key path.
    """
    if not isinstance(data, dict):
        raise TaskError(f"{source}: a task must be a mapping, got {type(data).__name__}")
    check_depth(data, TaskError, source)  # (deep nesting would exhaust Python's recursion, not say why)
    check_expansion(data, TaskError, source)  # (nor would aliases repeated a billion times)
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

"""The condition language of task files: node selectors and conditions, validated with key paths.

A condition is a mapping with one kind key: ``node`` (a UI node matching a selector: present,
absent or counted), ``shell`` (a command's output compared to a value or regex), ``foreground``
(the package/activity in front), ``logcat`` (a log line since the reset), the Android-state kinds
``content`` (rows of a content provider), ``setting`` (a ``settings`` key), ``file`` (a file on
the device) and ``dumpsys`` (a regex over a service's dump), and ``all``/``any``/``not``.
Every kind reads what ``adb shell`` reads on any device, so a task runs unchanged on an emulator.

:class:`Model` is the base of every model of the task format: unknown keys are errors, and
numbers must be finite.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from androidrl.validation import NestedErrors, StrictScalars, error_items, join_path

#: A column or settings key name, as providers and ``settings`` take them.
IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_.]*$"
#: A key name, or a placeholder a parameter fills with one (``"{stream.key}"``).
IDENTIFIER_OR_PLACEHOLDER = r"^(?:[A-Za-z_][A-Za-z0-9_.]*|\{[^{}]+\})$"
#: Android's ``settings`` namespaces.
NAMESPACES = ("system", "secure", "global")
#: The largest row count a content condition compares with (a provider table of a benchmark is small).
MAX_ROWS = 100_000


class Model(StrictScalars):
    """The base of the task format's models: unknown keys are errors, numbers are finite (and not booleans).

    Numbers are accepted where text is expected: a whole-string placeholder such as
    ``text: "{n}"`` takes an int parameter's value as it is.
    """

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, frozen=True, coerce_numbers_to_str=True, allow_inf_nan=False
    )


def _check_regex(value: str | None) -> str | None:
    if value is not None:
        try:
            re.compile(value)
        except re.error as err:
            raise ValueError(f"invalid regex {value!r}: {err}") from None
    return value


Regex = Annotated[str | None, AfterValidator(_check_regex)]
#: A value a provider row or a condition compares with (a string, a number, a boolean or null).
Scalar = str | int | float | bool | None
SCALARS = (str, int, float, bool, type(None))


# ---------------------------------------------------------------------------- UI nodes


class Selector(Model):
    """Which UI nodes match: every given attribute must hold.

    ``text``/``content_desc``/``resource_id``/``class``/``package`` match exactly; the
    ``*_regex`` forms search; booleans compare the node's flags; ``has`` lists selectors
    that must each match a descendant (e.g. the settings row that holds both the title
    "Wi-Fi" and a checked switch); ``within`` a selector an ancestor must match (the switch
    inside the row of the 7:30 AM alarm).
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
    within: Selector | None = None

    @model_validator(mode="after")
    def _not_empty(self) -> Selector:
        if not self.model_dump(exclude_defaults=True):
            raise ValueError("a node selector needs at least one attribute (text, resource_id, class, ...)")
        return self


class NodeCondition(Model):
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


# ---------------------------------------------------------------------------- shell, apps, logs


class ShellCondition(Model):
    """A shell command's stripped output equals, matches or contains a value (or its exit code)."""

    shell: str = Field(min_length=1)
    equals: str | None = None
    matches: Regex = None
    contains: str | None = None
    exit_code: int | None = Field(default=None, ge=0, le=255)

    @model_validator(mode="after")
    def _one_test(self) -> ShellCondition:
        tests = [f for f in ("equals", "matches", "contains", "exit_code") if getattr(self, f) is not None]
        if len(tests) != 1:
            raise ValueError(
                f"a shell condition needs exactly one of equals, matches, contains, exit_code; got {tests}"
            )
        return self


class Foreground(Model):
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


class ForegroundCondition(Model):
    """The foreground app or activity."""

    foreground: Foreground


class LogMatch(Model):
    """Log lines written since the episode's reset: one with this tag (if given) whose message matches."""

    matches: Regex = Field(min_length=1)
    tag: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.$-]+$")
    priority: Literal["V", "D", "I", "W", "E", "F"] = "V"  # at least this priority
    buffer: Literal["default", "main", "system", "events", "crash", "radio", "all"] = "default"


class LogcatCondition(Model):
    """A log line since the reset (``logcat``, as android_env's log-event tasks): runs on any device."""

    logcat: LogMatch


# ---------------------------------------------------------------------------- Android state


class ContentQuery(Model):
    """Rows of a content provider (``content query``): counted, or compared with an exact multiset.

    ``where`` is SQL, evaluated by the provider; placeholders filled into it have their single
    quotes doubled, so a value is always one SQL string literal inside ``'...'``. With none of
    ``count``/``min_count``/``max_count``/``rows``, the condition holds when some row matches.
    ``rows`` compares the columns its rows name (as the text ``content query`` prints: ``NULL``
    for null, ``1``/``0`` for booleans).
    """

    uri: str = Field(pattern=r"^content://\S+$")
    where: str | None = Field(default=None, min_length=1)
    projection: tuple[Annotated[str, Field(pattern=IDENTIFIER)], ...] | None = Field(default=None, min_length=1)
    sort: str | None = Field(default=None, min_length=1)
    count: int | None = Field(default=None, ge=0, le=MAX_ROWS)
    min_count: int | None = Field(default=None, ge=0, le=MAX_ROWS)
    max_count: int | None = Field(default=None, ge=0, le=MAX_ROWS)
    rows: tuple[dict[Annotated[str, Field(pattern=IDENTIFIER)], Scalar], ...] | None = None

    @model_validator(mode="after")
    def _one_test(self) -> ContentQuery:
        if self.count is not None and (self.min_count is not None or self.max_count is not None):
            raise ValueError("a content condition takes count, or min_count/max_count, not both")
        if self.rows is not None and any(v is not None for v in (self.count, self.min_count, self.max_count)):
            raise ValueError("a content condition takes rows (an exact multiset) or a count, not both")
        return self


class ContentCondition(Model):
    """Rows of a content provider, as ``adb shell content query`` reads them."""

    content: ContentQuery


#: A number, or a placeholder that a number parameter fills (``"{level.low}"``).
Bound = float | Annotated[str, Field(pattern=r"^\{[^{}]+\}$")]


class SettingQuery(Model):
    """A ``settings get NAMESPACE KEY`` value: equal to, matching, one of (``null`` when unset), or ``between``.

    ``between: [low, high]`` holds for a number in that closed range (a slider's value within a
    tolerance band); a value that is no number (``null``) is never between.
    """

    namespace: Literal["system", "secure", "global"]
    key: str = Field(pattern=IDENTIFIER_OR_PLACEHOLDER)
    equals: str | None = None
    matches: Regex = None
    in_: tuple[str, ...] | None = Field(default=None, alias="in", min_length=1)
    between: tuple[Bound, Bound] | None = None

    @model_validator(mode="after")
    def _one_test(self) -> SettingQuery:
        given = (("equals", self.equals), ("matches", self.matches), ("in", self.in_), ("between", self.between))
        tests = [name for name, value in given if value is not None]
        if len(tests) != 1:
            raise ValueError(f"a setting condition needs exactly one of equals, matches, in, between; got {tests}")
        low, high = self.between or (0, 0)
        if isinstance(low, float) and isinstance(high, float) and low > high:
            raise ValueError(f"between: low > high: {[low, high]}")
        return self


class SettingCondition(Model):
    """A ``settings`` key."""

    setting: SettingQuery


class FileQuery(Model):
    """A file on the device: exists (or not), contains a text, or matches a regex."""

    path: str = Field(pattern=r"^/\S")
    exists: bool | None = None
    contains: str | None = None
    matches: Regex = None

    @model_validator(mode="after")
    def _test(self) -> FileQuery:
        reads = self.contains is not None or self.matches is not None
        if self.exists is None and not reads:
            raise ValueError("a file condition needs exists, contains or matches")
        if self.exists is False and reads:
            raise ValueError("a file condition with exists: false cannot also test the file's content")
        return self


class FileCondition(Model):
    """A file on the device (``test -e``, ``cat``)."""

    file: FileQuery


class DumpsysQuery(Model):
    """A regex searched (multi-line) in ``dumpsys SERVICE [ARGS]``."""

    service: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    args: tuple[str, ...] = ()
    matches: Regex = Field(min_length=1)


class DumpsysCondition(Model):
    """A line (or lines) of a system service's dump."""

    dumpsys: DumpsysQuery


# ---------------------------------------------------------------------------- combinations


class AllCondition(Model):
    """Every sub-condition holds."""

    all: Conditions


class AnyCondition(Model):
    """At least one sub-condition holds."""

    any: Conditions


class NotCondition(Model):
    """The sub-condition does not hold."""

    not_: ConditionField = Field(alias="not")


CONDITION_KINDS = {
    "node": NodeCondition,
    "shell": ShellCondition,
    "foreground": ForegroundCondition,
    "logcat": LogcatCondition,
    "content": ContentCondition,
    "setting": SettingCondition,
    "file": FileCondition,
    "dumpsys": DumpsysCondition,
    "all": AllCondition,
    "any": AnyCondition,
    "not": NotCondition,
}


def validate_nested(model: type[BaseModel], value: Any) -> Any:
    """``model`` validated from ``value``, its errors kept with their own key paths (for a hand-made list or choice)."""
    try:
        return model.model_validate(value)
    except ValidationError as err:
        raise NestedErrors(error_items(err)) from None


def parse_by_key(value: Any, kinds: dict[str, type[BaseModel]], what: str) -> Any:
    """The model of ``kinds`` whose key ``value`` has (exactly one), validated; a clear message when none or more."""
    if isinstance(value, BaseModel):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be a mapping with one of {sorted(kinds)}, got {value!r}")
    keys = [k for k in kinds if k in value]
    if len(keys) != 1:
        raise ValueError(f"{what} needs exactly one of {sorted(kinds)}, got keys {sorted(value)}")
    return validate_nested(kinds[keys[0]], value)


def parse_condition(value: Any) -> Any:
    """Pick the condition model by its key, with a clear message when the key is missing."""
    return parse_by_key(value, CONDITION_KINDS, "a condition")


def parse_list(value: Any, parse: Any, what: str) -> tuple[Any, ...]:
    """Each item of a list parsed by ``parse``, the errors of all of them with their ``[i]`` paths."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"expected a list of {what}, got {value!r}")
    parsed, errors = [], []
    for i, item in enumerate(value):
        try:
            parsed.append(parse(item))
        except NestedErrors as err:
            errors += [(join_path(f"[{i}]", path), message) for path, message in err.items]
        except ValueError as err:
            errors.append((f"[{i}]", str(err)))
    if errors:
        raise NestedErrors(errors)
    return tuple(parsed)


Condition = (
    NodeCondition
    | ShellCondition
    | ForegroundCondition
    | LogcatCondition
    | ContentCondition
    | SettingCondition
    | FileCondition
    | DumpsysCondition
    | AllCondition
    | AnyCondition
    | NotCondition
)
#: A condition field: its model picked by its key (``node``, ``shell``...), errors with key paths.
ConditionField = Annotated[Condition, BeforeValidator(parse_condition)]
Conditions = Annotated[
    tuple[Condition, ...], BeforeValidator(lambda v: parse_list(v, parse_condition, "conditions")), Field(min_length=1)
]

# Conditions nest: resolve the forward references now that every model exists.
for _model in (Selector, AllCondition, AnyCondition, NotCondition):
    _model.model_rebuild()

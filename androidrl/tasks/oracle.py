"""The oracle: a family's scripted solution, as UI-level steps read from its task file.

::

    oracle:
      - tap: {text: Settings}                          # the first shown node the selector matches
      - tap: {text: About phone}
        scroll: down                                   # scroll the list until it is shown (bounded)
      - type: "{label}"                                # a field's value: the typing action types it
      - slide: {on: {class: android.widget.SeekBar}, fraction: 0.7}
      - swipe: {direction: up}                         # the finger's way; ``on`` a node, or the screen
      - key: enter                                     # back | home | enter
      - wait: {until: {node: {text: Done}}, max_steps: 5}
      - wait: {steps: 1}                               # let a flung list come to rest
      - if: {node: {text: Allow}}
        then: [{tap: {text: Allow}}]
        else: []
      - repeat: {until: {setting: {namespace: global, key: wifi_on, equals: "1"}}, steps: [...], max: 3}

:class:`OracleRun` plays the steps of one episode: given the current screen (a
:class:`~androidrl.ui.Snapshot`), it says what to do next as an :class:`Intent` — tap this node,
scroll that list, type this text. It never acts itself: :mod:`androidrl.solvers` turns each
intent into an action of the env's action wrapper, so the oracle acts only through the public
wrappers, as an agent does. A tap lands on the nearest clickable ancestor of the node found (as
Android delivers a touch), a long press on the nearest long-clickable one.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from androidrl.errors import TaskError
from androidrl.tasks.conditions import find_nodes, holds
from androidrl.tasks.schema import ConditionField, Model, Selector, parse_list, validate_nested
from androidrl.ui import Snapshot, node_bounds

Direction = Literal["up", "down", "left", "right"]
#: How many scrolls a tap with ``scroll`` makes, at most, before it gives up (unless it says).
MAX_SCROLLS = 10


class Swipe(Model):
    """A swipe: the finger's ``direction``, on a node (``on``) or the middle of the screen."""

    direction: Direction
    on: Selector | None = None


class Slide(Model):
    """Set a slider (a SeekBar) to a ``fraction`` of its range, by a tap on its track.

    The fraction may be a placeholder a number parameter fills (``"{level.fraction}"``).
    """

    on: Selector
    fraction: Annotated[float, Field(ge=0, le=1)] | Annotated[str, Field(pattern=r"^\{[^{}]+\}$")]


class OracleWait(Model):
    """Do nothing until ``until`` holds (at most ``max_steps`` steps), or for ``steps`` steps.

    ``steps`` lets the screen settle: a list flung by a swipe moves on after the finger lifts, so
    the screen seen right after it is not where the next tap lands.
    """

    until: ConditionField | None = None
    max_steps: int = Field(default=10, ge=1, le=1000)
    steps: int | None = Field(default=None, ge=1, le=1000)

    @model_validator(mode="after")
    def _one(self) -> OracleWait:
        if (self.until is None) == (self.steps is None):
            raise ValueError("a wait needs exactly one of until (and max_steps), steps")
        return self


class Repeat(Model):
    """Play ``steps`` until ``until`` holds (checked before each round; at most ``max`` rounds)."""

    until: ConditionField
    steps: OracleSteps
    max: int = Field(default=10, ge=1, le=1000)


ORACLE_KINDS = ("tap", "long_press", "type", "swipe", "slide", "key", "wait", "if", "repeat")


class OracleStep(Model):
    """One oracle step: exactly one of :data:`ORACLE_KINDS`."""

    tap: Selector | None = None
    long_press: Selector | None = None
    scroll: Direction | None = None  # tap/long_press: scroll this way until the node is shown
    scroll_on: Selector | None = None  # ... this scrollable (default: the first one on screen)
    max_scrolls: int = Field(default=MAX_SCROLLS, ge=1, le=100)
    type: str | None = None
    swipe: Swipe | None = None
    slide: Slide | None = None
    key: Literal["back", "home", "enter"] | None = None
    wait: OracleWait | None = None
    if_: ConditionField | None = Field(default=None, alias="if")
    then: OracleSteps = ()
    else_: OracleSteps = Field(default=(), alias="else")
    repeat: Repeat | None = None

    @model_validator(mode="after")
    def _one(self) -> OracleStep:
        kinds = [k for k in ORACLE_KINDS if getattr(self, k if k != "if" else "if_") is not None]
        if len(kinds) != 1:
            raise ValueError(f"an oracle step needs exactly one of {', '.join(ORACLE_KINDS)}; got {kinds or 'none'}")
        if (self.then or self.else_) and kinds != ["if"]:
            raise ValueError("then/else belong to an if step")
        scrolling = self.scroll is not None or self.scroll_on is not None
        if scrolling and kinds[0] not in ("tap", "long_press"):
            raise ValueError("scroll/scroll_on belong to a tap or long_press step")
        return self

    @property
    def kind(self) -> str:
        """Which step this is."""
        return next(k for k in ORACLE_KINDS if getattr(self, k if k != "if" else "if_") is not None)


def _parse_step(value: Any) -> Any:
    if isinstance(value, OracleStep):
        return value
    if not isinstance(value, dict):
        raise ValueError(f"an oracle step is a mapping with one of {', '.join(ORACLE_KINDS)}, got {value!r}")
    return validate_nested(OracleStep, value)


#: A list of oracle steps, each with its own key path in errors.
OracleSteps = Annotated[tuple[OracleStep, ...], BeforeValidator(lambda v: parse_list(v, _parse_step, "oracle steps"))]

for _model in (Repeat, OracleStep):
    _model.model_rebuild()


# ---------------------------------------------------------------------------- running it


class OracleError(TaskError):
    """The oracle cannot go on: a node it needs is not shown, a condition never held."""


@dataclass(frozen=True)
class Target:
    """The node an intent acts on: its bounds and what names it."""

    bounds: tuple[int, int, int, int]
    label: str
    class_name: str = ""
    resource_id: str = ""

    @property
    def center(self) -> tuple[int, int]:
        """The centre pixel."""
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2


@dataclass(frozen=True)
class Intent:
    """What to do next, whatever the action space.

    ``kind`` is ``tap``, ``long_press``, ``scroll`` (``direction``: where the content comes from —
    ``down`` shows what is below), ``swipe`` (``direction``: the finger's way), ``slide``
    (``fraction`` of the slider), ``type`` (``text``), ``key`` (``text``: back, home, enter) or
    ``wait`` (do nothing). ``target`` is the node, or None for the whole screen.
    """

    kind: str
    target: Target | None = None
    direction: str = ""
    fraction: float = 0.0
    text: str = ""


def target_of(node: ET.Element) -> Target:
    """The :class:`Target` of a UI node."""
    a = node.attrib
    label = a.get("text") or a.get("content-desc") or a.get("resource-id", "").rpartition("/")[2] or a.get("class", "")
    return Target(node_bounds(node) or (0, 0, 0, 0), label, a.get("class", ""), a.get("resource-id", ""))


def _shown(node: ET.Element) -> bool:
    bounds = node_bounds(node)
    return bounds is not None and bounds[2] > bounds[0] and bounds[3] > bounds[1]


class OracleRun:
    """One episode of an oracle: :meth:`next` gives the next intent for the current screen.

    Args:
        steps: The episode's oracle steps (placeholders filled).
        since: Where the episode's log begins (for ``logcat`` conditions).
    """

    def __init__(self, steps: tuple[OracleStep, ...], since: float = 0.0) -> None:
        self.since = since
        self.snapshot: Snapshot | None = None
        self.intents = 0  # how many intents were given
        self._parents: tuple[ET.Element, dict[ET.Element, ET.Element]] | None = None
        self._script = self._play(steps)

    def next(self, snapshot: Snapshot) -> Intent | None:
        """The next intent on the screen ``snapshot`` reads; None when the script is over.

        Raises:
            OracleError: A node the script needs is not shown, or a condition never held.
        """
        self.snapshot = snapshot
        intent = next(self._script, None)
        if intent is not None:
            self.intents += 1
        return intent

    # -------------------------------------------------------------- the steps

    def _play(self, steps: tuple[OracleStep, ...]) -> Iterator[Intent]:
        for step in steps:
            yield from getattr(self, f"_{step.kind}")(step)

    def _tap(self, step: OracleStep) -> Iterator[Intent]:
        yield from self._press(step, step.tap, "tap", "clickable")

    def _long_press(self, step: OracleStep) -> Iterator[Intent]:
        yield from self._press(step, step.long_press, "long_press", "long-clickable")

    def _press(self, step: OracleStep, selector: Selector, kind: str, flag: str) -> Iterator[Intent]:
        for scrolls in range(step.max_scrolls + 1):
            node = self._find(selector)
            if node is not None:
                yield Intent(kind, target_of(self._actionable(node, flag)))
                return
            if step.scroll is None:
                raise OracleError(f"{kind}: no shown node matches {_describe(selector)}")
            area = self._find(step.scroll_on) if step.scroll_on else self._find(Selector(scrollable=True))
            if area is None:
                raise OracleError(f"{kind}: {_describe(selector)} is not shown and nothing scrolls")
            if scrolls == step.max_scrolls:
                break
            yield Intent("scroll", target_of(area), direction=step.scroll)
        raise OracleError(f"{kind}: {_describe(selector)} not shown after {step.max_scrolls} scrolls {step.scroll}")

    def _type(self, step: OracleStep) -> Iterator[Intent]:
        yield Intent("type", text=step.type)

    def _swipe(self, step: OracleStep) -> Iterator[Intent]:
        target = None
        if step.swipe.on is not None:
            target = target_of(self._need(step.swipe.on, "swipe"))
        yield Intent("swipe", target, direction=step.swipe.direction)

    def _slide(self, step: OracleStep) -> Iterator[Intent]:
        yield Intent("slide", target_of(self._need(step.slide.on, "slide")), fraction=step.slide.fraction)

    def _key(self, step: OracleStep) -> Iterator[Intent]:
        yield Intent("key", text=step.key)

    def _wait(self, step: OracleStep) -> Iterator[Intent]:
        if step.wait.steps is not None:
            for _ in range(step.wait.steps):
                yield Intent("wait")
            return
        for _ in range(step.wait.max_steps):
            if self._holds(step.wait.until):
                return
            yield Intent("wait")
        if not self._holds(step.wait.until):
            raise OracleError(f"wait: the condition did not hold within {step.wait.max_steps} steps")

    def _if(self, step: OracleStep) -> Iterator[Intent]:
        yield from self._play(step.then if self._holds(step.if_) else step.else_)

    def _repeat(self, step: OracleStep) -> Iterator[Intent]:
        for _ in range(step.repeat.max):
            if self._holds(step.repeat.until):
                return
            yield from self._play(step.repeat.steps)
        if not self._holds(step.repeat.until):
            raise OracleError(f"repeat: the condition did not hold after {step.repeat.max} rounds")

    # -------------------------------------------------------------- the screen

    def _holds(self, condition: Any) -> bool:
        return holds(condition, self.snapshot, self.since)

    def _find(self, selector: Selector) -> ET.Element | None:
        return next((n for n in find_nodes(self.snapshot.hierarchy, selector) if _shown(n)), None)

    def _need(self, selector: Selector, kind: str) -> ET.Element:
        node = self._find(selector)
        if node is None:
            raise OracleError(f"{kind}: no shown node matches {_describe(selector)}")
        return node

    def _actionable(self, node: ET.Element, flag: str) -> ET.Element:
        """``node`` or its nearest ancestor with ``flag`` (where Android delivers the touch); else ``node``."""
        root = self.snapshot.hierarchy
        if self._parents is None or self._parents[0] is not root:
            self._parents = (root, {child: parent for parent in root.iter() for child in parent})
        parents = self._parents[1]
        current: ET.Element | None = node
        while current is not None and current.tag == "node":
            if current.attrib.get(flag) == "true":
                return current
            current = parents.get(current)
        return node


def _describe(selector: Selector) -> str:
    return str(selector.model_dump(by_alias=True, exclude_defaults=True))

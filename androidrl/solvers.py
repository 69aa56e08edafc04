"""Scripted solvers: every family's oracle (its ``oracle`` steps), acting through the env's action wrapper.

The oracle of a task (:mod:`androidrl.tasks.oracle`) says what to do next on the current screen
as an :class:`~androidrl.tasks.oracle.Intent` — tap this node, scroll that list, type this text;
:func:`to_actions` turns an intent into actions of the env's action wrapper (elements, UI
elements, a grid of taps, multi-discrete or box), so the oracle acts only through the public
wrappers, as an agent does. Tests use it to prove every family solvable through its wrappers
(and each shipped config's), and the learnability table and the task docs use it as the oracle.

Example:
    >>> solve = solver_for("wifi-on")
    >>> obs, info = env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.step(solve(env))
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.tasks.family import make_family_task
from androidrl.tasks.oracle import Intent, OracleError, OracleRun, Target
from androidrl.tasks.registry import builtin_specs
from androidrl.tasks.spec_task import SpecTask
from androidrl.tasks.suite import TaskSuite
from androidrl.wrappers.action import BoxAction, DiscreteGridAction, MultiDiscreteAction, UIElementAction
from androidrl.wrappers.elements import ElementAction, ElementObservation, scroll_points, slider_point

#: The finger's way that scrolls content in from a direction (content from below: the finger goes up).
FINGER = {"down": "up", "up": "down", "right": "left", "left": "right"}
CONTENT = {finger: content for content, finger in FINGER.items()}
_WRAPPERS = (ElementAction, UIElementAction, DiscreteGridAction, MultiDiscreteAction, BoxAction)


@dataclass
class _Play:
    """One env's oracle in one episode, and the actions of an intent not yet taken."""

    episode: tuple[int, int]
    run: OracleRun
    pending: list[Any] = field(default_factory=list)


def _current(android: AndroidEnv) -> SpecTask:
    task = android.task.current if isinstance(android.task, TaskSuite) else android.task
    if not isinstance(task, SpecTask) or not task.spec.oracle:
        raise OracleError(f"task {task.name!r} has no oracle (write its `oracle:` steps in its spec)")
    return task


def solver_for(task: str) -> Callable[[gym.Env], Any]:
    """A policy that plays the oracle of ``task`` (a built-in), or of a suite's current task (``"suite"``).

    Returns a function of the wrapped env that gives its next action; it follows each env's
    episodes by itself (a new episode starts the oracle again).

    Raises:
        KeyError: ``task`` is not a built-in with an oracle.
    """
    if task != "suite":
        specs = builtin_specs()
        if task not in specs or not specs[task].oracle:
            raise KeyError(
                f"no solver for task {task!r}; solvers exist for {sorted(n for n, s in specs.items() if s.oracle)}"
            )
    plays: weakref.WeakKeyDictionary[AndroidEnv, _Play] = weakref.WeakKeyDictionary()

    def act(env: gym.Env) -> Any:
        android = env.unwrapped
        current = _current(android)
        episode = (id(current), current.episode)
        play = plays.get(android)
        if play is None or play.episode != episode:
            play = plays[android] = _Play(episode, OracleRun(current.episode_spec.oracle, current.log_since))
        if not play.pending:
            intent = play.run.next(android.current_snapshot())
            if intent is None:
                raise OracleError(f"task {current.name}: the oracle's steps are done, but the episode goes on")
            play.pending = to_actions(env, intent)
        return play.pending.pop(0)

    return act


def play_oracle(env: gym.Env, solve: Callable[[gym.Env], Any] | None = None) -> tuple[bool, int, dict[str, Any]]:
    """Play the oracle in ``env``'s current episode (just reset) to its end.

    Returns:
        Whether it succeeded, how many steps it took, and the last step's info.

    Raises:
        OracleError: The oracle got stuck.
        ValueError: The wrapper cannot do what the oracle needs.
    """
    solve = solve or solver_for("suite")
    steps, info, done = 0, {}, False
    while not done:
        *_, terminated, truncated, info = env.step(solve(env))
        steps += 1
        done = terminated or truncated
    return bool(info.get("is_success")), steps, info


def oracle_lengths(
    family: str, tier: str, seeds: Iterable[int], width: int = 360, height: int = 800, density: int = 160
) -> list[int]:
    """The oracle's episode length for each seed of a family's tier, played through the element wrappers.

    Raises:
        OracleError: The oracle did not succeed for a seed.
    """
    device = VirtualDevice(width=width, height=height, density=density, seed=0)
    android = AndroidEnv(device, make_family_task(family, tier), screen_size=(width, height), dump_xml=False)
    env = ElementAction(ElementObservation(android))
    solve, lengths = solver_for("suite"), []
    try:
        for seed in seeds:
            env.reset(seed=seed)
            succeeded, steps, info = play_oracle(env, solve)
            if not succeeded:
                raise OracleError(f"{family} {tier} seed {seed}: the oracle did not succeed: {info}")
            lengths.append(steps)
    finally:
        env.close()
    return lengths


# ---------------------------------------------------------------------------- intents to actions


def _wrapper(env: gym.Env) -> gym.Env:
    while isinstance(env, gym.Wrapper):
        if isinstance(env, _WRAPPERS):
            return env
        env = env.env
    raise TypeError("the env has no androidrl action wrapper to act through")


def to_actions(env: gym.Env, intent: Intent) -> list[Any]:
    """The actions of ``env``'s action wrapper that do ``intent`` on the current screen (usually one).

    Raises:
        ValueError: The wrapper cannot do it (no such element in its slots, text or key in its space).
    """
    wrapper = _wrapper(env)
    if isinstance(wrapper, ElementAction):
        return [_element_action(wrapper, env.unwrapped, intent)]
    if isinstance(wrapper, UIElementAction):
        return [_ui_element_action(wrapper, intent)]
    if isinstance(wrapper, DiscreteGridAction):
        return _grid_actions(wrapper, intent)
    return [_typed_action(wrapper, env.unwrapped, intent)]


def _cannot(wrapper: gym.Env, intent: Intent) -> ValueError:
    what = intent.target.label if intent.target else intent.text or intent.direction
    return ValueError(f"{type(wrapper).__name__} has no action that does {intent.kind} {what!r}")


def _element_action(wrapper: ElementAction, android: AndroidEnv, intent: Intent) -> int:
    if intent.kind == "key":
        return wrapper.key_index(intent.text)
    if intent.kind == "wait":
        if "wait" not in wrapper.keys:
            raise _cannot(wrapper, intent)
        return wrapper.key_index("wait")
    if intent.kind == "type":
        values = list(android.task.fields.values())[: wrapper.fields]
        if intent.text not in values:
            raise ValueError(f"ElementAction types field values only; {intent.text!r} is not one of {values}")
        return wrapper.field_index(values.index(intent.text))
    target = intent.target
    if target is None:  # a swipe on the screen: on the first element that scrolls
        target = next((Target(e.bounds, e.text) for e in wrapper.elements if e.flag("scrollable")), None)
    slot = next((k for k, e in enumerate(wrapper.elements) if target and e.bounds == target.bounds), None)
    if slot is None:
        raise ValueError(f"{target.label if target else 'nothing that scrolls'!r} is not in ElementAction's slots")
    kind = {
        "tap": "tap",
        "long_press": "long_press",
        "scroll": f"scroll_{intent.direction}",
        "swipe": f"scroll_{CONTENT.get(intent.direction, '')}",
        "slide": f"slide_{round(intent.fraction * 10) * 10}",
    }[intent.kind]
    if kind not in wrapper.kinds:
        raise _cannot(wrapper, intent)
    index = wrapper.index(slot, kind)
    if not wrapper.action_masks()[index]:  # (an oracle's actions are ones a masked policy may take)
        raise ValueError(f"ElementAction masks {kind} on {target.label!r} (slot {slot}): it does not fit the element")
    return index


def _ui_element_action(wrapper: UIElementAction, intent: Intent) -> int:
    if intent.kind == "key" and intent.text in [name for name, _ in wrapper.extras]:
        return wrapper.max_elements + [name for name, _ in wrapper.extras].index(intent.text)
    if intent.kind in ("tap", "scroll", "swipe") and intent.target is not None:
        if intent.kind == "tap":
            wanted = (intent.target.center, None)
        else:
            direction = intent.direction if intent.kind == "scroll" else CONTENT[intent.direction]
            wanted = scroll_points(intent.target.bounds, direction)
        for i, (_, action) in enumerate(wrapper.entries):
            tgt = tuple(int(v) for v in action.tgt_coord) if wanted[1] is not None else None
            if tuple(int(v) for v in action.coord) == wanted[0] and tgt == wanted[1]:
                return i
    raise _cannot(wrapper, intent)


def _grid_actions(wrapper: DiscreteGridAction, intent: Intent) -> list[int]:
    labels = wrapper.labels
    if intent.kind == "key" and intent.text in labels:
        return [labels.index(intent.text)]
    if intent.kind == "type":
        if f"type {intent.text!r}" in labels:
            return [labels.index(f"type {intent.text!r}")]
        if all(f"type {ch!r}" in labels for ch in intent.text):  # character by character
            return [labels.index(f"type {ch!r}") for ch in intent.text]
    if intent.kind in ("scroll", "swipe"):
        finger = FINGER[intent.direction] if intent.kind == "scroll" else intent.direction
        if f"swipe {finger} medium" in labels:
            return [labels.index(f"swipe {finger} medium")]
    if intent.kind in ("tap", "long_press", "slide") and intent.target is not None:
        prefix = "tap" if intent.kind != "long_press" else "long press"
        cells = [i for i, label in enumerate(labels) if label.startswith(prefix + " row ")]
        if cells:
            return [_nearest(wrapper, _point(intent), intent.target, cells)]
    raise _cannot(wrapper, intent)


def _typed_action(wrapper: MultiDiscreteAction | BoxAction, android: AndroidEnv, intent: Intent) -> Any:
    """An action of a wrapper with action types and a position (multi-discrete grid cells, or a box)."""
    name = {"tap": "tap", "slide": "tap", "long_press": "long_press", "wait": "none"}.get(intent.kind)
    if intent.kind == "key":
        name = intent.text
    elif intent.kind in ("scroll", "swipe"):
        name = "swipe_" + (FINGER[intent.direction] if intent.kind == "scroll" else intent.direction)
    if name not in wrapper.types:
        raise _cannot(wrapper, intent)
    width, height = android.screen_size
    x, y = _point(intent) if intent.target is not None else (width // 2, height // 2)
    if isinstance(wrapper, MultiDiscreteAction):
        cells = range(wrapper.rows * wrapper.cols)
        cell = _nearest(wrapper, (x, y), intent.target, cells) if intent.target is not None else len(cells) // 2
        return np.array([wrapper.types.index(name), *divmod(cell, wrapper.cols)])
    scores = [1.0 if t == name else -1.0 for t in wrapper.types]
    return np.array([2 * x / (width - 1) - 1, 2 * y / (height - 1) - 1, *scores], dtype=np.float32)


def _point(intent: Intent) -> tuple[int, int]:
    """Where on the target the intent acts: its centre, or a slider's position."""
    if intent.kind == "slide":
        return slider_point(intent.target.bounds, intent.fraction)
    return intent.target.center


def _nearest(wrapper: Any, point: tuple[int, int], target: Target, cells: Any) -> int:
    """The grid cell nearest ``point`` whose tap lands on ``target``.

    Raises:
        ValueError: No cell of the grid lands on it.
    """
    table, (cx, cy) = wrapper.table, point
    best = min(cells, key=lambda i: (table[i].coord[0] - cx) ** 2 + (table[i].coord[1] - cy) ** 2)
    left, top, right, bottom = target.bounds
    if not (left <= table[best].coord[0] < right and top <= table[best].coord[1] < bottom):
        raise ValueError(f"no cell of the {wrapper.rows}x{wrapper.cols} grid lands on {target.label!r}")
    return best

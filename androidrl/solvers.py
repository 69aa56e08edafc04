"""Scripted solvers: for every built-in task, a policy that reads the UI XML and acts in any action space.

A solver decides what a person would do next on the current screen — tap an element,
scroll, type, press a key — as an :class:`Intent`; :func:`to_action` turns the intent
into an action of the env's action wrapper (UI elements, a grid of taps, multi-discrete or
box). Tests use the solvers to prove each task is solvable through its shipped config's
wrappers, and the learnability table uses them as the oracle.

Example:
    >>> solve = solver_for("wifi-on")
    >>> obs, info = env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.step(solve(env))
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np

from androidrl.env import AndroidEnv
from androidrl.ui import UIElement
from androidrl.wrappers.action import BoxAction, DiscreteGridAction, MultiDiscreteAction, UIElementAction


@dataclass(frozen=True)
class Intent:
    """What to do next: ``tap`` an element (its label), ``scroll`` a list, ``type`` text, or press ``key``."""

    kind: str  # tap | scroll | type | key
    target: str = ""  # the element's label (tap, scroll), the text (type), the key: back, home, enter


Solver = Callable[[AndroidEnv], Intent]


def _labels(env: AndroidEnv) -> dict[str, UIElement]:
    return {e.label: e for e in env.current_elements() if e.clickable or e.scrollable}


def _texts(env: AndroidEnv) -> set[str]:
    return {e.text for e in env.current_elements() if e.text}


def _settings_path(*path: str) -> Solver:
    """Open Settings from the home screen and tap through ``path`` (the last one flips or opens)."""

    def solve(env: AndroidEnv) -> Intent:
        labels = _labels(env)
        for step in reversed(path):  # the deepest step already on screen
            if step in labels:
                return Intent("tap", step)
        if "Settings" in labels:  # the launcher's icon
            return Intent("tap", "Settings")
        if any(e.scrollable for e in env.current_elements()) and "Settings" in _texts(env):
            return Intent("scroll", next(e.label for e in env.current_elements() if e.scrollable))
        return Intent("key", "home")

    return solve


def _open_app(env: AndroidEnv) -> Intent:
    label = env.task.params["app"]["label"]
    return Intent("tap", label) if label in _labels(env) else Intent("key", "home")


def _tap_target(env: AndroidEnv) -> Intent:
    target = next(e for e in env.current_elements() if e.resource_id.endswith(":id/target"))
    return Intent("tap", target.label)


def _settings_page(env: AndroidEnv) -> Intent:
    page = env.task.params["page"]["label"]
    labels = _labels(env)
    if page in labels:
        return Intent("tap", page)
    scrolling = [e for e in env.current_elements() if e.scrollable]
    return Intent("scroll", scrolling[0].label) if scrolling else Intent("key", "back")


def _find_about_phone(env: AndroidEnv) -> Intent:
    labels = _labels(env)
    about = next((label for label in labels if re.match(r"^About (phone|emulated device)$", label)), None)
    if about is not None:
        return Intent("tap", about)
    scrolling = [e for e in env.current_elements() if e.scrollable]
    return Intent("scroll", scrolling[0].label) if scrolling else Intent("key", "back")


def _notes_word(env: AndroidEnv) -> Intent:
    word = env.task.params["word"]
    field = next(e for e in env.current_elements() if e.resource_id.endswith(":id/note_input"))
    if field.text == word:
        return Intent("key", "enter")  # the keyboard's "done" saves the note
    focused = re.search(rf'resource-id="{re.escape(field.resource_id)}"[^>]*focused="true"', env.current_xml())
    return Intent("type", word) if focused else Intent("tap", field.label)


def _airplane_then(last: Intent) -> Solver:
    """Airplane mode on in Settings, then ``last`` (home, or open an app from the home screen)."""

    def solve(env: AndroidEnv) -> Intent:
        on = env.device.shell("settings get global airplane_mode_on").strip() == "1"
        if not on:
            return _settings_path("Network & internet", "Airplane mode")(env)
        labels = _labels(env)
        if last.kind == "tap" and last.target in labels:
            return last
        return Intent("key", "home")

    return solve


#: The solver of every built-in task.
SOLVERS: dict[str, Solver] = {
    "tap-target": _tap_target,
    "open-app": _open_app,
    "open-any-app": _open_app,
    "wifi-on": _settings_path("Network & internet", "Wi-Fi"),
    "wifi-on-logged": _settings_path("Network & internet", "Wi-Fi"),
    "wifi-off": _settings_path("Network & internet", "Wi-Fi"),
    "bluetooth-on": _settings_path("Connected devices", "Bluetooth"),
    "bluetooth-off": _settings_path("Connected devices", "Bluetooth"),
    "airplane-off": _settings_path("Network & internet", "Airplane mode"),
    "settings-page": _settings_page,
    "airplane-home": _airplane_then(Intent("key", "home")),
    "airplane-clock": _airplane_then(Intent("tap", "Clock")),
    "notes-word": _notes_word,
    "find-about-phone": _find_about_phone,
}


def solver_for(task: str) -> Callable[[gym.Env], Any]:
    """A policy for ``task`` (a built-in, or the current task of a suite when ``task`` is "suite").

    Returns a function of the wrapped env that gives its next action.

    Raises:
        KeyError: No solver for that task.
    """

    def act(env: gym.Env) -> Any:
        android = env.unwrapped
        name = android.task.name if task == "suite" else task
        return to_action(env, SOLVERS[name](android))

    if task != "suite" and task not in SOLVERS:
        raise KeyError(f"no solver for task {task!r}; solvers exist for {sorted(SOLVERS)}")
    return act


def _wrapper(env: gym.Env) -> gym.Env:
    while isinstance(env, gym.Wrapper):
        if isinstance(env, (UIElementAction, DiscreteGridAction, MultiDiscreteAction, BoxAction)):
            return env
        env = env.env
    raise TypeError("the env has no androidrl action wrapper to act through")


def _element(env: AndroidEnv, intent: Intent) -> UIElement:
    element = _labels(env).get(intent.target) or next(e for e in env.current_elements() if e.label == intent.target)
    return element


def to_action(env: gym.Env, intent: Intent) -> Any:
    """The action of ``env``'s action wrapper that does ``intent`` on the current screen.

    Raises:
        ValueError: The wrapper cannot do it (no such element, text or key in its space).
    """
    wrapper, android = _wrapper(env), env.unwrapped
    if isinstance(wrapper, UIElementAction):
        if intent.kind == "key":
            return wrapper.max_elements + [name for name, _ in wrapper.extras].index(intent.target)
        wanted = f"tap {intent.target}" if intent.kind == "tap" else f"scroll forward {intent.target}"
        return [label for label, _ in wrapper.entries].index(wanted)
    if isinstance(wrapper, DiscreteGridAction):
        labels = wrapper.labels
        if intent.kind == "key":
            return labels.index(intent.target)
        if intent.kind == "type":
            return labels.index(f"type {intent.target!r}")
        if intent.kind == "scroll":
            return labels.index("swipe up medium")
        return _nearest(wrapper, _element(android, intent), range(wrapper.rows * wrapper.cols))
    if isinstance(wrapper, MultiDiscreteAction):
        if intent.kind in ("key", "scroll"):
            name = intent.target if intent.kind == "key" else "swipe_up"
            return np.array([wrapper.types.index(name), wrapper.rows // 2, wrapper.cols // 2])
        cell = _nearest(wrapper, _element(android, intent), range(wrapper.rows * wrapper.cols))
        return np.array([wrapper.types.index("tap"), *divmod(cell, wrapper.cols)])
    # BoxAction: x, y in [-1, 1], then a score per type
    width, height = android.screen_size
    name = "tap" if intent.kind == "tap" else "swipe_up" if intent.kind == "scroll" else intent.target
    x, y = _element(android, intent).center if intent.kind == "tap" else (width // 2, height // 2)
    scores = [1.0 if t == name else -1.0 for t in wrapper.types]
    return np.array([2 * x / (width - 1) - 1, 2 * y / (height - 1) - 1, *scores], dtype=np.float32)


def _nearest(wrapper: Any, element: UIElement, cells: range) -> int:
    """The grid cell whose tap lands on ``element`` (the one nearest its centre).

    Raises:
        ValueError: No cell of the grid lands on it.
    """
    table, (cx, cy) = wrapper.table, element.center
    best = min(cells, key=lambda i: (table[i].coord[0] - cx) ** 2 + (table[i].coord[1] - cy) ** 2)
    left, top, right, bottom = element.bounds
    if not (left <= table[best].coord[0] < right and top <= table[best].coord[1] < bottom):
        raise ValueError(f"no cell of the {wrapper.rows}x{wrapper.cols} grid lands on {element.label!r}")
    return best

"""Action wrappers: AndroidEnv's Dict actions as spaces Stable-Baselines3 algorithms take.

No SB3 algorithm accepts a Dict action space, and Gymnasium's ``flatten_space`` of one
with text parts does not round-trip. These wrappers expose a small space and map each
member to a concrete :class:`~androidrl.spaces.EnvAction`:

* :class:`DiscreteGridAction` — ``Discrete``: taps (and long presses) on a grid, swipes per
  direction and distance, a text vocabulary, back, home, enter. PPO, A2C, DQN.
* :class:`MultiDiscreteAction` — ``MultiDiscrete([types, rows, cols])``: an action type and a
  grid cell. PPO, A2C, MaskablePPO.
* :class:`BoxAction` — ``Box(-1, 1)``: continuous x, y and a score per action type (the
  highest wins). PPO, A2C, SAC-style agents.
* :class:`UIElementAction` — ``Discrete``: the first K clickable/scrollable elements of the
  current screen, plus back and home, with ``action_masks()`` for MaskablePPO.

Pixel coordinates depend on the screen size, which a device only tells once connected,
so tables are built at the first reset (or at once when the env already knows its size)
and every entry is checked against the env's raw action space.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import gymnasium as gym
import numpy as np
from pydantic import AfterValidator, Field

from androidrl.device.base import input_text_commands
from androidrl.env import AndroidEnv
from androidrl.errors import DeviceError
from androidrl.spaces import DISTS, MAX_TEXT_LENGTH, ORIENTS, POINT_ACTIONS, EnvAction, EnvActionType, check_on_screen
from androidrl.tasks.base import Needs
from androidrl.ui import UIElement
from androidrl.validation import shorten

T = EnvActionType
#: Action types of MultiDiscreteAction and BoxAction, by name.
ACTION_TYPES: dict[str, tuple[EnvActionType, dict[str, Any]]] = {
    "tap": (T.SYSTEM_TAP, {}),
    "long_press": (T.USER_LONGPRESS, {}),
    "swipe_up": (T.USER_SWIPE, {"orient": "up"}),
    "swipe_down": (T.USER_SWIPE, {"orient": "down"}),
    "swipe_left": (T.USER_SWIPE, {"orient": "left"}),
    "swipe_right": (T.USER_SWIPE, {"orient": "right"}),
    "back": (T.SYSTEM_BACK, {}),
    "home": (T.SYSTEM_HOME, {}),
    "enter": (T.SYSTEM_ENTER, {}),
    "none": (T.NONE, {}),
}


def typed_action(name: str, point: tuple[int, int]) -> EnvAction:
    """The EnvAction of action type ``name`` (a key of :data:`ACTION_TYPES`) at ``point`` if it takes one."""
    kind, extra = ACTION_TYPES[name]
    return EnvAction(action_type=kind, coord=point if kind in POINT_ACTIONS else (0, 0), **extra)


def _android(env: gym.Env) -> AndroidEnv:
    if not isinstance(env.unwrapped, AndroidEnv):
        raise TypeError(f"this wrapper wraps an AndroidEnv, got {type(env.unwrapped).__name__}")
    return env.unwrapped


FULL_SCREEN = (0.0, 0.0, 1.0, 1.0)


def check_grid(rows: int, cols: int, region: Sequence[float]) -> tuple[float, float, float, float]:
    """Validate grid ``rows``, ``cols`` and a ``region`` of the screen; the region as four floats.

    Raises:
        ValueError: Saying which argument is wrong and what it must be.
    """
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= 1000:
            raise ValueError(f"{name} must be an int in 1..1000, got {value!r}")
    try:
        left, top, right, bottom = (float(v) for v in region)
    except (TypeError, ValueError):
        raise ValueError(f"region must be (left, top, right, bottom) fractions of the screen, got {region!r}") from None
    if not (0 <= left < right <= 1 and 0 <= top < bottom <= 1):
        raise ValueError(f"region must satisfy 0 <= left < right <= 1 and 0 <= top < bottom <= 1, got {region!r}")
    return left, top, right, bottom


def grid_points(width: int, height: int, rows: int, cols: int, region: Sequence[float]) -> list[tuple[int, int]]:
    """Centres of the cells of a ``rows x cols`` grid over ``region`` of the screen, row by row."""
    left, top, right, bottom = region
    return [
        (
            int((left + (right - left) * (2 * c + 1) / (2 * cols)) * width),
            int((top + (bottom - top) * (2 * r + 1) / (2 * rows)) * height),
        )
        for r in range(rows)
        for c in range(cols)
    ]


def check_types(types: Sequence[str]) -> tuple[str, ...]:
    """Validate action type names (keys of :data:`ACTION_TYPES`, each once).

    Raises:
        ValueError: Unknown, missing or repeated types.
    """
    types = tuple(types)
    unknown = [t for t in types if t not in ACTION_TYPES]
    if unknown or not types:
        raise ValueError(f"unknown action types {unknown or 'none given'}; choose from {list(ACTION_TYPES)}")
    if len(set(types)) != len(types):
        raise ValueError(f"action types repeat: {list(types)}")
    return types


#: The most texts an action space types (one action each).
MAX_TEXTS = 1000


def check_texts(texts: Sequence[str]) -> tuple[str, ...]:
    """Validate a text vocabulary: strings Android can type, each at most ``MAX_TEXT_LENGTH`` long.

    Raises:
        TypeError: One string instead of a list.
        ValueError: A text that is too long or cannot be typed.
    """
    if isinstance(texts, str):
        raise TypeError("texts must be a list of strings, not one string")
    if len(texts) > MAX_TEXTS:
        raise ValueError(f"texts: at most {MAX_TEXTS} texts (one action each), got {len(texts):,}")
    for text in texts:
        if not isinstance(text, str) or len(text) > MAX_TEXT_LENGTH:
            raise ValueError(f"texts: {shorten(text)} must be a string of at most {MAX_TEXT_LENGTH} characters")
        input_text_commands(text)  # raises ValueError for what Android cannot type
    return tuple(texts)


# The types of the wrappers' settings: the constructors declare them, and the training
# config validates its ``action:`` section against those same signatures.
#: A positive count (grid rows and columns, UI elements); a thousand is already more than a screen has room for.
Count = Annotated[int, Field(ge=1, le=1000)]
#: (left, top, right, bottom) fractions of the screen.
Region = Annotated[tuple[float, float, float, float], AfterValidator(lambda r: check_grid(1, 1, r))]
#: Action type names, keys of :data:`ACTION_TYPES`.
ActionTypes = Annotated[tuple[str, ...], AfterValidator(check_types)]
#: Strings to type.
Texts = Annotated[tuple[str, ...], AfterValidator(check_texts)]


def _check_index(action: Any, n: int) -> int:
    """A Discrete action as an int: an int (or a numpy integer, or a one-element integer array) in 0..n-1.

    Raises:
        TypeError: Not an integer (None, a float such as 2.5, a string, a bool, a longer array).
        ValueError: Outside ``Discrete(n)``.
    """
    value = action
    if isinstance(value, np.ndarray) and value.size == 1 and np.issubdtype(value.dtype, np.integer):
        value = value.reshape(-1)[0]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"a Discrete({n}) action is an int in 0..{n - 1}, got {action!r}")
    if not 0 <= value < n:
        raise ValueError(f"action {action!r} is outside Discrete({n})")
    return int(value)


class _LazyTable(gym.ActionWrapper):
    """An action wrapper whose table of EnvActions needs the screen size."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self._android = _android(env)
        self._table: list[EnvAction] | None = None
        if self._android.known_screen_size is not None:
            self._ensure_table()

    def _make_table(self, width: int, height: int) -> list[EnvAction]:
        raise NotImplementedError

    def _ensure_table(self) -> list[EnvAction]:
        if self._table is None:
            table = self._make_table(*self._android.screen_size)
            for entry in table:  # the env's own check, before any entry reaches the phone
                check_on_screen(entry, self._android.screen_size)
            self._table = table
        return self._table

    def reset(self, **kwargs: Any):
        result = self.env.reset(**kwargs)
        self._ensure_table()
        return result

    @property
    def table(self) -> list[EnvAction]:
        """Every action of the space, in order (built once the screen size is known)."""
        return list(self._ensure_table())


class DiscreteGridAction(_LazyTable):
    """A Discrete action space over a table of concrete actions.

    The table, in order: a tap at the centre of each cell of a ``rows x cols`` grid over
    ``region`` (fractions of the screen: left, top, right, bottom; default all of it), row
    by row; the same for long presses if ``long_press``; swipes
    from the screen centre for each direction (up, down, left, right) and distance
    (medium, long) if ``swipes``; one ``USER_INPUT`` per string of ``texts``; then back,
    home and enter if asked.

    Example:
        >>> env = DiscreteGridAction(AndroidEnv(VirtualDevice()), rows=6, cols=3, texts=["hello"])
        >>> env.action_space, env.describe(0)
        (Discrete(29), 'tap row 0 col 0')
    """

    def __init__(
        self,
        env: gym.Env,
        rows: Count = 8,
        cols: Count = 4,
        long_press: bool = False,
        swipes: bool = True,
        texts: Texts = (),
        back: bool = True,
        home: bool = True,
        enter: bool = False,
        region: Region = FULL_SCREEN,
    ) -> None:
        self.region = check_grid(rows, cols, region)
        self.texts = check_texts(texts)
        self.rows, self.cols = int(rows), int(cols)
        self.options = {"long_press": long_press, "swipes": swipes, "back": back, "home": home, "enter": enter}
        self._labels = [f"tap row {r} col {c}" for r in range(rows) for c in range(cols)]
        if long_press:
            self._labels += [f"long press row {r} col {c}" for r in range(rows) for c in range(cols)]
        if swipes:
            self._labels += [f"swipe {o} {d}" for o in ORIENTS for d in DISTS]
        self._labels += [f"type {t!r}" for t in self.texts]
        self._labels += [name for name in ("back", "home", "enter") if self.options[name]]
        super().__init__(env)
        self.action_space = gym.spaces.Discrete(len(self._labels))

    def _make_table(self, width: int, height: int) -> list[EnvAction]:
        cells = grid_points(width, height, self.rows, self.cols, self.region)
        table = [EnvAction(action_type=T.SYSTEM_TAP, coord=p) for p in cells]
        if self.options["long_press"]:
            table += [EnvAction(action_type=T.USER_LONGPRESS, coord=p) for p in cells]
        if self.options["swipes"]:
            middle = (width // 2, height // 2)
            table += [
                EnvAction(action_type=T.USER_SWIPE, coord=middle, orient=o, dist=d) for o in ORIENTS for d in DISTS
            ]
        table += [EnvAction(action_type=T.USER_INPUT, input_txt=t) for t in self.texts]
        table += [typed_action(name, (0, 0)) for name in ("back", "home", "enter") if self.options[name]]
        return table

    def action(self, action: int) -> EnvAction:
        """The EnvAction for table entry ``action``."""
        return self._ensure_table()[_check_index(action, self.action_space.n)]

    def describe(self, action: int) -> str:
        """What table entry ``action`` does, in words."""
        return self._labels[_check_index(action, self.action_space.n)]

    @property
    def labels(self) -> list[str]:
        """What each action does, in words, in order (``tap row 0 col 0``... ``type 'word'``, ``back``...)."""
        return list(self._labels)


class MultiDiscreteAction(_LazyTable):
    """``MultiDiscrete([len(types), rows, cols])``: an action type and a grid cell.

    Positional types (tap, long_press, swipe_*) act at the centre of the cell of a grid over
    ``region`` (fractions of the screen, default all of it); the others (back, home, enter,
    none) ignore the cell.

    Example:
        >>> env = MultiDiscreteAction(AndroidEnv(VirtualDevice()), rows=8, cols=4)
        >>> env.action([0, 2, 1]).action_type
        <EnvActionType.SYSTEM_TAP: 2>
    """

    def __init__(
        self,
        env: gym.Env,
        rows: Count = 8,
        cols: Count = 4,
        types: ActionTypes = ("tap", "long_press", "swipe_up", "swipe_down", "back", "home"),
        region: Region = FULL_SCREEN,
    ) -> None:
        self.region = check_grid(rows, cols, region)
        self.types = check_types(types)
        self.rows, self.cols = int(rows), int(cols)
        super().__init__(env)
        self.action_space = gym.spaces.MultiDiscrete([len(self.types), self.rows, self.cols])

    def _make_table(self, width: int, height: int) -> list[EnvAction]:
        cells = grid_points(width, height, self.rows, self.cols, self.region)
        return [typed_action(name, p) for name in self.types for p in cells]

    def action(self, action: Sequence[int]) -> EnvAction:
        """The EnvAction for ``[type, row, col]``."""
        values = np.asarray(action).reshape(-1)
        integers = np.issubdtype(values.dtype, np.integer) and values.dtype != bool
        if values.shape != (3,) or not integers or not self.action_space.contains(values.astype(np.int64)):
            raise ValueError(
                f"action must be [type, row, col] within {self.action_space.nvec.tolist()}, got {action!r}"
            )
        kind, row, col = (int(v) for v in values)
        return self._ensure_table()[(kind * self.rows + row) * self.cols + col]


class BoxAction(gym.ActionWrapper):
    """``Box(-1, 1, (2 + len(types),))``: x and y, then one score per action type.

    x and y map linearly from [-1, 1] to the first and last pixel; the type with the
    highest score is performed. Values outside [-1, 1] are clipped (as SB3 does).

    Example:
        >>> env = BoxAction(AndroidEnv(VirtualDevice(width=360, height=800)), types=["tap", "back"])
        >>> env.action(np.array([0.0, 0.0, 1.0, -1.0])).coord
        array([180, 400])
    """

    def __init__(
        self, env: gym.Env, types: ActionTypes = ("tap", "long_press", "swipe_up", "swipe_down", "back")
    ) -> None:
        self.types = check_types(types)
        super().__init__(env)
        self._android = _android(env)
        self.action_space = gym.spaces.Box(-1.0, 1.0, (2 + len(self.types),), np.float32)

    def action(self, action: np.ndarray) -> EnvAction:
        """The EnvAction for a Box member."""
        values = np.asarray(action, dtype=np.float64).reshape(-1)
        if values.shape != self.action_space.shape or not np.all(np.isfinite(values)):
            raise ValueError(f"action must be {self.action_space.shape[0]} finite numbers, got {action!r}")
        values = np.clip(values, -1.0, 1.0)
        width, height = self._android.screen_size
        x = int(round((values[0] + 1) / 2 * (width - 1)))
        y = int(round((values[1] + 1) / 2 * (height - 1)))
        return typed_action(self.types[int(np.argmax(values[2:]))], (x, y))


class UIElementAction(gym.Wrapper):
    """Discrete actions over the UI elements of the current screen, with action masks.

    Entries ``0..max_elements-1`` are the first clickable (tap) and scrollable (scroll
    forward, scroll back) elements of the screen in drawing order; then back and home.
    Entries beyond the elements present are masked out by :meth:`action_masks`; taking one
    anyway does nothing and reports it in ``info["action_error"]``. Needs a UI dump each
    step: it asks the env for one (:meth:`~androidrl.env.AndroidEnv.require`), which the
    task's conditions share.

    Example:
        >>> env = UIElementAction(AndroidEnv(VirtualDevice()), max_elements=16)
        >>> obs, info = env.reset(seed=0)
        >>> env.action_masks()[:3], env.describe(0)
        (array([ True,  True,  True]), 'tap Calculator')
    """

    def __init__(
        self, env: gym.Env, max_elements: Count = 16, scroll: bool = True, back: bool = True, home: bool = True
    ) -> None:
        super().__init__(env)
        if isinstance(max_elements, bool) or not isinstance(max_elements, int) or max_elements < 1:
            raise ValueError(f"max_elements must be a positive int, got {max_elements!r}")
        if max_elements > 1000:
            raise ValueError(f"max_elements must be at most 1000, got {max_elements}")
        self._android = _android(env)
        self._android.require(Needs.UI)
        self.max_elements = max_elements
        self.scroll = scroll
        self._extras = [(name, typed_action(name, (0, 0))) for name, on in (("back", back), ("home", home)) if on]
        self.action_space = gym.spaces.Discrete(max_elements + len(self._extras))
        self._entries: list[tuple[str, EnvAction]] = []

    def _refresh(self) -> None:
        entries: list[tuple[str, EnvAction]] = []
        for element in self._android.current_elements():
            if element.clickable:
                entries.append((f"tap {element.label}", EnvAction(action_type=T.SYSTEM_TAP, coord=element.center)))
            if element.scrollable and self.scroll:
                entries += self._scrolls(element)
        self._entries = entries[: self.max_elements]

    @staticmethod
    def _scrolls(element: UIElement) -> list[tuple[str, EnvAction]]:
        left, top, right, bottom = element.bounds
        x = (left + right) // 2
        low, high = top + (bottom - top) // 4, bottom - (bottom - top) // 4
        return [
            (
                f"scroll forward {element.label}",
                EnvAction(action_type=T.USER_SWIPE_TO, coord=(x, high), tgt_coord=(x, low)),
            ),
            (
                f"scroll back {element.label}",
                EnvAction(action_type=T.USER_SWIPE_TO, coord=(x, low), tgt_coord=(x, high)),
            ),
        ]

    @property
    def entries(self) -> list[tuple[str, EnvAction]]:
        """The current screen's actions (``tap Wi-Fi``, ``scroll forward ...``), by index."""
        return list(self._entries)

    @property
    def extras(self) -> list[tuple[str, EnvAction]]:
        """The actions after ``max_elements``: back and home, as configured."""
        return list(self._extras)

    def action_masks(self) -> np.ndarray:
        """Which actions exist on the current screen (for MaskablePPO)."""
        mask = np.zeros(self.action_space.n, dtype=bool)
        mask[: len(self._entries)] = True
        mask[self.max_elements :] = True
        return mask

    def describe(self, action: int) -> str:
        """What ``action`` does on the current screen."""
        index = _check_index(action, self.action_space.n)
        if index >= self.max_elements:
            return self._extras[index - self.max_elements][0]
        return self._entries[index][0] if index < len(self._entries) else "nothing (masked)"

    def reset(self, **kwargs: Any):
        result = self.env.reset(**kwargs)
        self._refresh()
        return result

    def step(self, action: int):
        index = _check_index(action, self.action_space.n)
        error = ""
        if index >= self.max_elements:
            env_action = self._extras[index - self.max_elements][1]
        elif index < len(self._entries):
            env_action = self._entries[index][1]
        else:
            env_action, error = EnvAction(), f"no UI element {index} on this screen (it has {len(self._entries)})"
        obs, reward, terminated, truncated, info = self.env.step(env_action)
        if error:
            info["action_error"] = error
        if not (terminated or truncated):
            try:
                self._refresh()
            except DeviceError as err:  # the device went away after the step: end the episode
                truncated, info["device_error"] = True, f"{type(err).__name__}: {err}"
        return obs, reward, terminated, truncated, info

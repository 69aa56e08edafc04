"""Actions, observations and their Gymnasium spaces: MetaGPT's API with real values.

The names and values follow MetaGPT's ``metagpt.environment.android.env_space`` so agents
built on it move over by changing imports. Unlike that module, the spaces here hold the
values the env really uses: int64 pixel boxes whose upper bound is the last pixel, text
spaces that accept paths and printable unicode (empty where empty is valid), and
``Discrete`` choices for swipe orientation and distance.
"""

from __future__ import annotations

import copy
import functools
from enum import IntEnum
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

#: Longest text an :class:`EnvAction` may type, and longest observation path.
MAX_TEXT_LENGTH = 256
#: Swipe orientations, in the order of the ``orient`` Discrete space.
ORIENTS: tuple[str, ...] = ("up", "down", "left", "right")
#: Swipe distances, in the order of the ``dist`` Discrete space.
DISTS: tuple[str, ...] = ("medium", "long")


class EnvActionType(IntEnum):
    """What an action does. Values 0-6 are MetaGPT's; later values are androidrl's."""

    NONE = 0  # no action: only observe
    SYSTEM_BACK = 1
    SYSTEM_TAP = 2
    USER_INPUT = 3
    USER_LONGPRESS = 4
    USER_SWIPE = 5
    USER_SWIPE_TO = 6
    SYSTEM_HOME = 7
    SYSTEM_ENTER = 8


class EnvObsType(IntEnum):
    """What :meth:`androidrl.env.AndroidEnv.observe` returns."""

    NONE = 0  # the whole observation dict
    GET_SCREENSHOT = 1
    GET_XML = 2


# ---------------------------------------------------------------------------- text spaces


@functools.cache
def _printable_tables() -> tuple[frozenset[str], tuple[str, ...], dict[str, np.int32], str]:
    """Character tables of every printable character of the Basic Multilingual Plane."""
    chars = tuple(chr(c) for c in range(0x20, 0x10000) if not 0xD800 <= c <= 0xDFFF and chr(c).isprintable())
    index = {ch: np.int32(i) for i, ch in enumerate(chars)}
    return frozenset(chars), chars, index, "".join(chars)


class PrintableText(spaces.Text):
    """A :class:`gymnasium.spaces.Text` over all printable unicode (BMP) characters.

    It holds file paths and typed text in any script. Its character tables are built once
    per process and shared, so constructing, copying and pickling it stay cheap, and its
    repr does not print 55,000 characters.
    """

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        # Validate through Text with a tiny charset, then swap in the shared tables.
        super().__init__(max_length, min_length=min_length, charset="a", seed=seed)
        self._char_set, self._char_list, self._char_index, self._char_str = _printable_tables()

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """Sample a string uniformly over the printable characters.

        Indices into the shared table: no 55k-entry array per call, and no NumPy string array,
        whose sampling now and then swallowed a Ctrl-C (a random agent's loop ran on).
        """
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        length = int(self.np_random.integers(self.min_length, self.max_length + 1))
        chars = self._char_str
        return "".join([chars[i] for i in self.np_random.integers(0, len(chars), size=length).tolist()])

    def __repr__(self) -> str:
        return f"PrintableText({self.min_length}, {self.max_length})"

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for key in ("_char_set", "_char_list", "_char_index", "_char_str"):
            state.pop(key, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._char_set, self._char_list, self._char_index, self._char_str = _printable_tables()

    def __deepcopy__(self, memo: dict[int, Any]) -> PrintableText:
        new = PrintableText.__new__(PrintableText)
        new.__setstate__(copy.deepcopy(self.__getstate__(), memo))
        return new


def get_observation_space() -> spaces.Dict:
    """The observation space: local paths of the last screenshot (PNG) and UI XML.

    An empty string means "not captured this step" (e.g. the XML when XML dumps are off).
    """
    return spaces.Dict(
        {
            "screenshot": PrintableText(MAX_TEXT_LENGTH),
            "xml": PrintableText(MAX_TEXT_LENGTH),
        }
    )


def _check_device_shape(device_shape: Any) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in device_shape)
    except (TypeError, ValueError):
        raise TypeError(f"device_shape must be (width, height) in pixels, got {device_shape!r}") from None
    if width <= 0 or height <= 0:
        raise ValueError(f"device_shape must be positive (width, height), got {device_shape!r}")
    return width, height


def get_action_space(device_shape: tuple[int, int]) -> spaces.Dict:
    """The Dict action space for a screen of ``device_shape = (width, height)`` pixels.

    Coordinates are int64 ``(x, y)`` with the last pixel as the inclusive bound; ``orient``
    indexes :data:`ORIENTS` and ``dist`` indexes :data:`DISTS`. Every sample builds a valid
    :class:`EnvAction`: ``EnvAction(**space.sample())``.
    """
    width, height = _check_device_shape(device_shape)
    low = np.zeros(2, dtype=np.int64)
    high = np.array([width - 1, height - 1], dtype=np.int64)
    return spaces.Dict(
        {
            "action_type": spaces.Discrete(len(EnvActionType)),
            "coord": spaces.Box(low, high, dtype=np.int64),
            "tgt_coord": spaces.Box(low.copy(), high.copy(), dtype=np.int64),
            "input_txt": PrintableText(MAX_TEXT_LENGTH),
            "orient": spaces.Discrete(len(ORIENTS)),
            "dist": spaces.Discrete(len(DISTS)),
        }
    )


# ---------------------------------------------------------------------------- action model


def _coerce_coord(value: Any, name: str) -> np.ndarray:
    """Turn a list, tuple or array of two non-negative numbers into an int64 ``(2,)`` array."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be two numbers (x, y), got {value!r}")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be two numbers (x, y), got {value!r}") from err
    if arr.shape != (2,):
        raise ValueError(f"{name} must have shape (2,), got shape {arr.shape} from {value!r}")
    if arr.dtype == bool or not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype} from {value!r}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    ints = np.rint(arr).astype(np.int64)
    if np.any(ints < 0):
        raise ValueError(f"{name} must be non-negative pixels, got {value!r}")
    return ints


def _coerce_choice(value: Any, choices: tuple[str, ...], name: str) -> str:
    if isinstance(value, str) and value.lower() in choices:
        return value.lower()
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= int(value) < len(choices):
        return choices[int(value)]
    raise ValueError(f"{name} must be one of {choices} or an index 0-{len(choices) - 1}, got {value!r}")


class EnvAction(BaseModel):
    """One action: its type and the arguments that type uses.

    Accepts what MetaGPT's ``EnvAction`` accepts and what the action space samples:
    coordinates as lists, tuples or numpy arrays; ``orient``/``dist`` as names or indices;
    ``action_type`` as an :class:`EnvActionType`, its value or its name.

    Example:
        >>> EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(100, 200)).coord
        array([100, 200])
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid", validate_assignment=True)

    action_type: EnvActionType = Field(default=EnvActionType.NONE, description="action type")
    coord: np.ndarray = Field(default_factory=lambda: np.zeros(2, dtype=np.int64), description="operation coordinate")
    tgt_coord: np.ndarray = Field(default_factory=lambda: np.zeros(2, dtype=np.int64), description="target coordinate")
    input_txt: str = Field(default="", max_length=MAX_TEXT_LENGTH, description="text to type")
    orient: str = Field(default="up", description="swipe orientation: up, down, left, right")
    dist: str = Field(default="medium", description="swipe distance: medium, long")

    @field_validator("action_type", mode="before")
    @classmethod
    def _check_action_type(cls, value: Any) -> EnvActionType:
        if isinstance(value, str):
            try:
                return EnvActionType[value.upper()]
            except KeyError:
                pass
        elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            try:
                return EnvActionType(int(value))
            except ValueError:
                pass
        known = ", ".join(f"{t.name}={t.value}" for t in EnvActionType)
        raise ValueError(f"unknown action_type {value!r}; expected one of {known}")

    @field_validator("coord", "tgt_coord", mode="before")
    @classmethod
    def _check_coord(cls, value: Any, info: Any) -> np.ndarray:
        return _coerce_coord(value, info.field_name)

    @field_validator("input_txt", mode="before")
    @classmethod
    def _check_text(cls, value: Any) -> str:
        if not isinstance(value, str):
            raise TypeError(f"input_txt must be a str, got {type(value).__name__}")
        return value

    @model_validator(mode="after")
    def _arguments(self) -> EnvAction:
        # A tap without coord would tap (0, 0), a swipe_to without tgt_coord swipe to it: the type's own
        # arguments are given, or it is an error (orient and dist keep MetaGPT's defaults, up and medium).
        missing = [name for name in ARGUMENTS.get(self.action_type, ()) if name not in self.model_fields_set]
        if missing:
            raise ValueError(
                f"a {self.action_type.name} action needs {' and '.join(missing)}, which it was not given "
                f"(it has {sorted(self.model_fields_set) or 'nothing'})"
            )
        return self

    @field_validator("orient", mode="before")
    @classmethod
    def _check_orient(cls, value: Any) -> str:
        return _coerce_choice(value, ORIENTS, "orient")

    @field_validator("dist", mode="before")
    @classmethod
    def _check_dist(cls, value: Any) -> str:
        return _coerce_choice(value, DISTS, "dist")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EnvAction):
            return NotImplemented
        return (
            self.action_type == other.action_type
            and np.array_equal(self.coord, other.coord)
            and np.array_equal(self.tgt_coord, other.tgt_coord)
            and (self.input_txt, self.orient, self.dist) == (other.input_txt, other.orient, other.dist)
        )

    __hash__ = None  # mutable model

    def to_space_sample(self) -> dict[str, Any]:
        """The action as a member of :func:`get_action_space` (the inverse of ``EnvAction(**x)``)."""
        return {
            "action_type": int(self.action_type),
            "coord": self.coord.copy(),
            "tgt_coord": self.tgt_coord.copy(),
            "input_txt": self.input_txt,
            "orient": ORIENTS.index(self.orient),
            "dist": DISTS.index(self.dist),
        }


#: The arguments each action type uses that have no meaningful default.
ARGUMENTS = {
    EnvActionType.SYSTEM_TAP: ("coord",),
    EnvActionType.USER_LONGPRESS: ("coord",),
    EnvActionType.USER_SWIPE: ("coord",),
    EnvActionType.USER_SWIPE_TO: ("coord", "tgt_coord"),
    EnvActionType.USER_INPUT: ("input_txt",),
}
#: Action types whose ``coord`` (and for USER_SWIPE_TO ``tgt_coord``) is a screen point.
POINT_ACTIONS = frozenset(
    {EnvActionType.SYSTEM_TAP, EnvActionType.USER_LONGPRESS, EnvActionType.USER_SWIPE, EnvActionType.USER_SWIPE_TO}
)


def check_on_screen(action: EnvAction, screen_size: tuple[int, int]) -> None:
    """Raise :class:`ValueError` if a point the action uses lies off a ``(width, height)`` screen."""
    width, height = screen_size
    points = []
    if action.action_type in POINT_ACTIONS:
        points.append(("coord", action.coord))
    if action.action_type == EnvActionType.USER_SWIPE_TO:
        points.append(("tgt_coord", action.tgt_coord))
    for name, (x, y) in points:
        if x >= width or y >= height:
            raise ValueError(
                f"{action.action_type.name} {name} ({x}, {y}) is outside the {width}x{height} screen "
                f"(x must be 0-{width - 1}, y 0-{height - 1})"
            )


def swipe_end(x: int, y: int, orient: str, dist: str, screen_size: tuple[int, int]) -> tuple[int, int]:
    """Where MetaGPT's relative swipe from ``(x, y)`` ends, clamped to the screen.

    The unit is a tenth of the width, times 2 (medium) or 3 (long); vertical swipes go
    two units, horizontal ones one.
    """
    width, height = screen_size
    unit = int(width / 10) * (3 if dist == "long" else 2)
    dx, dy = {"up": (0, -2), "down": (0, 2), "left": (-1, 0), "right": (1, 0)}[orient]
    return min(max(x + dx * unit, 0), width - 1), min(max(y + dy * unit, 0), height - 1)


class EnvObsParams(BaseModel):
    """Arguments of :meth:`androidrl.env.AndroidEnv.observe` (MetaGPT's names)."""

    model_config = ConfigDict(extra="forbid")

    obs_type: EnvObsType = Field(default=EnvObsType.NONE, description="observation type")
    ss_name: str = Field(default="", description="screenshot file name, without .png")
    xml_name: str = Field(default="", description="UI XML file name, without .xml")
    local_save_dir: str | Path = Field(default="", description="local directory to save into")

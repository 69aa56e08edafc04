"""The screen as a list of UI elements, MiniWoB++-style: an element observation and an element action.

Both wrappers see the same elements, in the same slots: :func:`screen_elements` picks them from
the UI dump in document order — every element one can act on (clickable, long-clickable,
scrollable, checkable, editable, a slider) and every text not inside one of those — so slot
``k`` of :class:`ElementObservation` is the element that slot ``k`` of :class:`ElementAction`
acts on. An element's text is its own text or content description, else the texts inside it
(a settings row is known by its title and summary).

:class:`ElementObservation` gives fixed shapes for SB3's ``MultiInputPolicy``: per slot a
normalised box, a class id (class names hashed), text tokens and flags, a validity mask, plus
the instruction's tokens and each structured field's tokens. :class:`ElementAction` is a
``Discrete`` space: per slot tap, long press, scroll up/down/left/right and slider positions
0%, 10% ... 100%; then "type field i" (the episode's i-th field value, typed into the focused
text field with ``input text``); then back, home, enter and wait — with ``action_masks()`` for
MaskablePPO.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from typing import Annotated, Any

import gymnasium as gym
import numpy as np
from pydantic import Field

from androidrl.env import AndroidEnv
from androidrl.errors import DeviceError
from androidrl.spaces import MAX_TEXT_LENGTH, EnvAction, EnvActionType
from androidrl.tasks.base import Needs
from androidrl.ui import node_bounds
from androidrl.wrappers.action import _check_index, typed_action
from androidrl.wrappers.instruction import HashTokenizer

T = EnvActionType
#: The flags of an element, in the order of the observation's ``element_flags`` columns.
FLAGS = (
    "clickable",
    "long_clickable",
    "scrollable",
    "checkable",
    "checked",
    "focused",
    "enabled",
    "selected",
    "password",
    "editable",
)
_ATTRIBUTES = {flag: flag.replace("_", "-") for flag in FLAGS if flag != "editable"}
#: Slider positions of the element action: 0%, 10%, ... 100% of a SeekBar's track.
SLIDER_STEPS = 11
SCROLLS = ("up", "down", "left", "right")  # where the revealed content comes from ("down": what is below)
#: Elements a sideways swipe dismisses, which a dump cannot show: SystemUI's notification rows
#: (ExpandableNotificationRow offers ACTION_DISMISS; NotificationSwipeHelper takes the swipe).
SWIPE_DISMISSED = frozenset({"com.android.systemui:id/expandableNotificationRow"})


def is_editable(class_name: str) -> bool:
    """Whether a class is a text field (``EditText`` and its subclasses such as ``AutoCompleteTextView``)."""
    return class_name.endswith(("EditText", "AutoCompleteTextView"))


def is_slider(class_name: str) -> bool:
    """Whether a class is a slider (``SeekBar``, ``AbsSeekBar`` and their subclasses)."""
    return class_name.endswith("SeekBar")


@dataclass(frozen=True)
class Element:
    """One slot's element: where it is, what it is, what it says and its flags (see :data:`FLAGS`)."""

    bounds: tuple[int, int, int, int]
    class_name: str
    resource_id: str
    text: str
    flags: tuple[bool, ...]

    def flag(self, name: str) -> bool:
        """One of :data:`FLAGS`."""
        return self.flags[FLAGS.index(name)]

    @property
    def center(self) -> tuple[int, int]:
        """The centre pixel."""
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2


def _flags(attrs: dict[str, str], class_name: str) -> tuple[bool, ...]:
    return tuple(is_editable(class_name) if f == "editable" else attrs.get(_ATTRIBUTES[f]) == "true" for f in FLAGS)


def _inner_text(node: ET.Element) -> str:
    return " ".join(t for d in node.iter("node") if (t := d.attrib.get("text") or d.attrib.get("content-desc")))


_cache: tuple[ET.Element, int, list[Element]] | None = None  # (the last tree, limit, its elements)


def screen_elements(root: ET.Element, limit: int) -> list[Element]:
    """The first ``limit`` elements of a UI dump that an agent acts on or reads (see the module's docs).

    The same tree gives the same list object (the virtual phone hands back the same tree while
    the screen stays), so the observation and the action wrappers share one pass.
    """
    global _cache
    if _cache is not None and _cache[0] is root and _cache[1] == limit:
        return _cache[2]
    found: list[Element] = []
    stack: list[tuple[ET.Element, bool]] = [(child, False) for child in reversed(root)]
    while stack and len(found) < limit:
        node, covered = stack.pop()
        attrs = node.attrib
        class_name = attrs.get("class", "")
        # Texts inside something one taps (a row, a checkbox, a field) belong to it, not to slots of their own.
        holds_texts = (
            attrs.get("clickable") == "true"
            or attrs.get("long-clickable") == "true"
            or attrs.get("checkable") == "true"
            or is_editable(class_name)
        )
        acts = holds_texts or attrs.get("scrollable") == "true" or is_slider(class_name)
        own = attrs.get("text") or attrs.get("content-desc") or ""
        if acts or (own and not covered):
            bounds = node_bounds(node)
            if bounds is not None and bounds[2] > bounds[0] and bounds[3] > bounds[1]:
                text = own or _inner_text(node)
                found.append(Element(bounds, class_name, attrs.get("resource-id", ""), text, _flags(attrs, class_name)))
        if len(node):
            stack.extend((child, covered or holds_texts) for child in reversed(node))
    _cache = (root, limit, found)
    return found


def _elements(env: AndroidEnv, limit: int) -> list[Element]:
    return screen_elements(env.current_snapshot().hierarchy, limit)


def _check_slots(env: gym.Env, other: type, who: str, max_elements: int) -> None:
    """Refuse a wrapper whose slots would not line up with those of the other element wrapper below it."""
    while isinstance(env, gym.Wrapper):
        if isinstance(env, other) and env.max_elements != max_elements:
            raise ValueError(
                f"{who}: max_elements={max_elements} but the {other.__name__} it wraps has "
                f"{env.max_elements} slots; slot k of both must be the same element"
            )
        env = env.env


def _android(env: gym.Env, who: str) -> AndroidEnv:
    if not isinstance(env.unwrapped, AndroidEnv):
        raise TypeError(f"{who} wraps an AndroidEnv, got {type(env.unwrapped).__name__}")
    return env.unwrapped


#: The number of element slots (the same for the observation and the action of one env).
Slots = Annotated[int, Field(ge=1, le=256)]


# ---------------------------------------------------------------------------- the observation


class ElementObservation(gym.ObservationWrapper):
    """The UI elements of the screen (and the instruction and its fields) as fixed-shape arrays.

    The observation is a Dict: ``element_boxes`` (N x 4 floats in [0, 1]: left, top, right,
    bottom over the screen's size), ``element_classes`` (N class ids, 0 for an empty slot),
    ``element_texts`` (N x ``text_tokens`` token ids), ``element_flags`` (N x 10, see
    :data:`FLAGS`), ``element_mask`` (which slots hold an element), ``instruction`` (token ids)
    and ``fields`` (``max_fields`` x ``field_tokens`` token ids of the episode's field values);
    and ``screen`` (or the image parts) when it wraps an image observation.

    Args:
        env: An AndroidEnv, possibly wrapped (an image observation is kept beside the elements).
        max_elements: Slots N (the element action must have as many).
        text_tokens: Token ids per element text.
        instruction_tokens: Token ids of the instruction.
        max_fields: Field slots.
        field_tokens: Token ids per field value.
        vocab_size: Hash buckets of words (0 pads).
        class_vocab: Hash buckets of class names (0: empty slot).

    Raises:
        TypeError: It does not wrap an AndroidEnv.
        ValueError: An element action in the stack has another number of slots.

    Example:
        >>> env = ElementObservation(AndroidEnv(VirtualDevice(width=360, height=800), "wifi-on"), max_elements=32)
        >>> env.observation_space["element_boxes"].shape
        (32, 4)
    """

    def __init__(
        self,
        env: gym.Env,
        max_elements: Slots = 32,
        text_tokens: Annotated[int, Field(ge=1, le=64)] = 6,
        instruction_tokens: Annotated[int, Field(ge=1, le=256)] = 16,
        max_fields: Annotated[int, Field(ge=0, le=16)] = 4,
        field_tokens: Annotated[int, Field(ge=1, le=64)] = 4,
        vocab_size: Annotated[int, Field(ge=2, le=1_000_000)] = 1024,
        class_vocab: Annotated[int, Field(ge=2, le=65_536)] = 64,
    ) -> None:
        super().__init__(env)
        self._android = _android(env, "ElementObservation")
        for name, value, low, high in (
            ("max_elements", max_elements, 1, 256),
            ("text_tokens", text_tokens, 1, 64),
            ("instruction_tokens", instruction_tokens, 1, 256),
            ("max_fields", max_fields, 0, 16),
            ("field_tokens", field_tokens, 1, 64),
            ("vocab_size", vocab_size, 2, 1_000_000),
            ("class_vocab", class_vocab, 2, 65_536),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"ElementObservation: {name} must be an int in {low}..{high}, got {value!r}")
        _check_slots(env, ElementAction, "ElementObservation", max_elements)
        self.max_elements = max_elements
        self.class_vocab = class_vocab
        self.max_fields = max_fields
        self.texts = HashTokenizer(vocab_size, text_tokens)
        self.instruction_tokenizer = HashTokenizer(vocab_size, instruction_tokens)
        self.field_tokenizer = HashTokenizer(vocab_size, field_tokens)
        self._android.require(Needs.UI)
        inner = env.observation_space
        if isinstance(inner, gym.spaces.Box):
            spaces: dict[str, gym.Space] = {"screen": inner}
        elif isinstance(inner, gym.spaces.Dict) and not {"screenshot", "xml"} <= set(inner.spaces):
            spaces = dict(inner.spaces)
        else:  # the raw env's file paths: the elements replace them, and no files are written
            spaces = {}
            self._android.set_write_files(False)
        self._keeps = bool(spaces)
        n = max_elements
        spaces.update(
            element_boxes=gym.spaces.Box(0.0, 1.0, (n, 4), np.float32),
            element_classes=gym.spaces.Box(0, class_vocab - 1, (n,), np.int64),
            element_texts=gym.spaces.Box(0, vocab_size - 1, (n, text_tokens), np.int64),
            element_flags=gym.spaces.MultiBinary([n, len(FLAGS)]),
            element_mask=gym.spaces.MultiBinary(n),
            instruction=gym.spaces.Box(0, vocab_size - 1, (instruction_tokens,), np.int64),
            fields=gym.spaces.Box(0, vocab_size - 1, (max(1, max_fields), field_tokens), np.int64),
        )
        self.observation_space = gym.spaces.Dict(spaces)
        self._instruction = np.zeros(instruction_tokens, np.int64)
        self._fields = np.zeros((max(1, max_fields), field_tokens), np.int64)
        self._last: tuple[list[Element], dict[str, np.ndarray]] | None = None

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self._instruction = self.instruction_tokenizer(info.get("instruction") or "")
        self._fields[:] = 0
        for i, value in enumerate(list((info.get("fields") or {}).values())[: self.max_fields]):
            self._fields[i] = self.field_tokenizer(value)
        return self.observation(obs), info

    def observation(self, observation: Any) -> dict[str, np.ndarray]:
        """The Dict observation of the current screen."""
        elements = _elements(self._android, self.max_elements)
        if self._last is None or self._last[0] is not elements:
            self._last = (elements, self._arrays(elements))
        out: dict[str, Any] = {}
        if self._keeps:
            out.update(observation if isinstance(observation, dict) else {"screen": observation})
        out.update({k: v.copy() for k, v in self._last[1].items()})
        out["instruction"] = self._instruction.copy()
        out["fields"] = self._fields.copy()
        return out

    def _arrays(self, elements: list[Element]) -> dict[str, np.ndarray]:
        n = self.max_elements
        width, height = self._android.screen_size
        boxes = np.zeros((n, 4), np.float32)
        classes = np.zeros(n, np.int64)
        texts = np.zeros((n, self.texts.max_tokens), np.int64)
        flags = np.zeros((n, len(FLAGS)), np.int8)
        mask = np.zeros(n, np.int8)
        for k, element in enumerate(elements):
            left, top, right, bottom = element.bounds
            boxes[k] = (left / width, top / height, right / width, bottom / height)
            classes[k] = 1 + zlib.crc32(element.class_name.encode()) % (self.class_vocab - 1)
            texts[k] = self.texts(element.text)
            flags[k] = element.flags
            mask[k] = 1
        np.clip(boxes, 0.0, 1.0, out=boxes)
        return {
            "element_boxes": boxes,
            "element_classes": classes,
            "element_texts": texts,
            "element_flags": flags,
            "element_mask": mask,
        }


# ---------------------------------------------------------------------------- the action


class ElementAction(gym.Wrapper):
    """``Discrete`` actions on the screen's elements, slot by slot, plus field typing and keys.

    Entry ``k * K + j`` does the j-th of the slot's K kinds to element k: ``tap``,
    ``long_press`` (if ``long_press``), ``scroll_up|down|left|right`` (if ``scroll``: a drag
    inside the element; ``scroll_down`` shows what is below), ``slide_0`` ... ``slide_10`` (if
    ``slider``: a tap on a SeekBar's track at 0%, 10% ... 100%, the track being the element's
    width inset by half its height). Then ``type_field_0`` ... (``fields`` of them: ``input
    text`` of the episode's i-th field value), then back, home, enter and wait (as enabled).

    :meth:`action_masks` allows a slot's kinds that fit its element (a tap on what is clickable,
    checkable or editable, or on a touch helper's virtual view such as a clock face's number; a long
    press on what is long-clickable; scrolls on what scrolls, and sideways ones on a notification
    row, which a swipe dismisses; slider positions on a SeekBar), the typing actions of existing
    fields while a text field has focus, and the keys. A masked action still acts (an agent may tap
    a text); an empty slot or a missing field does nothing and says so in ``info["action_error"]``.

    Raises:
        TypeError: It does not wrap an AndroidEnv.
        ValueError: An element observation in the stack has another number of slots.
    """

    def __init__(
        self,
        env: gym.Env,
        max_elements: Slots = 32,
        long_press: bool = True,
        scroll: bool = True,
        slider: bool = True,
        fields: Annotated[int, Field(ge=0, le=16)] = 4,
        back: bool = True,
        home: bool = True,
        enter: bool = True,
        wait: bool = True,
    ) -> None:
        super().__init__(env)
        self._android = _android(env, "ElementAction")
        if isinstance(max_elements, bool) or not isinstance(max_elements, int) or not 1 <= max_elements <= 256:
            raise ValueError(f"ElementAction: max_elements must be an int in 1..256, got {max_elements!r}")
        if isinstance(fields, bool) or not isinstance(fields, int) or not 0 <= fields <= 16:
            raise ValueError(f"ElementAction: fields must be an int in 0..16, got {fields!r}")
        _check_slots(env, ElementObservation, "ElementAction", max_elements)
        self._android.require(Needs.UI)
        self.max_elements = max_elements
        self.kinds = ["tap"] + ["long_press"] * long_press + [f"scroll_{d}" for d in SCROLLS if scroll]
        self.kinds += [f"slide_{i * 10}" for i in range(SLIDER_STEPS)] if slider else []
        self.fields = fields
        self.keys = [name for name, on in (("back", back), ("home", home), ("enter", enter), ("wait", wait)) if on]
        self._key_actions = [typed_action("none" if k == "wait" else k, (0, 0)) for k in self.keys]
        self.action_space = gym.spaces.Discrete(max_elements * len(self.kinds) + fields + len(self.keys))
        self._elements: list[Element] = []
        self._mask: tuple[list[Element], int, np.ndarray] | None = None  # (the elements, fields, their mask)

    @property
    def elements(self) -> list[Element]:
        """The current screen's elements, by slot."""
        return list(self._elements)

    def index(self, slot: int, kind: str) -> int:
        """The action that does ``kind`` (``tap``, ``scroll_down``, ``slide_70``...) to slot ``slot``."""
        return slot * len(self.kinds) + self.kinds.index(kind)

    def field_index(self, i: int) -> int:
        """The action that types field ``i``."""
        return self.max_elements * len(self.kinds) + i

    def key_index(self, key: str) -> int:
        """The action of a key (``back``, ``home``, ``enter``, ``wait``)."""
        return self.max_elements * len(self.kinds) + self.fields + self.keys.index(key)

    def _field_values(self) -> list[str]:
        return list(getattr(self._android.task, "fields", {}).values())[: self.fields]

    def action_masks(self) -> np.ndarray:
        """Which actions fit the current screen (for MaskablePPO); the same screen and fields give the same mask."""
        fields = len(self._field_values())
        if self._mask is None or self._mask[0] is not self._elements or self._mask[1] != fields:
            mask = np.zeros(self.action_space.n, dtype=bool)
            width = len(self.kinds)
            for k, element in enumerate(self._elements):
                for j, kind in enumerate(self.kinds):
                    mask[k * width + j] = _fits(element, kind)
            if any(e.flag("editable") and e.flag("focused") for e in self._elements):
                mask[self.max_elements * width : self.max_elements * width + fields] = True
            mask[self.max_elements * width + self.fields :] = True
            self._mask = (self._elements, fields, mask)
        return self._mask[2].copy()

    def describe(self, action: int) -> str:
        """What ``action`` does on the current screen."""
        index = _check_index(action, self.action_space.n)
        slot, j = divmod(index, len(self.kinds))
        if slot < self.max_elements:
            if slot >= len(self._elements):
                return f"{self.kinds[j]} slot {slot} (empty)"
            return f"{self.kinds[j]} {self._elements[slot].text or self._elements[slot].class_name}"
        rest = index - self.max_elements * len(self.kinds)
        return f"type field {rest}" if rest < self.fields else self.keys[rest - self.fields]

    def _env_action(self, index: int) -> tuple[EnvAction, str]:
        slot, j = divmod(index, len(self.kinds))
        if slot < self.max_elements:
            if slot >= len(self._elements):
                return EnvAction(), f"no element in slot {slot} (the screen has {len(self._elements)})"
            return element_action(self._elements[slot], self.kinds[j]), ""
        rest = index - self.max_elements * len(self.kinds)
        if rest >= self.fields:
            return self._key_actions[rest - self.fields], ""
        values = self._field_values()
        if rest >= len(values):
            return EnvAction(), f"no field {rest} in this episode (it has {len(values)})"
        return EnvAction(action_type=T.USER_INPUT, input_txt=values[rest][:MAX_TEXT_LENGTH]), ""

    def reset(self, **kwargs: Any):
        result = self.env.reset(**kwargs)
        self._elements = _elements(self._android, self.max_elements)
        return result

    def step(self, action: int):
        env_action, error = self._env_action(_check_index(action, self.action_space.n))
        obs, reward, terminated, truncated, info = self.env.step(env_action)
        if error:
            info["action_error"] = error
        if not (terminated or truncated):
            try:
                self._elements = _elements(self._android, self.max_elements)
            except DeviceError as err:  # the device went away after the step: end the episode
                truncated, info["device_error"] = True, f"{type(err).__name__}: {err}"
        return obs, reward, terminated, truncated, info


#: The class an ExploreByTouchHelper's virtual views end with when their helper names them (a clock face's
#: numbers: ``RadialTimePickerView$RadialPickerTouchHelper``). They offer ACTION_CLICK, which a dump does not show.
TOUCH_HELPER = "TouchHelper"


def _fits(element: Element, kind: str) -> bool:
    if kind == "tap":
        flags = element.flag("clickable") or element.flag("checkable") or element.flag("editable")
        return flags or element.class_name.endswith(TOUCH_HELPER)
    if kind == "long_press":
        return element.flag("long_clickable")
    if kind.startswith("scroll_"):
        sideways = kind == "scroll_left" or kind == "scroll_right"
        return element.flag("scrollable") or (sideways and element.resource_id in SWIPE_DISMISSED)
    return is_slider(element.class_name)


def slider_point(bounds: tuple[int, int, int, int], fraction: float) -> tuple[int, int]:
    """Where a tap sets a SeekBar to ``fraction``: its track is its width inset by half its height."""
    left, top, right, bottom = bounds
    inset = min((bottom - top) // 2, (right - left) // 4)
    x = left + inset + round(fraction * (right - left - 1 - 2 * inset))
    return x, (top + bottom) // 2


def scroll_points(bounds: tuple[int, int, int, int], direction: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The drag inside ``bounds`` that scrolls its content so that what lies ``direction`` comes into view."""
    left, top, right, bottom = bounds
    x, y = (left + right) // 2, (top + bottom) // 2
    near_top, near_bottom = top + (bottom - top) // 4, bottom - (bottom - top) // 4
    near_left, near_right = left + (right - left) // 4, right - (right - left) // 4
    return {
        "down": ((x, near_bottom), (x, near_top)),
        "up": ((x, near_top), (x, near_bottom)),
        "right": ((near_right, y), (near_left, y)),
        "left": ((near_left, y), (near_right, y)),
    }[direction]


def element_action(element: Element, kind: str) -> EnvAction:
    """The EnvAction of one of :class:`ElementAction`'s kinds on ``element``."""
    if kind == "tap":
        return EnvAction(action_type=T.SYSTEM_TAP, coord=element.center)
    if kind == "long_press":
        return EnvAction(action_type=T.USER_LONGPRESS, coord=element.center)
    if kind.startswith("scroll_"):
        start, end = scroll_points(element.bounds, kind.removeprefix("scroll_"))
        return EnvAction(action_type=T.USER_SWIPE_TO, coord=start, tgt_coord=end)
    fraction = int(kind.removeprefix("slide_")) / 100
    return EnvAction(action_type=T.SYSTEM_TAP, coord=slider_point(element.bounds, fraction))

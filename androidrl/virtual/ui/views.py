"""The virtual phone's view tree: Android widget look-alikes with layout and hit testing.

Sizes are in dp (density-independent pixels) and become pixels in :meth:`View.layout`,
as on Android. A view carries the attributes ``uiautomator dump`` reports (class,
resource-id, text, content-desc and the boolean flags) plus drawing style and the
callbacks that make it interactive. Activities rebuild their tree from their own state
after every event, so views hold no state of their own beyond the current frame.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from androidrl.virtual.ui import config
from androidrl.virtual.ui.scroll import ScrollState

Box = tuple[int, int, int, int]  # left, top, right, bottom in pixels (right/bottom exclusive)
Color = tuple[int, int, int]
MATCH = -1  # width/height: fill the parent
WRAP = -2  # height: fit the content

# A small Material palette shared by the apps and the renderer.
WHITE: Color = (255, 255, 255)
SURFACE: Color = (248, 249, 250)
TEXT: Color = (32, 33, 36)
TEXT_SECONDARY: Color = (95, 99, 104)
PRIMARY: Color = (26, 115, 232)
DIVIDER: Color = (218, 220, 224)
HINT: Color = (154, 160, 166)


class Density(float):
    """Pixels per dp (the ``scale`` layout and drawing take), carrying the font scale.

    ``scale * scale.font`` is Android's ``scaledDensity``: pixels per sp. A plain float is a
    density with a font scale of 1.
    """

    __slots__ = ("font",)

    def __new__(cls, dp: float, font: float = 1.0) -> Density:
        density = super().__new__(cls, dp)
        density.font = font
        return density


@dataclass(frozen=True)
class Drag:
    """A touch that moved past the touch slop: from ``(x1, y1)`` to ``(x2, y2)`` in ``duration_ms``."""

    x1: float
    y1: float
    x2: float
    y2: float
    duration_ms: int
    scale: float = 1.0  # pixels per dp on the screen it happened on

    @property
    def axis(self) -> str:
        """``x`` for a mostly horizontal drag, else ``y``."""
        return "x" if abs(self.x2 - self.x1) > abs(self.y2 - self.y1) else "y"

    def velocity(self) -> tuple[float, float]:
        """Pixels per second along x and y (the finger's speed when it lifted, taken as even)."""
        seconds = max(self.duration_ms, 1) / 1000
        return (self.x2 - self.x1) / seconds, (self.y2 - self.y1) / seconds


@dataclass(eq=False, init=False)
class View:
    """A node of the view tree (``android.view.View``).

    Attributes mirror the uiautomator node attributes; ``on_click``/``on_long_click`` make
    a view interactive; ``width``/``height`` are dp, :data:`MATCH` or :data:`WRAP`. Built with
    keywords only: ``View(cls=..., text=..., children=[...])``.
    """

    cls: str = "android.view.View"
    resource_id: str = ""
    text: str = ""
    content_desc: str = ""
    hint: str = ""
    children: list[View] = field(default_factory=list)
    width: float = MATCH
    height: float = WRAP
    weight: float = 0.0  # share of the leftover space in a LinearLayout
    x: float = 0.0  # dp offset inside a FrameLayout
    y: float = 0.0
    padding: float = 0.0
    background: Color | None = None
    corner: float = 0.0  # dp radius of the background
    text_size: float = 14.0  # sp
    text_color: Color = TEXT
    bold: bool = False
    gravity: str = "start"  # text alignment: start, center
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    enabled: bool = True
    selected: bool = False
    password: bool = False
    on_click: Callable[[], None] | None = None
    on_long_click: Callable[[], None] | None = None
    on_text: Callable[[str], None] | None = None  # typed text, while focused
    on_key: Callable[[int], bool] | None = None  # key events, while focused; True if used
    # Set by layout: the view's box and the part of it that is on screen.
    bounds: Box = (0, 0, 0, 0)
    visible: Box = (0, 0, 0, 0)

    # Gestures for the views that take more than a click (set after construction; few views have them,
    # and class-level defaults keep building the many that do not as cheap as before).
    #: A tap at pixel (x, y), for views that care where (a SeekBar, a text field, a clock face).
    on_tap: ClassVar[Callable[[float, float], None] | None] = None
    #: A long press at pixel (x, y) (a text field selects the word there).
    on_long_tap: ClassVar[Callable[[float, float], None] | None] = None
    #: A drag that starts on the view along one of its :attr:`drag_axis`.
    on_drag: ClassVar[Callable[[Drag], None] | None] = None
    #: The drags it takes: "y" (a list scrolls), "x" (a SeekBar, a swiped row), "xy".
    drag_axis: ClassVar[str] = ""
    #: Whether the class draws itself (overrides :meth:`paint`); set for each subclass.
    paints: ClassVar[bool] = False

    def __init__(self, **attributes: Any) -> None:
        # Only what is given is stored; the class holds every other default. Every screen's tree is built
        # again after each touch, and a view sets a few of its 36 attributes: storing all of them was the
        # larger part of building one.
        unknown = attributes.keys() - _ATTRIBUTES
        if unknown:
            raise TypeError(f"{type(self).__name__} has no attribute {sorted(unknown)[0]!r}")
        self.__dict__.update(attributes)
        if "children" not in attributes:
            self.children = []

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls.paints = cls.paint is not View.paint

    def walk(self) -> Iterator[View]:
        """This view and all its descendants, depth first, in drawing order."""
        yield self
        for child in self.children:
            yield from child.walk()

    # ------------------------------------------------------------------ layout

    def measure_height(self, width_px: int, scale: float) -> int:
        """Height in pixels this view wants when given ``width_px``.

        A fixed height is exact, except under a font scale above 1: then it is a minimum that
        grows to fit the bigger text, as ``minHeight`` does (Android's lists and rows wrap
        their content).
        """
        if self.height >= 0:
            fixed = round(self.height * scale)
            if type(scale) is not float and scale.font > 1 and (self.text or self.hint or self.children):
                return max(fixed, self.content_height(width_px, scale) + round(2 * self.padding * scale))
            return fixed
        return self.content_height(width_px, scale) + round(2 * self.padding * scale)

    def content_height(self, width_px: int, scale: float) -> int:
        """Height of the view's own content (text line or children), without padding."""
        if not (self.text or self.hint):
            return 0
        return round(self.text_size * scale * (1.4 if type(scale) is float else 1.4 * scale.font))

    def text_px(self, scale: float) -> float:
        """The text size in pixels: ``sp`` scaled by the density and the font scale (``scaledDensity``)."""
        return self.text_size * scale if type(scale) is float else self.text_size * scale * scale.font

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        """Place this view in ``box``; ``clip`` is the visible region of the parent."""
        self.bounds = box
        self.visible = _intersect(box, clip)

    def paint(self, scale: float) -> list[tuple] | None:
        """The drawing operations of a widget that draws itself (``render``'s ops), or None to draw as a label."""
        return None

    def is_shown(self) -> bool:
        """Whether any part of the view is on screen."""
        left, top, right, bottom = self.visible
        return right > left and bottom > top


#: The attributes a view takes (its dataclass fields).
_ATTRIBUTES = frozenset(View.__dataclass_fields__)


class TextView(View):
    """``android.widget.TextView``."""

    def __init__(self, text: str = "", **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.TextView")
        super().__init__(text=text, **kwargs)


class Button(View):
    """``android.widget.Button``: a clickable, focusable, rounded label."""

    def __init__(self, text: str = "", **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.Button")
        kwargs.setdefault("clickable", True)
        kwargs.setdefault("focusable", True)
        kwargs.setdefault("background", PRIMARY)
        kwargs.setdefault("text_color", WHITE)
        kwargs.setdefault("corner", 20.0)
        kwargs.setdefault("gravity", "center")
        kwargs.setdefault("height", 48.0)
        kwargs.setdefault("bold", True)
        super().__init__(text=text, **kwargs)


class EditText(View):
    """``android.widget.EditText``: typed text goes here while it is focused."""

    def __init__(self, text: str = "", **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.EditText")
        kwargs.setdefault("clickable", True)
        kwargs.setdefault("focusable", True)
        kwargs.setdefault("long_clickable", True)
        kwargs.setdefault("height", 56.0)
        kwargs.setdefault("text_size", 16.0)
        super().__init__(text=text, **kwargs)


class Switch(View):
    """``android.widget.Switch``: a checkable toggle drawn as track and thumb."""

    def __init__(self, checked: bool = False, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.Switch")
        kwargs.setdefault("checkable", True)
        kwargs.setdefault("focusable", True)
        kwargs.setdefault("width", 52.0)
        kwargs.setdefault("height", 32.0)
        super().__init__(checked=checked, **kwargs)


class ImageView(View):
    """``android.widget.ImageView``: an icon, drawn as a coloured disc with a glyph."""

    def __init__(self, glyph: str = "", color: Color = PRIMARY, glyph_color: Color = WHITE, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.ImageView")
        super().__init__(**kwargs)
        self.glyph = glyph
        self.color = color
        self.glyph_color = glyph_color


class AppIcon(View):
    """A launcher shortcut: icon above label, reported as Launcher3's clickable TextView."""

    def __init__(self, label: str, glyph: str, color: Color, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.TextView")
        kwargs.setdefault("clickable", True)
        kwargs.setdefault("long_clickable", True)
        kwargs.setdefault("focusable", True)
        kwargs.setdefault("height", 92.0)
        kwargs.setdefault("text_size", 12.0)
        super().__init__(text=label, content_desc=label, **kwargs)
        self.glyph = glyph
        self.color = color


class LinearLayout(View):
    """``android.widget.LinearLayout``: children in a column (or a row)."""

    def __init__(self, children: list[View] | None = None, vertical: bool = True, **kwargs):
        kwargs.setdefault("cls", "android.widget.LinearLayout")
        super().__init__(children=list(children or []), **kwargs)
        self.vertical = vertical

    def content_height(self, width_px: int, scale: float) -> int:
        inner = width_px - round(2 * self.padding * scale)
        if self.vertical:
            return sum(c.measure_height(inner, scale) for c in self.children if c.weight == 0)
        widths = self._child_widths(inner, scale)
        return max((c.measure_height(w, scale) for c, w in zip(self.children, widths)), default=0)

    def _child_widths(self, inner: int, scale: float) -> list[int]:
        fixed = [round(c.width * scale) if c.width >= 0 else 0 for c in self.children]
        weights = [c.weight or (1.0 if c.width == MATCH else 0.0) for c in self.children]
        spare = max(0, inner - sum(fixed))
        total = sum(weights) or 1.0
        return [f + round(spare * w / total) for f, w in zip(fixed, weights)]

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        super().layout(box, clip, scale)
        pad = round(self.padding * scale)
        left, top, right, bottom = box[0] + pad, box[1] + pad, box[2] - pad, box[3] - pad
        inner = right - left
        if self.vertical:
            heights = [c.measure_height(inner, scale) for c in self.children]
            spare = max(0, (bottom - top) - sum(h for c, h in zip(self.children, heights) if not c.weight))
            weight_total = sum(c.weight for c in self.children) or 1.0
            y = top
            for child, h in zip(self.children, heights):
                if child.weight:
                    h = round(spare * child.weight / weight_total)
                cw = inner if child.width < 0 else min(inner, round(child.width * scale))
                x = left + (inner - cw) // 2  # fixed-width children sit centred
                child.layout((x, y, x + cw, y + h), self.visible, scale)
                y += h
        else:
            x = left
            for child, w in zip(self.children, self._child_widths(inner, scale)):
                h = child.measure_height(w, scale) if child.height != MATCH else bottom - top
                h = min(h, bottom - top)
                y = top + (bottom - top - h) // 2  # rows centre their children vertically
                child.layout((x, y, x + w, y + h), self.visible, scale)
                x += w


class FrameLayout(View):
    """``android.widget.FrameLayout``: children fill it, or sit at their ``x``/``y`` offset."""

    def __init__(self, children: list[View] | None = None, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.FrameLayout")
        kwargs.setdefault("height", MATCH)
        super().__init__(children=list(children or []), **kwargs)

    def content_height(self, width_px: int, scale: float) -> int:
        return max((c.measure_height(width_px, scale) for c in self.children), default=0)

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        super().layout(box, clip, scale)
        for child in self.children:
            w = box[2] - box[0] if child.width < 0 else round(child.width * scale)
            h = box[3] - box[1] if child.height == MATCH else child.measure_height(w, scale)
            left = box[0] + round(child.x * scale)
            top = box[1] + round(child.y * scale)
            child.layout((left, top, left + w, top + h), self.visible, scale)


class ScrollingList(View):
    """A vertically scrolling column (``androidx.recyclerview.widget.RecyclerView``).

    Its position lives in the owning activity, so it survives the tree being rebuilt: either
    a :class:`~androidrl.virtual.ui.scroll.ScrollState` (``state``: flings on after a fast swipe
    and shows the edge glow of an overscroll, over the phone's clock), or a plain offset
    (``scroll_y`` in pixels, with ``on_scroll`` handing the clamped new offset back).
    """

    def __init__(
        self,
        children: list[View] | None = None,
        scroll_y: int = 0,
        on_scroll: Callable[[int], None] | None = None,
        state: ScrollState | None = None,
        **kwargs,
    ) -> None:
        kwargs.setdefault("cls", "androidx.recyclerview.widget.RecyclerView")
        kwargs.setdefault("height", MATCH)
        kwargs.setdefault("focusable", True)
        super().__init__(children=list(children or []), **kwargs)
        self.state = state
        self.scroll_y = round(state.position()) if state is not None else scroll_y
        self.on_scroll = on_scroll
        self.max_scroll = 0
        self.glow = 0  # pixels of edge glow to draw (negative: at the top)

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        super().layout(box, clip, scale)
        width = box[2] - box[0]
        heights = [c.measure_height(width, scale) for c in self.children]
        self.max_scroll = max(0, sum(heights) - (box[3] - box[1]))
        self.scroll_y = min(max(0, self.scroll_y), self.max_scroll)
        self.scrollable = self.max_scroll > 0
        self.drag_axis = "y" if self.scrollable else ""
        if self.state is not None:
            self.glow = round(self.state.glow_px())
            config.animate_until(self.state.moving_until())
        y = box[1] - self.scroll_y
        for child, h in zip(self.children, heights):
            child.layout((box[0], y, box[2], y + h), self.visible, scale)
            y += h

    def on_drag(self, drag: Drag) -> None:
        """A finger dragged the list: it follows, then flings on or glows at an end (with a ``state``)."""
        if self.state is None:
            self.scroll_by(round(drag.y1 - drag.y2))
        else:
            self.state.drag(drag.y1 - drag.y2, self.max_scroll, -drag.velocity()[1], drag.scale)

    def scroll_by(self, dy: int) -> bool:
        """Scroll the content by ``dy`` pixels (positive shows what is below); True if it moved."""
        new = min(max(0, self.scroll_y + dy), self.max_scroll)
        if new == self.scroll_y:
            return False
        self.scroll_y = new
        if self.state is not None:
            self.state.scroll_to(new)
        if self.on_scroll is not None:
            self.on_scroll(new)
        return True


def _intersect(a: Box, b: Box) -> Box:
    left, top = max(a[0], b[0]), max(a[1], b[1])
    right, bottom = min(a[2], b[2]), min(a[3], b[3])
    if right <= left or bottom <= top:
        return (left, top, left, top)
    return (left, top, right, bottom)


def contains(box: Box, x: float, y: float) -> bool:
    """Whether pixel ``(x, y)`` lies inside ``box``."""
    return box[0] <= x < box[2] and box[1] <= y < box[3]


def find_target(root: View, x: float, y: float, want: Callable[[View], bool]) -> View | None:
    """The deepest, top-most shown view at ``(x, y)`` for which ``want`` is true.

    Children are searched in reverse drawing order, as Android dispatches touches.
    """
    if not contains(root.visible, x, y):
        return None
    for child in reversed(root.children):
        hit = find_target(child, x, y, want)
        if hit is not None:
            return hit
    return root if (root.enabled and want(root)) else None


class BottomEnd(FrameLayout):
    """A frame whose first child fills it and whose others sit at its bottom end, 16 dp in.

    A floating action button's place (CoordinatorLayout with layout_gravity bottom|end and the
    Material FAB's 16 dp margin), as the Contacts, Phone and Notes lists place theirs.
    """

    MARGIN_DP = 16.0

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        View.layout(self, box, clip, scale)
        content, *floating = self.children
        content.layout(box, self.visible, scale)
        margin = round(self.MARGIN_DP * scale)
        for child in floating:
            w, h = round(child.width * scale), round(child.height * scale)
            right, bottom = box[2] - margin, box[3] - margin
            child.layout((right - w, bottom - h, right, bottom), self.visible, scale)

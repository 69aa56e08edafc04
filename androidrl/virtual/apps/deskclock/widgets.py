"""The views DeskClock's screens share: its tabs, the floating action button row, day buttons, a hairline.

desk_clock.xml: a Toolbar holding the TabLayout (``tabs``; each tab its icon over its label,
``tab_item.xml``'s ``android:id/text1``, as ``showTabLabel`` is true on a phone), the pages, and
at the bottom the ``left_button``, the ``fab`` and the ``right_button`` the page in front fills
(``FabController``: ``onUpdateFab``, ``onUpdateFabButtons``; a button a page does not use is
INVISIBLE, so the dump leaves it out).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from androidrl.virtual.ui.controls import CheckBox, TabView
from androidrl.virtual.ui.views import (
    DIVIDER,
    HINT,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Box,
    FrameLayout,
    ImageView,
    LinearLayout,
    TextView,
    View,
)

PACKAGE = "com.android.deskclock"
RID = f"{PACKAGE}:id/"
#: (glyph, content description, what a tap does) of the fab; (text, what a tap does) of a side button.
Fab = tuple[str, str, Callable[[], None]]
SideButton = tuple[str, Callable[[], None]]


class TabLabel(TextView):
    """tab_item.xml's ``android:id/text1``: the tab's label with its icon drawn above it (a top compound drawable)."""

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        mid = top + (bottom - top) * 9 // 20
        size = round(self.text_px(scale))
        return [
            ("text", (left, top, right, mid), self.glyph, round(size * 1.2), self.text_color, True, "center"),
            ("text", (left, mid, right, bottom), self.text, size, self.text_color, self.bold, "center"),
        ]


def tabs(titles: Sequence[tuple[str, str]], selected: int, on_select: Callable[[int], None]) -> View:
    """The Toolbar with DeskClock's TabLayout: ``(icon glyph, label)`` per tab, the ``selected`` one marked."""
    views = []
    for i, (glyph, title) in enumerate(titles):
        color = PRIMARY if i == selected else TEXT_SECONDARY
        label = TabLabel(title, resource_id="android:id/text1", text_size=13, height=52, bold=i == selected,
                         text_color=color)  # fmt: skip
        label.glyph = glyph
        views.append(
            TabView(
                [label],
                content_desc=title,
                selected=i == selected,
                clickable=i != selected,
                focusable=True,
                weight=1,
                width=0,
                height=64,
                padding=6,
                on_click=lambda i=i: on_select(i),
            )
        )
    strip = LinearLayout(views, vertical=False, height=64)
    layout = FrameLayout([strip], cls="android.widget.HorizontalScrollView", resource_id=RID + "tabs", height=64)
    return FrameLayout(
        [layout], cls="android.view.ViewGroup", resource_id=RID + "toolbar", height=64, background=SURFACE
    )


def fab_row(fab: Fab | None, left: SideButton | None, right: SideButton | None) -> View:
    """The bottom row: ``left_button``, the ``fab`` (an ImageButton) and ``right_button``; None leaves a gap."""

    def side(button: SideButton | None, rid: str) -> View:
        if button is None:
            return View(weight=1, width=0, height=0)
        return LinearLayout(
            [
                TextView(
                    button[0],
                    cls="android.widget.Button",
                    resource_id=RID + rid,
                    content_desc=button[0],
                    clickable=True,
                    focusable=True,
                    gravity="center",
                    text_color=PRIMARY,
                    bold=True,
                    text_size=15,
                    height=48,
                    on_click=button[1],
                )
            ],
            weight=1,
            width=0,
            padding=8,
        )

    middle: View = View(width=56, height=56)
    if fab is not None:
        middle = ImageView(
            glyph=fab[0],
            color=PRIMARY,
            glyph_color=WHITE,
            cls="android.widget.ImageButton",
            resource_id=RID + "fab",
            content_desc=fab[1],
            clickable=True,
            focusable=True,
            width=64,
            height=64,
            on_click=fab[2],
        )
    return LinearLayout([side(left, "left_button"), middle, side(right, "right_button")], vertical=False, height=88)


def hairline() -> View:
    """A one-dp divider (``hairline``)."""
    return View(resource_id=RID + "hairline", height=1, background=DIVIDER)


class GridLayout(View):
    """``androidx.gridlayout.widget.GridLayout`` as DeskClock's alarm rows use it: cells in rows, no wrappers.

    Each child sits in a row; in each row the start cells run from the left, the end cells from
    the right (the last one rightmost), and cells as wide as MATCH share what is left. A row is
    as tall as its tallest cell; cells are centred in it.

    Args:
        cells: ``(view, row, at_end)`` per child, in drawing order.
    """

    def __init__(self, cells: Sequence[tuple[View, int, bool]], **kwargs) -> None:
        kwargs.setdefault("cls", "androidx.gridlayout.widget.GridLayout")
        super().__init__(children=[view for view, _, _ in cells], **kwargs)
        self.cells = [(row, end) for _, row, end in cells]
        self._laid: tuple | None = None

    def _rows(self, inner: int, scale: float) -> list[list[tuple[View, bool, int]]]:
        """The cells of each row with their widths in pixels (worked out once per width: layout asks twice)."""
        if self._laid is not None and self._laid[0] == (inner, scale):
            return self._laid[1]
        rows: dict[int, list[tuple[View, bool, int]]] = {}
        for child, (row, end) in zip(self.children, self.cells):
            rows.setdefault(row, []).append((child, end, 0))
        laid = []
        for row in sorted(rows):
            members = rows[row]
            fixed = sum(round(c.width * scale) for c, _, _ in members if c.width >= 0)
            fills = sum(1 for c, _, _ in members if c.width < 0)
            share = max(0, inner - fixed) // max(1, fills)
            laid.append([(c, end, round(c.width * scale) if c.width >= 0 else share) for c, end, _ in members])
        self._laid = ((inner, scale), laid)
        return laid

    def content_height(self, width_px: int, scale: float) -> int:
        inner = width_px - round(2 * self.padding * scale)
        return sum(max(c.measure_height(w, scale) for c, _, w in row) for row in self._rows(inner, scale))

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        super().layout(box, clip, scale)
        pad = round(self.padding * scale)
        left, top, right = box[0] + pad, box[1] + pad, box[2] - pad
        y = top
        for row in self._rows(right - left, scale):
            heights = [c.measure_height(w, scale) for c, _, w in row]
            tall = max(heights)
            start, end = left, right
            for (child, at_end, w), h in reversed(list(zip(row, heights))):
                if at_end:
                    end -= w
                    child.layout((end, y + (tall - h) // 2, end + w, y + (tall - h) // 2 + h), self.visible, scale)
            for (child, at_end, w), h in zip(row, heights):
                if not at_end:
                    child.layout((start, y + (tall - h) // 2, start + w, y + (tall - h) // 2 + h), self.visible, scale)
                    start += w
            y += tall


class HintTextView(TextView):
    """A TextView that shows its hint while it has no text (``android:hint`` on edit_label, timer_label)."""

    def paint(self, scale: float) -> list[tuple] | None:
        if self.text or not self.hint:
            return None  # (drawn as a label)
        pad = round(self.padding * scale)
        box = (self.bounds[0] + pad, self.bounds[1], self.bounds[2] - pad, self.bounds[3])
        return [("text", box, self.hint, round(self.text_px(scale)), HINT, self.bold, self.gravity)]


class DayButton(CheckBox):
    """A repeat-day toggle (``day_button.xml``'s ``day_button_box``): a disc with the day's letter, filled when on."""

    def __init__(self, letter: str, name: str, checked: bool, on_click: Callable[[], None]) -> None:
        super().__init__(
            letter,
            checked,
            resource_id=RID + "day_button_box",
            content_desc=name,
            width=40,
            height=40,
            text_size=14,
            on_click=on_click,
        )

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        size = min(right - left, bottom - top) - round(4 * scale)
        x, y = (left + right - size) // 2, (top + bottom - size) // 2
        disc: Box = (x, y, x + size, y + size)
        stroke = max(1, round(2 * scale))
        if self.checked:
            ops = [("disc", disc, PRIMARY)]
        else:
            ops = [
                ("disc", disc, DIVIDER),
                ("disc", (x + stroke, y + stroke, x + size - stroke, y + size - stroke), WHITE),
            ]
        color = WHITE if self.checked else TEXT
        return ops + [("text", disc, self.text, round(self.text_px(scale)), color, True, "center")]

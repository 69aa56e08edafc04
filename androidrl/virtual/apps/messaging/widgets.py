"""The Messaging app's pieces of screen: its action bar, action buttons, avatars and message bubbles.

Built as packages/apps/Messaging lays them out: an AppCompat action bar (title, action items
shown as buttons whose content-desc is the item's title, "More options"), the contextual action
bar of a selection (``action_mode_close_button`` "Done", the count, the items), a contact's letter
tile (``ContactIconView``), and a message bubble (``message_text_and_info`` holding
``message_text`` and ``message_status``) that wraps its text over lines and sits at the start
(received) or the end (sent) of its row, as wide as its text (up to 85% of the row).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from androidrl.virtual.ui.dialogs import overflow_menu
from androidrl.virtual.ui.glyphs import text_width
from androidrl.virtual.ui.views import (
    MATCH,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    WRAP,
    Box,
    ImageView,
    LinearLayout,
    TextView,
    View,
)

PACKAGE = "com.android.messaging"
RID = f"{PACKAGE}:id/"
INCOMING_BUBBLE = (232, 234, 237)
OUTGOING_BUBBLE = (210, 227, 252)
#: Letter tiles' colours (LetterTileDrawable's palette, a few of them).
TILE_COLORS = ((219, 68, 55), (66, 133, 244), (15, 157, 88), (244, 160, 0), (171, 71, 188), (0, 172, 193))


def action_button(title: str, glyph: str, on_click: Callable[[], None], item_id: str) -> View:
    """An action bar item shown as an icon (``ActionMenuItemView``: a Button titled by its content-desc)."""
    return ImageView(
        glyph=glyph,
        color=SURFACE,
        glyph_color=TEXT,
        cls="android.widget.Button",
        resource_id=RID + item_id,
        content_desc=title,
        clickable=True,
        focusable=True,
        width=48,
        height=48,
        on_click=on_click,
    )


def action_bar(
    title: str,
    *,
    host=None,
    on_up: Callable[[], None] | None = None,
    actions: Sequence[View] = (),
    menu: Sequence[str] = (),
    on_menu: Callable[[int], None] | None = None,
    title_id: str = "",
) -> View:
    """The app's action bar: Up, the title, action items, and "More options" with ``menu`` (when any)."""
    children: list[View] = []
    if on_up is not None:
        children.append(
            ImageView(
                glyph="<",
                color=SURFACE,
                glyph_color=TEXT,
                cls="android.widget.ImageButton",
                content_desc="Navigate up",
                clickable=True,
                focusable=True,
                width=48,
                height=48,
                on_click=on_up,
            )
        )
    children.append(
        TextView(
            title, resource_id=title_id, text_size=20, height=56, padding=16 if on_up is None else 4, weight=1, width=0
        )
    )
    children += actions
    if menu and host is not None and on_menu is not None:
        children.append(overflow_menu(host, list(menu), on_menu))
    return LinearLayout(children, vertical=False, height=56, background=SURFACE, resource_id=RID + "action_bar")


def selection_bar(
    count: int, on_close: Callable[[], None], actions: Sequence[View], host, menu: Sequence[str], on_menu
) -> View:
    """The contextual action bar of a selection (AppCompat's ``ActionBarContextView``)."""
    close = ImageView(
        glyph="x",
        color=SURFACE,
        glyph_color=TEXT,
        cls="android.widget.ImageView",
        resource_id=RID + "action_mode_close_button",
        content_desc="Done",
        clickable=True,
        focusable=True,
        width=48,
        height=48,
        on_click=on_close,
    )
    children: list[View] = [
        close,
        TextView(
            str(count), resource_id=RID + "action_bar_title", text_size=20, height=56, padding=4, weight=1, width=0
        ),
    ]
    children += actions
    if menu:
        children.append(overflow_menu(host, list(menu), on_menu))
    return LinearLayout(
        children, vertical=False, height=56, background=(210, 227, 252), resource_id=RID + "action_mode_bar"
    )


def avatar(name: str, known: bool, resource_id: str, size: float = 48, checked: bool = False) -> View:
    """A contact's letter tile (``ContactIconView``); a check mark instead while selected."""
    if checked:
        return ImageView(glyph="✓", color=PRIMARY, resource_id=RID + "conversation_checkmark", width=size, height=size)
    letter = name[:1].upper() if known and name[:1].isalpha() else "#"
    color = TILE_COLORS[sum(map(ord, name)) % len(TILE_COLORS)] if known else (154, 160, 166)
    return ImageView(glyph=letter, color=color, glyph_color=WHITE, resource_id=resource_id, width=size, height=size)


@functools.lru_cache(maxsize=8192)
def line_width(text: str, size_px: int) -> int:
    """``text_width``, remembered (the bubbles measure the same lines every frame)."""
    return text_width(text, size_px)


@functools.lru_cache(maxsize=4096)
def wrap_lines(text: str, size_px: int, width_px: int) -> tuple[str, ...]:
    """``text`` broken into lines no wider than ``width_px`` (at word boundaries; a long word is cut)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if line_width(candidate, size_px) <= width_px or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
            while line_width(line, size_px) > width_px and len(line) > 1:  # a word longer than the line
                cut = len(line) - 1
                while cut > 1 and line_width(line[:cut], size_px) > width_px:
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
    return tuple(lines)


@functools.lru_cache(maxsize=4096)
def bubble_width(texts: tuple[tuple[str, int], ...], row_px: int, pad: int) -> int:
    """How wide a bubble of ``(text, size)`` lines is in a row ``row_px`` wide: its widest line, up to 85%."""
    widest = 0
    for text, size in texts:
        lines = wrap_lines(text, size, max(1, int(row_px * 0.85) - 2 * pad))
        widest = max(widest, *(line_width(line, size) for line in lines))
    return min(int(row_px * 0.85), widest + 2 * pad + 2)


class WrappedText(TextView):
    """A ``TextView`` whose text wraps over as many lines as it needs."""

    def _size(self, scale: float) -> int:
        return max(1, round(self.text_px(scale)))

    def lines(self, width_px: int, scale: float) -> tuple[str, ...]:
        inner = max(1, width_px - round(2 * self.padding * scale))
        return wrap_lines(self.text, self._size(scale), inner)

    def content_height(self, width_px: int, scale: float) -> int:
        return len(self.lines(width_px, scale)) * round(self._size(scale) * 1.4)

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        pad = round(self.padding * scale)
        size = self._size(scale)
        step = round(size * 1.4)
        ops = []
        y = top + pad
        for line in self.lines(right - left, scale):
            ops.append(
                ("text", (left + pad, y, right - pad, y + step), line, size, self.text_color, self.bold, "start")
            )
            y += step
        return ops


class MessageBubble(LinearLayout):
    """``message_text_and_info``: the bubble, as wide as its text, at the start or the end of its row."""

    def __init__(self, children: list[View], outgoing: bool, **kwargs) -> None:
        kwargs.setdefault("background", OUTGOING_BUBBLE if outgoing else INCOMING_BUBBLE)
        kwargs.setdefault("corner", 16.0)
        kwargs.setdefault("padding", 10.0)
        super().__init__(children, resource_id=RID + "message_text_and_info", **kwargs)
        self.outgoing = outgoing

    def _width(self, row_px: int, scale: float) -> int:
        texts = tuple((child.text, max(1, round(child.text_px(scale)))) for child in self.children)
        return bubble_width(texts, row_px, round(self.padding * scale))

    def measure_height(self, width_px: int, scale: float) -> int:
        inner = self._width(width_px, scale) - round(2 * self.padding * scale)
        return sum(c.measure_height(inner, scale) for c in self.children) + round(2 * self.padding * scale)

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        width = self._width(box[2] - box[0], scale)
        left = box[2] - width if self.outgoing else box[0]
        super().layout((left, box[1], left + width, box[3]), clip, scale)


def message_row(text: str, status: str, outgoing: bool, name: str, known: bool, **row) -> View:
    """``ConversationMessageView``: the sender's tile (received only) and the bubble with the text and its time."""
    bubble = MessageBubble(
        [
            WrappedText(text, resource_id=RID + "message_text", text_size=16, height=WRAP),
            TextView(status, resource_id=RID + "message_status", text_size=12, text_color=TEXT_SECONDARY, height=18),
        ],
        outgoing,
        weight=1,
        width=0,
    )
    children = [bubble] if outgoing else [avatar(name, known, RID + "conversation_icon", 40), bubble]
    return LinearLayout(
        children, vertical=False, cls="android.widget.FrameLayout", padding=6, height=WRAP, width=MATCH, **row
    )

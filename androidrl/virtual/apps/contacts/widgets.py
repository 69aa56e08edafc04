"""Views the Contacts screens share: the toolbar and its action items, a letter tile, the floating button's frame."""

from __future__ import annotations

import functools
from collections.abc import Callable

from androidrl.virtual.ui.views import (
    SURFACE,
    TEXT,
    WHITE,
    Color,
    ImageView,
    LinearLayout,
    View,
)

PACKAGE = "com.android.contacts"
RID = f"{PACKAGE}:id/"
#: LetterTileDrawable's colours (res/values/colors.xml ``letter_tile_colors``).
TILE_COLORS: tuple[Color, ...] = (
    (219, 68, 55),
    (233, 30, 99),
    (156, 39, 176),
    (103, 58, 183),
    (63, 81, 181),
    (66, 133, 244),
    (3, 155, 229),
    (0, 151, 167),
    (0, 150, 136),
    (15, 157, 88),
    (104, 159, 56),
    (239, 108, 0),
    (255, 87, 34),
    (117, 117, 117),
)
#: The tile of a contact without a name (``letter_tile_default_color``).
DEFAULT_TILE: Color = (189, 189, 189)


@functools.lru_cache(maxsize=1024)
def java_hash(text: str) -> int:
    """``String.hashCode()``: the same number Java gives, so a name's tile colour is the one Android picks."""
    h = 0
    data = text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def tile_color(name: str) -> Color:
    """LetterTileDrawable.pickColor: the colour of a name's letter tile."""
    if not name:
        return DEFAULT_TILE
    return TILE_COLORS[abs(java_hash(name)) % len(TILE_COLORS)]


def letter_tile(name: str, size: float, **kwargs) -> ImageView:
    """A contact's photo: the letter tile of its name (LetterTileDrawable), as an ImageView."""
    letter = name.strip()[:1].upper() if name.strip()[:1].isalpha() else ""
    return ImageView(glyph=letter, color=tile_color(name), glyph_color=WHITE, width=size, height=size, **kwargs)


def toolbar(children: list[View], background: Color = SURFACE) -> View:
    """An ``androidx.appcompat.widget.Toolbar`` (``R.id.toolbar``) holding ``children`` in a row."""
    return LinearLayout(
        children,
        vertical=False,
        cls="android.view.ViewGroup",
        resource_id=RID + "toolbar",
        height=56,
        background=background,
    )


def action_item(resource_id: str, description: str, glyph: str, on_click: Callable[[], None]) -> View:
    """A toolbar action shown as its icon (an ``ActionMenuItemView``: a Button whose content-desc is its title)."""
    return ImageView(
        glyph=glyph,
        color=SURFACE,
        glyph_color=TEXT,
        cls="android.widget.Button",
        resource_id=resource_id,
        content_desc=description,
        clickable=True,
        focusable=True,
        long_clickable=True,
        width=48,
        height=48,
        on_click=on_click,
    )

"""Widgets the apps share: Material-style app bar, list rows, text field and buttons, built of views."""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.ui.java import java_hash
from androidrl.virtual.ui.views import (
    DIVIDER,
    MATCH,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Button,
    Color,
    EditText,
    ImageView,
    LinearLayout,
    Switch,
    TextView,
    View,
)

#: LetterTileDrawable's colours (the contacts common library's ``letter_tile_colors``, which Contacts and
#: the Phone app both link).
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


def tile_color(name: str) -> Color:
    """LetterTileDrawable.pickColor: the colour of a name's letter tile."""
    if not name:
        return DEFAULT_TILE
    return TILE_COLORS[abs(java_hash(name)) % len(TILE_COLORS)]


def letter_tile(name: str, size: float, **kwargs) -> ImageView:
    """A contact's photo: the letter tile of its name (LetterTileDrawable), as an ImageView."""
    letter = name.strip()[:1].upper() if name.strip()[:1].isalpha() else ""
    return ImageView(glyph=letter, color=tile_color(name), glyph_color=WHITE, width=size, height=size, **kwargs)


def app_bar(title: str, on_up: Callable[[], None] | None = None, large: bool = False) -> View:
    """A top app bar with an optional "Navigate up" arrow."""
    children: list[View] = []
    if on_up is not None:
        children.append(
            ImageView(
                glyph="<",
                color=DIVIDER,
                glyph_color=TEXT,
                content_desc="Navigate up",
                width=48,
                height=40,
                clickable=True,
                focusable=True,
                on_click=on_up,
            )
        )
    children.append(
        TextView(
            title,
            resource_id="android:id/title" if not large else "",
            text_size=28 if large else 20,
            height=56 if not large else 96,
            padding=16 if on_up is None else 8,
            width=MATCH,
        )
    )
    return LinearLayout(children, vertical=False, height=96 if large else 56, background=SURFACE)


def list_row(
    title: str,
    summary: str = "",
    on_click: Callable[[], None] | None = None,
    switch: bool | None = None,
    icon: tuple[str, Color] | None = None,
    enabled: bool = True,
) -> View:
    """A settings-style row: optional icon, title over summary, optional switch."""
    texts = LinearLayout(
        [TextView(title, resource_id="android:id/title", text_size=16, height=28)]
        + (
            [TextView(summary, resource_id="android:id/summary", text_size=14, text_color=TEXT_SECONDARY, height=24)]
            if summary
            else []
        ),
        weight=1,
        width=0,
    )
    children: list[View] = []
    if icon is not None:
        children.append(ImageView(glyph=icon[0], color=icon[1], resource_id="android:id/icon", width=56, height=32))
    children.append(texts)
    if switch is not None:
        children.append(Switch(switch, resource_id="android:id/switch_widget", enabled=enabled))
    return LinearLayout(
        children,
        vertical=False,
        height=72,
        padding=12,
        clickable=on_click is not None,
        focusable=True,
        on_click=on_click,
        enabled=enabled,
    )


def text_field(
    text: str,
    focused: bool,
    on_focus: Callable[[], None],
    on_text: Callable[[str], None],
    on_key: Callable[[int], bool],
    hint: str = "",
    resource_id: str = "",
) -> EditText:
    """An EditText wired to activity state (text and focus live in the activity)."""
    return EditText(
        text,
        hint=hint,
        resource_id=resource_id,
        focused=focused,
        on_click=on_focus,
        on_text=on_text,
        on_key=on_key,
        padding=8,
    )


def primary_button(text: str, on_click: Callable[[], None], resource_id: str = "", width: float = 160) -> View:
    """A filled button."""
    return Button(text, resource_id=resource_id, on_click=on_click, width=width, background=PRIMARY)


def floating_action_button(
    glyph: str, resource_id: str, description: str, on_click: Callable[[], None], **kwargs
) -> ImageView:
    """A 56 dp floating action button (``FloatingActionButton``, an ImageButton): ``glyph`` white on the primary colour.

    ``kwargs`` go to the view (``cls`` where the app's button is of another class, a position).
    """
    kwargs = {"cls": "android.widget.ImageButton", "width": 56, "height": 56, **kwargs}
    return ImageView(glyph=glyph, color=PRIMARY, glyph_color=WHITE, resource_id=resource_id, content_desc=description,
                     clickable=True, focusable=True, on_click=on_click, **kwargs)  # fmt: skip

"""Views the Contacts screens share: the toolbar and its action items, the floating button's frame."""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.ui.views import (
    SURFACE,
    TEXT,
    Color,
    ImageView,
    LinearLayout,
    View,
)

PACKAGE = "com.android.contacts"
RID = f"{PACKAGE}:id/"


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

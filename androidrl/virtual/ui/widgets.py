"""Widgets the apps share: Material-style app bar, list rows, text field and buttons, built of views."""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.ui.views import (
    DIVIDER,
    MATCH,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    Button,
    Color,
    EditText,
    ImageView,
    LinearLayout,
    Switch,
    TextView,
    View,
)


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

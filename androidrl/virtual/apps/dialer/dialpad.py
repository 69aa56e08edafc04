"""The dialpad (DialpadFragment, dialpadview/res/layout/dialpad_view_unthemed.xml and dialpad.xml).

``digits`` (a DigitsEditText: it holds the focus and types, but never brings up the soft
keyboard), ``deleteButton`` ("backspace"; a long press clears), twelve ``DialpadKeyButton``s
``one``..``nine``, ``star``, ``zero``, ``pound`` — each described as DialpadView.setupKeypad
does ("1,", "2,ABC"..., "0", "*", "#"; a long press on ``zero`` types "+") — and
``dialpad_floating_action_button`` ("dial").
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from androidrl.virtual.apps.dialer.widgets import RID
from androidrl.virtual.ui.views import (
    DIVIDER,
    SURFACE,
    TEXT_SECONDARY,
    WHITE,
    ImageView,
    LinearLayout,
    TextView,
    View,
)

#: (resource id, number, letters) of the keys, row by row (dialpad.xml; DialpadCharMappings' Latin letters).
KEYS = (
    (("one", "1", ""), ("two", "2", "ABC"), ("three", "3", "DEF")),
    (("four", "4", "GHI"), ("five", "5", "JKL"), ("six", "6", "MNO")),
    (("seven", "7", "PQRS"), ("eight", "8", "TUV"), ("nine", "9", "WXYZ")),
    (("star", "*", ""), ("zero", "0", "+"), ("pound", "#", "")),
)
#: What the digits field takes (DialerKeyListener.CHARACTERS, which UnicodeDialerKeyListener accepts).
DIALABLE = set("0123456789#*+-(),/N. ;")


class DigitsView(View):
    """``DigitsEditText``: an EditText the keypad types into; a tap leaves the soft keyboard down."""

    def __init__(self, text: str, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.EditText")
        super().__init__(text=text, **kwargs)


def key_description(number: str, letters: str) -> str:
    """DialpadView.setupKeypad's content description: "2,ABC"; "0", "*" and "#" alone."""
    return number if number in "0*#" else f"{number},{letters}"


def dialpad(
    digits: str,
    strings: Callable[..., str],
    press: Callable[[str], None],
    delete: Callable[[], None],
    clear: Callable[[], None],
    dial: Callable[[], None],
    on_text: Callable[[str], None],
    on_key: Callable[[int], bool],
) -> View:
    """The dialpad's views: the digits row, the keys and the dial button."""
    field = DigitsView(
        digits,
        resource_id=RID + "digits",
        focused=True,
        focusable=True,
        clickable=True,
        long_clickable=True,
        text_size=28,
        gravity="center",
        weight=1,
        width=0,
        height=64,
        on_text=on_text,
        on_key=on_key,
    )
    backspace = ImageView(
        glyph="<x",
        color=WHITE,
        glyph_color=TEXT_SECONDARY,
        cls="android.widget.ImageButton",
        resource_id=RID + "deleteButton",
        content_desc=strings("description_delete_button"),
        clickable=True,
        long_clickable=True,
        focusable=True,
        width=56,
        height=56,
        on_click=delete,
        on_long_click=clear,
    )
    spacer = View(width=56, height=0)
    row = LinearLayout([spacer, field, backspace], vertical=False, resource_id=RID + "digits_container", height=72)
    rows: list[View] = [row, View(height=1, background=DIVIDER)]
    for keys in KEYS:
        buttons = [_key(rid, number, letters, press) for rid, number, letters in keys]
        rows.append(LinearLayout(buttons, vertical=False, height=72))
    call = ImageView(
        glyph="C",
        color=(15, 157, 88),
        glyph_color=WHITE,
        cls="android.widget.ImageButton",
        resource_id=RID + "dialpad_floating_action_button",
        content_desc=strings("description_dial_button"),
        clickable=True,
        focusable=True,
        width=64,
        height=64,
        on_click=dial,
    )
    rows.append(LinearLayout([View(weight=1, height=0), call, View(weight=1, height=0)], vertical=False, height=88))
    keypad = LinearLayout(rows[2:-1], resource_id=RID + "dialpad")
    return LinearLayout(
        [*rows[:2], keypad, rows[-1]],
        cls="android.widget.LinearLayout",
        resource_id=RID + "dialpad_view",
        background=SURFACE,
    )


def _key(rid: str, number: str, letters: str, press: Callable[[str], None]) -> View:
    """A ``DialpadKeyButton``: the number over its letters."""
    texts: list[View] = [
        TextView(number, resource_id=RID + "dialpad_key_number", text_size=28, gravity="center", height=40),
        TextView(
            letters,
            resource_id=RID + "dialpad_key_letters",
            text_size=11,
            gravity="center",
            text_color=TEXT_SECONDARY,
            height=16,
        ),
    ]
    return LinearLayout(
        [LinearLayout(texts, resource_id=RID + "dialpad_key_layout")],
        cls="android.widget.FrameLayout",
        resource_id=RID + rid,
        content_desc=key_description(number, letters),
        clickable=True,
        long_clickable=rid == "zero",
        focusable=True,
        weight=1,
        width=0,
        height=64,
        on_click=partial(press, number),
        on_long_click=partial(press, "+") if rid == "zero" else None,
    )

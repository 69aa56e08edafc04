"""The soft keyboard's look: AOSP LatinIME's QWERTY and symbol layouts as a view tree.

The input method service (``system/input_method.py``) decides when it shows and what a key
does; this module only lays the keys out, as LatinIME's ``rows_qwerty.xml`` and
``rows_symbols.xml`` (packages/inputmethods/LatinIME) place them: three rows of letters
(shift and delete beside the last), and a bottom row of ``?123``, comma, space, period, enter.
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.ui.views import TEXT, LinearLayout, TextView, View


class Key(TextView):
    """A key: its label on a rounded cap, a little inset from its neighbours."""

    def __init__(self, label: str, cap, **kwargs) -> None:
        super().__init__(label, **kwargs)
        self.cap = cap

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        gap = max(1, round(3 * scale))
        box = (left + gap, top + gap, right - gap, bottom - gap)
        text = ("text", box, self.text, round(self.text_px(scale)), self.text_color, False, "center")
        return [("rect", box, self.cap, round(6 * scale)), text]


#: The keyboard's height in dp: a suggestion strip and four rows of keys (LatinIME's default, about).
STRIP_DP, ROW_DP = 36.0, 52.0
HEIGHT_DP = STRIP_DP + 4 * ROW_DP + 8
BACKGROUND = (232, 234, 237)
KEY = (255, 255, 255)
FUNCTION_KEY = (200, 204, 209)

LETTERS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
SYMBOLS = ("1234567890", "@#$_&-+()/", "*\"':;!?")

# Special keys: (label, content-desc, action name).
SHIFT = ("^", "Shift", "shift")
DELETE = ("<x", "Delete", "delete")
TO_SYMBOLS = ("?123", "Symbols", "symbols")
TO_LETTERS = ("ABC", "Letters", "symbols")
ENTER = ("->", "Enter", "enter")


def keyboard_view(shifted: bool, symbols: bool, press: Callable[[str], None]) -> View:
    """The keyboard: ``press`` gets a key's character, or an action name (shift, delete, symbols, enter)."""
    rows = SYMBOLS if symbols else LETTERS

    def key(label: str, desc: str, action: str, weight: float = 1.0, special: bool = False) -> View:
        return Key(
            label,
            FUNCTION_KEY if special else KEY,
            content_desc=desc,
            clickable=True,
            text_size=18 if not special else 14,
            text_color=TEXT,
            weight=weight,
            width=0,
            height=ROW_DP,
            on_click=lambda: press(action),
        )

    def letter(char: str) -> View:
        shown = char.upper() if shifted and not symbols else char
        return key(shown, shown, shown)

    lines: list[list[View]] = [[letter(c) for c in rows[0]], [letter(c) for c in rows[1]]]
    third = [letter(c) for c in rows[2]]
    lines.append([key(*SHIFT, weight=1.5, special=True), *third, key(*DELETE, weight=1.5, special=True)])
    lines.append(
        [
            key(*(TO_LETTERS if symbols else TO_SYMBOLS), weight=1.5, special=True),
            key(",", ",", ","),
            key(" ", "Space", " ", weight=5),
            key(".", ".", "."),
            key(*ENTER, weight=1.5, special=True),
        ]
    )
    if len(lines[1]) < len(lines[0]):  # the second row is inset by half a key each side
        lines[1] = [View(weight=0.5, width=0, height=0), *lines[1], View(weight=0.5, width=0, height=0)]
    rows_views = [LinearLayout(line, vertical=False, height=ROW_DP, padding=0) for line in lines]
    strip = View(height=STRIP_DP)
    return LinearLayout([strip, *rows_views], background=BACKGROUND, height=HEIGHT_DP, padding=0)

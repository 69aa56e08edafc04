"""The input method: AOSP's LatinIME soft keyboard (``dumpsys input_method`` reports whether it shows).

The keyboard shows when a tap gives a text field focus and hides on BACK or when no field
has focus any more (the window manager decides, as InputMethodManagerService does with the
focused window). Its keys type through the same path as ``input text``: characters go to the
focused field, delete and enter are key events (KEYCODE_DEL, KEYCODE_ENTER); shift and ``?123``
change the layout. While it shows, it takes the bottom of the screen above the navigation bar
and the app's window is laid out above it (``adjustResize``).
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.keycodes import KEYCODE_DEL, KEYCODE_ENTER
from androidrl.virtual.system.framework.metrics import NAV_BAR_DP, DisplayMetrics
from androidrl.virtual.ui.keyboard import HEIGHT_DP, keyboard_view
from androidrl.virtual.ui.render import Op, display_list
from androidrl.virtual.ui.views import View

PACKAGE = "com.android.inputmethod.latin"
#: The IME's id as Settings.Secure.DEFAULT_INPUT_METHOD and the dump name it.
IME_ID = f"{PACKAGE}/.LatinIME"


class InputMethod:
    """The soft keyboard's state, its window, and the keys it sends.

    Args:
        metrics: Screen size and density (where the keyboard sits).
        commit_text: Types text into the focused field (``InputConnection.commitText``).
        send_key: Sends a key event to the focused field (DEL, ENTER).
    """

    def __init__(
        self, metrics: DisplayMetrics, commit_text: Callable[[str], None], send_key: Callable[[int], None]
    ) -> None:
        self.metrics = metrics
        self.commit_text = commit_text
        self.send_key = send_key
        self.shown = False
        self.shifted = False
        self.symbols = False
        self._cache: tuple | None = None  # (key, laid-out keyboard, its display list)

    def state(self) -> dict:
        """What a snapshot keeps."""
        return {"shown": self.shown, "shifted": self.shifted, "symbols": self.symbols}

    def restore(self, state: dict) -> None:
        """Put back what :meth:`state` gave."""
        self.shown, self.shifted, self.symbols = state["shown"], state["shifted"], state["symbols"]

    def show(self, numeric: bool = False) -> None:
        """``showSoftInput``: the keyboard comes up, unshifted, with letters (digits for a number field)."""
        if not self.shown or numeric:  # (a field of the other kind starts its own layout)
            self.shown, self.shifted, self.symbols = True, False, numeric

    def hide(self) -> bool:
        """``hideSoftInputFromWindow``: the keyboard goes; whether it was shown."""
        shown, self.shown = self.shown, False
        return shown

    def top(self) -> int:
        """The pixel row where the keyboard's window begins (the app's window ends above it)."""
        return self.metrics.height - self.metrics.px(NAV_BAR_DP) - self.metrics.px(HEIGHT_DP)

    def window(self) -> tuple[View, tuple[Op, ...]]:
        """The keyboard's laid-out window and its display list (rebuilt only when its look changes)."""
        metrics = self.metrics
        width, scale, top = metrics.width, metrics.scale, self.top()
        key = (width, metrics.height, scale, self.shifted, self.symbols)
        if self._cache is None or self._cache[0] != key:
            root = keyboard_view(self.shifted, self.symbols, self.press)  # (its size keeps to dp: no font scale)
            bottom = metrics.height - metrics.px(NAV_BAR_DP)
            root.layout((0, top, width, bottom), (0, top, width, bottom), scale)
            self._cache = (key, root, display_list(root, scale))
        return self._cache[1], self._cache[2]

    def press(self, key: str) -> None:
        """A key of the keyboard was tapped."""
        if key == "shift":
            self.shifted = not self.shifted
        elif key == "symbols":
            self.symbols, self.shifted = not self.symbols, False
        elif key == "delete":
            self.send_key(KEYCODE_DEL)
        elif key == "enter":
            self.send_key(KEYCODE_ENTER)
        else:
            self.commit_text(key)
            self.shifted = False  # a shifted letter types one capital, as LatinIME's manual shift

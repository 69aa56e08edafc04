"""Editable text: a field with a cursor and a selection, and the floating toolbar of cut/copy/paste.

A :class:`TextState` is what an ``EditText`` holds on Android (its text and selection), kept by
the activity. :func:`edit_text` makes the field: a tap focuses it and puts the cursor where the
finger was; typed text (``input text`` or the soft keyboard) replaces the selection; DEL,
FORWARD_DEL, the arrows and MOVE_HOME/END edit and move as ``TextView`` does; a long press
selects the word under the finger (or, on an empty field, offers Paste) and shows the floating
text toolbar — Cut, Copy, Paste, Select all, as Android's ``Editor`` offers them — which
reaches the phone's clipboard (``ClipboardManager``) through the activity.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from androidrl.keycodes import KEYCODE_DEL, KEYCODE_ENTER, KEYCODES
from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.glyphs import text_width
from androidrl.virtual.ui.views import DIVIDER, HINT, PRIMARY, TEXT, EditText, LinearLayout, TextView, View
from androidrl.virtual.ui.window import Window

SELECTION = (198, 218, 252)  # the highlight behind selected text
_LEFT, _RIGHT = KEYCODES["DPAD_LEFT"], KEYCODES["DPAD_RIGHT"]
_HOME, _END, _FORWARD_DEL = KEYCODES["MOVE_HOME"], KEYCODES["MOVE_END"], KEYCODES["FORWARD_DEL"]


@dataclass
class TextState:
    """An editable text and its selection (``start == end``: a cursor there).

    Attributes:
        text: The text.
        start: Where the selection starts (a character index).
        end: Where it ends; the cursor when nothing is selected.
    """

    text: str = ""
    start: int = -1
    end: int = -1

    def __post_init__(self) -> None:
        if self.start < 0:
            self.start = self.end = len(self.text)

    @property
    def selected(self) -> str:
        """The selected text ("" for a cursor)."""
        a, b = sorted((self.start, self.end))
        return self.text[a:b]

    def set(self, text: str) -> None:
        """Replace the whole text, the cursor at its end (``setText``)."""
        self.text, self.start, self.end = text, len(text), len(text)

    def insert(self, text: str) -> None:
        """Type ``text``: it replaces the selection, the cursor after it."""
        a, b = sorted((self.start, self.end))
        self.text = self.text[:a] + text + self.text[b:]
        self.start = self.end = a + len(text)

    def delete(self, forward: bool = False) -> None:
        """DEL (or FORWARD_DEL): the selection goes, else the character before (after) the cursor."""
        a, b = sorted((self.start, self.end))
        if a == b:
            a, b = (a, min(len(self.text), a + 1)) if forward else (max(0, a - 1), a)
        self.text = self.text[:a] + self.text[b:]
        self.start = self.end = a

    def move(self, to: int) -> None:
        """Put the cursor at ``to`` (clamped), selecting nothing."""
        self.start = self.end = min(max(0, to), len(self.text))

    def select_word(self, at: int) -> None:
        """Select the word around index ``at`` (or the character there, between words)."""
        text = self.text
        a = b = min(max(0, at), len(text))
        while a > 0 and text[a - 1].isalnum():
            a -= 1
        while b < len(text) and text[b].isalnum():
            b += 1
        if a == b and b < len(text):
            b += 1
        self.start, self.end = a, b

    def key(self, code: int) -> bool:
        """A key for the field; True if it edits or moves (DEL, FORWARD_DEL, arrows, MOVE_HOME/END)."""
        if code == KEYCODE_DEL:
            self.delete()
        elif code == _FORWARD_DEL:
            self.delete(forward=True)
        elif code == _LEFT:
            self.move(min(self.start, self.end) - (self.start == self.end))
        elif code == _RIGHT:
            self.move(max(self.start, self.end) + (self.start == self.end))
        elif code == _HOME:
            self.move(0)
        elif code == _END:
            self.move(len(self.text))
        else:
            return False
        return True


class TextField(EditText):
    """An ``android.widget.EditText`` over a :class:`TextState`: draws its text, selection and cursor."""

    def __init__(self, state: TextState, numeric: bool = False, **kwargs) -> None:
        super().__init__(state.text, **kwargs)
        self.state = state
        self.numeric = numeric  # inputType=number: the keyboard comes up with its digits
        self.scale = 1.0

    def layout(self, box, clip, scale: float) -> None:
        super().layout(box, clip, scale)
        self.scale = scale

    def index_at(self, x: float) -> int:
        """The character boundary nearest to column ``x``."""
        size = round(self.text_px(self.scale))
        left = self.bounds[0] + round(self.padding * self.scale)
        shown = self.shown_text()
        best, best_gap = 0, abs(x - left)
        for i in range(1, len(shown) + 1):
            gap = abs(x - left - text_width(shown[:i], size))
            if gap < best_gap:
                best, best_gap = i, gap
        return best

    def shown_text(self) -> str:
        return "*" * len(self.state.text) if self.password else self.state.text

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        pad = round(self.padding * scale)
        line = max(1, round((2 if self.focused else 1) * scale))
        ops: list[tuple] = [("rect", (left, bottom - line, right, bottom), PRIMARY if self.focused else DIVIDER, 0)]
        size = round(self.text_px(scale))
        shown = self.shown_text()
        x0 = left + pad
        a, b = sorted((self.state.start, self.state.end))
        if self.focused and a != b:
            sel = (x0 + text_width(shown[:a], size), top + pad, x0 + text_width(shown[:b], size), bottom - pad)
            ops.append(("rect", sel, SELECTION, 0))
        text_box = (x0, top, right - pad, bottom)
        if shown:
            ops.append(("text", text_box, shown, size, self.text_color, False, "start"))
        elif self.hint:
            ops.append(("text", text_box, self.hint, size, HINT, False, "start"))
        if self.focused and a == b:
            x = min(right - pad, x0 + text_width(shown[:b], size))
            half = round(size * 0.6)
            mid = (top + bottom) // 2
            ops.append(("rect", (x, mid - half, x + max(1, round(2 * scale)), mid + half), PRIMARY, 0))
        return ops


def edit_text(
    host,
    state: TextState,
    focused: bool,
    on_focus: Callable[[], None],
    *,
    hint: str = "",
    resource_id: str = "",
    on_change: Callable[[], None] | None = None,
    on_action: Callable[[], None] | None = None,
    password: bool = False,
    numeric: bool = False,
    width: float = -1,
) -> TextField:
    """An EditText wired to ``state`` (its text and selection live in the activity).

    Args:
        host: The activity (its clipboard and the windows it shows: the text toolbar).
        state: The field's text and selection.
        focused: Whether the field has focus (the activity decides which of its fields has).
        on_focus: A tap gives the field focus: the activity records it.
        hint: Shown while the field is empty.
        resource_id: The field's resource id.
        on_change: Runs after typing or a key changes the text (a cut or paste from the text
            toolbar changes ``state`` alone: read it in ``build``).
        on_action: The IME action (ENTER on a single-line field: "Done", "Search"...).
        password: Show the text as dots (``inputType=textPassword``); the dump hides it too.
        numeric: A number field (``inputType=number``): the keyboard shows its digits.
        width: Width in dp (default: fill).
    """

    def changed() -> None:
        if on_change is not None:
            on_change()

    def tap(x: float, y: float) -> None:
        on_focus()
        state.move(view.index_at(x))

    def typed(text: str) -> None:
        state.insert(text)
        changed()

    def key(code: int) -> bool:
        if code == KEYCODE_ENTER and on_action is not None:
            on_action()
            return True
        before = state.text
        used = state.key(code)
        if state.text != before:
            changed()
        return used

    def long_press(x: float, y: float) -> None:
        on_focus()
        if state.text:
            state.select_word(view.index_at(x))
        host.show(TextToolbar(host, state, anchor=view.bounds))

    view = TextField(
        state,
        numeric,
        hint=hint,
        resource_id=resource_id,
        focused=focused,
        password=password,
        padding=8,
        width=width,
        on_text=typed,
        on_key=key,
    )
    view.on_tap, view.on_long_tap = tap, long_press
    return view


class TextToolbar(Window):
    """The floating text toolbar (``FloatingToolbar``): Cut, Copy, Paste, Select all over a field.

    Like Android's, it is a popup that takes no focus (the UI dump does not show it, the field
    keeps the keyboard) and a touch elsewhere closes it and goes on to what is there.
    """

    kind = "toolbar"
    modal = False
    focusable = False

    def __init__(self, host, state: TextState, anchor) -> None:
        super().__init__(anchor=anchor)
        self.host, self.state = host, state

    def width_dp(self, screen_dp: float) -> float:
        return min(screen_dp - 16, 96.0 * len(self.actions()))

    def actions(self) -> list[str]:
        """The toolbar's items for the current selection and clipboard, in Android's order."""
        clip = self.host.clipboard.get_text()
        items = ["cut", "copy"] if self.state.selected else []
        if clip:
            items.append("paste")
        if self.state.text and self.state.selected != self.state.text:
            items.append("select_all")
        return items

    def build(self) -> View:
        buttons = [
            TextView(
                framework_string(a),
                cls="android.widget.Button",
                clickable=True,
                focusable=True,
                gravity="center",
                text_color=TEXT,
                height=44,
                on_click=lambda a=a: self.act(a),
            )
            for a in self.actions()
        ]
        return LinearLayout(buttons, vertical=False, height=44)

    def act(self, action: str) -> None:
        """Do a toolbar item."""
        state, clipboard = self.state, self.host.clipboard
        if action in ("cut", "copy"):
            clipboard.set_text(state.selected)
            if action == "cut":
                state.delete()
            else:
                state.move(max(state.start, state.end))  # the selection ends with the action mode
        elif action == "paste":
            state.insert(clipboard.get_text())
        if action == "select_all":
            state.start, state.end = 0, len(state.text)
            return  # the toolbar stays, now for the whole text
        self.dismiss()

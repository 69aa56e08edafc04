"""Input dispatch: touches and keys become clicks, long clicks, scrolls, text and navigation.

As on Android, a tap clicks the top-most clickable view under it, a swipe past the touch
slop drags what takes drags that way (a list scrolls and flings, a SeekBar slides, a row is
swiped away), a touch that stays put for the long-press timeout is a long press, typed text
goes to the focused EditText of the window with focus, BACK closes the keyboard or the top
dialog before it pops the top activity, and HOME shows the launcher. The window policy sees
every event first (a sleeping screen, the keyguard, the shade: BACK closes the shade first).

An event that reaches a view asks for the screen to be rebuilt; one that reaches none (a tap on
empty space, text with no field to take it) changes nothing, so the screen stays as it is.
"""

from __future__ import annotations

import threading
import time

from androidrl.keycodes import KEYCODE_BACK, KEYCODE_HOME
from androidrl.virtual.system.activity_manager import ActivityManager
from androidrl.virtual.system.settings_provider import SettingsStore
from androidrl.virtual.system.window.display import Display
from androidrl.virtual.system.window.policy import WindowPolicy
from androidrl.virtual.ui.views import Drag, View, find_target

TOUCH_SLOP_DP = 8  # ViewConfiguration.TOUCH_SLOP
#: Key code -> the character the virtual keyboard's key map types for it (KEYCODE_A..Z, 0..9, punctuation).
KEY_CHARACTERS: dict[int, str] = {
    **{7 + d: str(d) for d in range(10)},
    **{29 + i: chr(ord("a") + i) for i in range(26)},
    55: ",", 56: ".", 62: " ", 68: "`", 69: "-", 70: "=", 71: "[", 72: "]", 73: "\\", 74: ";", 75: "'", 76: "/",
}  # fmt: skip


class InputDispatcher:
    """Delivers input events to the views on the display and keys to the activity manager.

    Args:
        display: Whose windows are hit-tested.
        activities: Takes BACK and HOME.
        settings: ``secure long_press_timeout`` sets how long a press must be held.
        policy: Sees every key and touch first, and may take it.
        lock: The phone's lock, held for each event.
    """

    def __init__(
        self,
        display: Display,
        activities: ActivityManager,
        settings: SettingsStore,
        policy: WindowPolicy,
        *,
        lock: threading.RLock,
    ) -> None:
        self.display = display
        self.activities = activities
        self.settings = settings
        self.policy = policy
        self._lock = lock
        # (x, y, monotonic time) of an injected touch that went down and not yet up, else None
        self._touch_down: tuple[float, float, float] | None = None

    def tap(self, x: float, y: float) -> None:
        """A touch down and up at ``(x, y)``: clicks the top-most clickable view there."""
        with self._lock:
            if self.policy.intercept_touch(x, y, x, y):
                return  # (what the policy changed redraws the screen itself)
            view, changed = self._hit(x, y, lambda v: v.clickable or v.on_click is not None or v.on_tap is not None)
            if view is not None:
                with self.display.window_manager.frame():
                    if view.on_tap is not None:
                        view.on_tap(x, y)  # a view that cares where (a SeekBar, a text field, a clock face)
                    elif view.on_click is not None:
                        view.on_click()
                self.display.window_manager.clicked(view)
            if view is not None or changed:
                self.display.invalidate()

    def long_press(self, x: float, y: float) -> None:
        """A touch held past the long-press timeout: long-clicks, or clicks a view that only clicks."""
        with self._lock:
            if self.policy.intercept_touch(x, y, x, y):
                return
            view, changed = self._hit(x, y, lambda v: v.clickable or v.long_clickable or v.on_click is not None)
            if view is not None:
                with self.display.window_manager.frame():
                    if view.on_long_tap is not None:
                        view.on_long_tap(x, y)  # a view that cares where (a text field selects the word there)
                    elif view.long_clickable and view.on_long_click is not None:
                        view.on_long_click()
                    elif view.on_click is not None:
                        view.on_click()
            if view is not None or changed:
                self.display.invalidate()

    def swipe(self, x1: float, y1: float, x2: float, y2: float, duration_ms: int = 300) -> None:
        """A touch moved from ``(x1, y1)`` to ``(x2, y2)`` over ``duration_ms``.

        Within the touch slop it is a tap, or a long press when held for the long-press
        timeout; beyond it, it drags the scrollable list under the start point.
        """
        with self._lock:
            slop = TOUCH_SLOP_DP * self.display.metrics.scale
            if self.policy.intercept_touch(x1, y1, x2, y2):
                return
            if abs(x2 - x1) <= slop and abs(y2 - y1) <= slop:
                timeout = int(self.settings.get("secure", "long_press_timeout") or 400)
                if duration_ms >= timeout:
                    self.long_press(x1, y1)
                else:
                    self.tap(x1, y1)
                return
            drag = Drag(x1, y1, x2, y2, duration_ms, self.display.metrics.scale)
            view, changed = self._hit(x1, y1, lambda v: v.on_drag is not None and drag.axis in v.drag_axis)
            if view is not None:
                with self.display.window_manager.frame():
                    view.on_drag(drag)
            if view is not None or changed:
                self.display.invalidate()

    def motion_event(self, action: str, x: float, y: float) -> None:
        """An injected motion event (``input motionevent``): a DOWN then an UP make a tap, long press or swipe.

        Args:
            action: ``DOWN``, ``MOVE`` (changes nothing: the UP's point counts), ``UP`` or ``CANCEL``.
            x: Where, in pixels.
            y: Where, in pixels.

        Raises:
            ValueError: Another action.
        """
        if action == "DOWN":
            self._touch_down = (x, y, time.monotonic())
        elif action in ("UP", "CANCEL"):
            down, self._touch_down = self._touch_down, None
            if action == "UP" and down is not None:
                self.swipe(down[0], down[1], x, y, duration_ms=int((time.monotonic() - down[2]) * 1000))
        elif action != "MOVE":
            raise ValueError(f"Unknown action: {action}")

    def type_text(self, text: str) -> None:
        """Keys typed into the focused text field (dropped when nothing has focus)."""
        with self._lock:
            view = None if self.policy.takes_text() else self._focused()
            if view is not None and view.on_text is not None and text:
                view.on_text(text)
                self.display.invalidate()

    def press_key(self, code: int) -> None:
        """A key press: BACK, HOME, or a key for the focused view (DEL, ENTER, a character key types it)."""
        with self._lock:
            if self.policy.intercept_key(code):
                return  # (what the policy changed redraws the screen itself)
            if code == KEYCODE_HOME:
                self.activities.go_home()
            elif code == KEYCODE_BACK:
                self.display.refresh()  # the windows as they are now (an activity that finished took its keyboard)
                top = self.activities.top_activity
                if not self.display.window_manager.back() and not top.on_back():
                    self.activities.finish_activity(top)
            else:
                view = self._focused()
                handled = view is not None and view.on_key is not None and view.on_key(code)
                if not handled and view is not None and view.on_text is not None and code in KEY_CHARACTERS:
                    view.on_text(KEY_CHARACTERS[code])  # a character key types its character
            self.display.invalidate()

    def _hit(self, x: float, y: float, want) -> tuple[View | None, bool]:
        """The view a touch at ``(x, y)`` goes to, and whether the touch itself changed the windows."""
        windows = self.display.windows()
        changed = self.display.window_manager.touched(x, y)
        for root in windows:
            view = find_target(root, x, y, want)
            if view is not None:
                return view, changed
        return None, changed

    def _focused(self) -> View | None:
        return next((v for v in self.display.focused_window()[0].walk() if v.focused), None)

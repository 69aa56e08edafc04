"""Windows an activity shows over its own: dialogs and popups (Android's ``Dialog`` and ``PopupWindow``).

A :class:`Window` keeps its own state (a picker's hour, a list's checked items) and builds its
content from it each frame, as activities do. An activity shows one with
``Activity.show(window)``; the window manager stacks it over the activity's window, lays it
out (centred for a dialog, at its anchor for a popup), routes touches, keys and BACK to it, and
``uiautomator dump`` reports it while it has focus.

A window's callbacks outlive a frame, and a snapshot of the phone copies the activity with
its windows: so they must be bound methods of the activity (or ``functools.partial`` of one),
which a copy rebinds to the copied activity — never closures, which would still reach the old
one. :func:`check_callback` refuses closures with an error saying so.
"""

from __future__ import annotations

import types
from collections.abc import Callable

from androidrl.virtual.ui.views import Box, Drag, FrameLayout, View

#: How much a dialog darkens the screen behind it (``backgroundDimAmount``, of 255).
DIM_ALPHA = 153


def check_callback(owner: str, name: str, callback: Callable | None) -> None:
    """Refuse a callback a snapshot could not rebind.

    Raises:
        TypeError: ``callback`` is not callable, or is a closure (a lambda or nested function using outer names).
    """
    if callback is None:
        return
    if not callable(callback):
        raise TypeError(f"{owner} {name}: expected a callable, got {type(callback).__name__}")
    if isinstance(callback, types.FunctionType) and callback.__closure__:
        raise TypeError(
            f"{owner} {name}: expected a bound method of the activity (or a functools.partial of one), got the "
            f"closure {callback.__qualname__} (a snapshot copies the activity and rebinds its methods, not closures)"
        )


class Window:
    """A window over an activity's: subclasses build its content in :meth:`build`.

    Attributes:
        kind: ``"dialog"`` (centred, the screen dimmed behind it) or ``"popup"`` (at its anchor).
        cancelable: BACK cancels it (``Dialog.setCancelable``).
        cancel_on_touch_outside: A touch outside it cancels it.
        modal: A touch outside it goes no further (else it goes on to the windows below).
        focusable: It takes input focus: keys go to it and ``uiautomator dump`` shows it.
        anchor: Where a popup shows: a resource id of a view in the activity's window (below
            it), an ``(x, y)`` pixel point, or None for the last touch (a context menu).
        showing: False once dismissed.
    """

    kind = "dialog"
    cancelable = True
    cancel_on_touch_outside = True
    modal = True
    focusable = True

    def __init__(
        self,
        on_dismiss: Callable[[], None] | None = None,
        anchor: str | tuple[float, float] | None = None,
    ) -> None:
        check_callback(type(self).__name__, "on_dismiss", on_dismiss)
        self.on_dismiss = on_dismiss
        self.anchor = anchor
        self.showing = True
        self.frame: Box | None = None  # where it was laid out last (set by the window manager)

    def build(self) -> View:
        """The window's content for its current state (inside the window's decor)."""
        raise NotImplementedError

    def width_dp(self, screen_dp: float) -> float:
        """The window's width in dp on a screen ``screen_dp`` wide."""
        if self.kind == "dialog":  # dialog_min_width_minor: 95% of a phone's width in portrait, less the insets
            return min(screen_dp * 0.95 - 32, 560)
        return min(max(112.0, screen_dp * 0.55), 280.0)  # a popup menu: 112dp to 280dp (Material)

    def dismiss(self) -> None:
        """Close the window (``Dialog.dismiss``): it goes at the next frame; ``on_dismiss`` runs once."""
        if self.showing:
            self.showing = False
            if self.on_dismiss is not None:
                self.on_dismiss()

    def cancel(self) -> None:
        """Cancel it (BACK, a touch outside): as :meth:`dismiss` unless a subclass says more."""
        self.dismiss()


class TouchBlocker(View):
    """The screen behind a modal window.

    It takes every touch that misses the window (a tap, a long press or a drag), cancels the
    window if it may, and lets nothing through to the windows below.
    """

    def __init__(self, window: Window, box: Box, dim: bool) -> None:
        super().__init__(
            cls="",
            clickable=True,
            long_clickable=True,
        )
        self.drag_axis = "xy"
        self.window = window
        self.dim = dim
        self.on_click = self.outside
        self.on_long_click = self.outside
        self.on_drag = self.outside_drag
        self.bounds = self.visible = box

    def paint(self, scale: float) -> list[tuple] | None:
        return [("dim", self.bounds, DIM_ALPHA)] if self.dim else []

    def outside(self) -> None:
        """A touch outside the window."""
        if self.window.cancel_on_touch_outside and self.window.cancelable:
            self.window.cancel()

    def outside_drag(self, drag: Drag) -> None:
        """A drag that started outside the window."""
        self.outside()


class DimBehind(FrameLayout):
    """A dialog-themed activity's content: its dialog over the screen behind, dimmed (windowBackgroundDimEnabled)."""

    def __init__(self, children: list[View], **kwargs) -> None:
        kwargs.setdefault("height", -1)
        super().__init__(children, **kwargs)

    def paint(self, scale: float) -> list[tuple] | None:
        return [("dim", self.bounds, DIM_ALPHA)]


def decor(content: View, dialog: bool = True) -> FrameLayout:
    """A window's frame as the dump shows it.

    A dialog's is its DecorView and the ``android:id/content`` frame in it; a popup's is
    ``PopupWindow``'s PopupDecorView and background view, neither with an id.
    """
    frame = FrameLayout([content], resource_id="android:id/content" if dialog else "", height=-2)
    return FrameLayout([frame], height=-2)

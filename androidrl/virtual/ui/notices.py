"""Brief messages: the ``Snackbar`` at the bottom of an app's window and the system's ``Toast``.

A :class:`Snackbar` belongs to the activity's window (the dump shows it, under the app's
package: ``snackbar_text``, ``snackbar_action``) and goes after ``SnackbarManager``'s duration
or when its action is tapped. A toast is a window of its own that takes no touches and no
focus (the dump never shows it); the window manager times both on the phone's clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from androidrl.virtual.ui.views import WRAP, FrameLayout, LinearLayout, TextView, View
from androidrl.virtual.ui.window import check_callback

#: SnackbarManager.SHORT_DURATION_MS / LONG_DURATION_MS, in seconds.
SNACKBAR_SHORT, SNACKBAR_LONG = 1.5, 2.75
#: NotificationManagerService's toast delays (Toast.LENGTH_SHORT / LENGTH_LONG), in seconds.
TOAST_SHORT, TOAST_LONG = 2.0, 3.5
NOTICE = (50, 50, 50)  # a snackbar's and a toast's dark surface
NOTICE_TEXT = (241, 241, 241)
ACTION_TEXT = (168, 199, 250)


@dataclass
class Snackbar:
    """A message at the bottom of the activity's window, optionally with one action (Undo).

    Attributes:
        text: The message.
        action: The action's label ("" for none).
        on_action: What a tap on the action does (a bound method of the activity or a partial).
        long: Shown for LENGTH_LONG instead of LENGTH_SHORT.
        shown_at: The uptime it first showed at (set by the window manager).
    """

    text: str
    action: str = ""
    on_action: Callable[[], None] | None = None
    long: bool = False
    shown_at: float | None = None

    def __post_init__(self) -> None:
        check_callback("Snackbar", "on_action", self.on_action)

    @property
    def seconds(self) -> float:
        """How long it shows."""
        return SNACKBAR_LONG if self.long else SNACKBAR_SHORT


def snackbar_view(bar: Snackbar, package: str, on_action: Callable[[], None]) -> View:
    """The snackbar as Material builds it (``Snackbar$SnackbarLayout`` around ``SnackbarContentLayout``)."""
    rid = f"{package}:id/"
    content: list[View] = [
        TextView(
            bar.text,
            resource_id=rid + "snackbar_text",
            text_color=NOTICE_TEXT,
            weight=1,
            width=0,
            height=48,
            padding=16,
        )
    ]
    if bar.action:
        content.append(
            TextView(
                bar.action,
                cls="android.widget.Button",
                resource_id=rid + "snackbar_action",
                clickable=True,
                focusable=True,
                text_color=ACTION_TEXT,
                bold=True,
                gravity="center",
                width=max(64, 9 * len(bar.action) + 24),
                height=48,
                on_click=on_action,
            )
        )
    inner = LinearLayout(content, vertical=False, height=48)
    return FrameLayout([inner], height=WRAP, background=NOTICE, corner=4, padding=0)


def toast_view(text: str) -> View:
    """A text toast (``Toast.makeText``): the message on a dark rounded surface."""
    return LinearLayout(
        [TextView(text, resource_id="android:id/message", text_color=NOTICE_TEXT, gravity="center", height=WRAP)],
        height=WRAP,
        padding=12,
        background=NOTICE,
        corner=20,
    )

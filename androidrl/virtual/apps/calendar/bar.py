"""The Calendar app's action bars: the window's ActionBar with its action items, as the dump reports them.

An activity of the app has the framework's action bar (Theme.Material's decor: a Toolbar
``android:id/action_bar`` in ``android:id/action_bar_container``). Menu items shown as actions are
``ActionMenuItemView``s: Buttons whose resource id is the item's (``com.android.calendar:id/action_today``)
and whose content-desc is its title, drawn as their icon (here a few strokes: the calendar page with
today's date, a pencil, a bin, a tick, a cross).
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.views import PRIMARY, SURFACE, TEXT, FrameLayout, ImageView, LinearLayout, View

PACKAGE = "com.android.calendar"
RID = f"{PACKAGE}:id/"
BAR_DP = 56


class ActionIcon(View):
    """An action item's icon (``ActionMenuItemView``): a stroke drawing named by ``kind``."""

    def __init__(self, kind: str, label: str = "", **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.Button")
        kwargs.setdefault("clickable", True)
        kwargs.setdefault("focusable", True)
        kwargs.setdefault("long_clickable", True)
        kwargs.setdefault("width", 48)
        kwargs.setdefault("height", 48)
        super().__init__(**kwargs)
        self.kind, self.label = kind, label

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        size = round(22 * scale)
        x0, y0 = (left + right - size) // 2, (top + bottom - size) // 2
        x1, y1 = x0 + size, y0 + size
        box = (x0, y0, x1, y1)
        stroke = max(1, round(2 * scale))
        if self.kind == "today":  # a calendar page with the day of the month (Utils.setTodayIcon)
            head = (x0, y0, x1, y0 + round(6 * scale))
            inner = (x0 + stroke, y0 + stroke, x1 - stroke, y1 - stroke)
            return [
                ("rect", box, TEXT, stroke),
                ("rect", inner, SURFACE, 0),
                ("rect", head, TEXT, 0),
                ("text", (x0, head[3], x1, y1), self.label, round(11 * scale), TEXT, True, "center"),
            ]
        w = size
        points = {
            "edit": ((x0 + w * 0.15, y0 + w * 0.85), (x0 + w * 0.8, y0 + w * 0.2), (x0 + w * 0.9, y0 + w * 0.3),
                     (x0 + w * 0.25, y0 + w * 0.95), (x0 + w * 0.15, y0 + w * 0.85)),
            "done": ((x0 + w * 0.1, y0 + w * 0.55), (x0 + w * 0.4, y0 + w * 0.85), (x0 + w * 0.9, y0 + w * 0.2)),
            "cancel": ((x0 + w * 0.15, y0 + w * 0.15), (x0 + w * 0.85, y0 + w * 0.85), (x0 + w * 0.5, y0 + w * 0.5),
                       (x0 + w * 0.85, y0 + w * 0.15), (x0 + w * 0.15, y0 + w * 0.85)),
        }  # fmt: skip
        if self.kind == "delete":  # a bin: lid and body
            lid = (x0 + round(w * 0.1), y0 + round(w * 0.1), x1 - round(w * 0.1), y0 + round(w * 0.1) + stroke)
            body = (x0 + round(w * 0.2), y0 + round(w * 0.25), x1 - round(w * 0.2), y1)
            inner = (body[0] + stroke, body[1], body[2] - stroke, body[3] - stroke)
            return [("rect", lid, TEXT, 0), ("rect", body, TEXT, stroke), ("rect", inner, SURFACE, 0)]
        return [("line", box, points[self.kind], TEXT, stroke)]


def action_item(item_id: str, title: str, kind: str, on_click: Callable[[], None], label: str = "") -> View:
    """A menu item shown as an action: ``com.android.calendar:id/<item_id>``, content-desc ``title``."""
    return ActionIcon(kind, label, resource_id=RID + item_id, content_desc=title, on_click=on_click)


def action_bar(children: list[View], on_up: Callable[[], None] | None = None) -> View:
    """The activity's action bar: an optional "Navigate up" arrow, then ``children`` (spinner, title, items)."""
    items: list[View] = []
    if on_up is not None:
        items.append(
            ImageView(
                glyph="<",
                color=SURFACE,
                glyph_color=TEXT,
                cls="android.widget.ImageButton",
                content_desc=framework_string("navigate_up"),
                clickable=True,
                focusable=True,
                width=48,
                height=48,
                on_click=on_up,
            )
        )
    items += children
    toolbar = LinearLayout(
        items, vertical=False, cls="android.view.ViewGroup", resource_id="android:id/action_bar", height=BAR_DP
    )
    return FrameLayout([toolbar], resource_id="android:id/action_bar_container", height=BAR_DP, background=SURFACE)


def spacer() -> View:
    """Room that pushes what follows to the bar's end."""
    return View(width=0, height=0, weight=1)


#: The colour of today's mark in the views.
TODAY_COLOR = PRIMARY

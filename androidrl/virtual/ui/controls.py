"""Android's selection controls and navigation widgets, as the UI dump names them and as they draw.

``CheckBox``, ``RadioButton`` in a ``RadioGroup``, ``SeekBar`` (tap or drag to a value),
Material's ``TabLayout`` and ``BottomNavigationView``, and the swipe-to-dismiss of a list row
(``ItemTouchHelper``). Their state lives in the activity: each takes its value and hands a
change back through a callback, and the activity rebuilds. Each draws itself with plain
drawing operations (rect, disc, line, text) in :meth:`View.paint`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from androidrl.virtual.ui.views import (
    DIVIDER,
    MATCH,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    Box,
    Drag,
    FrameLayout,
    ImageView,
    LinearLayout,
    TextView,
    View,
)

Op = tuple


def _label_op(view: View, box: Box, scale: float, color=TEXT) -> Op:
    return ("text", box, view.text, round(view.text_px(scale)), color, view.bold, "start")


class CompoundButton(View):
    """A labelled two-state button (``android.widget.CompoundButton``): its mark, then its text."""

    MARK_DP = 18.0

    def __init__(self, text: str = "", checked: bool = False, **kwargs) -> None:
        kwargs.setdefault("clickable", True)
        kwargs.setdefault("focusable", True)
        kwargs.setdefault("checkable", True)
        kwargs.setdefault("height", 48.0)
        kwargs.setdefault("text_size", 16.0)
        super().__init__(text=text, checked=checked, **kwargs)

    def mark_box(self, scale: float) -> Box:
        """Where the check mark sits: at the start, centred vertically."""
        left, top, _, bottom = self.bounds
        size = round(self.MARK_DP * scale)
        x = left + round((self.padding + 3) * scale)
        y = (top + bottom - size) // 2
        return x, y, x + size, y + size

    def paint(self, scale: float) -> list[Op]:
        mark = self.mark_box(scale)
        color = PRIMARY if self.checked else (TEXT_SECONDARY if self.enabled else DIVIDER)
        ops = self.paint_mark(mark, color, scale)
        if self.text:
            text_box = (mark[2] + round(12 * scale), self.bounds[1], self.bounds[2], self.bounds[3])
            ops.append(_label_op(self, text_box, scale, TEXT if self.enabled else TEXT_SECONDARY))
        return ops

    def paint_mark(self, box: Box, color, scale: float) -> list[Op]:
        raise NotImplementedError


class CheckBox(CompoundButton):
    """``android.widget.CheckBox``: a square that shows a tick when checked."""

    def __init__(self, text: str = "", checked: bool = False, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.CheckBox")
        super().__init__(text, checked, **kwargs)

    def paint_mark(self, box: Box, color, scale: float) -> list[Op]:
        radius = max(1, round(2 * scale))
        if not self.checked:
            stroke = max(1, round(2 * scale))
            inner = (box[0] + stroke, box[1] + stroke, box[2] - stroke, box[3] - stroke)
            return [("rect", box, color, radius), ("rect", inner, WHITE, 0)]
        left, top, right, bottom = box
        w = right - left
        tick = ((left + w * 0.2, top + w * 0.52), (left + w * 0.42, top + w * 0.74), (left + w * 0.8, top + w * 0.3))
        return [("rect", box, color, radius), ("line", box, tick, WHITE, max(1, round(2 * scale)))]


class RadioButton(CompoundButton):
    """``android.widget.RadioButton``: a ring with a dot when checked; one of a :class:`RadioGroup`."""

    def __init__(self, text: str = "", checked: bool = False, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.RadioButton")
        super().__init__(text, checked, **kwargs)

    def paint_mark(self, box: Box, color, scale: float) -> list[Op]:
        stroke = max(1, round(2 * scale))
        inner = (box[0] + stroke, box[1] + stroke, box[2] - stroke, box[3] - stroke)
        ops = [("disc", box, color), ("disc", inner, WHITE)]
        if self.checked:
            dot = round((box[2] - box[0]) * 0.25)
            ops.append(("disc", (box[0] + dot, box[1] + dot, box[2] - dot, box[3] - dot), color))
        return ops


def radio_group(
    options: Sequence[str],
    selected: int | None,
    on_select: Callable[[int], None],
    resource_id: str = "",
    ids: Sequence[str] = (),
) -> LinearLayout:
    """``android.widget.RadioGroup``: one :class:`RadioButton` per option, the ``selected`` one checked.

    Args:
        options: The buttons' labels.
        selected: Index of the checked one, or None.
        on_select: Called with the index of a button tapped (checking it).
        resource_id: The group's resource id.
        ids: Resource ids of the buttons, in order (optional).
    """
    buttons = [
        RadioButton(
            text,
            checked=i == selected,
            resource_id=ids[i] if i < len(ids) else "",
            on_click=lambda i=i: on_select(i),
        )
        for i, text in enumerate(options)
    ]
    return LinearLayout(buttons, cls="android.widget.RadioGroup", resource_id=resource_id)


class SeekBar(View):
    """``android.widget.SeekBar``: a track and a thumb; a tap or a drag along it sets the value.

    The track runs inside the bar inset by half the bar's height on each side (the thumb's
    room, as ``AbsSeekBar`` pads it), so the ends of the track are the values 0 and ``max``.
    """

    def __init__(
        self, value: int, max_value: int = 100, on_change: Callable[[int], None] | None = None, **kwargs
    ) -> None:
        kwargs.setdefault("cls", "android.widget.SeekBar")
        kwargs.setdefault("focusable", True)
        kwargs.setdefault("height", 48.0)
        super().__init__(**kwargs)
        if max_value <= 0:
            raise ValueError(f"SeekBar max_value must be positive, got {max_value}")
        self.value = min(max(0, int(value)), max_value)
        self.max_value = max_value
        self.on_change = on_change
        self.drag_axis = "x"
        self.on_tap = self.touch_at
        self.on_drag = self.dragged

    def track(self) -> tuple[int, int]:
        """Pixel columns where the track starts (value 0) and ends (``max``)."""
        left, top, right, bottom = self.bounds
        inset = (bottom - top) // 2
        return left + inset, max(left + inset + 1, right - inset)

    def value_at(self, x: float) -> int:
        """The value a touch at column ``x`` sets."""
        start, end = self.track()
        share = (x - start) / (end - start)
        return min(max(0, round(share * self.max_value)), self.max_value)

    def touch_at(self, x: float, y: float) -> None:
        """A tap on the bar: the thumb jumps there."""
        self._set(self.value_at(x))

    def dragged(self, drag: Drag) -> None:
        """A drag along the bar: the thumb follows to where the finger lifted."""
        self._set(self.value_at(drag.x2))

    def _set(self, value: int) -> None:
        if value != self.value and self.on_change is not None:
            self.on_change(value)
        self.value = value

    def paint(self, scale: float) -> list[Op]:
        start, end = self.track()
        top, bottom = self.bounds[1], self.bounds[3]
        mid = (top + bottom) // 2
        half = max(1, round(2 * scale))
        at = start + round((end - start) * self.value / self.max_value)
        thumb = round(10 * scale)
        ops = [("rect", (start, mid - half, end, mid + half), DIVIDER, half)]
        if at > start:  # (at 0 the progress is empty: no zero-width rounded rect)
            ops.append(("rect", (start, mid - half, at, mid + half), PRIMARY, half))
        return [*ops, ("disc", (at - thumb, mid - thumb, at + thumb, mid + thumb), PRIMARY)]


class TabView(LinearLayout):
    """One tab of a ``TabLayout`` (``TabLayout$TabView``, a LinearLayout): its title; a line under the selected one."""

    def paint(self, scale: float) -> list[Op] | None:
        if not self.selected:
            return None
        left, _, right, bottom = self.bounds
        return [("rect", (left, bottom - max(1, round(3 * scale)), right, bottom), PRIMARY, 0)]


def tab_layout(titles: Sequence[str], selected: int, on_select: Callable[[int], None], resource_id: str = "") -> View:
    """Material's ``TabLayout`` (a HorizontalScrollView of tabs, the selected one underlined).

    A tab's node carries its title as content-desc (``Tab.setText``); the selected tab is
    ``selected`` and, as its accessibility info says, not clickable.
    """
    tabs = [
        TabView(
            [TextView(title, gravity="center", text_color=PRIMARY if i == selected else TEXT_SECONDARY, bold=True)],
            content_desc=title,
            selected=i == selected,
            clickable=i != selected,
            focusable=True,
            weight=1,
            width=0,
            height=48,
            on_click=lambda i=i: on_select(i),
        )
        for i, title in enumerate(titles)
    ]
    strip = LinearLayout(tabs, vertical=False, height=48)
    return FrameLayout(
        [strip], cls="android.widget.HorizontalScrollView", resource_id=resource_id, height=48, background=SURFACE
    )


def bottom_navigation(
    items: Sequence[tuple[str, str, str]],
    selected: int,
    on_select: Callable[[int], None],
    package: str,
    resource_id: str = "",
) -> View:
    """Material's ``BottomNavigationView``: a bar of destinations (icon over label).

    Args:
        items: ``(menu item id, title, icon glyph)`` per destination; the id is the item's
            resource id in the app (``alarm`` becomes ``PACKAGE:id/alarm``).
        selected: Index of the current destination.
        on_select: Called with the index of a destination tapped.
        package: The app's package (the bar's item views are the Material library's, in the app's namespace).
        resource_id: The bar's resource id.
    """
    rid = f"{package}:id/"
    buttons = []
    for i, (item_id, title, glyph) in enumerate(items):
        on = i == selected
        label = "navigation_bar_item_large_label_view" if on else "navigation_bar_item_small_label_view"
        buttons.append(
            LinearLayout(
                [
                    ImageView(
                        glyph=glyph,
                        color=(210, 227, 252) if on else SURFACE,
                        glyph_color=TEXT,
                        resource_id=rid + "navigation_bar_item_icon_view",
                        height=32,
                        width=56,
                    ),
                    TextView(
                        title,
                        resource_id=rid + label,
                        gravity="center",
                        text_size=12,
                        height=20,
                        bold=on,
                        text_color=TEXT if on else TEXT_SECONDARY,
                    ),
                ],
                cls="android.widget.FrameLayout",
                resource_id=rid + item_id,
                content_desc=title,
                selected=on,
                clickable=not on,
                focusable=True,
                weight=1,
                width=0,
                height=64,
                padding=6,
                on_click=lambda i=i: on_select(i),
            )
        )
    menu = LinearLayout(buttons, vertical=False, cls="android.view.ViewGroup", height=MATCH)
    return FrameLayout([menu], resource_id=resource_id, height=80, background=SURFACE)


def dismissible(row: View, on_dismiss: Callable[[str], None]) -> View:
    """Make a list row swipe-to-dismiss (``ItemTouchHelper`` with START and END swipes).

    A horizontal drag past half the row's width, or a horizontal fling faster than the swipe
    escape velocity (120 dp/s, ItemTouchHelper), dismisses it: ``on_dismiss("start")`` for a
    swipe towards the start (left), ``"end"`` towards the end.
    """

    def dragged(drag: Drag) -> None:
        dx = drag.x2 - drag.x1
        width = row.bounds[2] - row.bounds[0]
        fast = abs(drag.velocity()[0]) >= 120 * drag.scale
        if abs(dx) >= width / 2 or fast:
            on_dismiss("end" if dx > 0 else "start")

    row.drag_axis = "x"
    row.on_drag = dragged
    return row

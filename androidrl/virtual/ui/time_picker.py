"""The framework's time picker in its dialog, as Android draws and reports it.

:class:`TimePickerDialog` is ``time_picker_material.xml`` (frameworks/base core/res/res/layout):
the header (``android:id/hours``, ``android:id/minutes``, ``am_label``/``pm_label``
RadioButtons), the clock face (``android:id/radial_picker``, whose numbers the dump shows as
virtual nodes of ``RadialTimePickerView$RadialPickerTouchHelper`` with the number as
content-desc), and the keyboard mode behind ``android:id/toggle_mode`` (``input_header``,
``input_hour``, ``input_minute``, the ``am_pm_spinner``). A tap on an hour moves on to the
minutes, as ``TimePickerClockDelegate`` does; a typed time that is not one keeps the dialog
open with ``label_error``, as ``TimePickerDialog`` validates it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.dialogs import picker_buttons, spinner
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import (
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    WRAP,
    ImageView,
    LinearLayout,
    TextView,
    View,
)
from androidrl.virtual.ui.window import Window, check_callback

FACE = (236, 239, 243)
_HELPER = "android.widget.RadialTimePickerView$RadialPickerTouchHelper"


class RadialPicker(View):
    """``android.widget.RadialTimePickerView``: the clock face; a tap anywhere on it picks the nearest value."""

    def __init__(self, picker: TimePickerDialog, **kwargs) -> None:
        super().__init__(
            cls="android.view.View", resource_id="android:id/radial_picker", focusable=True, height=256, **kwargs
        )
        self.picker = picker
        self.on_tap = self.tapped

    def values(self) -> list[tuple[int, bool]]:
        """(value, on the inner ring) of each number on the face, in the helper's order."""
        p = self.picker
        if p.face == "minutes":
            return [(m, False) for m in range(0, 60, 5)]
        if p.is24:
            return [(h, 0 < h <= 12) for h in range(24)]
        return [(h, False) for h in range(1, 13)]

    def geometry(self) -> tuple[float, float, float]:
        left, top, right, bottom = self.bounds
        radius = min(right - left, bottom - top) / 2
        return (left + right) / 2, (top + bottom) / 2, radius

    def place(self, value: int, inner: bool) -> tuple[float, float]:
        cx, cy, radius = self.geometry()
        steps = 60 if self.picker.face == "minutes" else 12
        angle = math.radians(360 * (value % steps) / steps)
        r = radius * (0.52 if inner else 0.8)
        return cx + r * math.sin(angle), cy - r * math.cos(angle)

    def tapped(self, x: float, y: float) -> None:
        """A tap on the face: the value at that angle (and ring)."""
        cx, cy, radius = self.geometry()
        distance = math.hypot(x - cx, y - cy)
        if distance > radius:
            return
        degrees = math.degrees(math.atan2(x - cx, cy - y)) % 360
        if self.picker.face == "minutes":
            self.picker.pick_minute(round(degrees / 6) % 60)
            return
        hour = round(degrees / 30) % 12
        if self.picker.is24:
            inner = distance < radius * 0.66
            hour = (hour or 12) if inner else (0 if hour == 0 else hour + 12)
        else:
            hour = hour or 12
            hour = hour % 12 + (12 if self.picker.hour >= 12 else 0)
        self.picker.pick_hour(hour)

    def layout(self, box, clip, scale: float) -> None:
        side = min(box[2] - box[0], box[3] - box[1])
        left = (box[0] + box[2] - side) // 2
        super().layout((left, box[1], left + side, box[1] + side), clip, scale)
        self.children = []
        current = self.picker.minute if self.picker.face == "minutes" else self.picker.hour
        if not self.picker.is24 and self.picker.face == "hours":
            current = current % 12 or 12
        half = round(20 * scale)
        for value, inner in self.values():
            x, y = self.place(value, inner)
            node = View(cls=_HELPER, content_desc=str(value), selected=value == current)
            box = (round(x) - half, round(y) - half, round(x) + half, round(y) + half)
            node.layout(box, self.visible, scale)
            self.children.append(node)

    def paint(self, scale: float) -> list[tuple]:
        cx, cy, radius = self.geometry()
        ops: list[tuple] = [
            ("disc", (round(cx - radius), round(cy - radius), round(cx + radius), round(cy + radius)), FACE)
        ]
        size = round(15 * scale)
        for node in self.children:
            if node.selected:  # the hand, from the centre to the chosen number
                x0, y0, x1, y1 = node.bounds
                nx, ny = (x0 + x1) / 2, (y0 + y1) / 2
                box = (round(min(cx, nx)) - 2, round(min(cy, ny)) - 2, round(max(cx, nx)) + 2, round(max(cy, ny)) + 2)
                ops.append(("line", box, ((cx, cy), (nx, ny)), PRIMARY, max(1, round(2 * scale))))
                ops.append(("disc", node.bounds, PRIMARY))
        for node in self.children:
            color = WHITE if node.selected else TEXT
            label = node.content_desc
            if self.picker.face == "minutes" or (self.picker.is24 and label == "0"):
                label = f"{int(label):02d}"  # the face reads 00, 05... (the nodes' descriptions 0, 5...)
            ops.append(("text", node.bounds, label, size, color, False, "center"))
        return ops


class TimePickerDialog(Window):
    """``android.app.TimePickerDialog``: pick a time on the clock face or type it.

    Args:
        host: The activity (its keyboard mode's fields and AM/PM dropdown are the activity's to show).
        hour: The hour shown first (0-23).
        minute: The minute shown first.
        on_set: Called with (hour 0-23, minute) when OK is tapped (a bound method of the activity
            or a ``functools.partial`` of one).
        is24: The 24-hour face (``Context.is_24_hour()``: ``settings system time_12_24``, else the locale's).
        on_dismiss: Runs when the dialog goes.
    """

    def __init__(
        self,
        host,
        hour: int,
        minute: int,
        on_set: Callable[[int, int], None],
        is24: bool = False,
        on_dismiss: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(on_dismiss)
        check_callback("TimePickerDialog", "on_set", on_set)
        if not (0 <= hour < 24 and 0 <= minute < 60):
            raise ValueError(f"TimePickerDialog: expected hour 0-23 and minute 0-59, got {hour}:{minute:02d}")
        self.hour, self.minute, self.on_set, self.is24, self.host = hour, minute, on_set, is24, host
        self.face = "hours"  # which numbers the clock face shows: "hours" or "minutes"
        self.keyboard = False  # text input mode
        self.field = "hour"
        self.hour_text, self.minute_text = TextState(), TextState()
        self.error = False

    def _hour_label(self) -> str:
        return str(self.hour) if self.is24 else str(self.hour % 12 or 12)

    def build(self) -> View:
        body = self._keyboard_mode() if self.keyboard else LinearLayout([self._header(), RadialPicker(self)])
        toggle = ImageView(
            glyph="#" if not self.keyboard else "o",
            color=WHITE,
            glyph_color=TEXT_SECONDARY,
            resource_id="android:id/toggle_mode",
            content_desc=framework_string(
                "time_picker_radial_mode_description" if self.keyboard else "time_picker_text_input_mode_description"
            ),
            clickable=True,
            focusable=True,
            width=48,
            height=48,
            on_click=self.toggle,
        )
        bottom = LinearLayout([toggle, picker_buttons(self.cancel, self.ok)], vertical=False, height=56)
        return LinearLayout([body, bottom], cls="android.widget.TimePicker", resource_id="android:id/timePicker")

    def _header(self) -> View:
        def number(text: str, rid: str, active: bool, on_click) -> View:
            return TextView(
                text,
                resource_id=rid,
                text_size=44,
                gravity="center",
                width=72,
                height=72,
                clickable=True,
                focusable=True,
                text_color=PRIMARY if active else TEXT,
                on_click=on_click,
            )

        parts: list[View] = [
            View(width=-1, height=0, weight=1),
            number(self._hour_label(), "android:id/hours", self.face == "hours", self.show_hours),
            TextView(":", text_size=44, width=20, height=72, gravity="center"),
            number(f"{self.minute:02d}", "android:id/minutes", self.face == "minutes", self.show_minutes),
        ]
        if not self.is24:
            am, pm = self.hour < 12, self.hour >= 12
            parts.append(
                LinearLayout(
                    [
                        self._am_pm("am", am, self.set_am),
                        self._am_pm("pm", pm, self.set_pm),
                    ],
                    cls="android.widget.RadioGroup",
                    resource_id="android:id/ampm_layout",
                    width=80,
                )
            )
        parts.append(View(width=-1, height=0, weight=1))
        return LinearLayout(
            parts,
            cls="android.widget.RelativeLayout",
            resource_id="android:id/time_header",
            vertical=False,
            height=96,
            background=SURFACE,
        )

    @staticmethod
    def _am_pm(key: str, checked: bool, on_click) -> View:
        """``am_label``/``pm_label``: RadioButtons drawn as their text alone (``android:button="@null"``)."""
        return TextView(
            framework_string(key),
            cls="android.widget.RadioButton",
            resource_id=f"android:id/{key}_label",
            checkable=True,
            checked=checked,
            clickable=True,
            focusable=True,
            bold=checked,
            text_color=PRIMARY if checked else TEXT_SECONDARY,
            text_size=16,
            height=32,
            on_click=on_click,
        )

    def _keyboard_mode(self) -> View:
        def field(which: str, state: TextState) -> View:
            return edit_text(
                self.host,
                state,
                self.field == which,
                getattr(self, "focus_" + which),
                resource_id="android:id/input_" + which,
                numeric=True,
                width=64,
            )

        block = LinearLayout(
            [
                LinearLayout(
                    [
                        field("hour", self.hour_text),
                        TextView(
                            framework_string("time_picker_hour_label"),
                            resource_id="android:id/label_hour",
                            text_size=12,
                            height=20,
                        ),
                    ],
                    width=72,
                ),
                TextView(":", resource_id="android:id/input_separator", text_size=28, width=16, height=56),
                LinearLayout(
                    [
                        field("minute", self.minute_text),
                        TextView(
                            framework_string("time_picker_minute_label"),
                            resource_id="android:id/label_minute",
                            text_size=12,
                            height=20,
                        ),
                    ],
                    width=72,
                ),
            ],
            cls="android.widget.RelativeLayout",
            resource_id="android:id/input_block",
            vertical=False,
            height=80,
        )
        row: list[View] = [block]
        if not self.is24:
            row.append(
                spinner(
                    self.host,
                    [framework_string("am"), framework_string("pm")],
                    int(self.hour >= 12),
                    self.set_am_pm,
                    resource_id="android:id/am_pm_spinner",
                )
            )
        children: list[View] = [
            TextView(
                framework_string("time_picker_header_text"),
                resource_id="android:id/input_header",
                text_size=28,
                padding=20,
                height=WRAP,
                background=SURFACE,
            ),
            TextView(
                framework_string("time_picker_prompt_label"),
                resource_id="android:id/top_label",
                text_color=TEXT_SECONDARY,
                padding=16,
                height=WRAP,
            ),
            LinearLayout(row, vertical=False, height=80, padding=8),
        ]
        if self.error:
            children.append(
                TextView(
                    framework_string("time_picker_input_error"),
                    resource_id="android:id/label_error",
                    text_color=(179, 38, 30),
                    padding=8,
                    height=WRAP,
                )
            )
        return LinearLayout(
            [LinearLayout(children, cls="android.widget.RelativeLayout", resource_id="android:id/input_mode")]
        )

    # ------------------------------------------------------------------ actions (taps)

    def show_hours(self) -> None:
        self.face = "hours"

    def show_minutes(self) -> None:
        self.face = "minutes"

    def pick_hour(self, hour: int) -> None:
        """An hour picked on the face: set it and move on to the minutes (auto-advance)."""
        self.hour, self.face = hour, "minutes"

    def pick_minute(self, minute: int) -> None:
        self.minute = minute

    def set_am(self) -> None:
        self.hour = self.hour % 12

    def set_pm(self) -> None:
        self.hour = self.hour % 12 + 12

    def set_am_pm(self, index: int) -> None:
        self.set_pm() if index else self.set_am()

    def focus_hour(self) -> None:
        self.field = "hour"

    def focus_minute(self) -> None:
        self.field = "minute"

    def toggle(self) -> None:
        """``toggle_mode``: between the clock face and the keyboard mode (the fields show the time)."""
        if not self.keyboard:
            self.hour_text.set(self._hour_label())
            self.minute_text.set(f"{self.minute:02d}")
            self.field, self.error = "hour", False
        elif self._typed() is not None:
            self.hour, self.minute = self._typed()
        self.keyboard = not self.keyboard

    def _typed(self) -> tuple[int, int] | None:
        """The typed time as (hour 0-23, minute), or None when it is not a valid time."""
        h, m = self.hour_text.text.strip(), self.minute_text.text.strip()
        if not (h.isdigit() and m.isdigit()):
            return None
        hour, minute = int(h), int(m)
        if not 0 <= minute < 60:
            return None
        if self.is24:
            return (hour, minute) if 0 <= hour < 24 else None
        if not 1 <= hour <= 12:
            return None
        return hour % 12 + (12 if self.hour >= 12 else 0), minute

    def ok(self) -> None:
        """OK: the time is set (a typed time must be valid, else the error shows and the dialog stays)."""
        if self.keyboard:
            typed = self._typed()
            if typed is None:
                self.error = True
                return
            self.hour, self.minute = typed
        self.dismiss()
        self.on_set(self.hour, self.minute)

"""The Timer tab (TimerFragment, TimerSetupView, TimerItem) and ExpiredTimersActivity.

With no timer (or after "Add Timer") the tab shows the setup: ``timer_setup_time`` ("00h 01m
30s": the digits typed, last typed rightmost), ``timer_setup_delete`` (a long press clears) and the
keypad ``timer_setup_digit_0``..``9``; the fab ("Start") makes the timer and starts it. Otherwise
it shows one timer at a time (a vertical pager, newest first; a vertical swipe turns the page):
its ``timer_label``, ``timer_time_text`` (a tap starts or pauses it) and ``reset_add`` ("+ 1:00"
while it runs, "Reset" while not); the fab starts, pauses or stops it, ``left_button`` deletes
it, ``right_button`` adds another. A timer that ends is EXPIRED: it counts on below zero, the
"Time's up" notification shows, and a tap on that opens ExpiredTimersActivity.
"""

from __future__ import annotations

from functools import partial

from androidrl.keycodes import KEYCODE_DEL, KEYCODES
from androidrl.virtual.apps.deskclock import alarms, formats, timers
from androidrl.virtual.apps.deskclock.widgets import RID, Fab, HintTextView, SideButton, fab_row
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui import config
from androidrl.virtual.ui.views import (
    DIVIDER,
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    Drag,
    FrameLayout,
    ImageView,
    LinearLayout,
    TextView,
    View,
)

KEYCODE_0 = KEYCODES["0"]
#: The keypad's rows (timer_setup_digits.xml: 1-9 in three rows, 0 in the middle of the fourth).
KEYPAD = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (None, 0, None))


def timer_text(context, timer: dict) -> str:
    """``TimerTextController.setTimeString``: seconds rounded up while time is left; a minus sign after."""
    left = timers.remaining(context, timer)
    if left >= 0:
        return formats.clock_time(-(-left // 1000) * 1000)
    text = formats.clock_time(-left)
    return "\u2212" + text if text != "0" else text


def redraw_for(context, timer: dict) -> None:
    """A counting timer's text changes at the next second boundary: draw again then."""
    if timer["state"] in (timers.RUNNING, timers.EXPIRED, timers.MISSED):
        left = timers.remaining(context, timer)
        config.redraw_at(context.elapsed_realtime() / 1000 + ((left % 1000) or 1000) / 1000)


class TimerTab:
    """The Timer tab's state, views and actions, mixed into the DeskClock activity."""

    def timer_create(self) -> None:
        self.timer_digits = ""  # the digits typed on the keypad, first typed first
        self.timer_setup = False  # the setup view shows although timers exist ("Add Timer")
        self.timer_index = 0  # the page of the timers pager

    # ------------------------------------------------------------------ views

    def timer_page(self) -> View:
        if self.timer_setup or not timers.all_timers(self.app):
            return self.setup_view()
        return self.timers_view()

    def current_timer(self) -> dict | None:
        pages = timers.all_timers(self.app)
        if not pages:
            return None
        self.timer_index = min(max(0, self.timer_index), len(pages) - 1)
        return pages[self.timer_index]

    def setup_view(self) -> View:
        s = self.string
        digits = self.timer_digits.rjust(6, "0")
        hours, minutes, seconds = int(digits[:2]), int(digits[2:4]), int(digits[4:])
        locale = self.context.locale()
        description = s(
            "timer_setup_description",
            alarms.quantity(self.app, locale, "hours", hours),
            alarms.quantity(self.app, locale, "minutes", minutes),
            alarms.quantity(self.app, locale, "seconds", seconds),
        )
        text = f"{digits[:2]}{s('hours_label')} {digits[2:4]}{s('minutes_label')} {digits[4:]}{s('seconds_label')}"
        last = self.timer_digits[-1:] or ""
        delete = ImageView(
            glyph="<",
            color=(255, 255, 255),
            glyph_color=TEXT if self.timer_digits else DIVIDER,
            cls="android.widget.ImageButton",
            resource_id=RID + "timer_setup_delete",
            content_desc=s("timer_descriptive_delete", last) if last else s("timer_delete"),
            clickable=True,
            long_clickable=True,
            focusable=True,
            enabled=bool(self.timer_digits),
            width=56,
            height=56,
            on_click=self.timer_delete_digit,
            on_long_click=self.timer_clear_digits,
        )
        time = LinearLayout(
            [
                TextView(
                    text,
                    resource_id=RID + "timer_setup_time",
                    content_desc=description,
                    text_size=36,
                    text_color=PRIMARY if self.timer_digits else TEXT_SECONDARY,
                    gravity="center",
                    height=72,
                    width=0,
                    weight=1,
                ),  # fmt: skip
                delete,
            ],
            vertical=False,
            height=80,
            padding=8,
        )
        divider = View(
            resource_id=RID + "timer_setup_divider", height=2, background=PRIMARY if self.timer_digits else DIVIDER
        )
        rows = [LinearLayout([self.digit_key(digit) for digit in row], vertical=False, height=72) for row in KEYPAD]
        # DeskClock.onKeyDown hands the setup the digit keys and DEL (``input text 130`` sends them as keys).
        return LinearLayout(
            [time, divider, LinearLayout(rows, padding=16)],
            resource_id=RID + "timer_setup",
            weight=1,
            focused=not self.windows,
            on_key=self.timer_key,
            on_text=self.timer_typed,
        )

    def digit_key(self, digit: int | None) -> View:
        if digit is None:
            return View(weight=1, width=0, height=72)
        return TextView(
            str(digit),
            cls="android.widget.Button",
            resource_id=RID + f"timer_setup_digit_{digit}",
            clickable=True,
            focusable=True,
            gravity="center",
            text_size=32,
            weight=1,
            width=0,
            height=72,
            on_click=partial(self.timer_append_digit, digit),
        )

    def timers_view(self) -> View:
        s = self.string
        timer = self.current_timer()
        assert timer is not None
        redraw_for(self.context, timer)
        running = timer["state"] in (timers.RUNNING, timers.EXPIRED, timers.MISSED)
        reset_add = TextView(
            s("timer_add_minute") if running else s("timer_reset"),
            cls="android.widget.Button",
            resource_id=RID + "reset_add",
            content_desc=s("timer_plus_one") if running else "",
            clickable=True,
            focusable=True,
            gravity="center",
            text_color=PRIMARY,
            bold=True,
            height=48,
            width=120,
            on_click=partial(self.timer_reset_add, timer["id"]),
        )
        expired = timer["state"] in (timers.EXPIRED, timers.MISSED)
        time = TextView(
            timer_text(self.context, timer),
            resource_id=RID + "timer_time_text",
            clickable=not expired,
            focusable=True,
            gravity="center",
            text_size=56,
            text_color=PRIMARY if expired else TEXT,
            height=96,
            on_click=partial(self.timer_toggle, timer["id"]),
        )
        label = HintTextView(
            timer["label"],
            cls="android.widget.Button",
            hint=s("label"),
            resource_id=RID + "timer_label",
            clickable=True,
            focusable=True,
            gravity="center",
            text_color=TEXT_SECONDARY,
            height=48,
            on_click=partial(self.edit_timer_label, timer["id"]),
        )
        pages = timers.all_timers(self.app)
        children: list[View] = [label, time, LinearLayout([reset_add], vertical=False, height=56)]
        if len(pages) > 1:  # the page indicators (four at most)
            dots = [
                ImageView(
                    resource_id=RID + f"page_indicator{i}",
                    color=PRIMARY if i == self.timer_index else DIVIDER,
                    width=16,
                    height=16,
                )  # fmt: skip
                for i in range(min(4, len(pages)))
            ]
            children.append(LinearLayout(dots, vertical=False, height=24, width=16 * len(dots)))
        pager = LinearLayout(children, resource_id=RID + "timer_view", padding=24)
        pager.drag_axis = "y"
        pager.on_drag = self.timer_swiped
        return FrameLayout([pager], cls="android.widget.FrameLayout", resource_id=RID + "vertical_view_pager", weight=1)

    def timer_fab(self) -> tuple[Fab | None, SideButton | None, SideButton | None]:
        s = self.string
        if self.timer_setup or not timers.all_timers(self.app):
            fab = (">", s("timer_start"), self.timer_create_from_setup) if self.timer_digits else None
            has = bool(timers.all_timers(self.app))
            return fab, (s("timer_cancel"), self.timer_cancel_setup) if has else None, None
        timer = self.current_timer()
        assert timer is not None
        state = timer["state"]
        if state == timers.RUNNING:
            fab = ("||", s("timer_stop"), self.timer_fab_clicked)
        elif state in (timers.EXPIRED, timers.MISSED):
            fab = ("#", s("timer_stop"), self.timer_fab_clicked)
        else:
            fab = (">", s("timer_start"), self.timer_fab_clicked)
        return fab, (s("timer_delete"), self.timer_delete), (s("timer_add_timer"), self.timer_add)

    # ------------------------------------------------------------------ what taps do

    def timer_append_digit(self, digit: int) -> None:
        """``TimerSetupView.append``: a leading 0 does nothing; six digits at most."""
        if (digit == 0 and not self.timer_digits) or len(self.timer_digits) >= 6:
            return
        self.timer_digits += str(digit)

    def timer_key(self, code: int) -> bool:
        """``TimerSetupView.onKeyDown``: KEYCODE_0..9 type a digit, DEL takes the last one away."""
        if KEYCODE_0 <= code <= KEYCODE_0 + 9:
            self.timer_append_digit(code - KEYCODE_0)
        elif code == KEYCODE_DEL:
            self.timer_delete_digit()
        else:
            return False
        return True

    def timer_typed(self, text: str) -> None:
        """Typed text reaches the setup as key events: its digits."""
        for char in text:
            if char.isdigit():
                self.timer_append_digit(int(char))

    def timer_delete_digit(self) -> None:
        self.timer_digits = self.timer_digits[:-1]

    def timer_clear_digits(self) -> None:
        self.timer_digits = ""

    def timer_length(self) -> int:
        """``TimerSetupView.getTimeInMillis``: hh, mm and ss as typed (each up to 99)."""
        digits = self.timer_digits.rjust(6, "0")
        return ((int(digits[:2]) * 60 + int(digits[2:4])) * 60 + int(digits[4:])) * 1000

    def timer_create_from_setup(self) -> None:
        """The setup's fab: ``addTimer(length, "", false)`` and ``startTimer``, then the new timer's page."""
        timer = timers.add_timer(self.context, self.app, self.timer_length())
        alarms.event(self.context, self.app, "Timer", "Create")
        timers.start(self.context, self.app, timer)
        self.timer_digits, self.timer_setup, self.timer_index = "", False, 0

    def timer_cancel_setup(self) -> None:
        self.timer_digits, self.timer_setup = "", False

    def timer_add(self) -> None:
        """``right_button``: the setup view, for one more timer."""
        self.timer_setup, self.timer_digits = True, ""

    def timer_delete(self) -> None:
        """``left_button``: the timer in front goes (the last one: back to the setup)."""
        timer = self.current_timer()
        if timer is not None:
            timers.delete(self.context, self.app, timer)

    def timer_fab_clicked(self) -> None:
        """The fab on a timer: pause a running one, start a paused or reset one, stop (reset) an expired one."""
        timer = self.current_timer()
        if timer is None:
            return
        if timer["state"] == timers.RUNNING:
            timers.pause(self.context, self.app, timer)
        elif timer["state"] in (timers.PAUSED, timers.RESET):
            timers.start(self.context, self.app, timer)
        else:
            timers.reset(self.context, self.app, timer)

    def timer_toggle(self, timer_id: int) -> None:
        """A tap on the time: a running timer pauses, a stopped one starts."""
        timer = timers.get(self.app, timer_id)
        if timer is not None and timer["state"] == timers.RUNNING:
            timers.pause(self.context, self.app, timer)
        elif timer is not None:
            timers.start(self.context, self.app, timer)

    def timer_reset_add(self, timer_id: int) -> None:
        """``reset_add``: a minute more while it counts, else reset."""
        timer = timers.get(self.app, timer_id)
        if timer is None:
            return
        if timer["state"] in (timers.RUNNING, timers.EXPIRED, timers.MISSED):
            timers.add_minute(self.context, self.app, timer)
        else:
            timers.reset(self.context, self.app, timer)

    def timer_swiped(self, drag: Drag) -> None:
        """A vertical swipe on the pager: the next timer (up) or the previous one (down)."""
        if abs(drag.y2 - drag.y1) >= 48 * drag.scale:
            self.timer_index += 1 if drag.y2 < drag.y1 else -1

    def edit_timer_label(self, timer_id: int) -> None:
        timer = timers.get(self.app, timer_id)
        if timer is not None:
            self.open_label_dialog(("timer", timer_id), timer["label"])


class ExpiredTimersActivity(Activity):
    """``timer.ExpiredTimersActivity``: the expired timers, each with "+ 1:00"; the fab stops them all."""

    def build(self) -> View:
        s = self.string
        expired = [t for t in timers.all_timers(self.app) if t["state"] in (timers.EXPIRED, timers.MISSED)]
        rows: list[View] = []
        for timer in expired:
            redraw_for(self.context, timer)
            rows.append(
                LinearLayout(
                    [
                        TextView(
                            timer["label"] or s("timer_times_up"),
                            resource_id=RID + "timer_label",
                            gravity="center",
                            height=40,
                        ),  # fmt: skip
                        TextView(
                            timer_text(self.context, timer),
                            resource_id=RID + "timer_time_text",
                            text_size=48,
                            gravity="center",
                            text_color=PRIMARY,
                            height=80,
                        ),  # fmt: skip
                        TextView(
                            s("timer_add_minute"),
                            cls="android.widget.Button",
                            resource_id=RID + "reset_add",
                            content_desc=s("timer_plus_one"),
                            clickable=True,
                            focusable=True,
                            gravity="center",
                            text_color=PRIMARY,
                            bold=True,
                            height=48,
                            on_click=partial(self.add_minute, timer["id"]),
                        ),  # fmt: skip
                    ],
                    padding=16,
                )
            )
        fab = ("#", s("timer_stop"), self.stop_all)
        body = LinearLayout(rows, resource_id=RID + "expired_timers_list", weight=1)
        return LinearLayout([body, fab_row(fab, None, None)], resource_id=RID + "expired_timers_activity", height=-1)

    def add_minute(self, timer_id: int) -> None:
        timer = timers.get(self.app, timer_id)
        if timer is not None:
            timers.add_minute(self.context, self.app, timer)
        if not any(t["state"] in (timers.EXPIRED, timers.MISSED) for t in timers.all_timers(self.app)):
            self.finish()

    def stop_all(self) -> None:
        """The fab: ``resetOrDeleteExpiredTimers``, then it goes."""
        for timer in list(timers.all_timers(self.app)):
            if timer["state"] in (timers.EXPIRED, timers.MISSED):
                timers.reset(self.context, self.app, timer)
        self.finish()

"""The Alarm tab (AlarmClockFragment): the alarm list, one alarm expanded at a time, and its editors.

A collapsed alarm (alarm_time_collapsed.xml) shows its time (``digital_clock``), its switch
(``onoff``), its label, repeat days or "Today"/"Tomorrow", and the ``arrow`` that expands it;
the expanded one (alarm_time_expanded.xml) adds the ``repeat_onoff`` check box, the day buttons
(``repeat_days``, in the locale's week order, each ``day_button_box`` with the long day name
as content-desc), the ringtone, ``vibrate_onoff``, ``edit_label`` and ``delete``. A tap on the
time opens the framework's TimePickerDialog (clock face and keyboard mode); the label opens
LabelDialogFragment's dialog (message "Label", a text field, Cancel and OK). The fab adds an
alarm through the time picker (set to now). What the handlers do is AlarmTimeClickHandler's
and AlarmUpdateHandler's, in :mod:`.alarms`; the list is read from the provider at each frame.
"""

from __future__ import annotations

import functools
from functools import partial

from androidrl.virtual.apps.deskclock import alarms, formats, timers
from androidrl.virtual.apps.deskclock.alarms import Alarm
from androidrl.virtual.apps.deskclock.widgets import RID, DayButton, Fab, GridLayout, HintTextView, SideButton, hairline
from androidrl.virtual.ui import config
from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.controls import CheckBox
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.glyphs import text_width
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.time_picker import TimePickerDialog
from androidrl.virtual.ui.views import (
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    ImageView,
    LinearLayout,
    ScrollingList,
    Switch,
    TextView,
    View,
)

#: About how tall a collapsed alarm is, in dp (where the list scrolls to show one).
COLLAPSED_DP = 112


@functools.lru_cache(maxsize=256)
def _time_width(time: str, font_scale: float) -> float:
    """How wide an alarm's time is drawn at 40sp, in dp, with a little room (``wrap_content``)."""
    return text_width(time, round(40 * font_scale)) + 8


class AlarmTab:
    """The Alarm tab's state and views, mixed into the DeskClock activity."""

    def alarm_create(self) -> None:
        self.alarm_scroll = ScrollState()
        self.expanded: int | None = None  # the id of the expanded alarm
        self.picking: int | None = None  # the alarm whose time the picker sets (None: a new one)
        self.labelling: tuple[str, int] | None = None  # ("alarm" or "timer", id) whose label the dialog edits
        self.label_text = TextState()
        self.previous_days: dict[int, int] = {}  # AlarmTimeClickHandler.mPreviousDaysOfWeekMap
        self.deleted: Alarm | None = None  # for undo

    # ------------------------------------------------------------------ views

    def alarm_page(self) -> View:
        rows = alarms.all_alarms(self.context)
        if self.expanded is not None and all(a.id != self.expanded for a in rows):
            self.expanded = None
        if not rows:
            return TextView(
                self.string("no_alarms"),
                resource_id=RID + "alarms_empty_view",
                content_desc=self.string("no_alarms"),
                text_color=TEXT_SECONDARY,
                gravity="center",
                text_size=18,
                height=120,
                weight=1,
            )
        is24, locale = self.context.is_24_hour(), self.context.locale()
        views = [self.alarm_row(alarm, is24, locale) for alarm in rows]
        return ScrollingList(views, state=self.alarm_scroll, resource_id=RID + "alarms_recycler_view", weight=1)

    def alarm_fab(self) -> tuple[Fab | None, SideButton | None, SideButton | None]:
        return ("+", self.string("button_alarms"), self.start_creating_alarm), None, None

    def alarm_row(self, alarm: Alarm, is24: bool, locale: str) -> View:
        """One alarm: alarm_time_collapsed.xml or alarm_time_expanded.xml, a GridLayout of its views."""
        s = self.string
        time = formats.time_text(alarm.hour, alarm.minutes, is24)
        expanded = alarm.id == self.expanded
        clock = TextView(
            time,
            resource_id=RID + "digital_clock",
            text_size=40,
            height=64,
            clickable=True,
            focusable=True,
            width=_time_width(time, config.current().font_scale),  # (wrap_content: as wide as the time)
            text_color=TEXT if alarm.enabled else TEXT_SECONDARY,
            on_click=partial(self.clock_clicked, alarm.id),
        )
        toggle = partial(self.toggle, alarm.id)
        switch = Switch(alarm.enabled, resource_id=RID + "onoff", clickable=True, on_click=toggle)
        cells = [(clock, 0, False), (switch, 0, True)]
        cells += self.expanded_cells(alarm, locale) if expanded else self.collapsed_cells(alarm, locale)
        label = alarm.label or s("default_label")  # (Alarm.getLabelOrDefault)
        return GridLayout(
            cells,
            content_desc=f"{time} {label}",
            clickable=True,
            focusable=True,
            padding=12,
            on_click=partial(self.collapse if expanded else self.expand, alarm.id),
        )

    def collapsed_cells(self, alarm: Alarm, locale: str) -> list[tuple[View, int, bool]]:
        s = self.string
        parts: list[View] = []
        if alarm.label:
            description = f"{s('label_description')} {alarm.label}"
            expand = partial(self.expand, alarm.id)
            parts.append(TextView(alarm.label, resource_id=RID + "label", content_desc=description, clickable=True,
                                  text_color=TEXT_SECONDARY, height=32, on_click=expand))  # fmt: skip
        if alarm.days:
            text = formats.days_text(alarm.days, locale, s("every_day"), s("day_concat"))
            spoken = formats.days_text(alarm.days, locale, s("every_day"), s("day_concat"), long_names=True)
            parts.append(TextView(text, resource_id=RID + "days_of_week", content_desc=spoken, height=32))
        else:
            tomorrow = alarm.hour * 60 + alarm.minutes <= self._minutes_now()  # Alarm.isTomorrow
            upcoming = s("alarm_tomorrow") if tomorrow else s("alarm_today")
            parts.append(TextView(upcoming, resource_id=RID + "upcoming_instance_label", height=32))
        texts = LinearLayout(parts, cls="android.widget.LinearLayout", height=len(parts) * 32)  # (EllipsizeLayout)
        arrow = self.arrow("v", s("expand_alarm"), partial(self.expand, alarm.id))
        return [(texts, 1, False), (arrow, 1, True), (hairline(), 2, False)]

    def expanded_cells(self, alarm: Alarm, locale: str) -> list[tuple[View, int, bool]]:
        s = self.string
        repeat = CheckBox(
            s("alarm_repeat"),
            bool(alarm.days),
            resource_id=RID + "repeat_onoff",
            on_click=partial(self.set_repeat, alarm.id),
        )
        cells: list[tuple[View, int, bool]] = [(repeat, 1, False)]
        if alarm.days:
            buttons = [
                DayButton(
                    formats.weekday(day, locale, "narrow"),
                    formats.weekday(day, locale, "long"),
                    bool(alarm.days & formats.DAY_BITS[day]),
                    partial(self.toggle_day, alarm.id, day),
                )
                for day in formats.week_order(locale)
            ]
            cells.append((LinearLayout(buttons, vertical=False, resource_id=RID + "repeat_days", height=48), 2, False))
        silent = alarm.ringtone == alarms.NO_RINGTONE
        ringtone = s("silent_ringtone_title") if silent else s("default_alarm_ringtone_title")
        cells.append(
            (
                TextView(
                    ringtone,
                    resource_id=RID + "choose_ringtone",
                    content_desc=f"{s('ringtone_description')} {ringtone}",
                    clickable=True,
                    focusable=True,
                    height=48,
                ),
                3,
                False,
            )
        )
        vibrate = CheckBox(s("alarm_vibrate"), alarm.vibrate, resource_id=RID + "vibrate_onoff", width=140,
                           on_click=partial(self.toggle_vibrate, alarm.id))  # fmt: skip
        cells.append((vibrate, 3, True))
        description = f"{s('label_description')} {alarm.label}" if alarm.label else s("no_label_specified")
        label = HintTextView(
            alarm.label,
            hint=s("label"),
            resource_id=RID + "edit_label",
            content_desc=description,
            clickable=True,
            focusable=True,
            height=48,
            on_click=partial(self.edit_label, alarm.id),
        )
        cells += [(label, 4, False), (hairline(), 5, False)]
        delete = TextView(
            s("delete"),
            cls="android.widget.Button",
            resource_id=RID + "delete",
            clickable=True,
            focusable=True,
            text_color=PRIMARY,
            bold=True,
            height=48,
            width=120,
            on_click=partial(self.delete_alarm, alarm.id),
        )
        arrow = self.arrow("^", s("collapse_alarm"), partial(self.collapse, alarm.id))
        return cells + [(delete, 6, False), (arrow, 6, True)]

    @staticmethod
    def arrow(glyph: str, description: str, on_click) -> View:
        return ImageView(
            glyph=glyph,
            color=(255, 255, 255),
            glyph_color=TEXT_SECONDARY,
            cls="android.widget.ImageButton",
            resource_id=RID + "arrow",
            content_desc=description,
            clickable=True,
            focusable=True,
            width=48,
            height=40,
            on_click=on_click,
        )

    def _minutes_now(self) -> int:
        current = alarms.now(self.context)
        return current.hour * 60 + current.minute

    # ------------------------------------------------------------------ what taps do

    def expand(self, alarm_id: int) -> None:
        if self.expanded != alarm_id:
            self.expanded = alarm_id
            alarms.event(self.context, self.app, "Alarm", "Expand")

    def collapse(self, alarm_id: int) -> None:
        if self.expanded == alarm_id:
            self.expanded = None
            alarms.event(self.context, self.app, "Alarm", "Collapse")

    def scroll_to_alarm(self, alarm_id: int) -> None:
        """``scrollToAlarm``: expand it and scroll the list to it."""
        ids = [alarm.id for alarm in alarms.all_alarms(self.context)]
        if alarm_id in ids:
            self.expanded = alarm_id
            self.alarm_scroll.scroll_to(ids.index(alarm_id) * COLLAPSED_DP * self.context.metrics.scale)

    def start_creating_alarm(self) -> None:
        """The fab: the time picker, at the current time, for a new alarm."""
        self.snackbar = None  # (hideUndoBar)
        self.picking = None
        current = alarms.now(self.context)
        self.show(TimePickerDialog(self, current.hour, current.minute, self.time_set, is24=self.context.is_24_hour()))

    def clock_clicked(self, alarm_id: int) -> None:
        """A tap on an alarm's time: the picker for it (and the alarm expands)."""
        alarm = alarms.get_alarm(self.context, alarm_id)
        if alarm is None:
            return
        self.picking = alarm_id
        alarms.event(self.context, self.app, "Alarm", "Set Time")
        self.show(TimePickerDialog(self, alarm.hour, alarm.minutes, self.time_set, is24=self.context.is_24_hour()))
        self.expand(alarm_id)

    def time_set(self, hour: int, minute: int) -> None:
        """``AlarmTimeClickHandler.onTimeSet``: a new alarm, or the picked one at its new time (and on)."""
        if self.picking is None:
            alarm = alarms.add_alarm(self.context, self.app, hour, minute)
            alarms.event(self.context, self.app, "Alarm", "Create")
            self.scroll_to_alarm(alarm.id)
        else:
            old = alarms.get_alarm(self.context, self.picking)
            self.picking = None
            if old is None:
                return
            alarm = alarms.update_alarm(self.context, self.app, old, hour=hour, minutes=minute, enabled=1)
        self.alarm_set_snackbar(alarm)

    def alarm_set_snackbar(self, alarm: Alarm) -> None:
        """``AlarmUtils.popAlarmSetSnackbar``: how long until it goes off."""
        current = alarms.now(self.context)
        delta = (alarms.next_time(alarm, current) - current).total_seconds() * 1000
        self.show_snackbar(alarms.alarm_set_text(self.app, self.context.locale(), round(delta)))

    def toggle(self, alarm_id: int) -> None:
        """The switch: ``setAlarmEnabled``."""
        alarm = alarms.get_alarm(self.context, alarm_id)
        if alarm is None:
            return
        alarm = alarms.update_alarm(self.context, self.app, alarm, enabled=not alarm.enabled)
        alarms.event(self.context, self.app, "Alarm", "Enable" if alarm.enabled else "Disable")
        self.log("AlarmTimeClickHandler", f"Updating alarm enabled state to {str(alarm.enabled).lower()}")
        if alarm.enabled:
            self.alarm_set_snackbar(alarm)

    def set_repeat(self, alarm_id: int) -> None:
        """``setAlarmRepeatEnabled``: repeat on brings back the days it had (else every day); off remembers them."""
        alarm = alarms.get_alarm(self.context, alarm_id)
        if alarm is None:
            return
        if alarm.days:
            self.previous_days[alarm_id] = alarm.days
            days = 0
        else:
            days = self.previous_days.get(alarm_id) or formats.ALL_DAYS
        alarms.event(self.context, self.app, "Alarm", "Toggle Repeat Days")
        self._change_days(alarm, days)

    def toggle_day(self, alarm_id: int, day: int) -> None:
        """A day button: ``setDayOfWeekEnabled``."""
        alarm = alarms.get_alarm(self.context, alarm_id)
        if alarm is not None:
            self._change_days(alarm, alarm.days ^ formats.DAY_BITS[day])

    def _change_days(self, alarm: Alarm, days: int) -> None:
        current = alarms.now(self.context)
        before = alarms.next_time(alarm, current)
        changed = alarms.update_alarm(self.context, self.app, alarm, daysofweek=days)
        if changed.enabled and alarms.next_time(changed, current) != before:  # the next time moved: say so
            self.alarm_set_snackbar(changed)

    def toggle_vibrate(self, alarm_id: int) -> None:
        alarm = alarms.get_alarm(self.context, alarm_id)
        if alarm is not None:
            alarms.update_alarm(self.context, self.app, alarm, minor=True, vibrate=not alarm.vibrate)
            alarms.event(self.context, self.app, "Alarm", "Toggle Vibrate")
            self.log("AlarmTimeClickHandler", f"Updating vibrate state to {str(not alarm.vibrate).lower()}")

    def edit_label(self, alarm_id: int) -> None:
        """``onEditLabelClicked``: the label dialog."""
        alarm = alarms.get_alarm(self.context, alarm_id)
        if alarm is not None:
            alarms.event(self.context, self.app, "Alarm", "Set Label")
            self.open_label_dialog(("alarm", alarm_id), alarm.label)

    def open_label_dialog(self, target: tuple[str, int], label: str) -> None:
        """LabelDialogFragment: message "Label", a field holding the label (all selected), Cancel and OK."""
        self.labelling = target
        self.label_text = TextState(label, 0, len(label))  # (selectAll)
        self.focus = "label"
        self.show(
            AlertDialog(
                message=self.string("label"),
                view=self.label_field,
                positive=(framework_string("ok"), self.label_ok),
                negative=(framework_string("cancel"), None),
                on_dismiss=self.label_closed,
            )
        )

    def label_field(self) -> View:
        focused = self.focus == "label"
        return edit_text(self, self.label_text, focused, partial(self.focus_on, "label"), on_action=self.label_done)

    def label_done(self) -> None:
        """The IME's Done: as OK."""
        self.label_ok()
        for window in self.windows:
            window.dismiss()

    def label_ok(self) -> None:
        """OK: the alarm's (or timer's) label is set to what the field holds."""
        if self.labelling is None:
            return
        kind, target = self.labelling
        self.labelling = None
        if kind == "alarm":
            alarm = alarms.get_alarm(self.context, target)
            if alarm is not None:
                alarms.update_alarm(self.context, self.app, alarm, minor=True, label=self.label_text.text)
        else:
            timer = timers.get(self.app, target)
            if timer is not None:
                timers.set_label(self.context, self.app, timer, self.label_text.text)

    def label_closed(self) -> None:
        self.labelling = None
        self.focus = ""

    def delete_alarm(self, alarm_id: int) -> None:
        """``onDeleteClicked``: the alarm and its instances go; "Alarm deleted" with undo."""
        alarm = alarms.get_alarm(self.context, alarm_id)
        if alarm is None:
            return
        alarms.delete_alarm(self.context, self.app, alarm)
        alarms.event(self.context, self.app, "Alarm", "Delete")
        self.log("AlarmTimeClickHandler", "Deleting alarm.")
        self.deleted = alarm
        self.show_snackbar(self.string("alarm_deleted"), self.string("alarm_undo").upper(), self.undo_delete, long=True)

    def undo_delete(self) -> None:
        """Undo: ``asyncAddAlarm(deletedAlarm)``, with its old id."""
        alarm, self.deleted = self.deleted, None
        if alarm is not None:
            fields = {"_id": alarm.id, "daysofweek": alarm.days, "enabled": int(alarm.enabled),
                      "vibrate": int(alarm.vibrate), "label": alarm.label, "ringtone": alarm.ringtone,
                      "delete_after_use": int(alarm.delete_after_use)}  # fmt: skip
            alarms.add_alarm(self.context, self.app, alarm.hour, alarm.minutes, **fields)
            alarms.event(self.context, self.app, "Alarm", "Create")

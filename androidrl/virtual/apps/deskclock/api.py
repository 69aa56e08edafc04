"""``HandleApiCalls``: the AlarmClock intents (android.provider.AlarmClock), as DeskClock answers them.

``SET_ALARM`` (``android.intent.extra.alarm.HOUR``, ``MINUTES``, ``MESSAGE``, ``DAYS``,
``VIBRATE``, ``SKIP_UI``) enables the first alarm with that time, label, days and vibrate, or
makes one (deleted after use when it is one-time and SKIP_UI), schedules its instance, toasts
"Alarm set for ..." and, unless SKIP_UI, shows it expanded on the Alarm tab; without HOUR it
opens the Alarm tab's time picker. ``SET_TIMER`` (``LENGTH`` seconds, ``MESSAGE``, ``SKIP_UI``)
starts a reset timer of that length and label or a new one, then shows it unless SKIP_UI;
without LENGTH it opens the timer setup. ``SHOW_ALARMS`` and ``SHOW_TIMERS`` open those tabs.
The activity has no window of its own (``Theme.NoDisplay``): it finishes in onCreate.
"""

from __future__ import annotations

from androidrl.virtual.apps.deskclock import alarms, formats, timers
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import Intent

HANDLE_API_CALLS = f"{alarms.PACKAGE}.HandleApiCalls"
ACTION_SET_ALARM = "android.intent.action.SET_ALARM"
ACTION_SET_TIMER = "android.intent.action.SET_TIMER"
ACTION_SHOW_ALARMS = "android.intent.action.SHOW_ALARMS"
ACTION_SHOW_TIMERS = "android.intent.action.SHOW_TIMERS"
EXTRA = "android.intent.extra.alarm."
#: UiDataModel.Tab's order: ALARMS, CLOCKS, TIMERS, STOPWATCH.
ALARMS_TAB, CLOCKS_TAB, TIMERS_TAB, STOPWATCH_TAB = range(4)
#: What DeskClock's intent extras ask of it when it starts (AlarmClockFragment, TimerFragment).
EXTRA_SCROLL_TO_ALARM = "deskclock.scroll.to.alarm"
EXTRA_CREATE_NEW = "deskclock.create.new"
EXTRA_TIMER_SETUP = "com.android.deskclock.action.TIMER_SETUP"
TAG = "HandleApiCalls"


class HandleApiCalls(Activity):
    """Carries out one AlarmClock intent, then finishes."""

    def on_create(self) -> None:
        intent = self.intent
        try:
            if intent.action is not None:
                self.log(TAG, f"onCreate: {intent}")
            handler = {
                ACTION_SET_ALARM: self.set_alarm,
                ACTION_SHOW_ALARMS: self.show_alarms,
                ACTION_SET_TIMER: self.set_timer,
                ACTION_SHOW_TIMERS: self.show_timers,
            }.get(intent.action or "")
            if handler is not None:
                handler()
        finally:
            self.finish()

    def open_deskclock(self, tab: int, **extras) -> None:
        """``UiDataModel.setSelectedTab`` and start DeskClock with ``extras``.

        DeskClock is ``singleTask``: a running one comes to the front and gets the intent in
        ``onNewIntent``; the app's data carries the extras there (``request``).
        """
        self.app.data["tab"] = tab
        self.app.data["request"] = dict(extras)
        self.context.start_activity(Intent(component=(self.app.package, alarms.MAIN), extras=extras))

    def extra(self, name: str, default=None):
        return self.intent.extras.get(EXTRA + name, default)

    def set_alarm(self) -> None:
        """``handleSetAlarm``."""
        hour, minutes = self.extra("HOUR"), self.extra("MINUTES", 0)
        if hour is not None and not (isinstance(hour, int) and 0 <= hour <= 23):
            self.log(TAG, f"Illegal hour: {hour}")
            return
        if not (isinstance(minutes, int) and 0 <= minutes <= 59):
            self.log(TAG, f"Illegal minute: {minutes}")
            return
        if hour is None:  # no time: the alarm creation UI
            self.open_deskclock(ALARMS_TAB, **{EXTRA_CREATE_NEW: True})
            self.log(TAG, "Missing alarm time; opening UI")
            return
        skip_ui = bool(self.extra("SKIP_UI", False))
        days = self.days()
        fields = {"daysofweek": days if days is not None else 0}
        if self.extra("MESSAGE") is not None:
            fields["label"] = str(self.extra("MESSAGE"))
        if self.extra("VIBRATE") is not None:
            fields["vibrate"] = int(bool(self.extra("VIBRATE")))
        where = " AND ".join(f"{column}=?" for column in ("hour", "minutes", *fields))
        args = [hour, minutes, *fields.values()]
        found = self.context.content.query(alarms.ALARMS, None, where, args, "_id")
        if found:  # enable the first matching alarm; its instances start again
            alarm = alarms.Alarm.from_row(found[0])
            self.context.content.update(f"{alarms.ALARMS}/{alarm.id}", {"enabled": 1})
            alarms.delete_instances(self.context, self.app, alarm.id)
            alarm = alarms.get_alarm(self.context, alarm.id)
            alarms.event(self.context, self.app, "Alarm", "Update", "Intent")
            self.log(TAG, f"Updated alarm: {alarm}")
        else:
            fields["delete_after_use"] = int(not fields["daysofweek"] and skip_ui)
            alarm = alarms.add_alarm(self.context, self.app, hour, minutes, schedule=False, **fields)
            alarms.event(self.context, self.app, "Alarm", "Create", "Intent")
            self.log(TAG, f"Created new alarm: {alarm}")
        assert alarm is not None
        instance = alarms.setup_instance(self.context, self.app, alarm)  # (setupInstance)
        zone = alarms.now(self.context).tzinfo
        delta = alarms.instance_time(instance, zone).timestamp() * 1000 - self.context.current_time_millis()
        self.toast(alarms.alarm_set_text(self.app, self.context.locale(), round(delta)), long=True)
        if not skip_ui:
            self.open_deskclock(ALARMS_TAB, **{EXTRA_SCROLL_TO_ALARM: alarm.id})

    def days(self) -> int | None:
        """``getDaysFromIntent``: the Calendar days (Sunday 1 .. Saturday 7) as ``Weekdays`` bits, or None."""
        days = self.extra("DAYS")
        if days is None:
            return None
        days = days if isinstance(days, list) else [days]
        return sum(formats.DAY_BITS[d] for d in set(days) if isinstance(d, int) and d in formats.DAY_BITS)

    def show_alarms(self) -> None:
        """``handleShowAlarms``."""
        alarms.event(self.context, self.app, "Alarm", "Show", "Intent")
        self.open_deskclock(ALARMS_TAB)

    def set_timer(self) -> None:
        """``handleSetTimer``."""
        if self.extra("LENGTH") is None:
            self.open_deskclock(TIMERS_TAB, **{EXTRA_TIMER_SETUP: True})
            self.log(TAG, "Showing timer setup")
            return
        length = self.extra("LENGTH")
        length = length * 1000 if isinstance(length, int) else 0
        if length < timers.MIN_LENGTH:
            self.log(TAG, f"Invalid timer length requested: {length}")
            return
        label = str(self.extra("MESSAGE") or "")
        skip_ui = bool(self.extra("SKIP_UI", False))
        timer = next(
            (t for t in timers.all_timers(self.app) if t["state"] == timers.RESET and t["length"] == length
             and t["label"] == label),
            None,
        )  # fmt: skip
        if timer is None:
            timer = timers.add_timer(self.context, self.app, length, label, skip_ui)
            alarms.event(self.context, self.app, "Timer", "Create", "Intent")
        timers.start(self.context, self.app, timer, "Intent")
        if not skip_ui:
            self.open_deskclock(TIMERS_TAB, **{"com.android.deskclock.extra.TIMER_ID": timer["id"]})

    def show_timers(self) -> None:
        """``handleShowTimers``: the Timer tab, at the newest timer."""
        alarms.event(self.context, self.app, "Timer", "Show", "Intent")
        self.open_deskclock(TIMERS_TAB, **{"com.android.deskclock.extra.TIMER_ID": self.newest_timer()})

    def newest_timer(self) -> int | None:
        pages = timers.all_timers(self.app)
        return pages[0]["id"] if pages else None

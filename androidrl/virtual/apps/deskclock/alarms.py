"""DeskClock's alarms: the rows of its provider, and their instances as AlarmStateManager keeps them.

An alarm (``content://com.android.deskclock/alarms``) is the user's: a time, repeat days, a label.
While it is enabled it has one instance (``/instances``): the next time it goes off, as
``Alarm.createInstanceAfter`` computes it, in a state that follows the time left
(``AlarmStateManager.registerInstance``: silent, then the low- and high-priority notification
states two hours and thirty minutes before). The earliest instance not yet fired is handed to
the alarm manager as the next alarm clock (``updateNextAlarmInAlarmManager``), which ``dumpsys
alarm`` shows and the Clock tab reads back. Every change goes through the provider, so a
``content query`` sees it, and the app reads the provider whenever it draws.

What this does not do: alarms never ring (no AlarmActivity, snooze or dismiss). An instance
whose time has passed is rolled on, as if it went off unheard: a repeating alarm gets its next
instance, a one-time alarm is turned off (``updateParentAlarm``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from androidrl.virtual.apps.deskclock import formats
from androidrl.virtual.system.framework.app import App, Context

PACKAGE = "com.android.deskclock"
MAIN = f"{PACKAGE}.DeskClock"
ALARMS = f"content://{PACKAGE}/alarms"
INSTANCES = f"content://{PACKAGE}/instances"
#: LogUtils' default logger, and LogEventTracker's.
TAG, EVENTS = "AlarmClock", "Events"
#: ``Settings.System.DEFAULT_ALARM_ALERT_URI``: what a new alarm rings (``Alarm.alert``).
DEFAULT_RINGTONE = "content://settings/system/alarm_alert"
#: ``ClockContract.AlarmSettingColumns.NO_RINGTONE`` (``Uri.EMPTY``): a silent alarm.
NO_RINGTONE = ""
#: ClockContract.InstancesColumns' states.
SILENT_STATE, LOW_NOTIFICATION_STATE, HIGH_NOTIFICATION_STATE, FIRED_STATE = 0, 1, 3, 5
#: AlarmStateManager.INDICATOR_ACTION: the surrogate alarm that carries the next AlarmClockInfo.
INDICATOR_ACTION = "indicator"
#: android.app.AlarmManager.RTC_WAKEUP.
RTC_WAKEUP = 0


@dataclass(frozen=True)
class Alarm:
    """One row of ``alarms`` (``provider/Alarm.java``)."""

    id: int
    hour: int
    minutes: int
    days: int
    enabled: bool
    vibrate: bool
    label: str
    ringtone: str | None
    delete_after_use: bool

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Alarm:
        return cls(
            int(row["_id"]), int(row["hour"]), int(row["minutes"]), int(row["daysofweek"]), bool(row["enabled"]),
            bool(row["vibrate"]), str(row["label"] or ""), row["ringtone"], bool(row["delete_after_use"]),
        )  # fmt: skip

    def __str__(self) -> str:
        """``Alarm.toString()``, as the log shows an alarm."""
        return (
            f"Alarm{{alert={self.ringtone}, id={self.id}, enabled={str(self.enabled).lower()}, hour={self.hour}, "
            f"minutes={self.minutes}, daysOfWeek={formats.days_array(self.days)}, vibrate={str(self.vibrate).lower()}, "
            f"label='{self.label}', deleteAfterUse={str(self.delete_after_use).lower()}}}"
        )


def now(context: Context) -> dt.datetime:
    """The phone's local time (``Calendar.getInstance()``), in ``persist.sys.timezone``."""
    return context.local_time()


def all_alarms(context: Context) -> list[Alarm]:
    """Every alarm, in the alarm list's order (``Alarm.DEFAULT_SORT_ORDER``: time, then newest first)."""
    rows = context.content.query(ALARMS, None, None, (), "hour, minutes ASC, _id DESC")
    return [Alarm.from_row(row) for row in rows]


def get_alarm(context: Context, alarm_id: int) -> Alarm | None:
    """The alarm with that id, or None."""
    rows = context.content.query(f"{ALARMS}/{alarm_id}")
    return Alarm.from_row(rows[0]) if rows else None


def instances(context: Context) -> list[dict[str, Any]]:
    """Every alarm instance row."""
    return context.content.query(INSTANCES)


def next_time(alarm: Alarm, after: dt.datetime) -> dt.datetime:
    """``Alarm.getNextAlarmTime``: the first time after ``after`` at the alarm's hour and minute on one of its days."""
    when = after.replace(hour=alarm.hour, minute=alarm.minutes, second=0, microsecond=0)
    if when <= after:
        when = _add_days(when, 1)
    if alarm.days:
        for _ in range(7):
            if alarm.days & formats.DAY_BITS[formats.calendar_day(when)]:
                break
            when = _add_days(when, 1)
    return when


def _add_days(when: dt.datetime, days: int) -> dt.datetime:
    """``Calendar.add(DAY_OF_YEAR, n)``: the same wall time ``days`` later (across a DST change too)."""
    day = when.date() + dt.timedelta(days=days)
    return dt.datetime(day.year, day.month, day.day, when.hour, when.minute, tzinfo=when.tzinfo)


def instance_time(row: dict[str, Any], zone: dt.tzinfo | None) -> dt.datetime:
    """``AlarmInstance.getAlarmTime`` (its ``month`` counts from 0, as Calendar.MONTH)."""
    return dt.datetime(row["year"], row["month"] + 1, row["day"], row["hour"], row["minutes"], tzinfo=zone)


# ---------------------------------------------------------------------------- changes (AlarmUpdateHandler)


def add_alarm(context: Context, app: App, hour: int, minutes: int, schedule: bool = True, **fields: Any) -> Alarm:
    """``Alarm.addAlarm``: a new alarm, enabled unless told (``schedule``: its instance too, ``setupAlarmInstance``)."""
    values = {"hour": hour, "minutes": minutes, "daysofweek": 0, "enabled": 1, "vibrate": 1, "label": "",
              "ringtone": DEFAULT_RINGTONE, "delete_after_use": 0, **fields}  # fmt: skip
    uri = context.content.insert(ALARMS, values)
    alarm = get_alarm(context, int(str(uri).rsplit("/", 1)[-1]))
    assert alarm is not None
    if alarm.enabled and schedule:
        setup_instance(context, app, alarm)
    return alarm


def update_alarm(context: Context, app: App, alarm: Alarm, minor: bool = False, **values: Any) -> Alarm:
    """``asyncUpdateAlarm``: change the row; a major change (time, days, on/off) makes the instance anew.

    A minor one (label, vibrate) copies itself into the instances, as ``minorUpdate`` does.
    """
    context.content.update(f"{ALARMS}/{alarm.id}", {k: int(v) if isinstance(v, bool) else v for k, v in values.items()})
    changed = get_alarm(context, alarm.id)
    assert changed is not None
    if minor:
        for row in instances(context):
            if row["alarm_id"] == alarm.id:
                copied = {"vibrate": int(changed.vibrate), "label": changed.label, "ringtone": changed.ringtone}
                context.content.update(f"{INSTANCES}/{row['_id']}", copied)
        return changed
    delete_instances(context, app, alarm.id, update=not changed.enabled)  # (setup_instance updates it)
    if changed.enabled:
        setup_instance(context, app, changed)
    return changed


def delete_alarm(context: Context, app: App, alarm: Alarm) -> None:
    """``asyncDeleteAlarm``: its instances, then the alarm."""
    delete_instances(context, app, alarm.id)
    context.content.delete(f"{ALARMS}/{alarm.id}")


# ---------------------------------------------------------------------------- instances (AlarmStateManager)


def setup_instance(context: Context, app: App, alarm: Alarm) -> dict[str, Any]:
    """``createInstanceAfter(now)``, ``AlarmInstance.addInstance`` and ``registerInstance``; the row."""
    current = now(context)
    when = next_time(alarm, current)
    values = {"year": when.year, "month": when.month - 1, "day": when.day, "hour": when.hour, "minutes": when.minute,
              "vibrate": int(alarm.vibrate), "label": alarm.label, "ringtone": alarm.ringtone,
              "alarm_state": _state(when, current), "alarm_id": alarm.id}  # fmt: skip
    uri = context.content.insert(INSTANCES, values)
    row = {"_id": int(str(uri).rsplit("/", 1)[-1]), **values}
    context.log(app.package, TAG, f"Registering instance: {row['_id']}")
    update_next_alarm(context, app)
    return row


def _state(when: dt.datetime, current: dt.datetime) -> int:
    """The state ``registerInstance`` gives an instance from the time left: silent, low or high notification."""
    left = when - current
    if left <= dt.timedelta(minutes=30):
        return HIGH_NOTIFICATION_STATE
    return LOW_NOTIFICATION_STATE if left <= dt.timedelta(hours=2) else SILENT_STATE


def delete_instances(context: Context, app: App, alarm_id: int, update: bool = True) -> None:
    """``AlarmStateManager.deleteAllInstances``: the alarm's instances go; the next alarm clock follows (``update``)."""
    context.log(app.package, TAG, f"Deleting all instances of alarm: {alarm_id}")
    context.content.delete(INSTANCES, "alarm_id=?", [alarm_id])
    if update:
        update_next_alarm(context, app)


def update_next_alarm(context: Context, app: App) -> None:
    """``updateNextAlarmInAlarmManager``: the earliest instance not yet fired is the next alarm clock, or none."""
    zone = now(context).tzinfo
    waiting = [row for row in instances(context) if row["alarm_state"] < FIRED_STATE]
    if not waiting:
        if context.alarms.cancel(app.package, INDICATOR_ACTION):
            context.log(app.package, TAG, "Canceling upcoming AlarmClockInfo")
        return
    first = min(waiting, key=lambda row: instance_time(row, zone))
    context.log(app.package, TAG, f"Setting upcoming AlarmClockInfo for alarm: {first['_id']}")
    millis = round(instance_time(first, zone).timestamp() * 1000)
    context.alarms.set(app.package, RTC_WAKEUP, millis, INDICATOR_ACTION, alarm_clock=True, show=f"{PACKAGE}/{MAIN}")


def fix_instances(context: Context, app: App) -> None:
    """Bring the instances in line with the alarms (``AlarmStateManager.fixAlarmInstances`` and more).

    Run at boot, when DeskClock starts and when the next alarm's time comes: instances of
    alarms that are gone or off go; one whose time has passed is rolled on (a repeating alarm's
    next instance, a one-time alarm turned off); an enabled alarm without one gets one (inserted
    from the shell, or seeded); then the next alarm clock is set again.
    """
    current = now(context)
    alarms = {alarm.id: alarm for alarm in all_alarms(context)}
    scheduled = set()  # the alarms that need no new instance
    for row in instances(context):
        alarm = alarms.get(row["alarm_id"])
        passed = instance_time(row, current.tzinfo) <= current
        if alarm is not None and alarm.enabled and not passed:
            scheduled.add(alarm.id)
            continue
        context.content.delete(f"{INSTANCES}/{row['_id']}")
        if alarm is not None and alarm.enabled and not alarm.days:  # a one-time alarm that went by
            scheduled.add(alarm.id)
            if alarm.delete_after_use:
                context.log(app.package, TAG, f"Deleting parent alarm: {alarm.id}")
                context.content.delete(f"{ALARMS}/{alarm.id}")
            else:
                context.log(app.package, TAG, f"Disabling parent alarm: {alarm.id}")
                context.content.update(f"{ALARMS}/{alarm.id}", {"enabled": 0})
    for alarm in alarms.values():
        if alarm.enabled and alarm.id not in scheduled:
            setup_instance(context, app, alarm)
    update_next_alarm(context, app)


def alarm_set_text(app: App, locale: str, delta_ms: int) -> str:
    """``AlarmUtils.formatElapsedTimeUntilAlarm``: "Alarm set for 7 hours and 53 minutes from now."."""
    if delta_ms < 60_000:
        return app.string(locale, "alarm_set_0")
    minutes_total = -(-delta_ms // 60_000)  # rounded up to the next whole minute
    days, rest = divmod(minutes_total, 1440)
    hours, minutes = divmod(rest, 60)
    index = (days > 0) | (hours > 0) << 1 | (minutes > 0) << 2
    parts = [quantity(app, locale, name, n) for name, n in (("days", days), ("hours", hours), ("minutes", minutes))]
    return app.string(locale, f"alarm_set_{index}", *parts)


def event(context: Context, app: App, category: str, action: str, label: str = "DeskClock") -> None:
    """``Events.sendEvent`` as LogEventTracker logs it: ``[Alarm] [Create] [DeskClock]``."""
    context.log(app.package, EVENTS, f"[{category}] [{action}] [{label}]")


def quantity(app: App, locale: str, name: str, count: int) -> str:
    """``getQuantityString`` of the plural ``name`` for ``count`` (English and German: one, other)."""
    return app.string(locale, f"{name}_{'one' if count == 1 else 'other'}", count)

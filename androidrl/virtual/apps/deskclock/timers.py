"""DeskClock's timers (data/Timer.java, TimerModel, TimerNotificationBuilder), kept in the app's data.

A timer counts down on the phone's uptime (``SystemClock.elapsedRealtime``, which moves with
each step of an env), so it ends at the same step every time an episode is replayed. DeskClock
keeps its timers in SharedPreferences (``TimerDAO``): here the app's data, which survives
``am force-stop`` and goes with ``pm clear``. The running timer that ends first is set as an
``ELAPSED_REALTIME_WAKEUP`` alarm (``TimerModel.updateAlarmManager``); when it goes off, the
timers whose time is up expire and the "Time's up" notification is posted (``buildHeadsUp``).
"""

from __future__ import annotations

from typing import Any

from androidrl.virtual.apps.deskclock.alarms import PACKAGE, event
from androidrl.virtual.system.framework.app import App, Context
from androidrl.virtual.system.framework.intent import Intent

RESET, RUNNING, PAUSED, EXPIRED, MISSED = "RESET", "RUNNING", "PAUSED", "EXPIRED", "MISSED"
#: TimerService's action for the alarm of the timer that ends first.
TIMER_EXPIRED = "com.android.deskclock.action.TIMER_EXPIRED"
#: NotificationModel.getExpiredTimerNotificationId (Integer.MAX_VALUE - 3).
EXPIRED_NOTIFICATION_ID = 2**31 - 1 - 3
EXPIRED_ACTIVITY = f"{PACKAGE}.timer.ExpiredTimersActivity"
#: Timer.MIN_LENGTH and MAX_LENGTH (99:99:99 on the keypad).
MIN_LENGTH, MAX_LENGTH = 1000, (99 * 3600 + 99 * 60 + 99) * 1000
MINUTE = 60_000
#: android.app.AlarmManager.ELAPSED_REALTIME_WAKEUP.
ELAPSED_REALTIME_WAKEUP = 2


def elapsed(context: Context) -> int:
    """``SystemClock.elapsedRealtime()`` in ms."""
    return context.elapsed_realtime()


def all_timers(app: App) -> list[dict[str, Any]]:
    """The timers, newest first (``Timer.ID_COMPARATOR``): the pages of the Timer tab."""
    return sorted(app.data.get("timers", []), key=lambda timer: -timer["id"])


def get(app: App, timer_id: int) -> dict[str, Any] | None:
    """The timer with that id, or None."""
    return next((t for t in app.data.get("timers", []) if t["id"] == timer_id), None)


def remaining(context: Context, timer: dict[str, Any]) -> int:
    """``Timer.getRemainingTime``: what is left (negative once it has expired), in ms."""
    if timer["state"] in (RUNNING, EXPIRED, MISSED):
        return timer["remaining"] - (elapsed(context) - timer["start"])
    return timer["remaining"]


def add_timer(context: Context, app: App, length: int, label: str = "", delete_after_use: bool = False) -> dict:
    """``TimerModel.addTimer``: a new timer, reset to ``length`` ms."""
    next_id = app.data.get("timer_next_id", 1)
    timer = {"id": next_id, "state": RESET, "length": length, "total": length, "start": 0, "wall": 0,
             "remaining": length, "label": label, "delete_after_use": delete_after_use}  # fmt: skip
    app.data["timer_next_id"] = next_id + 1
    app.data["timers"] = [*app.data.get("timers", []), timer]
    return timer


def start(context: Context, app: App, timer: dict[str, Any], label: str = "DeskClock") -> None:
    """``Timer.start``: a reset or paused timer runs."""
    if timer["state"] in (RESET, PAUSED):
        timer.update(state=RUNNING, start=elapsed(context), wall=context.current_time_millis())
        event(context, app, "Timer", "Start", label)
        update(context, app)


def pause(context: Context, app: App, timer: dict[str, Any]) -> None:
    """``Timer.pause``: a running timer stops where it is; an expired one resets."""
    if timer["state"] == RUNNING:
        timer.update(state=PAUSED, remaining=remaining(context, timer), start=0, wall=0)
        event(context, app, "Timer", "Pause")
        update(context, app)
    elif timer["state"] in (EXPIRED, MISSED):
        reset(context, app, timer)


def reset(context: Context, app: App, timer: dict[str, Any]) -> None:
    """``resetOrDeleteTimer``: back to its length (a timer made with SKIP_UI is deleted instead)."""
    if timer["delete_after_use"] and timer["state"] in (EXPIRED, MISSED):
        delete(context, app, timer)
        return
    timer.update(state=RESET, total=timer["length"], remaining=timer["length"], start=0, wall=0)
    event(context, app, "Timer", "Reset")
    update(context, app)


def delete(context: Context, app: App, timer: dict[str, Any]) -> None:
    """``TimerModel.removeTimer``."""
    app.data["timers"] = [t for t in app.data.get("timers", []) if t["id"] != timer["id"]]
    event(context, app, "Timer", "Delete")
    update(context, app)


def add_minute(context: Context, app: App, timer: dict[str, Any]) -> None:
    """``Timer.addMinute``: a minute more; an expired timer runs again with one minute left."""
    if timer["state"] == RESET:
        return
    new = MINUTE if timer["state"] in (EXPIRED, MISSED) else timer["remaining"] + MINUTE
    timer["total"] += new - timer["remaining"]
    if new > 0 and timer["state"] in (EXPIRED, MISSED):
        timer.update(state=RUNNING, start=elapsed(context), wall=context.current_time_millis())
    timer["remaining"] = new
    event(context, app, "Timer", "Add Minute")
    update(context, app)


def set_label(context: Context, app: App, timer: dict[str, Any], label: str) -> None:
    """``Timer.setLabel``."""
    timer["label"] = label
    update(context, app)


def expire_due(context: Context, app: App, intent: Intent | None = None) -> None:
    """The timer alarm went off (``TimerService`` ACTION_TIMER_EXPIRED): the timers that are up expire."""
    for timer in app.data.get("timers", []):
        if timer["state"] == RUNNING and remaining(context, timer) <= 0:
            timer.update(state=EXPIRED, total=0, remaining=min(0, remaining(context, timer)),
                         start=elapsed(context), wall=context.current_time_millis())  # fmt: skip
            event(context, app, "Timer", "Fire")
    update(context, app)


def after_reboot(context: Context, app: App) -> None:
    """``Timer.updateAfterReboot``: the uptime started again; running timers keep the wall time gone by."""
    wall = context.current_time_millis()
    for timer in app.data.get("timers", []):
        if timer["state"] in (RUNNING, EXPIRED, MISSED):
            gone = max(0, wall - timer["wall"])
            timer.update(remaining=timer["remaining"] - gone, start=elapsed(context), wall=wall)
    expire_due(context, app)


def update(context: Context, app: App) -> None:
    """``updateAlarmManager`` and ``updateHeadsUpNotification``: the alarm of the next timer to end, the notice."""
    running = [t for t in app.data.get("timers", []) if t["state"] == RUNNING]
    if running:
        first = min(running, key=lambda timer: remaining(context, timer))
        when = elapsed(context) + remaining(context, first)
        context.alarms.set(
            app.package, ELAPSED_REALTIME_WAKEUP, when, TIMER_EXPIRED, {"timer.intent.extra.TIMER_ID": first["id"]}
        )
    else:
        context.alarms.cancel(app.package, TIMER_EXPIRED)
    expired = [t for t in all_timers(app) if t["state"] == EXPIRED]
    locale = context.locale()
    if not expired:
        context.notifications.cancel(app.package, EXPIRED_NOTIFICATION_ID)
    elif len(expired) == 1:
        title = expired[0]["label"] or app.string(locale, "timer_times_up")
        context.notifications.notify(app.package, EXPIRED_NOTIFICATION_ID, title, "", f"{PACKAGE}/{EXPIRED_ACTIVITY}")
    else:
        title = app.string(locale, "timer_multi_times_up", len(expired))
        context.notifications.notify(app.package, EXPIRED_NOTIFICATION_ID, title, "", f"{PACKAGE}/{EXPIRED_ACTIVITY}")

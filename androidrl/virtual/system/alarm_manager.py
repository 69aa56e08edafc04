"""The alarm manager (AlarmManagerService): the alarms apps set, the next alarm clock, and their delivery.

An alarm is what ``AlarmManager.setExact``/``setExactAndAllowWhileIdle``/``setAlarmClock`` hand the
service: a type (``RTC_WAKEUP`` counts in wall-clock milliseconds, ``ELAPSED_REALTIME_WAKEUP`` in
milliseconds since boot, as android.app.AlarmManager's constants), a trigger time, and the
PendingIntent to send then — here the package and the broadcast's action and extras. A
PendingIntent is one per package and action, so setting it again replaces the alarm
(``FLAG_UPDATE_CURRENT``) and ``cancel`` takes it away. The alarm-clock alarms
(``setAlarmClock``) carry an ``AlarmClockInfo``; the earliest of them is the user's next alarm
clock (``getNextAlarmClock``, ``dumpsys alarm``'s "Next alarm clock information").

The phone has no thread of its own: an alarm whose time has come is delivered when the phone is
next looked at (a frame, an input event, a shell command), by :meth:`AlarmManager.take_due`.
Force-stopping a package removes its alarms (AlarmManagerService's ``ACTION_PACKAGE_RESTARTED``
handling), and a reboot loses them all, as on Android.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from androidrl.virtual.system.clock import Clock

#: android.app.AlarmManager's alarm types.
RTC_WAKEUP, RTC, ELAPSED_REALTIME_WAKEUP, ELAPSED_REALTIME = 0, 1, 2, 3
TYPE_NAMES = {
    RTC_WAKEUP: "RTC_WAKEUP",
    RTC: "RTC",
    ELAPSED_REALTIME_WAKEUP: "ELAPSED_WAKEUP",
    ELAPSED_REALTIME: "ELAPSED",
}
#: AlarmManager's flags: FLAG_STANDALONE | FLAG_WAKE_FROM_IDLE (an alarm clock), | FLAG_ALLOW_WHILE_IDLE.
FLAG_STANDALONE, FLAG_WAKE_FROM_IDLE, FLAG_ALLOW_WHILE_IDLE = 0x1, 0x2, 0x4


@dataclass(frozen=True)
class Alarm:
    """One alarm set by an app.

    Attributes:
        package: Who set it (the PendingIntent's creator).
        type: ``RTC_WAKEUP``, ``RTC``, ``ELAPSED_REALTIME_WAKEUP`` or ``ELAPSED_REALTIME``.
        when: Its trigger time in milliseconds: wall-clock for the RTC types, since boot for the others.
        action: The action of the broadcast it sends its package.
        extras: The broadcast's extras.
        alarm_clock: The ``AlarmClockInfo``'s trigger time (wall-clock ms) of a ``setAlarmClock`` alarm, else None.
        show: The component the alarm clock's show intent opens (``pkg/cls``), or "".
        flags: ``AlarmManager.FLAG_*`` bits, as the service sets them.
    """

    package: str
    type: int
    when: int
    action: str
    extras: dict[str, Any] = field(default_factory=dict)
    alarm_clock: int | None = None
    show: str = ""
    flags: int = FLAG_STANDALONE | FLAG_ALLOW_WHILE_IDLE

    @property
    def rtc(self) -> bool:
        """Whether its time counts on the wall clock (else since boot)."""
        return self.type in (RTC, RTC_WAKEUP)

    @property
    def tag(self) -> str:
        """``Alarm.statsTag``: ``*walarm*:`` (a wakeup) or ``*alarm*:``, then the PendingIntent's action."""
        wakeup = self.type in (RTC_WAKEUP, ELAPSED_REALTIME_WAKEUP)
        return ("*walarm*:" if wakeup else "*alarm*:") + self.action


class AlarmManager:
    """The alarms set on one phone, earliest first.

    Args:
        clock: The phone's clock (wall time for RTC alarms, uptime for ELAPSED ones).
        on_change: Runs after the alarms change (the next alarm clock may show on screen).
    """

    def __init__(self, clock: Clock | None = None, on_change: Callable[[], None] | None = None) -> None:
        self.clock = clock if clock is not None else Clock()
        self._on_change = on_change
        self._alarms: list[Alarm] = []

    # ------------------------------------------------------------------ what apps call

    def set(
        self,
        package: str,
        type: int,
        when: int,
        action: str,
        extras: dict[str, Any] | None = None,
        *,
        alarm_clock: bool = False,
        show: str = "",
    ) -> Alarm:
        """Set (or replace) the alarm of ``package`` whose broadcast is ``action``.

        Args:
            package: The app setting it.
            type: One of the four alarm types.
            when: Trigger time in ms (wall clock for RTC types, since boot for ELAPSED ones).
            action: The broadcast sent to ``package`` when it goes off.
            extras: The broadcast's extras.
            alarm_clock: ``setAlarmClock``: it is an alarm the user set; the earliest is the next alarm clock.
            show: With ``alarm_clock``, the component that shows the alarm (``AlarmClockInfo.getShowIntent``).

        Raises:
            ValueError: An unknown type.
        """
        if type not in TYPE_NAMES:
            raise ValueError(f"AlarmManager.set: expected an alarm type 0-3 (RTC_WAKEUP..ELAPSED_REALTIME), got {type}")
        flags = FLAG_STANDALONE | (FLAG_WAKE_FROM_IDLE if alarm_clock else FLAG_ALLOW_WHILE_IDLE)
        alarm = Alarm(package, type, int(when), action, dict(extras or {}), int(when) if alarm_clock else None,
                      show, flags)  # fmt: skip
        self._alarms = [a for a in self._alarms if (a.package, a.action) != (package, action)] + [alarm]
        self._changed()
        return alarm

    def cancel(self, package: str, action: str) -> bool:
        """``AlarmManager.cancel(operation)``: take away the alarm of ``package`` with that action; whether it was."""
        kept = [a for a in self._alarms if (a.package, a.action) != (package, action)]
        removed = len(kept) != len(self._alarms)
        if removed:
            self._alarms = kept
            self._changed()
        return removed

    def next_alarm_clock(self) -> Alarm | None:
        """The earliest alarm-clock alarm (``getNextAlarmClock``), or None."""
        clocks = [a for a in self._alarms if a.alarm_clock is not None]
        return min(clocks, key=lambda a: a.alarm_clock) if clocks else None

    # ------------------------------------------------------------------ what the system does

    def pending(self) -> list[Alarm]:
        """Every alarm set, earliest first."""
        return sorted(self._alarms, key=self._elapsed)

    def remove_package(self, package: str) -> None:
        """Take away every alarm of ``package`` (it was force-stopped, cleared or uninstalled)."""
        kept = [a for a in self._alarms if a.package != package]
        if len(kept) != len(self._alarms):
            self._alarms = kept
            self._changed()

    def clear(self) -> None:
        """Forget every alarm (a reboot)."""
        if self._alarms:
            self._alarms = []
            self._changed()

    def take_due(self) -> list[Alarm]:
        """Remove and return the alarms whose time has come, earliest first (cheap when there are none)."""
        if not self._alarms:
            return []
        now = self.clock.uptime() * 1000
        due: list[Alarm] = []
        kept: list[Alarm] = []
        for alarm in self._alarms:
            (due if self._elapsed(alarm) <= now else kept).append(alarm)
        if due:
            self._alarms = kept
            self._changed()
        return sorted(due, key=self._elapsed)

    def elapsed(self, alarm: Alarm) -> int:
        """When ``alarm`` goes off, in ms since boot (``Alarm.getWhenElapsed``)."""
        return round(self._elapsed(alarm))

    def _elapsed(self, alarm: Alarm) -> float:
        if not alarm.rtc:
            return alarm.when
        boot = self.clock.now() - self.clock.uptime()  # (the wall time at boot: an RTC alarm follows `date -s`)
        return alarm.when - boot * 1000

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()


def format_duration(millis: int) -> str:
    """``TimeUtils.formatDuration``: ``+1d2h3m4s5ms``, ``-12s0ms`` or ``0`` (fields from the first non-zero)."""
    if millis == 0:
        return "0"
    text, millis = ("+" if millis > 0 else "-"), abs(int(millis))
    seconds, ms = divmod(millis, 1000)
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    started = False
    for amount, unit in ((days, "d"), (hours, "h"), (minutes, "m"), (seconds, "s")):
        if started or amount > 0:
            text += f"{amount}{unit}"
            started = True
    return f"{text}{ms}ms"

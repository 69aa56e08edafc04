"""``dumpsys alarm``: the alarm manager's state, as AlarmManagerService.dumpImpl prints it.

frameworks/base apex/jobscheduler/service/java/com/android/server/alarm/AlarmManagerService.java
(``dumpImpl``: the clocks, then "Next alarm clock information:" with one ``user:0 pendingSend:false
time:MS = DATE = +DURATION`` line), LazyAlarmStore.dump (``N pending alarms:``, listed by
``dumpAlarmList`` from the last index, the earliest first) and Alarm.java (``toString`` and ``dump``).
Of the service's many counters only those are printed.
"""

from __future__ import annotations

from androidrl.virtual.shell.commands.dumpsys.common import identity
from androidrl.virtual.system.alarm_manager import TYPE_NAMES, Alarm, format_duration
from androidrl.virtual.system.core import PhoneCore


def dump_alarm(phone: PhoneCore, args: list[str]) -> str:
    """AlarmManagerService.dumpImpl (an IndentingPrintWriter with two spaces per level)."""
    manager = phone.alarm_manager
    now_rtc, now_elapsed = phone.clock.now_ms(), round(phone.clock.uptime() * 1000)

    def date(ms: int) -> str:  # SimpleDateFormat("yyyy-MM-dd HH:mm:ss.SSS") in the phone's time zone
        local = phone.clock.local(ms / 1000, phone.getprop("persist.sys.timezone"))
        return f"{local:%Y-%m-%d %H:%M:%S}.{ms % 1000:03d}"

    lines = [
        "Current Alarm Manager state:",
        f"  nowRTC={now_rtc}={date(now_rtc)} nowELAPSED={now_elapsed}",
        "",
        "  Next alarm clock information: ",
    ]
    following = manager.next_alarm_clock()
    if following is not None:  # (the user is listed once an alarm clock was set)
        time = following.alarm_clock or 0
        lines.append(f"    user:0 pendingSend:false time:{time} = {date(time)} = {format_duration(time - now_rtc)}")
    pending = manager.pending()
    if pending:
        lines += ["", f"  {len(pending)} pending alarms: "]
        for index in range(len(pending) - 1, -1, -1):  # the store keeps them latest first, dumps from the end
            alarm = pending[len(pending) - 1 - index]
            lines += _alarm(alarm, index, manager.elapsed(alarm), now_elapsed, date)
    return "\n".join(lines) + "\n"


def _alarm(alarm: Alarm, index: int, elapsed: int, now_elapsed: int, date) -> list[str]:
    """DumpAlarmList's entry for one alarm: its ``toString`` line, then ``Alarm.dump`` one level in."""
    name = identity(f"alarm {alarm.package} {alarm.action}")
    until = format_duration(elapsed - now_elapsed)
    orig = date(alarm.when) if alarm.rtc else until
    policies = " ".join(f"{policy}={until}" for policy in ("requester", "app_standby", "device_idle", "battery_saver"))
    lines = [
        f"    {TYPE_NAMES[alarm.type]} #{index}: Alarm{{{name} type {alarm.type} origWhen {alarm.when}  whenElapsed "
        f"{elapsed} {alarm.package}}}",
        f"      tag={alarm.tag}",
        f"      type={TYPE_NAMES[alarm.type]} origWhen={orig} window=0 repeatInterval=0 count=0 "
        f"flags=0x{alarm.flags:x}",
        f"      policyWhenElapsed: {policies}",
        f"      whenElapsed={until} maxWhenElapsed={until}",
    ]
    if alarm.alarm_clock is not None:
        show = identity(f"show {alarm.package} {alarm.show}")
        lines += [
            "      Alarm clock:",
            f"        triggerTime={date(alarm.alarm_clock)}",
            f"        showIntent=PendingIntent{{{show}: PendingIntentRecord{{{show} {alarm.package} startActivity}}}}",
        ]
    operation = identity(f"operation {alarm.package} {alarm.action}")
    record = f"PendingIntentRecord{{{operation} {alarm.package} broadcastIntent}}"
    lines.append(f"      operation=PendingIntent{{{operation}: {record}}}")
    return lines

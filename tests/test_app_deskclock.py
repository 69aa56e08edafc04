"""Clock (``com.android.deskclock``), driven as an agent drives it: ``input tap/swipe/text/keyevent`` only.

Each flow finds nodes in the ``uiautomator dump`` and taps their centres, and checks what it did
the way Android exposes it: DeskClock's provider (``content query``), ``dumpsys alarm`` (the next
alarm clock and the pending alarms), ``dumpsys notification``, ``settings``, ``logcat`` (the
``AlarmClock`` and ``Events`` tags), and the dump. The phones' clocks are stepped: time passes
only when the test moves it, as it passes per step in an env.
"""

from __future__ import annotations

import re

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, tap_node

RID = "com.android.deskclock:id/"
ALARMS = "content://com.android.deskclock/alarms"
INSTANCES = "content://com.android.deskclock/instances"
DESKCLOCK = "am start -n com.android.deskclock/.DeskClock"


def stepped_phone(**kwargs) -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, clock=Clock(stepped=True), **kwargs)


@pytest.fixture
def clock() -> VirtualDevice:
    """DeskClock open on a fresh phone whose time moves only when told (Monday 2026-06-15 09:00 UTC)."""
    device = VirtualDevice(stepped_phone())
    device.shell(DESKCLOCK)
    return device


def wait(device, seconds: float) -> None:
    """Time passes on the phone's stepped clock (as each step of an env moves it; ``sleep`` would also wait)."""
    device.phone.clock.advance(seconds)


def nodes(device, **attrs: str) -> list:
    return [e for e in ui_elements(device.dump_ui()) if all(getattr(e, k) == v for k, v in attrs.items())]


def attribute(xml: str, name: str, **match: str) -> str:
    """The attribute ``name`` of the first node whose attributes equal ``match`` (dashes in names as _)."""
    for node in re.findall(r"<node [^>]*>", xml):
        if all(f'{k.replace("_", "-")}="{v}"' in node for k, v in match.items()):
            return re.search(rf' {name}="([^"]*)"', node).group(1)
    raise AssertionError(f"no node with {match}")


def rows(device, uri: str, where: str = "") -> list[dict[str, str]]:
    """``content query`` rows as dicts of strings."""
    out = device.shell(f"content query --uri {uri}" + (f" --where {where!r}" if where else ""))
    found = [re.match(r"Row: \d+ (.*)", line) for line in out.splitlines()]
    return [dict(part.split("=", 1) for part in m.group(1).split(", ")) for m in found if m]


def texts(device, resource_id: str) -> list[str]:
    return [e.text for e in nodes(device, resource_id=RID + resource_id)]


def next_alarm_clock(device) -> str:
    """The user line of ``dumpsys alarm``'s next alarm clock ("" when none is set)."""
    dump = device.shell("dumpsys alarm")
    section = dump.split("Next alarm clock information: \n", 1)[1].split("\n\n", 1)[0]
    return section.strip()


def pick_time_on_the_face(device, hour: str, minute: str, pm: bool = False) -> None:
    """The framework time picker's clock face: the hour's number, then the minute's (auto-advanced), AM/PM."""
    tap_node(device, class_name="android.widget.RadialTimePickerView$RadialPickerTouchHelper", content_desc=hour)
    tap_node(device, class_name="android.widget.RadialTimePickerView$RadialPickerTouchHelper", content_desc=minute)
    tap_node(device, resource_id="android:id/pm_label" if pm else "android:id/am_label")
    tap_node(device, resource_id="android:id/button1")


# ---------------------------------------------------------------------------- tabs (clock-tab)


def test_the_four_tabs_show_their_pages_and_the_choice_is_remembered(clock):
    xml = clock.dump_ui()
    assert [e.content_desc for e in ui_elements(xml) if e.content_desc in ("Alarm", "Clock", "Timer", "Stopwatch")] == [
        "Alarm",
        "Clock",
        "Timer",
        "Stopwatch",
    ]
    assert attribute(xml, "selected", content_desc="Alarm") == "true"
    assert attribute(xml, "resource-id", content_desc="Add alarm") == RID + "fab"
    pages = {
        "Clock": "cities",
        "Timer": "timer_setup",
        "Stopwatch": "stopwatch_time_text",
        "Alarm": "alarms_recycler_view",
    }
    for tab, page in pages.items():
        tap_node(clock, content_desc=tab)
        xml = clock.dump_ui()
        assert attribute(xml, "selected", content_desc=tab) == "true", tab
        assert f'resource-id="{RID}{page}"' in xml, tab
    tap_node(clock, content_desc="Stopwatch")
    clock.shell("am force-stop com.android.deskclock")
    clock.shell(DESKCLOCK)
    assert attribute(clock.dump_ui(), "selected", content_desc="Stopwatch") == "true"  # (TabDAO)


# ---------------------------------------------------------------------------- alarms


def test_an_alarm_made_on_the_clock_face_and_labelled_is_in_the_provider_and_the_alarm_manager(clock):
    before = len(rows(clock, ALARMS))
    tap_node(clock, content_desc="Add alarm")
    assert nodes(clock, resource_id="android:id/radial_picker")  # the framework's TimePickerDialog
    pick_time_on_the_face(clock, "7", "30", pm=True)
    alarms = rows(clock, ALARMS)
    assert len(alarms) == before + 1
    new = alarms[-1]
    assert (new["hour"], new["minutes"], new["enabled"], new["daysofweek"], new["label"]) == ("19", "30", "1", "0", "")
    assert "Alarm set for 10 hours and 30 minutes from now." in texts(clock, "snackbar_text")
    # the new alarm shows expanded: its label field opens the label dialog
    assert "7:30 PM" in texts(clock, "digital_clock")
    tap_node(clock, resource_id=RID + "edit_label")
    assert attribute(clock.dump_ui(), "text", resource_id="android:id/message") == "Label"
    tap_node(clock, class_name="android.widget.EditText")
    clock.text("Gym bag")
    tap_node(clock, resource_id="android:id/button1")
    assert rows(clock, ALARMS, f"_id={new['_id']}")[0]["label"] == "Gym bag"
    instance = rows(clock, INSTANCES, f"alarm_id={new['_id']}")
    assert len(instance) == 1
    assert (instance[0]["hour"], instance[0]["minutes"], instance[0]["day"], instance[0]["month"]) == (
        "19",
        "30",
        "15",
        "5",
    )
    assert instance[0]["label"] == "Gym bag" and instance[0]["alarm_state"] == "0"  # (more than 2 h away: silent)
    assert (
        next_alarm_clock(clock)
        == "user:0 pendingSend:false time:1781551800000 = 2026-06-15 19:30:00.000 = +10h30m0s0ms"
    )
    assert "tag=*walarm*:indicator" in clock.shell("dumpsys alarm")
    log = clock.shell("logcat -d -s AlarmClock Events")
    assert f"Registering instance: {instance[0]['_id']}" in log and "[Alarm] [Create] [DeskClock]" in log


def test_an_alarm_time_typed_in_the_pickers_keyboard_mode(clock):
    tap_node(clock, content_desc="Add alarm")
    tap_node(clock, content_desc="Switch to text input mode for the time input.")
    tap_node(clock, resource_id="android:id/input_hour")
    assert "mInputShown=true" in clock.shell("dumpsys input_method")
    clock.shell("input keyevent DEL; input keyevent DEL")
    clock.text("6")
    tap_node(clock, resource_id="android:id/input_minute")
    clock.shell("input keyevent DEL; input keyevent DEL")
    clock.text("45")
    tap_node(clock, resource_id="android:id/button1")
    assert rows(clock, ALARMS)[-1]["hour"] == "6" and rows(clock, ALARMS)[-1]["minutes"] == "45"


def test_repeat_days_vibrate_and_the_switch_write_the_row_and_move_the_next_alarm(clock):
    tap_node(clock, content_desc="Expand alarm")  # 8:30, weekdays, off
    tap_node(clock, resource_id=RID + "onoff")
    assert rows(clock, ALARMS, "_id=1")[0]["enabled"] == "1"
    assert next_alarm_clock(clock).endswith("= 2026-06-16 08:30:00.000 = +23h30m0s0ms")  # Tuesday
    tap_node(clock, text="Repeat")  # off: a one-time alarm, tomorrow
    assert rows(clock, ALARMS, "_id=1")[0]["daysofweek"] == "0"
    assert not nodes(clock, resource_id=RID + "day_button_box")
    tap_node(clock, text="Repeat")  # on again: the days it had come back
    assert rows(clock, ALARMS, "_id=1")[0]["daysofweek"] == "31"
    xml = clock.dump_ui()
    assert [e.content_desc for e in ui_elements(xml) if e.resource_id == RID + "day_button_box"] == [
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
    ]  # fmt: skip  (en-US weeks start on Sunday)
    assert attribute(xml, "checked", content_desc="Monday") == "true"
    tap_node(clock, content_desc="Monday")
    tap_node(clock, content_desc="Tuesday")
    tap_node(clock, content_desc="Sunday")
    assert rows(clock, ALARMS, "_id=1")[0]["daysofweek"] == str(0x04 | 0x08 | 0x10 | 0x40)  # Wed Thu Fri Sun
    assert next_alarm_clock(clock).endswith("= 2026-06-17 08:30:00.000 = +1d23h30m0s0ms")  # Wednesday
    tap_node(clock, text="Vibrate")
    assert rows(clock, ALARMS, "_id=1")[0]["vibrate"] == "0"
    assert rows(clock, INSTANCES, "alarm_id=1")[0]["vibrate"] == "0"  # (a minor update copies itself over)
    tap_node(clock, resource_id=RID + "onoff")
    assert rows(clock, ALARMS, "_id=1")[0]["enabled"] == "0"
    assert rows(clock, INSTANCES) == [] and next_alarm_clock(clock) == ""
    assert rows(clock, ALARMS, "_id=2")[0]["enabled"] == "0"  # the other alarm is as it was


def test_delete_with_undo_and_a_shell_insert_shows_at_once(clock):
    clock.shell(f"content insert --uri {ALARMS} --bind hour:i:6 --bind minutes:i:15 --bind daysofweek:i:127 "
                "--bind enabled:i:1 --bind vibrate:i:1 --bind label:s:Run")  # fmt: skip
    assert "6:15 AM" in texts(clock, "digital_clock")  # (the provider is the source of truth)
    assert attribute(clock.dump_ui(), "text", resource_id=RID + "days_of_week") == "Every day"
    tap_node(clock, text="Run")  # the label expands the alarm
    tap_node(clock, resource_id=RID + "delete")
    assert [r["label"] for r in rows(clock, ALARMS)] == ["", ""]
    assert texts(clock, "snackbar_text") == ["Alarm deleted"]
    tap_node(clock, resource_id=RID + "snackbar_action")
    restored = rows(clock, ALARMS, "label='Run'")
    assert len(restored) == 1 and restored[0]["_id"] == "3" and restored[0]["daysofweek"] == "127"
    assert rows(clock, INSTANCES, "alarm_id=3")  # enabled again, so scheduled again


def test_times_follow_time_12_24_and_the_clock_tab_shows_the_next_alarm(clock):
    clock.shell("settings put system time_12_24 24")
    assert texts(clock, "digital_clock") == ["08:30", "09:00"]
    tap_node(clock, content_desc="Expand alarm")
    tap_node(clock, resource_id=RID + "onoff")
    tap_node(clock, content_desc="Clock")
    xml = clock.dump_ui()
    assert attribute(xml, "text", resource_id=RID + "digital_clock") == "09:00"
    assert attribute(xml, "text", resource_id=RID + "date") == "MON, JUN 15"
    assert attribute(xml, "text", resource_id=RID + "nextAlarm") == "TUE 08:30"
    assert attribute(xml, "content-desc", resource_id=RID + "nextAlarm") == "Next alarm: Tue 08:30"
    clock.shell("settings put system time_12_24 12")
    wait(clock, 60)
    assert attribute(clock.dump_ui(), "text", resource_id=RID + "digital_clock") == "9:01 AM"  # it ticks


def test_force_stop_takes_the_alarms_away_until_deskclock_runs_and_a_reboot_sets_them_again(clock):
    tap_node(clock, content_desc="Expand alarm")
    tap_node(clock, resource_id=RID + "onoff")
    assert next_alarm_clock(clock)
    clock.shell("am force-stop com.android.deskclock")
    assert next_alarm_clock(clock) == ""  # (AlarmManagerService drops a force-stopped package's alarms)
    clock.shell(DESKCLOCK)
    assert next_alarm_clock(clock).endswith("= 2026-06-16 08:30:00.000 = +23h30m0s0ms")
    clock.phone.reboot()
    clock.phone.power_on()
    assert next_alarm_clock(clock).endswith("2026-06-16 08:30:00.000 = +23h30m0s0ms")  # (BOOT_COMPLETED)


def test_an_alarm_whose_time_passed_rolls_on(clock):
    clock.shell(f"content insert --uri {ALARMS} --bind hour:i:9 --bind minutes:i:1 --bind daysofweek:i:0 "
                "--bind enabled:i:1 --bind vibrate:i:1 --bind label:s:Once")  # fmt: skip
    clock.shell(f"am force-stop com.android.deskclock; {DESKCLOCK}")  # (a starting DeskClock schedules it)
    assert rows(clock, INSTANCES, "alarm_id=3")[0]["alarm_state"] == "3"  # a minute away: high notification
    assert next_alarm_clock(clock).endswith("2026-06-15 09:01:00.000 = +1m0s0ms")
    wait(clock, 61)
    assert rows(clock, ALARMS, "_id=3")[0]["enabled"] == "0" and next_alarm_clock(clock) == ""
    assert "Disabling parent alarm: 3" in clock.shell("logcat -d -s AlarmClock")


# ---------------------------------------------------------------------------- timer (timer-keypad)


def test_a_timer_set_on_the_keypad_counts_on_the_phone_clock_and_ends_with_a_notification(clock):
    tap_node(clock, content_desc="Timer")
    assert not nodes(clock, resource_id=RID + "fab")  # no time typed: no fab
    for digit in "130":
        tap_node(clock, resource_id=f"{RID}timer_setup_digit_{digit}")
    xml = clock.dump_ui()
    assert attribute(xml, "text", resource_id=RID + "timer_setup_time") == "00h 01m 30s"
    assert attribute(xml, "content-desc", resource_id=RID + "timer_setup_time") == "0 hours, 1 minute, 30 seconds"
    tap_node(clock, resource_id=RID + "timer_setup_delete")
    tap_node(clock, resource_id=RID + "timer_setup_digit_5")
    assert texts(clock, "timer_setup_time") == ["00h 01m 35s"]
    tap_node(clock, content_desc="Start")
    assert texts(clock, "timer_time_text") == ["1:35"]
    assert re.search(r"ELAPSED_WAKEUP #0: .*\n *tag=\*walarm\*:com.android.deskclock.action.TIMER_EXPIRED",
                     clock.shell("dumpsys alarm"))  # fmt: skip
    wait(clock, 60)
    assert texts(clock, "timer_time_text") == ["35"]
    tap_node(clock, content_desc="Stop")  # pause
    wait(clock, 100)
    assert texts(clock, "timer_time_text") == ["35"] and texts(clock, "reset_add") == ["Reset"]
    tap_node(clock, content_desc="Start")
    tap_node(clock, resource_id=RID + "reset_add")  # + 1:00
    wait(clock, 93)  # (35 s + a minute)
    assert "Time's up" not in clock.shell("dumpsys notification")
    wait(clock, 4)
    assert texts(clock, "timer_time_text") == ["\u22122"]  # it counts on below zero
    dump = clock.shell("dumpsys notification")
    assert "pkg=com.android.deskclock" in dump and "android.title=String (Time's up)" in dump
    assert "[Timer] [Fire] [DeskClock]" in clock.shell("logcat -d -s Events")
    tap_node(clock, content_desc="Stop")  # an expired timer resets
    assert texts(clock, "timer_time_text") == ["1:35"] and "deskclock" not in clock.shell("dumpsys notification")


# ---------------------------------------------------------------------------- stopwatch (stopwatch-laps)


def test_the_stopwatch_counts_laps_on_the_phone_clock(clock):
    tap_node(clock, content_desc="Stopwatch")
    assert texts(clock, "stopwatch_time_text") == ["0"] and not nodes(clock, resource_id=RID + "laps_list")
    tap_node(clock, content_desc="Start")
    wait(clock, 5)
    tap_node(clock, resource_id=RID + "right_button")  # Lap
    wait(clock, 3)
    tap_node(clock, text="Lap")
    wait(clock, 2)
    tap_node(clock, content_desc="Pause")
    total = texts(clock, "stopwatch_time_text")[0]
    assert total == "10" or total.startswith("1")
    numbers = texts(clock, "lap_number")
    assert numbers == ["# 3", "# 2", "# 1"]  # the lap in progress, then the laps, newest first
    laps = texts(clock, "lap_time")
    assert [lap.replace("\u200e", "") for lap in laps[1:]] == ["0 03.00", "0 05.00"]
    wait(clock, 30)
    assert texts(clock, "stopwatch_time_text") == [total]  # paused
    tap_node(clock, text="Reset")
    assert texts(clock, "stopwatch_time_text") == ["0"] and not texts(clock, "lap_number")


# ---------------------------------------------------------------------------- world clocks


def test_a_city_found_by_search_shows_on_the_clock_tab(clock):
    tap_node(clock, content_desc="Clock")
    tap_node(clock, content_desc="Cities")
    assert clock.phone.foreground()[1] == "com.android.deskclock.worldclock.CitySelectionActivity"
    tap_node(clock, content_desc="Search")
    clock.text("tok")
    assert texts(clock, "city_name") == ["Tokyo"]
    tap_node(clock, text="Tokyo")
    assert attribute(clock.dump_ui(), "checked", content_desc="Tokyo") == "true"
    clock.shell("input keyevent BACK")  # closes the search
    assert attribute(clock.dump_ui(), "text", resource_id="android:id/title") == "Cities"
    tap_node(clock, content_desc="Navigate up")
    xml = clock.dump_ui()
    assert attribute(xml, "text", resource_id=RID + "city_name") == "Tokyo"
    assert attribute(xml, "text", resource_id=RID + "hours_ahead") == "9 hours ahead"
    assert "6:00 PM" in texts(clock, "digital_clock")


# ---------------------------------------------------------------------------- intents


def test_the_alarm_clock_intents(clock):
    extra = "android.intent.extra.alarm."
    clock.shell(f"am start -a android.intent.action.SET_ALARM --ei {extra}HOUR 7 --ei {extra}MINUTES 15 "
                f"--es {extra}MESSAGE Work --eia {extra}DAYS 2,3,4 --ez {extra}VIBRATE false")  # fmt: skip
    work = rows(clock, ALARMS, "label='Work'")
    assert len(work) == 1 and (work[0]["hour"], work[0]["minutes"], work[0]["daysofweek"], work[0]["vibrate"]) == (
        "7",
        "15",
        "7",
        "0",
    )  # fmt: skip  (Monday, Tuesday, Wednesday)
    assert clock.phone.activity_stack()[-1] == ["com.android.deskclock/com.android.deskclock.DeskClock"]
    assert attribute(clock.dump_ui(), "text", resource_id=RID + "edit_label") == "Work"  # shown expanded
    clock.shell("input keyevent HOME")
    clock.shell(f"am start -a android.intent.action.SET_ALARM --ei {extra}HOUR 6 --ez {extra}SKIP_UI true")
    assert clock.phone.foreground()[0] == "com.android.launcher3"  # (SKIP_UI: no screen)
    once = rows(clock, ALARMS, "hour=6")[0]
    assert (once["enabled"], once["delete_after_use"], once["daysofweek"]) == ("1", "1", "0")
    assert next_alarm_clock(clock).endswith("2026-06-16 06:00:00.000 = +21h0m0s0ms")
    clock.shell(f"am start -a android.intent.action.SET_ALARM --ei {extra}HOUR 25")
    assert "Illegal hour: 25" in clock.shell("logcat -d -s HandleApiCalls") and not rows(clock, ALARMS, "hour=25")
    clock.shell(f"am start -a android.intent.action.SET_TIMER --ei {extra}LENGTH 90 --es {extra}MESSAGE Tea")
    xml = clock.dump_ui()
    assert attribute(xml, "selected", content_desc="Timer") == "true"
    assert attribute(xml, "text", resource_id=RID + "timer_label") == "Tea"
    assert attribute(xml, "text", resource_id=RID + "timer_time_text") == "1:30"
    clock.shell("am start -a android.intent.action.SHOW_ALARMS")
    assert attribute(clock.dump_ui(), "selected", content_desc="Alarm") == "true"
    clock.shell("am start -a android.intent.action.SHOW_TIMERS")
    assert texts(clock, "timer_label") == ["Tea"]
    clock.shell("am start -a android.intent.action.SET_ALARM")  # no time: the creation UI
    assert nodes(clock, resource_id="android:id/radial_picker")


# ---------------------------------------------------------------------------- configurations, snapshots, adb


def test_german_and_dark_change_the_texts_and_the_pixels():
    device = VirtualDevice(stepped_phone(locale="de-DE", night=True))
    device.shell(DESKCLOCK)
    xml = device.dump_ui()
    assert [e.text for e in ui_elements(xml) if e.resource_id == "android:id/text1"] == [
        "Wecker", "Uhr", "Timer", "Stoppuhr",
    ]  # fmt: skip
    assert attribute(xml, "content-desc", resource_id=RID + "fab") == "Weckruf hinzufügen"
    assert texts(device, "digital_clock") == ["08:30", "09:00"]  # (German: 24-hour)
    assert texts(device, "days_of_week") == ["Mo., Di., Mi., Do., Fr.", "Sa., So."]  # (the week starts on Monday)
    tap_node(device, content_desc="Uhr")
    assert attribute(device.dump_ui(), "text", resource_id=RID + "date") == "MO., 15. JUNI"
    frame = device.screenshot()
    assert frame[frame.shape[0] // 2, 5].sum() < 200  # a dark background


def test_a_snapshot_keeps_the_timers_the_stopwatch_and_the_alarms(clock):
    phone = clock.phone
    tap_node(clock, content_desc="Timer")
    tap_node(clock, resource_id=RID + "timer_setup_digit_9")
    tap_node(clock, content_desc="Start")
    phone.save_snapshot("start")
    wait(clock, 20)
    clock.shell("input keyevent HOME; am force-stop com.android.deskclock")
    clock.shell(f"content delete --uri {ALARMS}")
    phone.load_snapshot("start")
    assert texts(clock, "timer_time_text") == ["9"] and len(rows(clock, ALARMS)) == 2
    assert "TIMER_EXPIRED" in clock.shell("dumpsys alarm")


@pytest.mark.parametrize("device", ["adb"], indirect=True)
def test_an_alarm_made_over_the_real_adb(device, phone):
    device.shell(DESKCLOCK)
    tap_node(device, content_desc="Add alarm")
    tap_node(device, content_desc="Switch to text input mode for the time input.")
    tap_node(device, resource_id="android:id/input_hour")
    device.shell("input keyevent DEL")
    device.text("7")
    tap_node(device, resource_id="android:id/button1")
    out = device.shell(f"content query --uri {ALARMS} --projection hour:minutes:enabled --where hour=7")
    assert out == "Row: 0 hour=7, minutes=0, enabled=1\n"
    assert "user:0 pendingSend:false" in device.shell("dumpsys alarm")


def test_bad_alarm_clock_extras_are_refused_as_handleapicalls_refuses_them(clock):
    extra = "android.intent.extra.alarm."
    clock.shell(f"am start -a android.intent.action.SET_ALARM --ei {extra}HOUR 7 --ei {extra}MINUTES 75")
    clock.shell(f"am start -a android.intent.action.SET_TIMER --ei {extra}LENGTH 0")
    log = clock.shell("logcat -d -s HandleApiCalls")
    assert "Illegal minute: 75" in log and "Invalid timer length requested: 0" in log
    assert len(rows(clock, ALARMS)) == 2 and "TIMER_EXPIRED" not in clock.shell("dumpsys alarm")


def test_the_alarm_manager_refuses_an_unknown_alarm_type(clock):
    with pytest.raises(ValueError, match="expected an alarm type 0-3 .*got 7"):
        clock.phone.alarm_manager.set("com.android.deskclock", 7, 0, "x")


def test_the_timer_setup_takes_digit_keys_as_deskclock_hands_them_on(clock):
    tap_node(clock, content_desc="Timer")
    clock.text("245")
    assert texts(clock, "timer_setup_time") == ["00h 02m 45s"]
    clock.shell("input keyevent DEL; input keyevent KEYCODE_9")
    assert texts(clock, "timer_setup_time") == ["00h 02m 49s"]

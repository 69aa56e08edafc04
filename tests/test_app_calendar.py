"""Calendar (``com.android.calendar``), driven as an agent drives it: input tap, swipe, text and keyevent.

The phone's clock starts on Monday 2026-06-15 09:00 UTC. Each flow finds nodes in the UI dump and taps
their centres, and checks what happened as a task would: the calendar provider (``content query``),
the app's ``Calendar`` log lines, the dump, ``dumpsys`` and the screen.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds, tap_node

PKG = "com.android.calendar"
RID = f"{PKG}:id/"
EVENTS = "content://com.android.calendar/events"
MAIN = f"am start -n {PKG}/.AllInOneActivity"
UTC = dt.timezone.utc


def ms(*when: int) -> int:
    """Milliseconds since the epoch of a UTC time (year, month, day, hour, minute)."""
    return int(dt.datetime(*when, tzinfo=UTC).timestamp() * 1000)


@pytest.fixture
def cal() -> VirtualDevice:
    """A phone whose clock moves only when told (toasts wait for it), nothing open yet."""
    return VirtualDevice(VirtualPhone(WIDTH, HEIGHT, DENSITY, clock=Clock(stepped=True)))


def texts(device, **attrs: str) -> list[str]:
    """The texts of the nodes whose fields equal ``attrs``."""
    return [e.text for e in ui_elements(device.dump_ui()) if all(getattr(e, k) == v for k, v in attrs.items())]


def descs(device, **attrs: str) -> list[str]:
    return [e.content_desc for e in ui_elements(device.dump_ui()) if all(getattr(e, k) == v for k, v in attrs.items())]


def shown_date(device) -> str:
    return texts(device, resource_id=RID + "top_button_date")[0]


def rows(device, projection: str = "_id:title:dtstart:dtend:eventTimezone:allDay:calendar_id") -> list[dict]:
    out = device.shell(f"content query --uri {EVENTS} --projection {projection} --sort _id")
    found = []
    for line in out.splitlines():
        if line.startswith("Row: "):
            fields = line.split(" ", 2)[2]
            found.append(dict(part.split("=", 1) for part in fields.split(", ")))
    return found


def insert(device, title: str, begin: int, end: int, all_day: int = 0) -> None:
    device.shell(
        f"content insert --uri {EVENTS} --bind calendar_id:i:1 --bind title:s:'{title}' --bind eventTimezone:s:UTC "
        f"--bind dtstart:l:{begin} --bind dtend:l:{end} --bind allDay:i:{all_day}"
    )


def switch_view(device, name: str) -> None:
    """The action bar's view spinner, then ``name`` in its dropdown."""
    tap_node(device, resource_id="android:id/action_bar_spinner")
    tap_node(device, resource_id=RID + "button_view", text=name)


def log(device) -> str:
    return device.shell("logcat -d -s Calendar")


def top(device) -> str:
    """The resumed activity as ``dumpsys activity`` names it (``com.android.calendar/.AllInOneActivity``)."""
    line = device.shell("dumpsys activity activities | grep topResumedActivity")
    return line.split()[2]


# ---------------------------------------------------------------------------- the views


def test_launch_opens_the_week_view_and_the_menu_switches_views(cal):
    cal.shell(MAIN)
    assert top(cal) == f"{PKG}/.AllInOneActivity"
    assert shown_date(cal) == "June 2026"
    assert texts(cal, resource_id=RID + "switcher") == [""]  # the week view's ViewSwitcher
    tap_node(cal, resource_id="android:id/action_bar_spinner")
    assert texts(cal, resource_id=RID + "button_view") == ["Day", "Week", "Month", "Agenda"]
    assert texts(cal, resource_id=RID + "button_date") == ["June 15", "Jun 14 – 20", "June", "June 15"]
    tap_node(cal, text="Day")
    assert texts(cal, resource_id=RID + "top_button_weekday") == ["TODAY, MONDAY"]
    assert shown_date(cal) == "June 15, 2026"
    switch_view(cal, "Month")
    assert texts(cal, resource_id=RID + "d0_label")[0] == "SUN"  # en-US weeks start on Sunday
    assert "June 15" in descs(cal, class_name="android.view.View")
    assert "view=day date=2026-06-15" in log(cal) and "view=month date=2026-06-15" in log(cal)
    cal.shell(f"am force-stop {PKG}")
    cal.shell(MAIN)  # the last view is remembered (preferred_startView)
    assert texts(cal, resource_id=RID + "d0_label")


def test_month_swipes_move_by_months_and_today_comes_back(cal):
    cal.shell(MAIN)
    switch_view(cal, "Month")
    weeks = next(e for e in ui_elements(cal.dump_ui()) if e.resource_id == "android:id/list")
    assert weeks.scrollable  # (MonthListView scrolls: a swipe can be aimed at it)
    cal.swipe(300, 400, 60, 400)  # to the left: the next month
    assert shown_date(cal) == "July 2026"
    cal.swipe(60, 400, 300, 400)
    cal.swipe(60, 400, 300, 400)
    assert shown_date(cal) == "May 2026"
    cal.swipe(180, 600, 180, 300, 300)  # up, slowly: one month on (MonthListView.doFling)
    assert shown_date(cal) == "June 2026"
    cal.swipe(180, 700, 180, 150, 100)  # up, fast (5,500 dp/s): 1 + 7 months
    assert shown_date(cal) == "February 2027"
    assert "February 1, 2027" in descs(cal, class_name="android.view.View")
    tap_node(cal, resource_id=RID + "action_today")
    assert shown_date(cal) == "June 2026"
    assert "view=month date=2026-07-01" in log(cal)


def test_a_shell_insert_shows_at_once_and_a_day_tap_opens_it(cal):
    cal.shell(MAIN)
    switch_view(cal, "Month")
    before = cal.screenshot()
    insert(cal, "Dentist", ms(2026, 6, 17, 14, 0), ms(2026, 6, 17, 15, 30))
    insert(cal, "Gym", ms(2026, 6, 17, 7, 0), ms(2026, 6, 17, 8, 0))
    tap_node(cal, content_desc="June 17")
    assert shown_date(cal) == "June 17, 2026"
    assert texts(cal, resource_id=RID + "top_button_weekday") == ["WEDNESDAY"]
    blocks = descs(cal, class_name="android.widget.TextView", clickable=True)
    assert blocks == ["Gym, 7:00 – 8:00 AM", "Dentist, 2:00 – 3:30 PM"]
    cal.shell("input keyevent BACK")  # back to the month it came from (EXTRA_GOTO_BACK_TO_PREVIOUS)
    assert shown_date(cal) == "June 2026"
    assert not np.array_equal(before, cal.screenshot())  # the 17th has its event bars
    cal.shell("input keyevent BACK")
    assert top(cal).startswith("com.android.launcher3/")


def test_the_day_view_swipes_and_an_empty_hour_tapped_twice_creates_an_event_there(cal):
    cal.shell(MAIN)
    switch_view(cal, "Day")
    cal.swipe(300, 400, 60, 400)
    assert shown_date(cal) == "June 16, 2026"
    assert texts(cal, resource_id=RID + "top_button_weekday") == ["TOMORROW, TUESDAY"]
    grid = node_bounds(cal.dump_ui(), class_name="android.view.View", scrollable=True)  # DayView
    cal.tap(grid[2] - 40, grid[1] + 100)  # an empty hour: it shows "+ New event"
    tap_node(cal, text="+ New event")
    assert top(cal) == f"{PKG}/.event.EditEventActivity"
    assert texts(cal, resource_id=RID + "start_date") == ["Tue, Jun 16, 2026"]
    start = texts(cal, resource_id=RID + "start_time")[0]
    tap_node(cal, resource_id=RID + "title")
    cal.text("Run")
    tap_node(cal, resource_id=RID + "action_done")
    (row,) = rows(cal)
    begin = dt.datetime.fromtimestamp(int(row["dtstart"]) / 1000, UTC)
    assert (row["title"], begin.date(), begin.minute) == ("Run", dt.date(2026, 6, 16), 0)
    assert start == f"{begin.hour % 12 or 12}:00 {'AM' if begin.hour < 12 else 'PM'}"
    assert int(row["dtend"]) - int(row["dtstart"]) == 3_600_000


def test_the_agenda_lists_the_coming_days(cal):
    insert(cal, "Standup", ms(2026, 6, 15, 10, 0), ms(2026, 6, 15, 10, 15))
    insert(cal, "Holiday", ms(2026, 6, 18), ms(2026, 6, 19), all_day=1)
    cal.shell(MAIN)
    switch_view(cal, "Agenda")
    assert texts(cal, resource_id=RID + "day") == ["TODAY, Monday", "Thursday"]
    assert texts(cal, resource_id=RID + "title") == ["Standup", "Holiday"]
    assert texts(cal, resource_id=RID + "when") == ["10:00 – 10:15 AM", "June 18"]
    tap_node(cal, text="Holiday")
    assert texts(cal, resource_id=RID + "when_datetime") == ["Thursday, June 18"]


# ---------------------------------------------------------------------------- create, edit, delete


def test_new_event_with_the_date_and_time_pickers_writes_the_provider_row(cal):
    cal.shell(MAIN)
    tap_node(cal, content_desc="More options")
    tap_node(cal, text="New event")
    assert texts(cal, resource_id=RID + "start_time") == ["9:00 AM"]  # now, up to the half hour, an hour long
    assert texts(cal, resource_id=RID + "end_time") == ["10:00 AM"]
    assert texts(cal, resource_id=RID + "calendars_spinner")  # a new event picks its calendar
    tap_node(cal, resource_id=RID + "title")
    assert "mInputShown=true" in cal.shell("dumpsys input_method")
    cal.text("Dentist")
    tap_node(cal, resource_id=RID + "start_date")
    tap_node(cal, content_desc="18 June 2026")
    tap_node(cal, resource_id="android:id/button1")
    tap_node(cal, resource_id=RID + "start_time")
    tap_node(cal, content_desc="2")
    tap_node(cal, content_desc="30")
    tap_node(cal, resource_id="android:id/pm_label")
    tap_node(cal, resource_id="android:id/button1")
    assert texts(cal, resource_id=RID + "start_date") == ["Thu, Jun 18, 2026"]
    assert texts(cal, resource_id=RID + "end_time") == ["3:30 PM"]  # the end moved with the start
    tap_node(cal, resource_id=RID + "end_time")
    tap_node(cal, content_desc="4")
    tap_node(cal, content_desc="0")
    tap_node(cal, resource_id="android:id/button1")
    tap_node(cal, resource_id=RID + "action_done")
    assert rows(cal) == [
        {"_id": "1", "title": "Dentist", "dtstart": str(ms(2026, 6, 18, 14, 30)), "dtend": str(ms(2026, 6, 18, 16)),
         "eventTimezone": "UTC", "allDay": "0", "calendar_id": "1"}
    ]  # fmt: skip
    assert top(cal) == f"{PKG}/.AllInOneActivity"
    assert "created event 1: 'Dentist' 2026-06-18 14:30-16:00" in log(cal)


def test_an_all_day_event_is_stored_from_midnight_to_midnight_utc(cal):
    cal.shell("setprop persist.sys.timezone Europe/Berlin")
    cal.shell(MAIN)
    tap_node(cal, content_desc="More options")
    tap_node(cal, text="New event")
    tap_node(cal, resource_id=RID + "title")
    cal.text("Trip")
    tap_node(cal, resource_id=RID + "is_all_day")
    assert not texts(cal, resource_id=RID + "start_time")  # the time buttons go
    tap_node(cal, resource_id=RID + "end_date")
    tap_node(cal, content_desc="17 June 2026")
    tap_node(cal, resource_id="android:id/button1")
    tap_node(cal, resource_id=RID + "action_done")
    (row,) = rows(cal)
    assert (row["dtstart"], row["dtend"]) == (str(ms(2026, 6, 15)), str(ms(2026, 6, 18)))  # three days
    assert (row["eventTimezone"], row["allDay"]) == ("UTC", "1")


def test_an_untouched_new_event_is_not_created_and_cancel_writes_nothing(cal):
    cal.shell(MAIN)
    tap_node(cal, content_desc="More options")
    tap_node(cal, text="New event")
    tap_node(cal, resource_id=RID + "action_done")
    assert rows(cal) == [] and top(cal) == f"{PKG}/.AllInOneActivity"
    tap_node(cal, content_desc="More options")
    tap_node(cal, text="New event")
    tap_node(cal, resource_id=RID + "title")
    cal.text("Lunch")
    tap_node(cal, resource_id=RID + "action_cancel")
    assert rows(cal) == []


def test_back_in_the_editor_saves_as_its_pause_does(cal):
    cal.shell(MAIN)
    tap_node(cal, content_desc="More options")
    tap_node(cal, text="New event")
    tap_node(cal, resource_id=RID + "title")
    cal.text("Call mom")
    cal.shell("input keyevent BACK")  # the keyboard goes first
    assert top(cal) == f"{PKG}/.event.EditEventActivity"
    cal.shell("input keyevent BACK")
    assert [r["title"] for r in rows(cal)] == ["Call mom"]


def test_event_details_edit_and_delete_with_its_confirmation(cal):
    insert(cal, "Interview", ms(2026, 6, 22, 16, 0), ms(2026, 6, 22, 17, 0))
    cal.shell(f"am start -a android.intent.action.VIEW -d {EVENTS}/1")
    assert top(cal) == f"{PKG}/.EventInfoActivity"
    assert texts(cal, resource_id=RID + "title") == ["Interview"]
    assert texts(cal, resource_id=RID + "when_datetime") == ["Monday, June 22, 4:00 – 5:00 PM"]
    assert texts(cal, resource_id=RID + "calendar_name") == ["Phone"]
    cal.shell(f"am start -a android.intent.action.EDIT -d {EVENTS}/1")  # EditEventActivity's EDIT filter
    assert top(cal) == f"{PKG}/.event.EditEventActivity"
    assert texts(cal, resource_id=RID + "start_time") == ["4:00 PM"]
    tap_node(cal, resource_id=RID + "action_cancel")
    tap_node(cal, resource_id=RID + "info_action_edit")
    assert texts(cal, resource_id=RID + "calendar_textview") == ["Phone"]
    tap_node(cal, resource_id=RID + "title")
    cal.text(" 2")
    tap_node(cal, resource_id=RID + "action_done")
    assert texts(cal, resource_id=RID + "title") == ["Interview 2"]  # the details read the provider again
    assert [r["title"] for r in rows(cal)] == ["Interview 2"]
    tap_node(cal, resource_id=RID + "info_action_delete")
    xml = cal.dump_ui()
    assert [e.text for e in ui_elements(xml) if e.resource_id == "android:id/message"] == ["Delete this event?"]
    tap_node(cal, resource_id="android:id/button2")  # Cancel
    assert len(rows(cal)) == 1
    tap_node(cal, resource_id=RID + "info_action_delete")
    tap_node(cal, resource_id="android:id/button1")  # OK
    assert rows(cal) == []
    assert "deleted event 1: Interview 2" in log(cal)
    assert not top(cal).startswith(PKG)
    cal.shell(f"am start -a android.intent.action.VIEW -d {EVENTS}/1")
    assert texts(cal, resource_id=RID + "event_info_error_msg") == ["Event not found."]


def test_a_snapshot_keeps_the_calendar_and_its_callbacks_reach_the_restored_activity(cal):
    cal.shell(MAIN)
    switch_view(cal, "Month")
    insert(cal, "Dentist", ms(2026, 6, 17, 14, 0), ms(2026, 6, 17, 15, 0))
    cal.dump_ui()
    cal.save_snapshot("month")
    cal.swipe(300, 400, 60, 400)
    cal.shell(f"content delete --uri {EVENTS}")
    cal.load_snapshot("month")
    assert shown_date(cal) == "June 2026" and len(rows(cal)) == 1
    tap_node(cal, content_desc="June 17")
    assert descs(cal, class_name="android.widget.TextView", clickable=True) == ["Dentist, 2:00 – 3:00 PM"]


# ---------------------------------------------------------------------------- intents, providers, configurations


def test_insert_intent_prefills_the_editor_with_calendar_contract_extras(device):
    begin, end = ms(2026, 6, 19, 12, 0), ms(2026, 6, 19, 13, 0)
    device.shell(
        "am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/event --es title 'Team lunch' "
        f"--el beginTime {begin} --el endTime {end} --es eventLocation Canteen"
    )
    xml = device.dump_ui()
    assert [e.text for e in ui_elements(xml) if e.resource_id == RID + "title"] == ["Team lunch"]
    assert [e.text for e in ui_elements(xml) if e.resource_id == RID + "start_time"] == ["12:00 PM"]
    device.tap(*center(node_bounds(xml, resource_id=RID + "action_done")))
    assert rows(device, "title:dtstart:dtend:eventLocation") == [
        {"title": "Team lunch", "dtstart": str(begin), "dtend": str(end), "eventLocation": "Canteen"}
    ]


def test_view_of_a_time_opens_that_day_and_gettype_says_time_epoch(cal):
    when = ms(2026, 7, 14, 12, 0)
    assert cal.shell(f"content gettype --uri content://com.android.calendar/time/{when}") == "Result: time/epoch\n"
    cal.shell(f"am start -a android.intent.action.VIEW -d content://com.android.calendar/time/{when}")
    assert top(cal) == f"{PKG}/.AllInOneActivity"
    assert shown_date(cal) == "July 2026"  # the start view (week) at that time
    cal.shell(
        f"am start -a android.intent.action.VIEW -d content://com.android.calendar/time/{when} --ez DETAIL_VIEW true"
    )
    assert shown_date(cal) == "July 14, 2026"
    assert texts(cal, resource_id=RID + "top_button_weekday") == ["TUESDAY"]


def test_all_day_times_are_moved_to_midnight_utc_by_the_provider(cal):
    insert(cal, "Trip", ms(2026, 6, 20, 9, 30), ms(2026, 6, 21, 9, 30), all_day=1)
    cal.shell(f"content update --uri {EVENTS}/1 --bind allDay:i:1 --bind dtend:l:{ms(2026, 6, 23, 5)}")
    (row,) = rows(cal)
    assert (row["dtstart"], row["dtend"]) == (str(ms(2026, 6, 20)), str(ms(2026, 6, 23)))


def test_german_and_dark_theme_change_what_it_draws_and_dumps():
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, locale="de-DE", night=True)
    german = VirtualDevice(phone)
    german.shell(MAIN)
    tap_node(german, resource_id="android:id/action_bar_spinner")
    assert texts(german, resource_id=RID + "button_view") == ["Tag", "Woche", "Monat", "Terminübersicht"]
    tap_node(german, text="Monat")
    assert shown_date(german) == "Juni 2026"
    assert texts(german, resource_id=RID + "d0_label")[0] == "MO."  # German weeks start on Monday
    assert descs(german, resource_id=RID + "action_today") == ["Heute"]
    assert "15. Juni" in descs(german, class_name="android.view.View")
    dark = german.screenshot()
    german.shell("cmd uimode night no")
    assert dark.mean() < german.screenshot().mean()
    german.shell("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/event")
    assert texts(german, resource_id=RID + "start_date") == ["Mo., 15. Juni 2026"]
    assert texts(german, resource_id=RID + "start_time") == ["09:30"]  # German times are 24-hour
    assert [e.label for e in ui_elements(german.dump_ui()) if e.resource_id == RID + "action_done"] == ["Fertig"]

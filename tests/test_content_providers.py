"""Content providers and intents: what ``content`` and ``am start`` do on the virtual phone, in Android's formats.

Every provider is driven through the real ``content`` command (and once over adb), and checked by what
the command prints, what the phone's files hold and what an app shows; intents are resolved against
an app that declares intent filters, as stage-2 apps do.
"""

from __future__ import annotations

import re
import shlex

import numpy as np
import pytest

from androidrl import AndroidEnv, EnvAction, VirtualDevice
from androidrl.tasks import SpecTask, parse_spec
from androidrl.tasks.generators import Draw, draw_params
from androidrl.tasks.state import parse_rows
from androidrl.tasks.steps import insert_rows
from androidrl.ui import ui_elements
from androidrl.virtual.apps.launcher.app import LAUNCHER, launcher_app
from androidrl.virtual.apps.launcher.app import PACKAGE as LAUNCHER_PACKAGE
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.shell.commands import COMMANDS
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.system.app_context import app_context
from androidrl.virtual.system.clock import Clock
from androidrl.virtual.system.content.seed import check_content
from androidrl.virtual.system.content.stock import provider_packages
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.system.framework.database import Route, SQLiteProvider
from androidrl.virtual.system.framework.intent import ACTION_INSERT, ACTION_SENDTO, ACTION_VIEW, IntentFilter
from androidrl.virtual.ui.java import java_hash
from androidrl.virtual.ui.views import LinearLayout, TextView, View

from conftest import DENSITY, HEIGHT, WIDTH

CONTACTS = "content://com.android.contacts"
ALARMS = "content://com.android.deskclock/alarms"
SEEDED = {"contacts": 6, "events": 4, "messages": 5, "calls": 4, "files": 3, "photos": 2, "alarms": 2}


def out(phone, command: str) -> str:
    result = phone.shell(command)
    assert result.exit_code == 0, result
    return result.stdout.decode() + result.stderr.decode()


def rows(phone, uri: str, *options: str) -> list[dict[str, str]]:
    return parse_rows(out(phone, shlex.join(["content", "query", "--uri", uri, *options])))


def insert(phone, uri: str, **values) -> str:
    binds = []
    for column, value in values.items():
        kind = "n" if value is None else "b" if isinstance(value, bool) else "l" if isinstance(value, int) else "s"
        binds += ["--bind", f"{column}:{kind}:{'' if value is None else value}"]
    printed = out(phone, shlex.join(["content", "insert", "--uri", uri, *binds]))
    assert printed == "", printed  # an insert prints nothing
    return printed


# ---------------------------------------------------------------------------- each provider


def test_contacts_are_raw_contacts_with_data_rows_and_an_aggregate(phone):
    assert insert(phone, f"{CONTACTS}/raw_contacts", account_name=None, account_type=None) == ""
    raw = rows(phone, f"{CONTACTS}/raw_contacts", "--projection", "_id")[-1]["_id"]
    name = "vnd.android.cursor.item/name"
    insert(phone, f"{CONTACTS}/data", raw_contact_id=int(raw), mimetype=name, data1="Ann Lee", data2="Ann", data3="Lee")
    insert(phone, f"{CONTACTS}/data", raw_contact_id=int(raw), mimetype="vnd.android.cursor.item/phone_v2",
           data1="+1 555-0142", data2=2)  # fmt: skip
    insert(phone, f"{CONTACTS}/data", raw_contact_id=int(raw), mimetype="vnd.android.cursor.item/email_v2",
           data1="ann.lee@example.com")  # fmt: skip
    assert rows(phone, f"{CONTACTS}/contacts", "--projection", "display_name:has_phone_number:starred") == [
        {"display_name": "Ann Lee", "has_phone_number": "1", "starred": "0"}
    ]
    assert rows(phone, f"{CONTACTS}/data/phones", "--projection", "display_name:data1:data2") == [
        {"display_name": "Ann Lee", "data1": "+1 555-0142", "data2": "2"}
    ]
    assert rows(phone, f"{CONTACTS}/data/emails", "--projection", "data1") == [{"data1": "ann.lee@example.com"}]
    assert rows(phone, f"{CONTACTS}/phone_lookup/5550142", "--projection", "display_name:number") == [
        {"display_name": "Ann Lee", "number": "+1 555-0142"}
    ]
    contact = rows(phone, f"{CONTACTS}/contacts", "--projection", "_id")[0]["_id"]
    assert out(phone, f"content gettype --uri {CONTACTS}/contacts/{contact}") == (
        "Result: vnd.android.cursor.item/contact\n"
    )
    out(phone, f"content update --uri {CONTACTS}/contacts/{contact} --bind starred:i:1")
    assert rows(phone, f"{CONTACTS}/raw_contacts", "--projection", "starred:display_name") == [
        {"starred": "1", "display_name": "Ann Lee"}
    ]
    out(phone, f"content delete --uri {CONTACTS}/data --where \"mimetype='{name}'\"")  # the name goes: the phone
    assert rows(phone, f"{CONTACTS}/contacts", "--projection", "display_name") == [{"display_name": "+1 555-0142"}]
    out(phone, f"content delete --uri {CONTACTS}/raw_contacts/{raw}")
    assert out(phone, f"content query --uri {CONTACTS}/contacts") == "No result found.\n"
    assert out(phone, f"content query --uri {CONTACTS}/data") == "No result found.\n"


def test_alarms_follow_deskclock_with_its_two_default_alarms(phone):
    assert rows(phone, ALARMS, "--projection", "hour:minutes:daysofweek:enabled") == [
        {"hour": "8", "minutes": "30", "daysofweek": "31", "enabled": "0"},
        {"hour": "9", "minutes": "0", "daysofweek": "96", "enabled": "0"},
    ]
    insert(phone, ALARMS, hour=7, minutes=15, daysofweek=0, enabled=True, vibrate=1, label="Gym")
    newest = rows(phone, ALARMS, "--projection", "_id:label:enabled", "--where", "hour < 8", "--sort", "_id DESC")
    assert newest == [{"_id": "3", "label": "Gym", "enabled": "1"}]
    out(phone, f"content update --uri {ALARMS}/3 --bind enabled:b:false --bind 'label:s:Gym\\: legs'")  # (: escaped)
    assert rows(phone, f"{ALARMS}/3", "--projection", "label:enabled") == [{"label": "Gym: legs", "enabled": "0"}]
    out(phone, f"content delete --uri {ALARMS} --where 'hour >= 9'")
    assert [r["_id"] for r in rows(phone, ALARMS, "--projection", "_id")] == ["1", "3"]
    assert out(phone, f"content gettype --uri {ALARMS}") == "Result: vnd.android.cursor.dir/alarms\n"


def test_a_view_takes_only_its_attributes_and_keeps_the_defaults_of_the_rest():
    view = TextView("Hi", resource_id="x:id/t")
    assert (view.text, view.resource_id, view.cls, view.children, view.clickable) == (
        "Hi",
        "x:id/t",
        "android.widget.TextView",
        [],
        False,
    )
    assert View().children is not View().children  # (each view its own list)
    with pytest.raises(TypeError, match="TextView has no attribute 'txt'"):
        TextView(txt="typo")


def test_the_resolver_keeps_a_querys_rows_only_while_the_data_stays_the_same(phone):
    resolver = phone.content.resolver  # (an app's screen asks it the same query at every rebuild)
    first = resolver.query(ALARMS, ["_id", "label"], None, (), "_id")
    first[0]["label"] = "changed by the caller"  # the caller's copy: what is kept stays as the provider said
    assert resolver.query(ALARMS, ["_id", "label"], None, (), "_id") == [
        {"_id": 1, "label": ""},
        {"_id": 2, "label": ""},
    ]
    insert(phone, ALARMS, hour=7, minutes=15, daysofweek=0, enabled=True, vibrate=1, label="Gym")  # through the shell
    assert [r["label"] for r in resolver.query(ALARMS, ["_id", "label"], None, (), "_id")] == ["", "", "Gym"]
    phone.shell(f"content update --uri {ALARMS}/1 --bind label:s:Wake")
    assert resolver.query(ALARMS, ["label"], "_id = ?", (1,)) == [{"label": "Wake"}]
    assert resolver.query(ALARMS, ["label"], "_id = ?", (3,)) == [{"label": "Gym"}]  # (the arguments are the key's)


def test_messages_calls_and_events_keep_aosp_columns(phone):
    now = 1781514000000  # 2026-06-15 09:00 UTC, the phone's clock
    for address, body, date in (("+1 555-0101", "Lunch, at noon?", now - 60_000), ("+15550101", "Yes!", now)):
        insert(phone, "content://sms/inbox", address=address, body=body, read=0, date=date)
    insert(phone, "content://sms/sent", address="+1 555-0199", body="On my way", date=now - 120_000)
    assert rows(phone, "content://sms", "--projection", "body:type:thread_id") == [  # newest first
        {"body": "Yes!", "type": "1", "thread_id": "1"},
        {"body": "Lunch, at noon?", "type": "1", "thread_id": "1"},
        {"body": "On my way", "type": "2", "thread_id": "2"},
    ]
    assert rows(phone, "content://sms/conversations", "--sort", "thread_id") == [
        {"thread_id": "1", "msg_count": "2", "snippet": "Yes!"},
        {"thread_id": "2", "msg_count": "1", "snippet": "On my way"},
    ]
    assert len(rows(phone, "content://sms/sent")) == 1 and len(rows(phone, "content://sms/conversations/1")) == 2
    assert out(phone, "content query --uri content://sms/nonsense") == "No result found.\n"  # (SmsProvider's null)
    insert(phone, "content://call_log/calls", number="+1 555-0101", name="Ann Lee", type=3, duration=0, date=now)
    assert rows(phone, "content://call_log/calls", "--projection", "number:type:new:presentation") == [
        {"number": "+1 555-0101", "type": "3", "new": "NULL", "presentation": "1"}
    ]
    event = {"calendar_id": 1, "title": "Dentist", "dtstart": now + 3_600_000, "dtend": now + 7_200_000,
             "eventTimezone": "UTC", "allDay": 0}  # fmt: skip
    insert(phone, "content://com.android.calendar/events", **event)
    events = rows(phone, "content://com.android.calendar/events", "--projection", "title:calendar_displayName")
    assert events == [{"title": "Dentist", "calendar_displayName": "Phone"}]
    span = f"content://com.android.calendar/instances/when/{now}/{now + 86_400_000}"
    assert rows(phone, span, "--projection", "title:begin") == [{"title": "Dentist", "begin": str(now + 3_600_000)}]
    assert rows(phone, f"content://com.android.calendar/instances/when/{now - 10}/{now}") == []


def test_photos_are_files_in_media_store(phone):
    images = "content://media/external/images/media"
    insert(phone, images, _display_name="IMG_1.jpg", relative_path="DCIM/Camera")
    assert rows(phone, images, "--projection", "_id:_data:mime_type:_size:bucket_display_name") == [
        {"_id": "1", "_data": "/storage/emulated/0/DCIM/Camera/IMG_1.jpg", "mime_type": "image/jpeg", "_size": "0",
         "bucket_display_name": "Camera"}
    ]  # fmt: skip
    phone.shell(f"content write --uri {images}/1", stdin=b"\xff\xd8jpeg bytes")
    assert phone.fs.read("/sdcard/DCIM/Camera/IMG_1.jpg") == b"\xff\xd8jpeg bytes"
    assert phone.shell(f"content read --uri {images}/1").stdout == b"\xff\xd8jpeg bytes"
    assert rows(phone, images, "--projection", "_size") == [{"_size": "12"}]
    assert out(phone, f"content gettype --uri {images}/1") == "Result: image/jpeg\n"
    out(phone, f"content delete --uri {images}/1")
    assert not phone.fs.exists("/sdcard/DCIM/Camera/IMG_1.jpg")


def test_a_new_relative_path_or_name_moves_the_photo(phone):
    images = "content://media/external/images/media"
    insert(phone, images, _display_name="IMG_1.jpg", relative_path="DCIM/Camera")
    phone.shell(f"content write --uri {images}/1", stdin=b"\xff\xd8jpeg")
    out(
        phone, f"content update --uri {images}/1 --bind relative_path:s:Pictures/Trip/ --bind _display_name:s:beach.jpg"
    )
    assert rows(phone, images, "--projection", "_data:bucket_display_name:title") == [
        {"_data": "/storage/emulated/0/Pictures/Trip/beach.jpg", "bucket_display_name": "Trip", "title": "beach"}
    ]
    assert phone.fs.read("/sdcard/Pictures/Trip/beach.jpg") == b"\xff\xd8jpeg"
    assert not phone.fs.exists("/sdcard/DCIM/Camera/IMG_1.jpg")
    insert(phone, images, _display_name="IMG_2.jpg", relative_path="DCIM/Camera")
    refused = out(
        phone, f"content update --uri {images}/2 --bind relative_path:s:Pictures/Trip/ --bind _display_name:s:beach.jpg"
    )
    assert "java.lang.IllegalStateException: Failed to move" in refused  # (a file is there: nothing moves)
    assert rows(phone, f"{images}/2", "--projection", "_data") == [
        {"_data": "/storage/emulated/0/DCIM/Camera/IMG_2.jpg"}
    ]


def test_settings_are_a_provider_that_answers_by_name_only(phone):
    out(phone, "content insert --uri content://settings/system --bind name:s:androidrl_a --bind value:i:5")
    assert rows(phone, "content://settings/system", "--where", "name='androidrl_a'") == [
        {"_id": rows(phone, "content://settings/system/androidrl_a")[0]["_id"], "name": "androidrl_a", "value": "5"}
    ]
    old = rows(phone, "content://settings/system/androidrl_a")[0]["_id"]
    phone.shell("settings put system androidrl_a 6")
    assert rows(phone, "content://settings/system/androidrl_a", "--projection", "value") == [{"value": "6"}]
    assert rows(phone, "content://settings/system/androidrl_a")[0]["_id"] != old  # a write renews the id
    names = [r["name"] for r in rows(phone, "content://settings/global", "--projection", "name", "--sort", "name")]
    assert names == sorted(names, key=java_hash) != sorted(names)  # the ArrayMap's order; the sort is ignored
    out(phone, "content delete --uri content://settings/system --where \"name='androidrl_a'\"")
    assert out(phone, "settings get system androidrl_a") == "null\n"
    assert out(phone, "content call --uri content://settings/global --method GET_global --arg wifi_on") == (
        "Result: Bundle[{value=1}]\n"
    )


def test_typed_bindings_print_as_android_prints_them(phone):
    out(phone, "content insert --uri content://sms --bind address:s:1 --bind body:s:x --bind status:f:0.1 "
               "--bind error_code:d:2.5 --bind person:n: --bind locked:b:TRUE --bind 'subject:s:a\\:b'")  # fmt: skip
    assert rows(phone, "content://sms", "--projection", "status:error_code:person:locked:subject") == [
        {"status": "0.1", "error_code": "2.5", "person": "NULL", "locked": "1", "subject": "a:b"}
    ]


def test_content_answers_over_adb(served, adb_server):
    def shell(command: str) -> str:
        return adb_server.adb("-s", served.serial, "shell", command).stdout

    shell(f"content insert --uri {ALARMS} --bind hour:i:6 --bind minutes:i:45 --bind daysofweek:i:0 "
          "--bind enabled:i:1 --bind vibrate:i:1 --bind label:s:Run")  # fmt: skip
    assert shell(f"content query --uri {ALARMS} --projection label:hour --where \"label='Run'\"") == (
        "Row: 0 label=Run, hour=6\n"
    )


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ("", "Unsupported operation: null"),
        ("select --uri content://settings/system", "Unsupported operation: select"),
        ("query", "Content provider URI not specified. Did you specify --uri argument?"),
        ("query --uri", "No value for argument: --uri"),
        ("query --uri content://settings/system --bind a:s:b", "Unsupported argument: --bind"),
        ("insert --uri content://settings/system", "Bindings not specified. Did you specify --bind argument(s)?"),
        ("insert --uri content://settings/system --bind name", "Binding not well formed: name"),
        ("insert --uri content://settings/system --bind a:q:1", "Unsupported type: q"),
        ("insert --uri content://settings/system --bind a:i:x", 'For input string: "x"'),
        ("insert --uri content://settings/system --bind a:i:3000000000", 'For input string: "3000000000"'),
        ("call --uri content://settings/system", "Content provider method not specified."),
    ],
)
def test_bad_arguments_print_the_usage_and_the_error(phone, args, error):
    result = phone.shell(f"content {args}")
    text = result.stdout.decode()
    assert result.exit_code == 0 and result.stderr == b""
    assert text.startswith("usage: adb shell content [subcommand] [options]\n") and text.endswith(
        f"\n[ERROR] {error}\n"
    )


@pytest.mark.parametrize(
    ("command", "first_lines"),
    [
        ("query --uri content://nope/x", "Error while accessing provider:nope\n"
         "java.lang.IllegalStateException: Could not find provider: nope\n"
         "\tat com.android.commands.content.Content$Command.execute"),
        (f"query --uri {ALARMS}/x", "Error while accessing provider:com.android.deskclock\n"
         f"java.lang.IllegalArgumentException: Unknown URI {ALARMS}/x\n\tat android.database.DatabaseUtils"),
        (f"query --uri {ALARMS} --projection nope", "Error while accessing provider:com.android.deskclock\n"
         "android.database.sqlite.SQLiteException: no such column: nope (code 1 SQLITE_ERROR[1]): , while compiling: "
         "SELECT nope FROM alarm_templates\n"),
        (f"query --uri {ALARMS} --where 'hour ='", 'android.database.sqlite.SQLiteException: near ")": syntax error '
         "(code 1 SQLITE_ERROR[1]): , while compiling: SELECT * FROM alarm_templates WHERE (hour =)\n"),
        (f"query --uri {CONTACTS}/contacts --projection nope", "Error while accessing provider:com.android.contacts\n"
         "java.lang.IllegalArgumentException: Invalid column nope\n"),
        (f"insert --uri {ALARMS} --bind hour:i:7", "android.database.SQLException: Failed to insert row\n"),
        (f"update --uri {ALARMS} --bind hour:i:7",
         f"java.lang.UnsupportedOperationException: Cannot update URI: {ALARMS}\n"),
        (f"insert --uri {CONTACTS}/data --bind data1:s:x",
         "java.lang.IllegalArgumentException: raw_contact_id is required\n"),
        ("insert --uri content://com.android.calendar/events --bind calendar_id:i:1 --bind eventTimezone:s:UTC",
         "java.lang.IllegalArgumentException: DTSTART cannot be empty.\n"),
        ("query --uri content://settings/system --where value=1", "java.lang.IllegalArgumentException: Supported SQL:\n"
         "  uri content://some_table/some_property with null where and where args\n"),
        ("read --uri content://settings/system", "java.io.FileNotFoundException: No files supported by provider at "
         "content://settings/system\n"),
    ],
)  # fmt: skip
def test_provider_errors_print_as_android_prints_them(phone, command, first_lines):
    result = phone.shell(f"content {command}")
    assert result.exit_code == 0 and result.stdout == b""  # Content.main catches everything
    assert first_lines in result.stderr.decode()
    assert result.stderr.decode().endswith("\tat com.android.internal.os.RuntimeInit.main(RuntimeInit.java:355)\n")


def test_a_refused_insert_is_logged_as_sqlite_logs_it(phone):
    phone.shell(f"content insert --uri {ALARMS} --bind hour:i:7 --bind nope:i:1")
    log = out(phone, "logcat -d -s SQLiteDatabase:E")
    assert "E SQLiteDatabase: Error inserting hour=7 nope=1" in log
    assert "table alarm_templates has no column named nope (code 1 SQLITE_ERROR[1])" in log


# ---------------------------------------------------------------------------- packages and snapshots


def test_pm_clear_wipes_the_providers_of_the_package(phone):
    insert(phone, ALARMS, hour=7, minutes=0, daysofweek=0, enabled=1, vibrate=1, label="")
    insert(phone, "content://call_log/calls", number="1", type=1, date=1)
    assert out(phone, "pm clear com.android.deskclock") == "Success\n"
    assert len(rows(phone, ALARMS)) == 2  # the defaults of a new database
    assert len(rows(phone, "content://call_log/calls")) == 1  # another package's
    out(phone, "pm clear com.android.providers.contacts")
    assert rows(phone, "content://call_log/calls") == []


def test_snapshots_keep_the_providers(phone):
    insert(phone, ALARMS, hour=7, minutes=0, daysofweek=0, enabled=1, vibrate=1, label="kept")
    phone.save_snapshot("s")
    insert(phone, ALARMS, hour=8, minutes=0, daysofweek=0, enabled=1, vibrate=1, label="later")
    out(phone, f"content delete --uri {ALARMS} --where \"label='kept'\"")
    out(phone, "pm uninstall --user 0 com.android.deskclock")
    assert "Could not find provider: com.android.deskclock" in out(phone, f"content query --uri {ALARMS}")
    phone.load_snapshot("s")
    assert [r["label"] for r in rows(phone, ALARMS, "--projection", "label")] == ["", "", "kept"]
    insert(phone, ALARMS, hour=9, minutes=0, daysofweek=0, enabled=1, vibrate=1, label="again")
    phone.load_snapshot("s")
    assert [r["label"] for r in rows(phone, ALARMS, "--projection", "label")] == ["", "", "kept"]
    phone.load_snapshot("s")  # (nothing written since the last load: the database is left as it is)
    assert [r["label"] for r in rows(phone, ALARMS, "--projection", "label")] == ["", "", "kept"]
    for change in (f"content update --uri {ALARMS}/3 --bind label:s:changed", "pm clear com.android.deskclock"):
        out(phone, change)
        assert [r["label"] for r in rows(phone, ALARMS, "--projection", "label")] != ["", "", "kept"]
        phone.load_snapshot("s")
        assert [r["label"] for r in rows(phone, ALARMS, "--projection", "label")] == ["", "", "kept"]


def test_a_query_asked_again_shows_every_change_in_between(phone):
    """The content service keeps a query's answer while its provider's data stays the same: never longer."""
    contacts = f"{CONTACTS}/contacts"
    ask = ["--projection", "display_name:starred", "--sort", "display_name"]
    assert rows(phone, contacts, *ask) == rows(phone, contacts, *ask) == []
    insert(phone, f"{CONTACTS}/raw_contacts", account_name=None, account_type=None)  # a write through the shell
    raw = int(rows(phone, f"{CONTACTS}/raw_contacts", "--projection", "_id")[-1]["_id"])
    phone.content.resolver.insert(  # a write by an app, through the resolver
        f"{CONTACTS}/data", {"raw_contact_id": raw, "mimetype": "vnd.android.cursor.item/name", "data1": "Ann Lee"}
    )
    assert rows(phone, contacts, *ask) == [{"display_name": "Ann Lee", "starred": "0"}]
    out(phone, f"content update --uri {CONTACTS}/raw_contacts/{raw} --bind starred:i:1")  # the aggregate follows
    assert rows(phone, contacts, *ask) == [{"display_name": "Ann Lee", "starred": "1"}]
    phone.save_snapshot("one")
    out(phone, "pm clear com.android.providers.contacts")
    assert rows(phone, contacts, *ask) == []
    phone.load_snapshot("one")
    assert rows(phone, contacts, *ask) == [{"display_name": "Ann Lee", "starred": "1"}]
    out(phone, f"content delete --uri {CONTACTS}/raw_contacts/{raw}")
    assert rows(phone, contacts, *ask) == []
    # a query whose answer changes with no write (SQLite's random()) is asked anew every time
    drawn = {out(phone, f"content query --uri {ALARMS} --projection 'random() AS r'") for _ in range(2)}
    assert len(drawn) == 2 and all(answer.startswith("Row: 0 r=") for answer in drawn)


def test_seeded_content_is_the_same_for_a_seed_and_other_for_another():
    def content(phone: VirtualPhone) -> str:
        uris = [f"{CONTACTS}/data", "content://sms", "content://call_log/calls", "content://com.android.calendar/events",
                ALARMS, "content://media/external/file"]  # fmt: skip
        return "".join(out(phone, f"content query --uri {uri}") for uri in uris)

    first, again, other = (
        VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=s, content=SEEDED, clock=Clock(stepped=True)) for s in (3, 3, 4)
    )
    assert content(first) == content(again) != content(other)
    assert out(first, "ls -l /sdcard/DCIM/Camera") == out(again, "ls -l /sdcard/DCIM/Camera")
    photo = rows(first, "content://media/external/images/media", "--projection", "_data:_size")[0]
    assert first.fs.read(first.fs.normalize(photo["_data"]))[:2] == b"\xff\xd8"  # a JPEG
    assert len(first.fs.read(first.fs.normalize(photo["_data"]))) == int(photo["_size"])
    counts = {"contacts": f"{CONTACTS}/contacts", "messages": "content://sms", "calls": "content://call_log/calls",
              "events": "content://com.android.calendar/events",
              "photos": "content://media/external/images/media"}  # fmt: skip
    for kind, uri in counts.items():
        assert len(rows(first, uri)) == SEEDED[kind], kind
    assert len(rows(first, ALARMS)) == 2 + SEEDED["alarms"]
    names = {r["display_name"] for r in rows(first, f"{CONTACTS}/contacts", "--projection", "display_name")}
    senders = {r["address"] for r in rows(first, "content://sms", "--projection", "address")}
    phones = {r["data1"] for r in rows(first, f"{CONTACTS}/data/phones", "--projection", "data1")}
    assert len(names) == SEEDED["contacts"] and senders & phones  # most messages come from contacts
    assert all(re.fullmatch(r"\+1 555-0[2-9]\d\d", p) for p in phones)


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ({"friends": 3}, "content.friends: unknown kind of content; expected one of contacts, events"),
        ({"contacts": -1}, "content.contacts: expected a whole number from 0 to 800, got -1"),
        ({"photos": "2"}, "content.photos: expected a whole number from 0 to 100, got '2'"),
        ({"alarms": True}, "content.alarms: expected a whole number from 0 to 50, got True"),
    ],
)
def test_bad_content_settings_are_named(content, error):
    with pytest.raises(ValueError, match=re.escape(error)):
        check_content(content)
    with pytest.raises(ValueError, match=re.escape(error)):
        VirtualPhone(WIDTH, HEIGHT, DENSITY, content=content)


def test_device_configs_seed_content():
    from androidrl.device.spec import DeviceSpec
    from androidrl.train.config import Devices

    devices = Devices.model_validate({"virtual": {"count": 1, "width": 360, "height": 800, "content": {"contacts": 2}}})
    spec = devices.specs()[0]
    assert spec == DeviceSpec.virtual_phone(360, 800, 160, content={"contacts": 2})
    device = spec.make_device(seed=5)
    assert len(rows(device.phone, f"{CONTACTS}/contacts")) == 2
    with pytest.raises(ValueError, match=r"virtual.content"):
        Devices.model_validate({"virtual": {"count": 1, "content": {"friends": 2}}})


# ---------------------------------------------------------------------------- an app's provider and filters

PROBE = "com.example.probe"
MAIN = f"{PROBE}.MainActivity"
HANDLER = f"{PROBE}.HandlerActivity"


class NotesProvider(SQLiteProvider):
    """The docs' example: an app's own provider."""

    authority = "com.example.probe.notes"
    schema = "CREATE TABLE notes (_id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
    routes = {"notes": Route("notes", mime="note"), "notes/#": Route("notes", item=True, mime="note")}


class NotesActivity(Activity):
    """Lists the notes of its provider: a write from the shell shows at once."""

    def build(self) -> View:
        notes = self.context.content.query("content://com.example.probe.notes/notes", ["text"], sort="_id")
        return LinearLayout([TextView(n["text"], resource_id=f"{PROBE}:id/note") for n in notes], height=-1)


class HandlerActivity(Activity):
    """Shows what started it."""

    def build(self) -> View:
        intent = self.intent
        extras = ", ".join(f"{k}={v!r}" for k, v in sorted(intent.extras.items()))
        text = f"{intent.action} {intent.data} {intent.type}" + (f" {extras}" if extras else "")
        return TextView(text, resource_id=f"{PROBE}:id/intent")


def probe_app() -> App:
    filters = (
        IntentFilter(HANDLER, ("android.intent.action.SET_ALARM", "android.intent.action.SHOW_ALARMS")),
        IntentFilter(HANDLER, (ACTION_INSERT,), mime_types=("vnd.android.cursor.dir/contact",)),
        IntentFilter(HANDLER, (ACTION_VIEW,), mime_types=("vnd.android.cursor.item/contact",)),
        IntentFilter(HANDLER, (ACTION_SENDTO,), schemes=("sms", "smsto")),
        IntentFilter(HANDLER, (ACTION_VIEW,), schemes=("file",)),
        IntentFilter(HANDLER, ("com.example.NO_DEFAULT",), categories=()),
    )
    return App(PROBE, "Probe", "P", (1, 2, 3), {MAIN: NotesActivity, HANDLER: HandlerActivity}, MAIN,
               system=False, filters=filters, providers=(NotesProvider,))  # fmt: skip


@pytest.fixture
def probe():
    core = PhoneCore(WIDTH, HEIGHT, DENSITY, apps=[launcher_app(), probe_app(), *provider_packages()],
                     home=(LAUNCHER_PACKAGE, LAUNCHER), app_context=app_context)  # fmt: skip
    core.shell = lambda line, stdin=b"": Shell(core, COMMANDS).run(line, stdin)
    return core


def shown(core, view: str = "intent") -> list[str]:
    """The texts of the probe's views of one resource id."""
    return [e.text for e in ui_elements(core.dump_ui()) if e.resource_id == f"{PROBE}:id/{view}"]


def test_an_app_provider_is_read_by_the_app_written_from_the_shell_and_wiped_by_pm_clear(probe):
    notes = "content://com.example.probe.notes/notes"
    out(probe, f"am start -n {PROBE}/.MainActivity")
    out(probe, f"content insert --uri {notes} --bind text:s:milk")
    assert shown(probe, "note") == ["milk"]  # the write redrew the app's screen
    probe.content.resolver.insert(notes, {"text": "eggs"})  # (as another app would)
    assert rows(probe, notes, "--projection", "text") == [{"text": "milk"}, {"text": "eggs"}]
    assert out(probe, f"content gettype --uri {notes}/1") == "Result: vnd.android.cursor.item/note\n"
    out(probe, f"pm clear {PROBE}")
    assert out(probe, f"content query --uri {notes}") == "No result found.\n"
    out(probe, f"pm uninstall {PROBE}")
    assert "Could not find provider: com.example.probe.notes" in out(probe, f"content query --uri {notes}")


@pytest.mark.parametrize(
    ("intent", "shows"),
    [
        ("-a android.intent.action.SET_ALARM --ei android.intent.extra.alarm.HOUR 0x7 "
         "--ei android.intent.extra.alarm.MINUTES 30 --ez android.intent.extra.alarm.SKIP_UI t "
         "--es android.intent.extra.alarm.MESSAGE 'Gym time' --eia android.intent.extra.alarm.DAYS 2,4",
         "android.intent.action.SET_ALARM None None android.intent.extra.alarm.DAYS=[2, 4], "
         "android.intent.extra.alarm.HOUR=7, android.intent.extra.alarm.MESSAGE='Gym time', "
         "android.intent.extra.alarm.MINUTES=30, android.intent.extra.alarm.SKIP_UI=True"),
        ("-a android.intent.action.INSERT -t vnd.android.cursor.dir/contact -e name Ann --es phone 555 "
         "--esa emails 'a@x.com,b\\,c@y.com' --el when 1781514000000 --ef ratio 1.5",
         "android.intent.action.INSERT None vnd.android.cursor.dir/contact emails=['a@x.com', 'b,c@y.com'], "
         "name='Ann', phone='555', ratio=1.5, when=1781514000000"),
        ("-a android.intent.action.SENDTO -d smsto:555 --es sms_body hi", "android.intent.action.SENDTO smsto:555 None "
         "sms_body='hi'"),
        ("-a android.intent.action.VIEW -d file:///sdcard/x.txt",
         "android.intent.action.VIEW file:///sdcard/x.txt None"),
        ("-a android.intent.action.VIEW -d content://com.android.contacts/contacts/1",
         "android.intent.action.VIEW content://com.android.contacts/contacts/1 None"),  # its type from the provider
    ],
)  # fmt: skip
def test_intents_with_data_types_and_extras_resolve_to_the_filters_that_match(probe, intent, shows):
    assert "Error" not in out(probe, f"am start {intent}")
    assert probe.foreground() == (PROBE, HANDLER)
    assert shown(probe) == [shows]


@pytest.mark.parametrize(
    "intent",
    [
        "-a android.intent.action.INSERT -t vnd.android.cursor.dir/event",  # a type no filter has
        "-a android.intent.action.SENDTO -d mailto:ann@example.com",  # a scheme no filter has
        "-a android.intent.action.SET_ALARM -c android.intent.category.BROWSABLE",  # a category the filter lacks
        "-a android.intent.action.SET_ALARM -d smsto:1",  # data the filter does not take
        "-a com.example.NO_DEFAULT",  # a filter without DEFAULT: startActivity never picks it
        "-a android.intent.action.VIEW -d content://com.android.contacts/contacts",  # dir/contact, not item
    ],
)
def test_intents_no_filter_matches_are_not_started(probe, intent):
    result = probe.shell(f"am start {intent}")  # (a start that fails exits 1, as Android 14's am)
    text = result.stdout.decode() + result.stderr.decode()
    assert result.exit_code == 1
    assert re.search(r"Error: Activity not started, unable to resolve Intent \{ .* flg=0x10000000 \}", text)
    assert probe.foreground()[0] == LAUNCHER_PACKAGE


def test_intent_strings_mask_phone_numbers_and_show_types(probe):
    text = probe.shell("am start -a android.intent.action.SENDTO -d smsto:+1-555-0100 -t text/plain").stdout.decode()
    assert "Starting: Intent { act=android.intent.action.SENDTO dat=smsto:xx-xxx-xxxx typ=text/plain }" in text


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ("--ei n x", 'java.lang.NumberFormatException: For input string: "x"'),
        ("--ei n 3000000000", 'java.lang.NumberFormatException: For input string: "3000000000"'),
        ("--el n 0x10", 'java.lang.NumberFormatException: For input string: "0x10"'),
        ("--ef n one", 'java.lang.NumberFormatException: For input string: "one"'),
        ("--ez n maybe", "java.lang.IllegalArgumentException: Invalid boolean value: maybe"),
        ("--eia n 1,,2", 'java.lang.NumberFormatException: For input string: ""'),
        ("--ecn n nope", "java.lang.IllegalArgumentException: Bad component name: nope"),
        ("--es n", 'java.lang.IllegalArgumentException: Argument expected after "n"'),
    ],
)
def test_bad_extras_are_refused_as_am_refuses_them(probe, args, error):
    result = probe.shell(f"am start -a android.intent.action.SET_ALARM {args}")
    assert result.exit_code == 255 and error in result.stderr.decode()
    assert probe.foreground()[0] == LAUNCHER_PACKAGE


# ---------------------------------------------------------------------------- the task runtime on real providers


def test_the_generators_rows_go_into_the_providers_they_are_written_for():
    params = {
        "people": {"contacts": {"count": 3}},
        "alarms": {"alarms": {"count": 3, "labels": True}},
        "events": {"events": {"count": 3}},
        "messages": {"messages": {"count": 3}},
        "calls": {"calls": {"count": 3}},
    }
    parsed = parse_spec({"name": "t", "params": params, "success": {"shell": "true", "exit_code": 0}}).params
    drawn = draw_params(parsed, Draw(np.random.default_rng(5)))
    device = VirtualDevice(width=WIDTH, height=HEIGHT, density=DENSITY)
    targets = {"people": f"{CONTACTS}/raw_contacts", "alarms": ALARMS, "events": "content://com.android.calendar/events",
               "messages": "content://sms/inbox", "calls": "content://call_log/calls"}  # fmt: skip
    for name, uri in targets.items():
        insert_rows(device, uri, tuple(drawn[name]))
    phone = device.phone
    assert len(rows(phone, f"{CONTACTS}/data/phones")) == len(rows(phone, f"{CONTACTS}/data/emails")) == 3
    names = {r["display_name"] for r in rows(phone, f"{CONTACTS}/contacts", "--projection", "display_name")}
    assert names == {p["data1"] for r in drawn["people"] for p in r["_children"][0]["rows"] if "data3" in p}
    assert len(rows(phone, ALARMS)) == 2 + 3
    for uri in ("content://com.android.calendar/events", "content://sms/inbox", "content://call_log/calls"):
        assert len(rows(phone, uri)) == 3, uri


def test_a_task_inserts_rows_checks_them_and_watches_side_effects_through_providers():
    spec = {
        "name": "t",
        "params": {
            "friend": {"person": {"ascii": True}},
            "people": {"contacts": {"count": 2, "include": "friend"}},
            "wake": {"time": {"hours": [5, 7], "minutes": [0, 30]}},
            "alarms": {"alarms": {"count": 2, "include": "wake", "enabled": False}},
        },
        "reset": [
            {"insert": {"uri": f"{CONTACTS}/raw_contacts", "rows": "{people}"}},
            {"insert": {"uri": ALARMS, "rows": "{alarms}"}},
        ],
        "success": {"content": {"uri": ALARMS, "projection": ["hour", "minutes", "enabled"],
                                "where": "hour={wake.hour} AND minutes={wake.minute}",
                                "rows": [{"hour": "{wake.hour}", "minutes": "{wake.minute}", "enabled": 1}]}},
        "side_effects": [
            {"content": ALARMS, "columns": ["hour", "minutes", "enabled", "label"],
             "except": "hour={wake.hour} AND minutes={wake.minute}"},
            {"content": f"{CONTACTS}/data/phones", "columns": ["display_name", "data1"]},
        ],
    }  # fmt: skip
    task = SpecTask(parse_spec(spec))
    env = AndroidEnv(VirtualDevice(width=WIDTH, height=HEIGHT, density=DENSITY), task, screen_size=(WIDTH, HEIGHT),
                     dump_xml=False, write_files=False)  # fmt: skip
    env.reset(seed=3)
    phone, wake, friend = env.device.phone, task.params["wake"], task.params["friend"]
    assert {"display_name": friend["name"], "data1": friend["phone"]} in rows(
        phone, f"{CONTACTS}/data/phones", "--projection", "display_name:data1"
    )
    assert len(rows(phone, f"{CONTACTS}/contacts")) == 2
    target = rows(phone, ALARMS, "--projection", "_id", "--where", f"hour={wake['hour']} AND minutes={wake['minute']}")
    phone.shell(f"content update --uri {ALARMS}/{target[0]['_id']} --bind enabled:i:1")
    _, _, terminated, _, info = env.step(EnvAction())
    assert info["is_success"] and terminated and info["side_effect"] == ""
    env.reset(seed=3)
    phone.shell(f"content update --uri {ALARMS}/1 --bind enabled:i:1")  # another alarm: a side effect
    _, _, terminated, _, info = env.step(EnvAction())
    assert terminated and not info["is_success"]
    assert info["side_effect"] == f"{ALARMS}: a row appeared: hour=8, minutes=30, enabled=1, label="
    env.close()

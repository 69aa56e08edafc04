"""Parameter generators: seeded, distinct where asked, split by value, dates from the phone's clock."""

import datetime as dt
import re
import zlib

import numpy as np
import pytest

from androidrl import TaskError, VirtualDevice, pools
from androidrl.tasks import parse_spec
from androidrl.tasks.generators import Draw, Param, draw_params, in_split, time_value
from androidrl.tasks.spec_task import phone_now

NOW = dt.datetime(2026, 6, 15, 9, 0, tzinfo=dt.timezone.utc)  # a Monday


def draw(params: dict, seed: int = 0, split: str = "train", now: dt.datetime = NOW) -> dict:
    parsed = parse_spec({"name": "t", "params": params, "success": {"shell": "true", "exit_code": 0}}).params
    return draw_params(parsed, Draw(np.random.default_rng(seed), split, lambda: now))


def test_the_same_seed_draws_the_same_values_of_every_kind():
    params = {
        "n": {"randint": [1, 4]},
        "x": {"number": {"range": [0, 10], "step": 2.5}},
        "w": {"word": {}},
        "ws": {"words": {"count": 3, "pool": "labels"}},
        "s": {"sentence": {}},
        "f": {"filename": {"ext": ["txt", "pdf"]}},
        "c": {"code": {"digits": 6}},
        "p": {"person": {}},
        "ps": {"people": {"count": "{n}"}},
        "t": {"time": {}},
        "ts": {"times": {"count": 2}},
        "d": {"date": {}},
        "one": {"pick": {"from": "ps"}},
        "some": {"sample": {"from": "ps", "k": 1}},
        "mixed": {"shuffle": {"from": "ps"}},
    }
    first, again, other = draw(params, 7), draw(params, 7), draw(params, 8)
    assert first == again and first != other
    assert len(first["ps"]) == first["n"] and first["one"] in first["ps"] and first["some"][0] in first["ps"]
    assert sorted(p["name"] for p in first["mixed"]) == sorted(p["name"] for p in first["ps"])
    assert first["x"] in (0, 2.5, 5.0, 7.5, 10.0)
    assert re.fullmatch(r"[a-z]+_[a-z]+\.(txt|pdf)", first["f"]) and re.fullmatch(r"\d{6}", first["c"])
    assert len(first["ws"].split(" ")) >= 3 and first["s"][0].isupper() and first["s"].endswith(".")


def test_people_have_unique_names_and_phones_and_typable_names_when_asked():
    assert len(pools.GIVEN_NAMES) >= 200 and len(pools.FAMILY_NAMES) >= 200
    assert any(not name.isascii() for name in pools.GIVEN_NAMES + pools.FAMILY_NAMES)
    for seed in range(20):
        values = draw(
            {"me": {"person": {"ascii": True}}, "others": {"people": {"count": 30, "distinct_from": "me"}}}, seed
        )
        people = [values["me"], *values["others"]]
        assert len({p["name"] for p in people}) == len({p["phone"] for p in people}) == 31
        assert all(re.fullmatch(r"\+1 555-01\d\d", p["phone"]) for p in people)
        assert values["me"]["name"].isascii() and values["me"]["email"].isascii()
        assert values["me"]["name"] == f"{values['me']['first']} {values['me']['last']}"


def test_times_read_as_the_clock_app_shows_them_and_keep_apart():
    assert time_value(0, 5)["text"] == "12:05 AM" and time_value(12, 30)["text"] == "12:30 PM"
    assert time_value(13, 45) == {
        "hour": 13, "minute": 45, "text": "1:45 PM", "text24": "13:45", "hour12": 1, "mm": "45", "ampm": "PM"
    }  # fmt: skip
    assert (time_value(0, 5)["hour12"], time_value(0, 5)["mm"], time_value(0, 5)["ampm"]) == (12, "05", "AM")
    for seed in range(20):
        values = draw(
            {
                "alarm": {"time": {"hours": [5, 11], "minutes": [0, 30]}},
                "others": {"times": {"count": 10, "hours": [5, 11], "minutes": [0, 30], "distinct_from": "alarm"}},
            },
            seed,
        )
        times = [(t["hour"], t["minute"]) for t in [values["alarm"], *values["others"]]]
        assert len(set(times)) == 11 and all(5 <= h <= 11 and m in (0, 30) for h, m in times)
    with pytest.raises(TaskError, match="params.others: no value distinct from the others"):
        draw({"a": {"time": {"hours": [5, 5], "minutes": [0]}}, "others": {"times": {"count": 1, "hours": [5, 5],
              "minutes": [0], "distinct_from": "a"}}})  # fmt: skip


def test_dates_count_from_the_phones_today():
    device = VirtualDevice(width=360, height=800, density=160)
    now = phone_now(device)
    assert abs(now.timestamp() - int(device.shell("date +%s"))) <= 1
    values = draw({"d": {"date": {"within_days": [1, 1]}}}, now=now)
    tomorrow = now.date() + dt.timedelta(days=1)
    assert values["d"]["iso"] == tomorrow.isoformat() and values["d"]["day"] == tomorrow.day
    midnight = dt.datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=now.tzinfo)
    assert values["d"]["millis"] == int(midnight.timestamp()) * 1000
    monday = draw({"d": {"date": {"within_days": [0, 0]}}})["d"]
    assert monday["text"] == "Mon, Jun 15" and monday["weekday"] == "Monday" and monday["month_name"] == "June"
    for seed in range(20):
        day = draw({"d": {"date": {"within_days": [0, 13], "weekdays_only": True}}}, seed)["d"]
        assert dt.date.fromisoformat(day["iso"]).weekday() < 5
    with pytest.raises(TaskError, match="no weekday within"):
        draw({"d": {"date": {"within_days": [5, 6], "weekdays_only": True}}})  # the weekend after NOW
    early = [draw({"d": {"date": {"within_days": [0, 60], "days_of_month": [1, 5]}}}, seed)["d"] for seed in range(20)]
    assert all(1 <= d["day"] <= 5 for d in early) and len({d["month"] for d in early}) == 2
    with pytest.raises(TaskError, match=r"no day within \[0, 3\] days of 2026-06-15 on days 1 to 5 of a month"):
        draw({"d": {"date": {"within_days": [0, 3], "days_of_month": [1, 5]}}})


def test_hash_and_explicit_splits_keep_train_and_test_values_apart():
    words = {"w": {"word": {}, "split": "hash"}}
    train = {draw(words, seed)["w"] for seed in range(200)}
    test = {draw(words, seed, "test")["w"] for seed in range(200)}
    assert train and test and not train & test
    assert all(zlib.crc32(w.encode()) % 4 == 0 for w in test)
    assert 0.15 < len(test) / (len(test) + len(train)) < 0.35  # about a quarter held out
    explicit = {"c": {"choice": ["a", "b", "c"], "split": {"test": ["c"]}}}
    assert {draw(explicit, s)["c"] for s in range(30)} == {"a", "b"}
    assert {draw(explicit, s, "test")["c"] for s in range(30)} == {"c"}
    people = Param.model_validate({"person": {}, "split": "hash"})
    person = {"name": "Ana Silva", "phone": "+1 555-0100"}
    assert in_split(person, people.split, "test") == (zlib.crc32(b"Ana Silva") % 4 == 0)
    with pytest.raises(TaskError, match="params.c: split: hash puts none of the 1 values in the test split"):
        draw({"c": {"choice": ["a"], "split": "hash"}}, split="test")  # ("a" hashes to train: refused when read)


def test_record_lists_hold_their_target_among_distinct_distractors():
    for seed in range(10):
        values = draw(
            {
                "at": {"time": {"hours": [6, 9]}},
                "alarms": {"alarms": {"count": 5, "include": "at", "labels": True}},
                "who": {"person": {}},
                "contacts": {"contacts": {"count": 4, "include": "who"}},
                "friends": {"people": {"count": 2, "distinct_from": "who"}},
                "friend_contacts": {"contacts": {"from": "friends"}},
                "day": {"date": {"within_days": [1, 7]}},
                "events": {"events": {"count": 3, "include": "day"}},
                "texts": {"messages": {"count": 6, "from": "friends"}},
                "file": {"filename": {}},
                "files": {"files": {"count": 3, "include": "file", "dir": "/sdcard/Documents"}},
                "memo": {"note": {"title_words": 2}},
                "notes": {"notes": {"count": 4, "include": "memo"}},
            },
            seed,
        )
        memo, notes = values["memo"], values["notes"]
        assert set(memo) == {"title", "body"} and len(memo["title"].split()) == 2 and memo["title"][0].isupper()
        assert notes.count(memo) == 1 and len({n["title"] for n in notes}) == 4 and memo["body"].endswith(".")
        alarms = values["alarms"]
        assert len(alarms) == 5 and set(alarms[0]) == {"hour", "minutes", "enabled", "daysofweek", "vibrate", "label"}
        matching = [a for a in alarms if (a["hour"], a["minutes"]) == (values["at"]["hour"], values["at"]["minute"])]
        assert len(matching) == 1 and len({(a["hour"], a["minutes"]) for a in alarms}) == 5
        names = [c["_children"][0]["rows"][0]["data1"] for c in values["contacts"]]
        assert names.count(values["who"]["name"]) == 1 and len(set(names)) == 4
        assert all(r["raw_contact_id"] == "$parent_id" for c in values["contacts"] for r in c["_children"][0]["rows"])
        starts = [e["dtstart"] for e in values["events"]]
        assert sum(values["day"]["millis"] <= s < values["day"]["millis"] + 86_400_000 for s in starts) >= 1
        phones = {r["_children"][0]["rows"][1]["data1"] for r in values["friend_contacts"]}
        assert phones == {p["phone"] for p in values["friends"]}
        assert all(m["address"] in phones for m in values["texts"]) and len(values["texts"]) == 6
        paths = [f["path"] for f in values["files"]]
        assert f"/sdcard/Documents/{values['file']}" in paths and len(set(paths)) == 3


def test_a_days_events_all_fall_on_that_day():
    for seed in range(10):
        values = draw(
            {
                "day": {"date": {"within_days": [1, 7]}},
                "n": {"randint": [2, 4]},
                "agenda": {"events": {"count": "{n}", "on_day": "day"}},
                "others": {"events": {"count": 3, "within_days": [1, 7], "distinct_from": "day"}},
            },
            seed,
        )
        start, end = values["day"]["millis"], values["day"]["millis"] + 86_400_000
        assert len(values["agenda"]) == values["n"] and all(start <= e["dtstart"] < end for e in values["agenda"])
        assert not any(start <= e["dtstart"] < end for e in values["others"])


def test_people_include_a_person_who_sends_each_message_with_a_given_body_or_gets_sent_ones():
    values = draw(
        {
            "who": {"person": {}},
            "friends": {"people": {"count": 3, "include": "who"}},
            "topic": {"word": {"pool": "event_titles"}},
            "texts": {"messages": {"from": "friends", "each": 2, "body": "{topic} moved", "within_days": [-2, -1]}},
            "replies": {"messages": {"count": 4, "from": "friends", "sent": True}},
            "rings": {"calls": {"from": "friends", "each": 1}},
        }
    )
    phones = [p["phone"] for p in values["friends"]]
    assert values["who"] in values["friends"] and len(set(phones)) == 3
    assert sorted(m["address"] for m in values["texts"]) == sorted(phones * 2)
    assert {m["body"] for m in values["texts"]} == {f"{values['topic']} moved"}
    now_ms = int(NOW.timestamp()) * 1000
    assert all(now_ms - 2 * 86_400_000 <= m["date"] <= now_ms - 86_400_000 for m in values["texts"])
    assert {(m["type"], m["body"].endswith(".")) for m in values["replies"]} == {(2, True)}
    assert {m["type"] for m in values["texts"]} == {1} and [c["number"] for c in values["rings"]] == phones


def test_calls_are_all_of_one_type_when_asked():
    values = draw(
        {
            "who": {"people": {"count": 2}},
            "missed": {"calls": {"count": 5, "from": "who", "type": 3}},
            "mixed": {"calls": {"count": 30, "from": "who"}},
        }
    )
    assert [c["type"] for c in values["missed"]] == [3] * 5
    assert {c["type"] for c in values["mixed"]} == {1, 2, 3}


def test_generator_arguments_are_checked_with_their_key_paths():
    bad = [
        ({"t": {"time": {"hours": [9, 30]}}}, "params.t.time.hours[1]: Input should be less than or equal to 23"),
        ({"t": {"time": {}, "word": {}}}, "params.t: a param needs exactly one of"),
        ({"w": {"word": {"pool": "nope"}}}, "params.w.word.pool: Input should be"),
        (
            {"p": {"people": {"count": "{n}"}}, "n": {"randint": [1, 2]}},
            "params.p: it reads 'n', which is declared after",
        ),
        ({"p": {"pick": {"from": "q"}}}, "params.p: it reads 'q', which is not a parameter"),
        ({"c": {"choice": ["a"], "split": {"test": ["z"]}}}, "params.c: split.test: none of ['z'] is a choice"),
        (
            {"c": {"choice": ["a", "b"], "split": "hash"}},  # neither hashes into the test split
            "params.c: split: hash puts none of the 2 values in the test split",
        ),
        ({"x": {"number": {"range": [0, 1e9], "step": 0.5}}}, "params.x.number: range / step allows more than"),
        ({"m": {"messages": {"each": 2}}}, "params.m.messages: each needs from"),
        ({"c": {"calls": {"type": 9}}}, "params.c.calls.type: Input should be less than or equal to 7"),
    ]
    for params, message in bad:
        with pytest.raises(TaskError) as info:
            parse_spec({"name": "t", "params": params, "success": {"shell": "true", "exit_code": 0}})
        assert any(line.startswith(message) for line in str(info.value).splitlines()), (message, str(info.value))
    with pytest.raises(TaskError, match="sample of 3 from 'ps': the list has 2"):
        draw({"ps": {"people": {"count": 2}}, "s": {"sample": {"from": "ps", "k": 3}}})


def test_an_included_event_has_the_given_title_and_start_and_the_others_other_titles():
    for seed in range(10):
        values = draw(
            {
                "name": {"word": {"pool": "event_titles"}},
                "start": {"time": {"hours": [9, 17], "minutes": [0, 30]}},
                "alarm": {"time": {"from": "start", "plus": -30}},
                "day": {"date": {"within_days": [1, 7]}},
                "events": {"events": {"count": 6, "include": "day", "title": "{name}", "at": "start"}},
            },
            seed,
        )
        start, alarm = values["start"], values["alarm"]
        assert (alarm["hour"] * 60 + alarm["minute"]) == (start["hour"] * 60 + start["minute"] - 30) % 1440
        titles = [e["title"] for e in values["events"]]
        assert titles.count(values["name"]) == 1 and len(set(titles)) == 6
        (target,) = [e for e in values["events"] if e["title"] == values["name"]]
        minutes = start["hour"] * 60 + start["minute"]
        assert target["dtstart"] == values["day"]["millis"] + minutes * 60_000
    for seed in range(10):
        values = draw({"name": {"word": {"pool": "event_titles"}},
                       "others": {"events": {"count": 20, "distinct_from": "name"}}}, seed)  # fmt: skip
        assert values["name"] not in {e["title"] for e in values["others"]}
    late = draw({"t": {"time": {"hours": [23, 23], "minutes": [45]}}, "next": {"time": {"from": "t", "plus": 30}}})
    assert late["next"]["text24"] == "00:15"
    with pytest.raises(TaskError, match="time from 'd': d is .* not a time"):
        draw({"d": {"date": {}}, "t": {"time": {"from": "d"}}})
    with pytest.raises(TaskError, match="events at 'd': d is .* not a time"):
        draw({"d": {"date": {}}, "e": {"events": {"count": 2, "include": "d", "at": "d"}}})

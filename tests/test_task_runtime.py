"""The task runtime on the virtual phone: Android-state conditions, new reset steps, side effects,
the reset guard, reward modes, tiers, fields and placeholders."""

import shlex

import pytest

from androidrl import AndroidEnv, EnvAction, TaskError, VirtualDevice
from androidrl.tasks import SpecTask, parse_spec
from androidrl.tasks.conditions import holds as holds_
from androidrl.tasks.placeholders import fill
from androidrl.tasks.spec import TaskSpec
from androidrl.tasks.splits import device_configs
from androidrl.tasks.state import parse_rows
from androidrl.tasks.steps import Notify, config_commands, notify_command, run_steps
from androidrl.ui import Snapshot

NEVER = {"setting": {"namespace": "global", "key": "androidrl_never", "equals": "yes"}}


def device():
    return VirtualDevice(width=360, height=800, density=160)


def env_for(spec: dict, **options) -> AndroidEnv:
    task = SpecTask(parse_spec({"name": "t", "success": NEVER, **spec}), **options)
    return AndroidEnv(device(), task, screen_size=(360, 800), dump_xml=False, write_files=False)


def cond(data: dict):
    return TaskSpec.model_validate({"name": "t", "success": data}).success


def holds(condition: dict, dev) -> bool:
    return holds_(cond(condition), Snapshot(dev))


def test_state_conditions_read_providers_settings_files_and_dumps():
    dev = device()
    dev.shell("settings put global androidrl_level 5")
    assert holds({"setting": {"namespace": "global", "key": "androidrl_level", "equals": "5"}}, dev)
    assert holds({"setting": {"namespace": "global", "key": "androidrl_level", "in": ["4", "5"]}}, dev)
    assert not holds({"setting": {"namespace": "global", "key": "androidrl_level", "matches": "^[0-4]$"}}, dev)
    assert holds({"setting": {"namespace": "global", "key": "androidrl_unset", "equals": "null"}}, dev)
    assert holds({"setting": {"namespace": "global", "key": "androidrl_level", "between": [4.5, 5]}}, dev)
    assert not holds({"setting": {"namespace": "global", "key": "androidrl_level", "between": [6, 9]}}, dev)
    assert not holds({"setting": {"namespace": "global", "key": "androidrl_unset", "between": [0, 9]}}, dev)
    query = {"uri": "content://settings/global", "where": "name='androidrl_level'"}
    assert holds({"content": {**query, "rows": [{"name": "androidrl_level", "value": 5}]}}, dev)
    assert holds({"content": {**query, "count": 1}}, dev) and holds({"content": query}, dev)
    assert not holds({"content": {**query, "rows": [{"name": "androidrl_level", "value": "6"}]}}, dev)
    assert holds({"content": {**query, "where": "name='androidrl_unset'", "count": 0}}, dev)
    dev.shell("mkdir -p /sdcard/Download && echo 'hello world' > /sdcard/Download/note.txt")
    assert holds({"file": {"path": "/sdcard/Download/note.txt", "exists": True}}, dev)
    assert holds({"file": {"path": "/sdcard/Download/note.txt", "contains": "lo wo", "matches": "^hello"}}, dev)
    assert holds({"file": {"path": "/sdcard/Download/none.txt", "exists": False}}, dev)
    assert not holds({"file": {"path": "/sdcard/Download/none.txt", "contains": "x"}}, dev)
    dev.home()
    assert holds({"dumpsys": {"service": "window", "matches": r"mCurrentFocus=.*launcher"}}, dev)
    assert not holds({"dumpsys": {"service": "window", "matches": r"mCurrentFocus=.*settings"}}, dev)


def test_each_state_command_runs_once_per_step_whatever_the_number_of_conditions():
    dev = device()
    snapshot = Snapshot(dev)
    setting = cond({"setting": {"namespace": "global", "key": "wifi_on", "in": ["0", "1"]}})
    before = len(dev.phone.command_log)
    assert all(holds_(setting, snapshot) for _ in range(5))
    assert list(dev.phone.command_log)[before:] == ["settings get global wifi_on"]


def test_content_rows_are_parsed_with_commas_line_breaks_and_nulls():
    output = "Row: 0 _id=1, title=Lunch, with Sam, note=NULL\nRow: 1 _id=2, title=Two\nlines, note=x=y\n"
    assert parse_rows(output, ["_id", "title", "note"]) == [
        {"_id": "1", "title": "Lunch, with Sam", "note": "NULL"},
        {"_id": "2", "title": "Two\nlines", "note": "x=y"},
    ]
    assert parse_rows("No result found.\n") == []


def test_insert_file_and_config_steps_reach_the_phone_as_shell_commands():
    dev = device()
    spec = parse_spec(
        {
            "name": "t",
            "success": NEVER,
            "reset": [
                {
                    "insert": {
                        "uri": "content://settings/system",
                        "rows": [{"name": "androidrl_x", "value": "it's: a b"}],
                    }
                },
                {
                    "insert": {
                        "uri": "content://com.android.contacts/raw_contacts",
                        "rows": [
                            {
                                "account_name": None,
                                "_children": [
                                    {
                                        "uri": "content://com.android.contacts/data",
                                        "rows": [
                                            {
                                                "raw_contact_id": "$parent_id",
                                                "mimetype": "vnd.android.cursor.item/name",
                                                "data1": "Ann Lee",
                                            }
                                        ],
                                    }
                                ],
                            }
                        ],
                    }
                },
                {
                    "file": [
                        {"path": "/sdcard/Documents/a/b.txt", "content": "x\\ny 'q' $HOME"},
                        {"path": "/sdcard/z", "size": 100},
                    ]
                },
                {"config": {"font_scale": 1.15, "density": 200, "locale": "de-DE"}},
            ],
        }
    )
    run_steps(dev, spec.reset, "test")
    assert dev.shell("settings get system androidrl_x").strip() == "it's: a b"
    raw = parse_rows(dev.shell("content query --uri content://com.android.contacts/raw_contacts --projection _id"))
    name = "content query --uri content://com.android.contacts/data --projection raw_contact_id:display_name"
    assert parse_rows(dev.shell(name)) == [{"raw_contact_id": raw[-1]["_id"], "display_name": "Ann Lee"}]
    assert dev.phone.fs.read("/sdcard/Documents/a/b.txt") == b"x\\ny 'q' $HOME"
    assert len(dev.phone.fs.read("/sdcard/z")) == 100
    assert dev.shell("settings get system font_scale").strip() == "1.15"
    assert "Override density: 200" in dev.shell("wm density")
    assert dev.shell("getprop persist.sys.locale").strip() == "de-DE"
    late = {
        "uri": "content://com.android.contacts/raw_contacts",
        "after": 2,
        "rows": [
            {
                "account_name": None,
                "_children": [
                    {
                        "uri": "content://com.android.contacts/data",
                        "rows": [
                            {"raw_contact_id": "$parent_id", "mimetype": "vnd.android.cursor.item/name", "data1": n}
                        ],
                    }
                ],
            }
            for n in ("Bo O'Neil", "Cy $HOME")
        ],
    }
    run_steps(dev, parse_spec({"name": "t", "success": NEVER, "reset": [{"insert": late}]}).reset, "test")
    names = "content query --uri content://com.android.contacts/contacts --projection display_name --sort _id"
    assert [r["display_name"] for r in parse_rows(dev.shell(names))] == ["Ann Lee"]  # (not yet: in two seconds)
    dev.perform(EnvAction())
    dev.perform(EnvAction())
    assert [r["display_name"] for r in parse_rows(dev.shell(names))] == ["Ann Lee", "Bo O'Neil", "Cy $HOME"]
    bad = parse_spec(
        {"name": "t", "success": NEVER, "reset": [{"insert": {"uri": "content://nope", "rows": [{"a": 1}]}}]}
    )
    with pytest.raises(
        TaskError, match=r"test step 1 \(insert: .*\): `content insert --uri content://nope --bind a:i:1` failed"
    ):
        run_steps(dev, bad.reset, "test")


def test_notifications_and_configurations_are_the_commands_a_user_types():
    notify = Notify(tag="rate", title="Enjoying it?", text="Rate this app", opens="com.android.settings/.Settings")
    assert notify_command(notify) == (
        "cmd notification post -S bigtext -t 'Enjoying it?' -c activity com.android.settings/.Settings rate "
        "'Rate this app'"
    )
    config = parse_spec({"name": "t", "success": NEVER, "reset": [{"config": {"theme": "dark", "density": "reset"}}]})
    assert config_commands(config.reset[0].config) == ["cmd uimode night yes", "wm density reset"]


def test_device_configurations_split_the_grid_with_german_and_the_largest_font_held_out():
    train, test = device_configs("train"), device_configs("test")
    assert len(train) + len(test) == 2 * 4 * 3 * 2 and not set(train) & set(test)
    assert all(c.locale == "de-DE" or c.font_scale == 1.3 for c in test)
    assert all(c.locale == "en-US" and c.font_scale != 1.3 for c in train)


def test_a_side_effect_fails_the_episode_and_names_what_changed():
    env = env_for(
        {
            "side_effects": [
                {"settings": "global", "except": ["androidrl_goal*"]},
                {"content": "content://settings/system", "columns": ["name", "value"]},
                {"files": "/sdcard/Download", "except": ["*.tmp"]},
            ]
        }
    )
    cases = [
        ("settings put global androidrl_goal_1 on", ""),
        ("echo x > /sdcard/Download/scratch.tmp", ""),
        ("settings put global bluetooth_on 0", "settings global: bluetooth_on changed from 1 to 0"),
        (
            "settings put system androidrl_extra 7",
            "content://settings/system: a row appeared: name=androidrl_extra, value=7",
        ),
        ("echo x > /sdcard/Download/new.txt", "files /sdcard/Download: new.txt appeared"),
    ]
    for command, side_effect in cases:
        env.reset(seed=0)
        env.device.shell(command)
        _, reward, terminated, _, info = env.step(EnvAction())
        assert info["side_effect"] == side_effect, command
        assert terminated == bool(side_effect) and not info["is_success"]
        env.device.shell("settings put global bluetooth_on 1; settings delete system androidrl_extra")
        env.device.shell("rm -f /sdcard/Download/new.txt /sdcard/Download/scratch.tmp")


def test_the_reset_guard_redraws_until_the_goal_does_not_hold_then_gives_up():
    env = env_for(
        {
            "params": {"n": {"choice": [0, 1]}},
            "reset": [{"shell": "settings put global androidrl_n {n}"}],
            "success": {"setting": {"namespace": "global", "key": "androidrl_n", "equals": "1"}},
            "reset_retries": 10,
        }
    )
    redraws = []
    for seed in range(20):
        _, info = env.reset(seed=seed)
        assert info["params"]["n"] == 0
        redraws.append(info["redraws"])
    assert 0 in redraws and max(redraws) >= 1
    always = env_for({"success": {"shell": "echo 1", "equals": "1"}, "reset_retries": 2})
    with pytest.raises(TaskError, match="the goal already holds after the reset, in all 3 draws"):
        always.reset(seed=0)


def test_parameters_read_the_clock_of_the_episodes_start_not_where_the_last_episode_left_it():
    env = env_for({"params": {"calls": {"calls": {"count": 1, "within_days": [0, 0]}}}})
    _, first = env.reset(seed=0)
    for _ in range(5):
        env.step(EnvAction())  # (each step moves the phone's clock)
    assert env.device.shell("date +%s").strip() != str(first["params"]["calls"][0]["date"] // 1000)
    _, again = env.reset(seed=0)
    assert again["params"] == first["params"]


@pytest.mark.parametrize(
    ("mode", "success_reward", "failure_reward"), [("binary", 1.0, -1.0), ("time", 1 - 0.5 * 2 / 10, -1.0)]
)
def test_reward_modes(mode, success_reward, failure_reward):
    spec = {
        "max_steps": 10,
        "success": {"setting": {"namespace": "global", "key": "androidrl_done", "equals": "1"}},
        "failure": {"setting": {"namespace": "global", "key": "androidrl_done", "equals": "0"}},
        "reset": [{"shell": "settings put global androidrl_done 2"}],
        "reward": {"step": -0.5, "success": 5},
    }
    env = env_for(spec, reward_mode=mode)
    env.reset(seed=0)
    assert env.step(EnvAction())[1] == 0.0
    env.device.shell("settings put global androidrl_done 1")
    _, reward, terminated, _, info = env.step(EnvAction())
    assert terminated and info["is_success"] and reward == pytest.approx(success_reward)
    env.reset(seed=0)
    env.device.shell("settings put global androidrl_done 0")
    _, reward, terminated, _, info = env.step(EnvAction())
    assert terminated and info["failed"] and reward == failure_reward
    shaped = env_for(spec)
    shaped.reset(seed=0)
    shaped.device.shell("settings put global androidrl_done 1")
    assert shaped.step(EnvAction())[1] == pytest.approx(4.5)
    with pytest.raises(TaskError, match="reward_mode must be one of"):
        env_for(spec, reward_mode="dense")


def test_tiers_fields_and_formatted_placeholders():
    spec = {
        "params": {"t": {"time": {"hours": [7, 7], "minutes": [5]}}, "who": {"choice": ["Ana O'Brien"]}},
        "tiers": {
            "easy": {},
            "medium": {"max_steps": 40, "params": {"t": {"time": {"hours": [19, 19], "minutes": [5]}}}},
            "hard": {"reset": [{"shell": "settings put global androidrl_tier hard"}]},
        },
        "instruction": "Wake {who} at {t.hour:02d}:{t.minute:02d}",
        "fields": ["who", "t.text"],
        "success": {
            "content": {"uri": "content://settings/global", "where": "name='{who}'", "count": 1},
        },
    }
    env = env_for(spec, tier="medium")
    _, info = env.reset(seed=0)
    assert info["instruction"] == "Wake Ana O'Brien at 19:05" and env.max_steps == 40 and info["tier"] == "medium"
    assert info["fields"] == {"who": "Ana O'Brien", "t.text": "7:05 PM"}
    env.step(EnvAction())
    queries = [shlex.split(line) for line in env.device.phone.command_log if line.startswith("content query")]
    assert queries and queries[-1][queries[-1].index("--where") + 1] == "name='Ana O''Brien'"  # one SQL string
    hard = env_for(spec, tier="hard")
    hard.reset(seed=0)
    assert hard.device.shell("settings get global androidrl_tier").strip() == "hard"
    assert fill("{n!sql} {n:>4}", {"n": 7}) == "7    7" and fill("{x}", {"x": [1, 2]}) == [1, 2]
    with pytest.raises(TaskError, match="has no tier 'expert'"):
        TaskSpec.model_validate({"name": "t", "success": NEVER}).at_tier("expert")
    with pytest.raises(TaskError, match="a format spec formats numbers"):
        fill("{w:02d}", {"w": "word"})

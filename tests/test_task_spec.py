"""Task files: schema errors that name the key path, reset failures, waits, the CLI."""

import pytest

from androidrl import AndroidEnv, TaskError
from androidrl.cli import main
from androidrl.device import VirtualDevice
from androidrl.tasks import load_spec, parse_spec

GOOD = {"name": "t", "success": {"shell": "settings get global wifi_on", "equals": "9"}}  # (never holds)


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ({"max_stepz": 3}, "max_stepz: unknown key"),
        ({"max_steps": 0}, "max_steps: Input should be greater than or equal to 1, got 0"),
        ({"reset": ["home", {"shel": "x"}]}, "reset[1].shel: unknown key"),
        (
            {"reset": [{"wait": {"until": {"node": {"text": "x"}}, "timeout": "soon"}}]},
            "reset[0].wait.timeout: Input should be a valid number",
        ),
        ({"reset": [{"tap": {"x": 5}}]}, "reset[0].tap: tap needs either x and y, or node"),
        ({"reset": [{"home": True, "back": True}]}, "reset[0]: a step needs exactly one of"),
        ({"reset": [{"launch": {"component": "no-slash"}}]}, "reset[0].launch: component must be package/activity"),
        ({"success": {"nod": {"text": "x"}}}, "success: a condition needs exactly one of"),
        ({"success": {"node": {"txt": "x"}}}, "success.node.txt: unknown key"),
        ({"success": {"all": [{"node": {"text": "x"}}, {"shell": "y"}]}}, "success.all[1]: a shell condition needs"),
        ({"success": {"node": {"text_regex": "("}}}, "success.node.text_regex: invalid regex"),
        ({"success": {"node": {}}}, "success.node: a node selector needs at least one attribute"),
        ({"instruction": "type {wrod}"}, "instruction: unknown placeholder {wrod}"),
        ({"params": {"w": {"choice": []}}}, "params.w.choice: Tuple should have at least 1 item"),
        ({"params": {"w": {"randint": [5, 1]}}}, "params.w: randint low > high"),
        (
            {"params": {"p": {"choice": [{"a": "x"}, "b"]}}, "reset": [{"text": "{p.a}"}]},
            "reset[0].text: {p.a}: not every choice of p is a mapping with 'a'",
        ),
        ({"params": {"n": {"randint": [1, 2]}}, "instruction": "{n.a}"}, "instruction: {n.a}: n is a number"),
        ({"reset": [{"home": False}]}, "reset[0].home: Input should be True"),
        (
            {"success": {"node": {"text": "x"}, "present": False, "min_count": 1}},
            "success: a node condition is either present: false or counted",
        ),
        ({"success": {"foreground": {"activity_regex": "["}}}, "success.foreground.activity_regex: invalid regex"),
        (
            {
                "reward": {
                    "subgoals": [{"name": "a", "reward": 1, "when": {"shell": "x", "equals": "1", "matches": "1"}}]
                }
            },
            "reward.subgoals[0].when: a shell condition needs exactly one",
        ),
        ({"name": "has space"}, "name: String should match pattern"),
        (
            {"success": {"setting": {"namespace": "system", "key": "no spaces", "equals": "1"}}},
            "success.setting.key: String should match pattern",
        ),
        (
            {"success": {"setting": {"namespace": "system", "key": "k", "between": [9, 3]}}},
            "success.setting: between: low > high: [9.0, 3.0]",
        ),
        (
            {"success": {"setting": {"namespace": "system", "key": "k", "between": ["high", 3]}}},
            "success.setting.between[0].float: Input should be a valid number",
        ),
        (
            {"success": {"setting": {"namespace": "system", "key": "k", "equals": "1", "between": [1, 2]}}},
            "success.setting: a setting condition needs exactly one of equals, matches, in, between; got ['equals',",
        ),
    ],
)
def test_schema_errors_name_the_key_path(patch, message):
    with pytest.raises(TaskError) as info:
        parse_spec({**GOOD, **patch}, "my_task.yaml")
    first, *lines = str(info.value).splitlines()
    assert first == "my_task.yaml: invalid task"
    assert any(line.startswith(message) for line in lines), lines


def test_missing_success_and_non_mapping():
    with pytest.raises(TaskError, match="success: Field required"):
        parse_spec({"name": "t"})
    with pytest.raises(TaskError, match="a task must be a mapping"):
        parse_spec(["name", "t"])


def test_malformed_yaml_names_the_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("name: t\nsuccess: {shell: x\nreset: []\n")
    with pytest.raises(TaskError, match=r"broken.yaml: not valid YAML at line \d+"):
        load_spec(path)
    with pytest.raises(TaskError, match="cannot read the task file"):
        load_spec(tmp_path / "missing.yaml")


def test_unknown_task_name():
    with pytest.raises(TaskError, match="unknown task 'wifi-of': not a built-in"):
        AndroidEnv(VirtualDevice(), task="wifi-of")


def _env(tmp_path, reset, retries=1):
    spec = {**GOOD, "reset": reset, "reset_retries": retries}
    return AndroidEnv(VirtualDevice(width=360, height=800, density=160), task=spec, save_dir=tmp_path)


def test_a_failing_reset_step_is_retried_then_raises(tmp_path):
    env = _env(tmp_path, ["home", {"shell": "echo attempt >> /sdcard/log; false"}], retries=2)
    with pytest.raises(
        TaskError,
        match=r"task t: reset step 2 \(shell: 'echo attempt >> /sdcard/log; false'\)"
        r".*exited with 1.*gave up after 3 attempts",
    ):
        env.reset(seed=0)
    assert env.device.phone.fs.read("/sdcard/log") == b"attempt\n" * 3


def test_a_wait_that_times_out_names_the_step(tmp_path):
    env = _env(tmp_path, [{"wait": {"until": {"shell": "echo 0", "equals": "1"}, "timeout": 0.2}}], retries=0)
    with pytest.raises(TaskError, match=r"reset step 1 \(wait: .*\): the condition did not hold within 0.2 s"):
        env.reset(seed=0)


def test_launch_errors_and_missing_nodes_fail_the_reset(tmp_path):
    env = _env(tmp_path, [{"launch": {"component": "com.nope/.Main"}}], retries=0)
    with pytest.raises(TaskError, match="does not exist"):
        env.reset(seed=0)
    env = _env(tmp_path, [{"tap": {"node": {"text": "No such button"}}}], retries=0)
    with pytest.raises(TaskError, match="no UI node matches"):
        env.reset(seed=0)


def test_setup_runs_once_per_env(tmp_path):
    spec = {**GOOD, "setup": [{"shell": "echo x >> /sdcard/setup"}]}
    env = AndroidEnv(VirtualDevice(width=360, height=800, density=160), task=spec, save_dir=tmp_path)
    env.reset(seed=0)
    env.reset(seed=1)
    assert env.device.phone.fs.read("/sdcard/setup") == b"x\n"


def test_int_params_stay_ints_in_intent_extras(tmp_path):
    spec = {
        **GOOD,
        "params": {"n": {"randint": [3, 3]}},
        "reset": [
            {"launch": {"component": "com.androidrl.practice/.TargetActivity", "extras": {"grid": "{n}", "seed": 1}}}
        ],
    }
    env = AndroidEnv(VirtualDevice(width=360, height=800, density=160), task=spec, save_dir=tmp_path)
    env.reset(seed=0)
    assert any(c.endswith("--ei grid 3 --ei seed 1") for c in env.device.phone.command_log)


def test_number_params_fill_text_fields_and_braces_in_the_description_stay(tmp_path):
    spec = {
        **GOOD,
        "description": "set {target} on: braces here are text",
        "params": {"n": {"randint": [7, 7]}},
        "instruction": "{n}",
        "reset": [{"shell": "echo {n} > /sdcard/n"}],
    }
    env = AndroidEnv(VirtualDevice(width=360, height=800, density=160), task=spec, save_dir=tmp_path)
    _, info = env.reset(seed=0)
    assert info["instruction"] == "7" and info["params"]["n"] == 7
    assert env.device.phone.fs.read("/sdcard/n") == b"7\n"


def test_cli_lists_and_checks_tasks(tmp_path, capsys):
    assert main(["tasks"]) == 0
    out = capsys.readouterr().out
    assert "wifi-on" in out and "androidrl/WifiOn-v0" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nmax_steps: many\nsuccess: {shell: a, equals: b}\n")
    assert main(["tasks", "check", str(bad)]) == 1
    assert "max_steps: Input should be a valid integer" in capsys.readouterr().err
    good = tmp_path / "good.yaml"
    good.write_text("name: x\nsuccess: {shell: a, equals: b}\n")
    assert main(["tasks", "check", str(good)]) == 0

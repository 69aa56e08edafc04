"""Every bad input gets a clear error before any work starts (each row: the input, and the words that explain it).

The probe table (``tests/input_probes.py``: config keys of every section, flags of every command,
task fields, device strings, actions, YAML bombs...) runs each case in a child process and asks
for a clear answer: not a traceback, not a hang, not silent acceptance, not an unreadable wall.
"""

import math
import re
import time
from pathlib import Path

import numpy as np
import pytest
import yaml
from input_probes import BOMB, cases, make_workspace, run_case, warm_up

from androidrl import AndroidEnv, VirtualDevice
from androidrl.cli import main as cli_main
from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.errors import TaskError
from androidrl.tasks.registry import make_task
from androidrl.tasks.spec import parse_spec
from androidrl.train.config import ConfigError, load_config, parse_config
from androidrl.train.runs import Run
from androidrl.virtual.phone import VirtualPhone
from androidrl.wrappers import DiscreteGridAction, MultiDiscreteAction

GOOD = {"task": "tap-target"}


@pytest.fixture(scope="module")
def probe_workspace(tmp_path_factory):
    workspace = make_workspace(tmp_path_factory.mktemp("probes"))
    warm_up(workspace)  # (each case forks from this process: imports done once)
    return workspace


@pytest.mark.parametrize("case", cases(), ids=lambda case: f"{case.kind}:{case.id}")
def test_every_probe_of_a_bad_input_gets_a_clear_answer(case, probe_workspace):
    outcome = run_case(case, probe_workspace)
    assert outcome.verdict == "clear", f"{case.kind} {case.id!r} ({case.expect!r} expected): {outcome}"


def test_a_billion_laughs_anywhere_in_a_config_is_refused_before_it_expands(tmp_path):
    # (inside features_extractor_kwargs it passed the depth check, and the config's dump expanded it: 5.3 GB)
    config = tmp_path / "bomb.yaml"
    config.write_text(
        "task: tap-target\nalgo: {policy_kwargs: {features_extractor: stable_baselines3.common.torch_layers.NatureCNN, "
        f"features_extractor_kwargs: {BOMB}}}}}\n"
    )
    started = time.monotonic()
    with pytest.raises(ConfigError, match=r"bomb.yaml: its aliases \(\*name\) repeat its values 1,234,567,905 times"):
        load_config(config)
    assert time.monotonic() - started < 10  # (a bound on the work, not a benchmark: expanding takes minutes)
    shared = [list(range(10))] * 10
    for _ in range(6):
        shared = [shared] * 10  # a Python mapping repeats objects just as aliases do
    with pytest.raises(ConfigError, match="its aliases"):
        parse_config({**GOOD, "algo": {"hyperparams": {"x": shared}}})


def test_an_error_about_200000_keys_prints_a_screenful(tmp_path):
    config = tmp_path / "keys.yaml"
    config.write_text("task: tap-target\n" + "".join(f"k{i}: 1\n" for i in range(200_000)))
    with pytest.raises(ConfigError) as info:
        load_config(config)
    lines = str(info.value).splitlines()
    assert lines[1:3] == ["k0: unknown key", "k1: unknown key"] and lines[-1] == "... and 199,980 more"
    assert len(lines) == 22


def test_aliases_of_one_phone_are_refused_before_two_workers_drive_it():
    for first, second in [
        ("127.0.0.1:6501", "localhost:6501"),
        ("emulator-5554", "127.0.0.1:5555"),  # the emulator's adbd is its console port + 1 on the loopback
        ("tcp:127.0.0.1:6501", "[::1]:6501"),
    ]:
        with pytest.raises(ValueError, match=f"devices {re.escape(first)} and {re.escape(second)} are one phone"):
            parse_devices([first, second])
        with pytest.raises(ConfigError, match="devices.serials: devices .* are one phone"):
            parse_config({**GOOD, "devices": {"serials": [first, second]}, "training": {"eval_freq": 0}})
    assert [s.serial for s in parse_devices(["127.0.0.1:6501", "127.0.0.1:6502", "emulator-5556"])] == [
        "127.0.0.1:6501",
        "127.0.0.1:6502",
        "emulator-5556",
    ]


@pytest.mark.parametrize("weight", [math.inf, math.nan, -1.0, 1e308])
def test_a_suite_weight_that_is_not_a_finite_number_is_refused(weight):
    # (.inf was accepted, and every worker failed drawing from NaN probabilities until the run stopped)
    with pytest.raises(ConfigError, match=r"task\[1\]\.weight"):
        parse_config({**GOOD, "task": ["open-app", {"name": "tap-target", "weight": weight}]})
    with pytest.raises(TaskError, match="suite weights must be one finite"):
        weights = [{"name": "tap-target", "weight": weight}, {"name": "wifi-on", "weight": 1e308}]
        make_task({"suite": ["open-app", *weights]})


def test_a_dict_action_missing_its_coordinates_taps_nothing():
    # ({"action_type": 2} tapped (0, 0): a default coordinate for a tap is no coordinate at all)
    device = VirtualDevice(width=360, height=800, density=160)
    env = AndroidEnv(device)
    env.reset(seed=0)
    device.phone.command_log.clear()
    for action, missing in [({"action_type": 2}, "coord"), ({"action_type": 6, "coord": [5, 5]}, "tgt_coord")]:
        with pytest.raises(ValueError, match=f"needs {missing}, which it was not given"):
            env.step(action)
    assert not [line for line in device.phone.command_log if "input" in line]
    env.step({"action_type": 2, "coord": [10, 20]})
    assert any("input tap 10 20" in line for line in device.phone.command_log)
    env.close()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "the config is empty; start from one in configs/"),
        ({"observation": {"shape": [100000, 100000]}}, "observation.shape: ScreenshotObservation shape"),
        (
            {"algo": {"hyperparams": {"learning_rate": -1}}},
            "algo.hyperparams.learning_rate: expected a number in (0, 1]",
        ),
        ({"algo": {"hyperparams": {"learning_rate": "lin_-1"}}}, "learning_rate: expected a number in (0, 1]"),
        ({"algo": {"hyperparams": {"gamma": 5}}}, "algo.hyperparams.gamma: expected a number in (0, 1], got 5"),
        ({"algo": {"hyperparams": {"ent_coef": -0.1}}}, "algo.hyperparams.ent_coef: expected a number in [0, 10]"),
        ({"algo": {"policy": "CnnPolicyy"}}, "algo.policy: PPO has no policy 'CnnPolicyy'; choose from"),
        ({"algo": {"device": "banana"}}, "algo.device: String should match pattern"),
        ({"algo": {"device": "cuda"}}, "algo.device: 'cuda' is not available on this machine"),
        ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
        ({"training": {"total_timesteps": 1e30}}, "training.total_timesteps: Unable to parse"),
        ({"training": {"total_timesteps": 10**12}}, "training.total_timesteps: Input should be less than"),
        (
            {"devices": {"virtual": {"width": 200000}}},
            "devices.virtual: screen must be 64-4096 pixels a side (a bigger frame would not fit in memory), "
            "got 200000x800",
        ),
        ({"devices": {"serials": ["virtual:0x0"]}}, "devices.serials: bad virtual device 'virtual:0x0'"),
        ({"devices": {"serials": ["virtual:100000x100000"]}}, "bad virtual device 'virtual:100000x100000'"),
        ({"devices": {"serials": ["emulator-5554\nx"]}}, "no spaces or control characters"),
        ({"action": {"rows": 100000}}, "action.rows: Input should be less than or equal to 1000"),
        ({"action": {"type": "ui_elements", "max_elements": 5000}}, "action.max_elements: Input should be less than"),
        ({"action": {"texts": ["héllo"]}}, "action.texts: cannot type 'é'"),
        ({"observation": {"shape": [512, 512]}, "algo": {"hyperparams": {"n_steps": 60000}}}, "GiB available"),
    ],
)
def test_bad_configs_are_clear_errors(data, message):
    with pytest.raises(ConfigError) as info:
        parse_config({**GOOD, **data} if data else data, "bad.yaml")
    assert message in str(info.value), str(info.value)


def test_bad_config_files_are_clear_errors(tmp_path):
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(ConfigError, match="is not a UTF-8 text file"):
        load_config(binary)
    twice = tmp_path / "twice.yaml"
    twice.write_text("task: tap-target\nseed: 1\nseed: 2\n")
    with pytest.raises(ConfigError, match="the key 'seed' is written twice in one mapping"):
        load_config(twice)
    deep = tmp_path / "deep.yaml"
    deep.write_text(yaml.safe_dump({"task": "tap-target", "algo": {"hyperparams": {"x": _nested(50)}}}))
    with pytest.raises(ConfigError, match="nests more than 32 levels deep"):
        load_config(deep)


@pytest.mark.parametrize("depth", [33, 600, 5000])
def test_yaml_nested_hundreds_deep_is_a_clear_error_not_a_recursion_error(tmp_path, capsys, depth):
    # (PyYAML composes recursively: ~500 levels exhausted Python's stack before the depth was checked)
    config = tmp_path / "deep.yaml"
    config.write_text("task: tap-target\nalgo:\n  hyperparams:\n    x: " + "[" * depth + "1" + "]" * depth + "\n")
    with pytest.raises(ConfigError, match="deep.yaml: nests more than 32 levels deep"):
        load_config(config)
    task = tmp_path / "task.yaml"
    task.write_text("name: t\nsuccess: " + "{not: " * depth + "{shell: echo 1, equals: '1'}" + "}" * depth + "\n")
    assert cli_main(["tasks", "check", str(task)]) == 1
    err = capsys.readouterr().err
    assert "task.yaml: nests more than 32 levels deep" in err and "Traceback" not in err


def test_an_unwritable_run_dir_is_an_error_before_any_work():
    config = parse_config({**GOOD, "run_dir": "/dev/null/runs"})
    with pytest.raises(ConfigError, match="run_dir: cannot write the run directory /dev/null/runs"):
        Run.create(config)


def _nested(depth: int) -> dict:
    condition: dict = {"shell": "echo 1", "equals": "1"}
    for _ in range(depth):
        condition = {"not": condition}
    return condition


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"success": _nested(400)}, "nests more than 32 levels deep"),
        ({"reset": [{"key": "NOSUCHKEY"}]}, "reset[0]: unknown key 'NOSUCHKEY'"),
        ({"reset": [{"text": "héllo"}]}, "reset[0]: cannot type 'é'"),
    ],
)
def test_bad_task_specs_are_clear_errors(spec, message):
    with pytest.raises(TaskError) as info:
        parse_spec({"name": "t", "success": {"shell": "echo 1", "equals": "1"}, **spec})
    assert message in str(info.value)


def test_tasks_check_catches_what_reset_would_refuse(tmp_path, capsys):
    path = tmp_path / "task.yaml"
    path.write_text(yaml.safe_dump({"name": "t", "reset": [{"key": "NOSUCHKEY"}], "success": {"shell": "true"}}))
    assert cli_main(["tasks", "check", str(path)]) == 1
    assert "unknown key 'NOSUCHKEY'" in capsys.readouterr().err


@pytest.mark.parametrize("action", [None, 2.5, "1", True, np.array([1, 2]), np.float32(1.0)])
def test_discrete_actions_that_are_not_ints_are_refused(action):
    env = DiscreteGridAction(AndroidEnv(VirtualDevice(width=360, height=800, density=160)), rows=3, cols=3)
    with pytest.raises(TypeError, match=r"a Discrete\(\d+\) action is an int"):
        env.action(action)
    assert env.action(np.array([4])).action_type.name == "SYSTEM_TAP"  # (a one-element integer array is one)


@pytest.mark.parametrize("action", [None, [0.5, 1, 1], np.array([True, True, False]), [0, 1]])
def test_multidiscrete_actions_that_are_not_int_triples_are_refused(action):
    env = MultiDiscreteAction(AndroidEnv(VirtualDevice(width=360, height=800, density=160)), rows=3, cols=3)
    with pytest.raises(ValueError, match=r"action must be \[type, row, col\]"):
        env.action(action)


@pytest.mark.parametrize("text", ["virtual:0x0", "virtual:100000x100000", "virtual:360x800@5", "a b", "emu\nlator"])
def test_bad_device_strings_are_refused(text):
    with pytest.raises(ValueError, match="bad virtual device|no spaces or control characters"):
        DeviceSpec.parse(text)


@pytest.mark.parametrize(("width", "height"), [(4097, 800), (1080, 4097), (63, 800), (200000, 100000)])
def test_virtual_screens_too_big_to_hold_are_refused_before_any_work(capsys, width, height):
    message = f"screen must be 64-4096 pixels a side (a bigger frame would not fit in memory), got {width}x{height}"
    with pytest.raises(ValueError, match=re.escape(message)):
        VirtualPhone(width, height, 420)
    with pytest.raises(ValueError, match=re.escape(message)):
        VirtualDevice(width=width, height=height, density=420)  # at once, though its phone is made later
    assert cli_main(["virtual", "--width", str(width), "--height", str(height), "--port", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"androidrl virtual: {message}"
    assert cli_main(["rollout", "--width", str(width), "--height", str(height), "--steps", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"androidrl rollout: {message}"


@pytest.mark.parametrize(
    ("width", "height", "density", "message"),
    [
        (4097, 800, 160, "screen must be 64-4096 pixels a side (a bigger frame would not fit in memory), got 4097x800"),
        (360, 800, 2000, "density must be 72-1000 dpi, got 2000"),
        (360, 800, 50, "density must be 72-1000 dpi, got 50"),
    ],
)
def test_every_way_to_make_a_screen_accepts_and_refuses_the_same_screens(capsys, width, height, density, message):
    # One definition of a screen's bounds: the phone, device strings, configs and the command line agree.
    with pytest.raises(ValueError, match=re.escape(message)):
        VirtualPhone(width, height, density)
    with pytest.raises(ValueError, match=re.escape(message)):
        DeviceSpec.parse(f"virtual:{width}x{height}@{density}")
    with pytest.raises(ConfigError, match=re.escape(f"devices.virtual: {message}")):
        parse_config({**GOOD, "devices": {"virtual": {"width": width, "height": height, "density": density}}})
    assert cli_main(["virtual", "--width", str(width), "--height", str(height), "--density", str(density)]) == 2
    assert capsys.readouterr().err.strip() == f"androidrl virtual: {message}"


def test_a_set_value_nested_hundreds_deep_is_a_clear_error():
    deep = "[" * 1000 + "1" + "]" * 1000
    with pytest.raises(ConfigError, match=r"--set 'seed=\[\[.*\.\.\.': nests more than \d+ levels deep"):
        load_config(Path(__file__).parents[1] / "configs" / "quickstart.yaml", [f"seed={deep}"])


def test_the_shipped_configs_still_load():
    for path in sorted(Path(__file__).parents[1].joinpath("configs").glob("*.yaml")):
        load_config(path)


def test_comparing_runs_across_seeds_skips_a_sibling_whose_config_is_not_one(tmp_path):
    from androidrl.train.analysis import seed_runs

    for name, text in [
        ("mine", "task: tap-target\nseed: 0\n"),
        ("seed1", "task: tap-target\nseed: 1\n"),
        ("a-list", "- not\n- a config\n"),  # (it ended the comparison with an AttributeError)
        ("a-bomb", f"task: tap-target\nseed: 2\nx: {BOMB}\n"),
        ("not-yaml", "task: [\n"),
    ]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.yaml").write_text(text)
    assert {p.name for p in seed_runs(tmp_path / "mine")} == {"mine", "seed1"}

"""Training configs: good files load, bad ones name the key path and the fix, before any work."""

import os
from pathlib import Path

import pytest
import torch

from androidrl.train.compose import set_torch_threads
from androidrl.train.config import ConfigError, hyperparams, load_config, parse_config

CONFIGS = sorted(Path(__file__).parents[1].joinpath("configs").glob("*.yaml"))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_are_valid(path):
    config = load_config(path)
    assert (config.n_envs is None or config.n_envs >= 1) and config.training.total_timesteps > 0


def test_numbers_are_coerced_and_schedules_resolved():
    config = parse_config(
        {
            "algo": {
                "hyperparams": {"learning_rate": "3e-4", "n_steps": "128", "batch_size": 64, "clip_range": "lin_0.2"}
            }
        }
    )
    assert config.algo.hyperparams["learning_rate"] == pytest.approx(3e-4)
    assert config.algo.hyperparams["n_steps"] == 128
    params = hyperparams(config)
    assert params["clip_range"](0.5) == pytest.approx(0.1) and params["clip_range"](1.0) == pytest.approx(0.2)


def test_overrides_on_the_command_line():
    config = parse_config(
        {},
        overrides=[
            "training.total_timesteps=2000",
            "algo.hyperparams.gamma=0.9",
            "devices.virtual.count=3",
            "observation.shape=[64, 40]",
        ],
    )
    assert config.training.total_timesteps == 2000 and config.algo.hyperparams["gamma"] == 0.9
    assert config.n_envs == 3 and config.observation.shape == (64, 40)


@pytest.mark.parametrize(
    ("data", "overrides", "message"),
    [
        ({"algo": {"policy_kwargs": {"net_arc": [64]}}}, [], "algo.policy_kwargs.net_arc: unknown key"),
        ({"trainig": {}}, [], "trainig: unknown key"),
        ({"training": {"total_timesteps": "lots"}}, [], "training.total_timesteps: Input should be a valid integer"),
        ({"algo": {"hyperparams": {"n_steps": -5}}}, [], "algo.hyperparams.n_steps: expected a positive int, got -5"),
        (
            {"algo": {"hyperparams": {"n_step": 128}}},
            [],
            "PPO takes no hyperparameter 'n_step' (did you mean n_steps?)",
        ),
        (
            {"algo": {"hyperparams": {"n_steps": 100, "batch_size": 64}}},
            [],
            "batch_size: 64 does not divide n_steps * n_envs = 100 * 2 = 200",
        ),
        ({"algo": {"hyperparams": {"learning_rate": "fast"}}}, [], "a schedule is written lin_<start>"),
        ({"algo": {"hyperparams": {"learning_rate": "lin_."}}}, [], "a schedule is written lin_<start>"),
        ({"algo": {"hyperparams": {"learning_rate": "lin_1e"}}}, [], "a schedule is written lin_<start>"),
        ({"algo": {"hyperparams": {"gamma": "lin_0.9"}}}, [], "algo.hyperparams.gamma: expected a number"),
        ({"algo": {"name": "DQN"}, "action": {"type": "box"}}, [], "\nalgo.name: DQN needs a Discrete action space"),
        ({"algo": {"name": "MaskablePPO"}}, [], "\nalgo.name: MaskablePPO needs action masks; set action.type to"),
        ({"algo": {"name": "PPO2"}}, [], "algo.name: Input should be 'PPO', 'A2C', 'DQN', 'SAC', 'TD3',"),
        (
            {"devices": {"serials": ["emulator-5554", "emulator-5554"]}, "training": {"eval_freq": 0}},
            [],
            "\ndevices.serials: device emulator-5554 is listed twice",
        ),
        ({"devices": {"serials": ["virtual:big"]}}, [], "\ndevices.serials: bad virtual device 'virtual:big'"),
        ({"devices": {"serials": ["emulator-5554"]}}, [], "\ntraining.eval_freq: evaluating needs phones"),
        ({"action": {"region": [0.5, 0, 0.2, 1]}}, [], "\naction.region: region must satisfy 0 <= left < right"),
        (
            {"action": {"type": "multidiscrete", "types": ["tap", "fly"]}},
            [],
            "\naction.types: unknown action types ['fly']",
        ),
        ({"action": {"type": "ui_elements", "rows": 3}}, [], "\naction.rows: unknown key"),  # not a setting of it
        ({"action": {"rows": 0}}, [], "\naction.rows: Input should be greater than or equal to 1"),
        ({"action": {"texts": ["héllo"]}}, [], "\naction.texts: cannot type 'é'"),
        ({}, ["observation.shape=[1,"], "--set 'observation.shape=[1,': not valid YAML at line 1"),
        ({"devices": {"serials": ["a"], "virtual": {"count": 1}}}, [], "give one of serials"),
        ({"task": "no-such-task"}, [], "task: unknown task 'no-such-task'"),
        ({}, ["training.total_timesteps"], "expected key.path=value"),
        ({"seed": 1}, ["seed.value=3"], "seed is not a mapping"),
        ({"observation": {"shape": [84]}}, [], "observation.shape"),
        ({"algo": {"hyperparams": {"verbose": 1}}}, [], "verbose is not a hyperparameter here: set algo.verbose"),
        ({"algo": {"hyperparams": {"seed": 1}}}, [], "seed is not a hyperparameter here: set seed, at the top"),
        ({"algo": {"verbose": 3}}, [], "algo.verbose: Input should be less than or equal to 2"),
    ],
)
def test_bad_configs(data, overrides, message):
    with pytest.raises(ConfigError) as info:
        parse_config(data, "bad.yaml", overrides)
    assert message in str(info.value) and "(top level)" not in str(info.value)


def test_a_failed_override_leaves_the_data_alone():
    data = {"observation": {"shape": [84, 84]}}
    with pytest.raises(ConfigError):
        parse_config(data, overrides=["observation.grayscale=true", "observation.shape.h=3"])
    assert data == {"observation": {"shape": [84, 84]}}


def test_file_errors(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the config"):
        load_config(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("algo: {name: PPO\n")
    with pytest.raises(ConfigError, match=r"not valid YAML at line \d"):
        load_config(broken)


def test_shipped_configs_load_by_name_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_config("quickstart").experiment == load_config("quickstart.yaml").experiment == "quickstart"
    with pytest.raises(ConfigError, match="no shipped config of that name .*quickstart"):
        load_config("quickstrat")


def test_torch_gets_the_cores_the_env_workers_leave_free():
    before = torch.get_num_threads()
    try:
        config = parse_config({"devices": {"virtual": {"count": 2}}})
        assert set_torch_threads(config) == max(1, (os.cpu_count() or 1) - 2) == torch.get_num_threads()
        config = parse_config({"devices": {"virtual": {"count": 2}}, "algo": {"torch_threads": 3}})
        assert set_torch_threads(config) == 3 == torch.get_num_threads()
        with pytest.raises(ConfigError, match="algo.torch_threads"):
            parse_config({"algo": {"torch_threads": 0}})
    finally:
        torch.set_num_threads(before)


def test_the_emulators_config_takes_the_adb_port_from_the_environment(monkeypatch):
    # ANDROID_ADB_SERVER_PORT, as adb itself, not a hard-coded 5037
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", "5099")
    config = load_config("emulators")
    assert config.devices.adb.port is None
    device = config.devices.specs()[0].make_device()
    assert device.serial == "emulator-5554" and device.client.port == 5099

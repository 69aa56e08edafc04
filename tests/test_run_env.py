"""A run rebuilds its env: ``androidrl.make_env(run_dir)`` (the README's three lines), gym ids with a config's
settings, and a model that does not fit its env named with both spaces."""

import re
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from stable_baselines3 import PPO
from stable_baselines3.common.evaluation import evaluate_policy

import androidrl
from androidrl.errors import ConfigError
from androidrl.train.compose import run_spec, wrapper_settings
from androidrl.train.config import parse_config
from androidrl.train.evaluation import check_spaces, evaluate
from androidrl.train.runs import Run
from androidrl.train.training import train

from conftest import tiny_config

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[1]
CONFIG = tiny_config(
    action={"swipes": False, "back": False, "home": False},
    wrappers=[{"gymnasium.wrappers.ClipReward": {"min_reward": -1, "max_reward": 1}}],
    env={"max_steps": 8},
)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return train(Run.create(parse_config(CONFIG), tmp_path_factory.mktemp("runs") / "tiny")).run


def test_the_readme_evaluates_a_run_in_three_lines(run):
    readme = (ROOT / "README.md").read_text()
    (snippet,) = [b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "androidrl.make_env(" in b]
    code = snippet.replace("runs/quickstart-20261122-101500", str(run.directory))
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 (the README's own code, as a user runs it)
    mean_return, std_return = namespace["mean_return"], namespace["std_return"]
    assert -1.0 <= mean_return <= 1.0 and std_return >= 0


def test_make_env_is_the_runs_env_and_gives_the_same_episodes_as_evaluate(run):
    env = androidrl.make_env(run.directory)
    model = PPO.load(run.final_model, env=env)  # SB3 checks the spaces: they fit
    first = evaluate(model, env, 3)
    env.close()
    again = androidrl.make_env(run.directory)
    assert [r.ret for r in evaluate(model, again, 3)] == [r.ret for r in first]  # seeded: the same episodes
    again.close()


def test_one_env_of_the_run_rebuilds_from_its_spec(run):
    env = androidrl.make_env(run.directory, vector=False)
    rebuilt = gym.make(env.spec)
    try:
        assert env.observation_space == rebuilt.observation_space == gym.spaces.Box(0, 255, (84, 40, 3), np.uint8)
        assert env.action_space == rebuilt.action_space == gym.spaces.Discrete(9)
        assert "ClipReward" in str(rebuilt)  # the config's own wrappers too
        model = PPO.load(run.final_model)
        mean_return, _ = evaluate_policy(model, env, n_eval_episodes=2)
        assert -1.0 <= mean_return <= 1.0
    finally:
        env.close()
        rebuilt.close()


def test_gym_ids_take_the_same_settings_as_a_config(run):
    config = run.config
    env = gym.make("androidrl/TapTargetPixels-v0", width=360, height=800, density=160, **wrapper_settings(config))
    spec_env = gym.make(run_spec(config, config.devices.specs()[0]))
    try:
        assert env.observation_space == spec_env.observation_space
        assert env.action_space == spec_env.action_space == gym.spaces.Discrete(9)
    finally:
        env.close()
        spec_env.close()
    default = gym.make("androidrl/TapTargetPixels-v0", width=360, height=800, density=160)
    assert default.action_space == gym.spaces.Discrete(42)  # the wrappers' own defaults: 8x4 taps, 8 swipes, back, home
    default.close()
    with pytest.raises(ValueError, match="action type must be one of"):
        gym.make("androidrl/TapTargetPixels-v0", action={"type": "joystick"})
    with pytest.raises(ValueError, match="frame_stack 4: frames are stacked across a vector env"):
        gym.make("androidrl/TapTargetPixels-v0", observation={"frame_stack": 4})


def test_a_model_on_an_env_it_was_not_trained_for_is_an_error_naming_both_spaces(run):
    model = PPO.load(run.final_model)
    other = gym.make("androidrl/TapTargetPixels-v0", width=360, height=800, density=160,
                     observation={"shape": [84, 40]})  # fmt: skip
    try:
        with pytest.raises(
            ValueError, match=r"trained on the action space Discrete\(9\), but the env has Discrete\(42\)"
        ):
            check_spaces(model, other)
    finally:
        other.close()


def test_evaluating_another_runs_checkpoint_names_both_spaces(run, tmp_path):
    wide = {**CONFIG, "action": {**CONFIG["action"], "rows": 4}, "training": {**CONFIG["training"], "eval_freq": 0}}
    other = train(Run.create(parse_config(wide), tmp_path / "wide")).run
    done = subprocess.run(
        [sys.executable, "-m", "androidrl", "evaluate", "--run", str(run.directory), "--checkpoint",
         str(other.final_model), "--episodes", "1"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 1 and "Discrete(12)" in done.stderr and "Discrete(9)" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_make_env_says_what_is_wrong(tmp_path, run):
    with pytest.raises(ConfigError, match="does not exist"):
        androidrl.make_env(tmp_path / "nope")
    phones = Run.create(parse_config({**CONFIG, "devices": {"serials": ["emulator-5554"]}, "training": {
        **CONFIG["training"], "eval_freq": 0}}), tmp_path / "phones")  # fmt: skip
    with pytest.raises(ConfigError, match="the run trained on phones: say which devices to play on"):
        androidrl.make_env(phones.directory)

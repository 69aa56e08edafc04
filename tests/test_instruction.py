"""Instructions in the observation, task suites, and the tokenizer."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from androidrl import AndroidEnv, TaskError, VirtualDevice
from androidrl.tasks import make_task
from androidrl.tasks.suite import TaskSuite
from androidrl.wrappers import HashTokenizer, InstructionObservation, ScreenshotObservation

CONFIGS = Path(__file__).parents[1] / "configs"
SUITE = ["wifi-on", "wifi-off", "bluetooth-on", "bluetooth-off"]


def _env(task, **kwargs):
    android = AndroidEnv(VirtualDevice(width=360, height=800, density=160), task, screen_size=(360, 800))
    return InstructionObservation(ScreenshotObservation(android, shape=(84, 40)), **kwargs)


def test_the_observation_holds_the_screen_the_instruction_and_the_goal():
    env = _env("open-app", max_tokens=6)
    assert set(env.observation_space.spaces) == {"screen", "instruction", "goal"}
    assert env.observation_space["goal"].nvec.tolist() == [3]  # open-app's app is one of three
    seen = {}
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["instruction"], HashTokenizer(1024, 6)(info["instruction"]))
        seen[info["params"]["app"]["label"]] = int(obs["goal"][0])
    assert seen == {"Settings": 0, "Clock": 1, "Contacts": 2}  # the goal is the choice's index
    obs, *_ = env.step({"action_type": 0})
    assert np.array_equal(obs["instruction"], HashTokenizer(1024, 6)(info["instruction"]))  # kept all episode
    env.close()


def test_structured_fields_come_as_rows_of_tokens_when_asked():
    env = _env(make_task({"family": "notes-word", "tier": "hard"}), fields=2, field_tokens=3)
    assert env.observation_space["fields"].shape == (2, 3) and "fields" not in _env("notes-word").observation_space
    obs, info = env.reset(seed=0)
    assert (
        np.array_equal(obs["fields"][0], HashTokenizer(1024, 3)(info["fields"]["word"])) and not obs["fields"][1].any()
    )
    with pytest.raises(ValueError, match="fields must be an int in 0..16, got 17"):
        _env("notes-word", fields=17)


def test_the_tokenizer_needs_no_vocabulary_and_pads_with_zero():
    tokens = HashTokenizer(vocab_size=64, max_tokens=5)
    ids = tokens("Open Clock")
    assert ids.dtype == np.int64 and ids[2:].tolist() == [0, 0, 0] and ids[:2].min() >= 1 and ids.max() < 64
    assert np.array_equal(tokens("open, CLOCK!"), ids)  # words, not spelling
    assert tokens("Open a never seen app").any()  # unseen words still get ids
    assert tokens.settings() == {"kind": "hashed-words", "hash": "crc32", "vocab_size": 64, "max_tokens": 5}


def test_a_too_short_token_length_warns_with_the_length_needed():
    env = _env("airplane-clock", max_tokens=3)  # "Turn on airplane mode, then open Clock": 7 words
    with pytest.warns(UserWarning, match="has 7 words but max_tokens is 3.*set max_tokens to 7"):
        env.reset(seed=0)
    env.close()


def test_a_task_without_an_instruction_is_refused():
    spec = {"name": "silent", "success": {"shell": "echo 1", "equals": "1"}}
    with pytest.raises(ValueError, match="task 'silent' has none"):
        _env(spec)


def test_suites_draw_tasks_from_the_seeded_rng_and_cover_every_task():
    def draws(seed):
        env = _env(SUITE)
        names = [env.reset(seed=seed + i)[1]["task"] for i in range(24)]
        env.close()
        return names

    first = draws(0)
    assert first == draws(0) and set(first) == set(SUITE)
    env = _env(SUITE)
    obs, info = env.reset(seed=0, options={"task": "bluetooth-off"})
    assert info["task"] == "bluetooth-off" and info["instruction"] == "Turn off Bluetooth"
    assert int(obs["goal"][0]) == SUITE.index("bluetooth-off") and env.unwrapped.max_steps == 30
    *_, info = env.step({"action_type": 0})
    assert info["task"] == "bluetooth-off"
    env.close()


def test_an_evaluation_suite_takes_its_tasks_in_turn():
    suite = make_task({"suite": SUITE, "cycle": True})
    rng = np.random.default_rng(0)
    assert isinstance(suite, TaskSuite) and [suite.choose(None, rng).name for _ in range(8)] == SUITE * 2


def test_bad_suites_are_clear_errors():
    with pytest.raises(TaskError, match="unknown task 'wifi-of': not a built-in"):
        make_task(["wifi-on", "wifi-of"])
    with pytest.raises(TaskError, match="different names"):
        make_task(["wifi-on", "wifi-on"])
    with pytest.raises(TaskError, match="weight is a number"):
        make_task([{"name": "wifi-on", "weight": "often"}])
    env = AndroidEnv(VirtualDevice(width=360, height=800, density=160), "wifi-on")
    with pytest.raises(ValueError, match="needs a task suite"):
        env.reset(options={"task": "wifi-off"})


def test_the_instruction_env_passes_gymnasiums_checker():
    env = _env("open-app")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    env.close()


def test_a_run_keeps_its_tokenizer_settings(tmp_path):
    from androidrl.train.config import load_config
    from androidrl.train.runs import Run

    config = load_config(CONFIGS / "open_app.yaml", ["observation.instruction.max_tokens=5"])
    run = Run.create(config, tmp_path / "run", ["train"])
    settings = json.loads((run.directory / "tokenizer.json").read_text())
    assert settings == {"kind": "hashed-words", "hash": "crc32", "vocab_size": 1024, "max_tokens": 5}
    again = HashTokenizer(vocab_size=settings["vocab_size"], max_tokens=settings["max_tokens"])
    assert np.array_equal(again("Open Clock"), _env("open-app", max_tokens=5).tokenizer("Open Clock"))
    blind = Run.create(load_config(CONFIGS / "quickstart.yaml"), tmp_path / "blind", ["train"])
    assert not (blind.directory / "tokenizer.json").exists()

"""An open config: your own wrappers, callbacks and extractors by import path (a run's own only when trusted), env
kwargs, SAC/TD3/QR-DQN."""

import re
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

import androidrl
from androidrl.cli import main as cli_main
from androidrl.train import analysis
from androidrl.train.compose import make_model, template_env
from androidrl.train.config import ConfigError, parse_config
from androidrl.train.evaluation import evaluate_run, load_run_model
from androidrl.train.runs import Run
from androidrl.train.training import train

from conftest import tiny_config

BASE = tiny_config(
    experiment="open",
    observation={"shape": [64, 36]},
    algo={"hyperparams": {"n_steps": 32, "batch_size": 64, "n_epochs": 1}},
)


def config(**changes):
    data = {**BASE, **changes}
    return parse_config(data)


@pytest.mark.slow
def test_own_wrappers_callbacks_and_extractor_are_used(tmp_path):
    cfg = config(
        wrappers=[{"gymnasium.wrappers.ClipReward": {"min_reward": -0.1, "max_reward": 0.1}}],
        training={
            **BASE["training"],
            "total_timesteps": 100_000,
            "callbacks": [{"stable_baselines3.common.callbacks.StopTrainingOnMaxEpisodes": {"max_episodes": 3}}],
        },
        algo={
            **BASE["algo"],
            "policy_kwargs": {
                "features_extractor": "stable_baselines3.common.torch_layers.NatureCNN",
                "features_extractor_kwargs": {"features_dim": 32},
            },
        },
    )
    result = train(Run.create(cfg, tmp_path / "run"))
    assert result.timesteps < 100_000  # the callback stopped it (3 episodes per env)
    env = template_env(cfg)
    assert "<ClipReward<DiscreteGridAction<ScreenshotObservation<" in str(env.envs[0])  # after androidrl's own
    env.close()
    # The learner's rewards are clipped; the Monitor, first as in SB3's make_vec_env, keeps the task's.
    assert analysis.monitor_episodes(result.run.directory)
    model = load_run_model(result.run)
    assert type(model.policy.features_extractor).__name__ == "NatureCNN"
    assert model.policy.features_extractor.features_dim == 32


@pytest.mark.slow
def test_env_kwargs_pass_through(tmp_path):
    result = train(Run.create(config(env={"max_steps": 3}), tmp_path / "run"))
    episodes = analysis.monitor_episodes(result.run.directory)
    assert episodes and max(e["length"] for e in episodes) <= 3


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"wrappers": ["no_such_module.Wrapper"]}, "wrappers.0: cannot import 'no_such_module'"),
        ({"wrappers": ["gymnasium.wrappers.NoSuchWrapper"]}, "gymnasium.wrappers has nothing named 'NoSuchWrapper'"),
        ({"wrappers": ["gymnasium.Env"]}, "wrappers.0: gymnasium.Env is not a gymnasium.core.Wrapper"),
        ({"wrappers": ["Wrapper"]}, "'Wrapper' is not an import path"),
        (
            {"wrappers": [{"gymnasium.wrappers.ClipReward": {"max_rewrd": 1}}]},
            "unexpected keyword argument 'max_rewrd'",
        ),
        ({"wrappers": [{"gymnasium.wrappers.ClipReward": {"env": 1}}]}, "env is passed by androidrl"),
        ({"wrappers": [["a", "b"]]}, "expected an import path"),
        (
            {"training": {"callbacks": ["gymnasium.wrappers.ClipReward"]}},
            "training.callbacks.0: gymnasium.wrappers.ClipReward is not a stable_baselines3",
        ),
        (
            {"training": {"callbacks": ["stable_baselines3.common.callbacks.StopTrainingOnMaxEpisodes"]}},
            "missing a required argument: 'max_episodes'",
        ),
        (
            {"algo": {"policy_kwargs": {"features_extractor": "torch.nn.Linear"}}},
            "features_extractor: torch.nn.Linear is not a stable_baselines3",
        ),
        ({"env": {"bogus": 1}}, "env.bogus: unknown key"),
        ({"env": {"screen_size": [1, 2]}}, "env.screen_size: unknown key"),
        ({"env": {"max_steps": 0}}, "env.max_steps"),
        ({"env": {"reset_timeout": "soon"}}, "env.reset_timeout"),
        ({"algo": {"name": "SAC"}}, "SAC needs a continuous (Box) action space; set action.type to box"),
        ({"algo": {"name": "TD3"}}, "TD3 needs a continuous (Box) action space"),
        ({"algo": {"name": "QRDQN"}, "action": {"type": "box"}}, "QRDQN needs a Discrete action space"),
    ],
)
def test_bad_plugins_and_kwargs_are_named_before_anything_runs(changes, message):
    with pytest.raises(ConfigError) as info:
        parse_config({**BASE, **changes}, "bad.yaml")
    assert message in str(info.value)


OFF_POLICY = {"buffer_size": 400, "learning_starts": 32, "batch_size": 16, "train_freq": 8, "gradient_steps": 2}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "action", "hyperparams"),
    [
        ("SAC", {"type": "box"}, OFF_POLICY),
        ("TD3", {"type": "box"}, OFF_POLICY),
        ("QRDQN", BASE["action"], {**OFF_POLICY, "optimize_memory_usage": False}),
    ],
)
def test_more_algorithms_train_from_a_config(name, action, hyperparams, tmp_path):
    cfg = config(action=action, algo={"name": name, "hyperparams": hyperparams})
    env = template_env(cfg)
    start = {k: v.clone() for k, v in make_model(cfg, env).policy.state_dict().items()}  # same seed: same init
    env.close()
    result = train(Run.create(cfg, tmp_path / name))
    assert result.timesteps >= 128
    model = load_run_model(result.run)  # and the saved model loads safely
    assert type(model).__name__ == name
    trained = model.policy.state_dict()
    assert any(not np.allclose(trained[k].numpy(), v.numpy()) for k, v in start.items())  # it learned something


# ---------------------------------------------------------------------------- classes a run directory names

EVIL = """
import pathlib

pathlib.Path(__file__).with_name("ran.txt").write_text("this module ran")

import gymnasium as gym


class Mark(gym.Wrapper):
    pass
"""


def _run_naming(directory, wrapper: str, module: str | None = None):
    """A run directory whose config names ``wrapper``, holding a module ``module`` (that notes it ran) if given."""
    run = Run.create(config(), directory)
    data = yaml.safe_load((directory / "config.yaml").read_text())
    (directory / "config.yaml").write_text(yaml.safe_dump({**data, "wrappers": [wrapper]}, sort_keys=False))
    if module:
        (directory / f"{module}.py").write_text(EVIL)
    return run


@pytest.fixture
def clean_imports(monkeypatch):
    """The import path and modules as they were (the runs below put the current directory on the path)."""
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith(("shared_", "runs.")) or name == "runs":
            del sys.modules[name]


@pytest.mark.parametrize("layout", ["inside", "below"])
def test_a_run_directory_carrying_code_is_refused_before_it_runs(tmp_path, monkeypatch, capsys, clean_imports, layout):
    # inside: you cd into a run you were sent; below: it sits in runs/ of your project (a namespace package)
    module = f"shared_{layout}"
    directory = tmp_path / "runs" / "shared"
    name = module if layout == "inside" else f"runs.shared.{module}"
    _run_naming(directory, f"{name}.Mark", module)
    monkeypatch.chdir(directory if layout == "inside" else tmp_path)
    ran = directory / "ran.txt"
    refusal = f"wrappers.0: {name}.Mark would run {directory / module}.py, which is inside the run directory"
    for attempt in (
        lambda: Run.open(directory),
        lambda: androidrl.make_env(directory),
        lambda: evaluate_run(directory, episodes=1),
    ):
        with pytest.raises(ConfigError, match=re.escape(refusal)):
            attempt()
        assert f"  wrappers.0: {name}.Mark from {directory / module}.py" in capsys.readouterr().err
    for command in (["evaluate", "--run"], ["watch", "--run"], ["train", "--resume"]):
        assert cli_main([*command, str(directory)]) == 2
        err = capsys.readouterr().err
        assert refusal in err and "pass --trust-plugins" in err and "Traceback" not in err
    assert not ran.exists()  # nothing of it ran
    run = Run.open(directory, trust_plugins=True)  # read, then trusted: it runs
    assert ran.read_text() == "this module ran" and run.config.wrappers[0].path == f"{name}.Mark"
    assert "names classes to import, which runs their modules (trusted: --trust-plugins)" in capsys.readouterr().err


def test_a_run_naming_installed_classes_says_where_they_come_from(tmp_path, capsys, clean_imports):
    import gymnasium

    _run_naming(tmp_path / "run", "gymnasium.wrappers.RecordEpisodeStatistics")
    run = Run.open(tmp_path / "run")  # (not inside the run: no --trust-plugins needed)
    assert run.config.wrappers[0].path == "gymnasium.wrappers.RecordEpisodeStatistics"
    err = capsys.readouterr().err
    where = Path(gymnasium.__file__).parent / "wrappers" / "__init__.py"
    assert f"  wrappers.0: gymnasium.wrappers.RecordEpisodeStatistics from {where}" in err
    Run.open(tmp_path / "run", trust_plugins=True)
    assert "(trusted" not in capsys.readouterr().err  # (nothing of the run's own to trust)
    parse_config(BASE)  # your own config: nothing printed
    assert capsys.readouterr().err == ""

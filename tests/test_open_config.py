"""An open config: your own wrappers, callbacks and extractors by import path, env kwargs, SAC/TD3/QR-DQN."""

import numpy as np
import pytest

from androidrl.train import analysis
from androidrl.train.compose import make_model, template_env
from androidrl.train.config import ConfigError, parse_config
from androidrl.train.evaluation import load_run_model
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

"""Stable-Baselines3 algorithms train on a 2-device vector env (a few hundred steps each)."""

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3 import A2C, DQN, PPO
from stable_baselines3.common.vec_env import VecFrameStack

from androidrl.vector.sb3 import make_sb3_vec_env
from androidrl.wrappers import DiscreteGridAction, ScreenshotObservation, UIElementAction

pytestmark = pytest.mark.slow
DEVICES = ["virtual:360x800@160", "virtual:360x800@160"]
MAX_ELEMENTS = 24  # more slots than the home screen has icons, so some are masked


def grid(env):
    return DiscreteGridAction(ScreenshotObservation(env, shape=(64, 36)), rows=4, cols=3)


def elements(env):
    return UIElementAction(ScreenshotObservation(env, shape=(64, 36)), max_elements=MAX_ELEMENTS)


@pytest.mark.parametrize(
    ("algo", "kwargs"),
    [
        (PPO, {"n_steps": 64, "batch_size": 64, "n_epochs": 1}),
        (A2C, {"n_steps": 16}),
        (
            DQN,
            {
                "buffer_size": 500,
                "learning_starts": 64,
                "train_freq": 4,
                "optimize_memory_usage": True,
                "replay_buffer_kwargs": {"handle_timeout_termination": False},
            },
        ),
    ],
)
def test_algorithms_learn_on_the_vector_env(algo, kwargs, tmp_path):
    env = make_sb3_vec_env(DEVICES, "tap-target", grid, monitor_dir=tmp_path, seed=0)
    model = algo("CnnPolicy", env, seed=0, device="cpu", **kwargs)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    action, _ = model.predict(env.reset(), deterministic=True)
    assert action.shape == (2,)
    assert any(p.stat().st_size > 0 for p in tmp_path.glob("*.monitor.csv"))
    env.close()


def test_maskable_ppo_uses_the_ui_element_masks():
    env = make_sb3_vec_env(DEVICES, "open-app", elements, seed=0)
    env.reset()
    masks = np.stack(env.env_method("action_masks"))
    slots, found = masks[:, :MAX_ELEMENTS], masks[:, :MAX_ELEMENTS].sum(axis=1)
    assert masks.shape == (2, MAX_ELEMENTS + 2) and (found > 0).all() and (found < MAX_ELEMENTS).all()
    # the found elements fill the first slots; the rest are masked off
    assert all(row[:n].all() and not row[n:].any() for row, n in zip(slots, found))
    model = MaskablePPO("CnnPolicy", env, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    env.close()


def test_frame_stacking_with_sb3():
    env = VecFrameStack(make_sb3_vec_env(DEVICES, "tap-target", grid), n_stack=4)
    obs = env.reset()
    assert obs.shape == (2, 64, 36, 12)
    model = PPO("CnnPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    env.close()

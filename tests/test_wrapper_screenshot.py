"""ScreenshotObservation: shapes, dtypes, grayscale, layouts, resolution independence, no files."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image
from stable_baselines3.common.env_checker import check_env as sb3_check_env
from stable_baselines3.common.preprocessing import is_image_space

from androidrl import AndroidEnv, EnvAction, EnvActionType, VirtualDevice
from androidrl.tasks import Needs
from androidrl.wrappers import DiscreteGridAction, Geometry, ScreenshotObservation

from conftest import warnings_raised


def make(width=360, height=800, density=160, **kwargs):
    return ScreenshotObservation(AndroidEnv(VirtualDevice(width=width, height=height, density=density)), **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "shape"),
    [
        ({}, (84, 84, 3)),
        ({"grayscale": True}, (84, 84, 1)),
        ({"shape": (96, 48), "channels_first": True}, (3, 96, 48)),
        ({"shape": (64, 64), "grayscale": True, "channels_first": True}, (1, 64, 64)),
    ],
)
def test_shapes_and_dtype(kwargs, shape):
    env = make(**kwargs)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.shape == shape and obs.shape == shape and obs.dtype == np.uint8
    assert env.observation_space.contains(obs)
    assert is_image_space(env.observation_space, check_channels=True) or kwargs.get("channels_first")
    env.close()


def test_two_resolutions_give_the_same_observation_shape():
    shapes = set()
    for width, height, density in ((360, 800, 160), (1080, 2400, 420), (720, 1280, 320)):
        env = make(width, height, density, shape=(84, 42))
        obs, _ = env.reset(seed=0)
        shapes.add(obs.shape)
        env.close()
    assert shapes == {(84, 42, 3)}


def test_letterbox_keeps_the_whole_screen_and_crop_fills():
    env = make(shape=(84, 84))
    obs, _ = env.reset(seed=0)
    geometry = env.geometry()
    assert geometry.scaled_size == (38, 84) and geometry.offset == (23, 0)
    assert np.all(obs[:, :23] == 0) and np.all(obs[:, 61:] == 0)  # black bars
    assert obs[:, 23:61].mean() > 10  # the screen itself
    env.close()
    crop = make(shape=(84, 84), fit="crop")
    obs, _ = crop.reset(seed=0)
    assert crop.geometry().offset[1] < 0 and obs.min(axis=(0, 1)).max() > 0  # no black bars
    crop.close()


def test_geometry_maps_screen_pixels():
    geometry = Geometry.fit((1080, 2400), (42, 84), "letterbox")
    assert geometry.to_output(0, 0) == (pytest.approx(1.0, abs=1), 0)
    assert geometry.to_output(1080, 2400)[1] == pytest.approx(84)


def test_observation_matches_the_frame_and_files_are_off(tmp_path):
    android = AndroidEnv(VirtualDevice(width=360, height=800, density=160), save_dir=tmp_path)
    env = ScreenshotObservation(android, shape=(800, 360), grayscale=False)
    obs, _ = env.reset(seed=0)
    assert np.array_equal(obs, android.frame)  # same size: the frame itself, untouched
    assert list(tmp_path.iterdir()) == []  # no PNG written on the training path
    assert android.write_files is False


def test_files_on_request_and_decoding_a_foreign_path(tmp_path):
    android = AndroidEnv(VirtualDevice(width=360, height=800, density=160), save_dir=tmp_path)
    env = ScreenshotObservation(android, shape=(80, 36), write_files=True)
    obs, _ = env.reset(seed=0)
    assert (tmp_path / "screenshot_0.png").exists()
    other = tmp_path / "other.png"
    Image.new("RGB", (360, 800), (255, 0, 0)).save(other)
    red = env.observation({"screenshot": str(other), "xml": ""})
    assert np.all(red[:, 1:-1, 0] == 255) and np.all(red[:, 1:-1, 1] == 0)


def test_grayscale_is_luminance():
    env = make(shape=(800, 360), grayscale=True)
    obs, _ = env.reset(seed=0)
    expected = np.asarray(Image.fromarray(env.unwrapped.frame).convert("L"))
    assert np.array_equal(obs[..., 0], expected)


def test_every_step_returns_a_new_array():
    env = make()
    first, _ = env.reset(seed=0)
    second, *_ = env.step(EnvAction(action_type=EnvActionType.NONE))
    assert first is not second and np.array_equal(first, second)


def test_clickable_mask_for_multi_input_policies():
    env = make(shape=(80, 36), clickable_mask=True)
    obs, _ = env.reset(seed=0)
    assert set(obs) == {"screen", "clickable"} and obs["clickable"].shape == (80, 36, 1)
    assert 0 < (obs["clickable"] == 255).mean() < 0.5  # the launcher icons, not the wallpaper
    assert env.observation_space.contains(obs)


def test_the_clickable_mask_has_the_env_read_the_ui_in_each_step():
    # Without the mask nobody reads this idle phone's UI; with it, the step reads it (once).
    plain, masked = make(), make(clickable_mask=True)
    for env in (plain, masked):
        env.unwrapped.timings = True
        env.reset(seed=0)
    *_, info = plain.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    assert Needs.UI not in plain.unwrapped.needs and not {"xml", "ui"} & set(info["timings_ms"])
    obs, *_, info = masked.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    assert Needs.UI in masked.unwrapped.needs and {"xml", "ui"} & set(info["timings_ms"])
    assert (obs["clickable"] == 255).any()


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"shape": (84,)}, ValueError, "shape (height, width) of positive ints, got (84,)"),
        ({"shape": "84x84"}, TypeError, "shape (height, width)"),
        ({"shape": (0, 84)}, ValueError, "positive ints"),
        ({"shape": (84.7, 40)}, ValueError, "positive ints, got"),
        ({"shape": (True, 84)}, ValueError, "positive ints, got"),
        ({"fit": "stretch"}, ValueError, "fit must be one of"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error) as info:
        make(**kwargs)
    assert message in str(info.value)


def test_wraps_only_android_envs():
    import gymnasium as gym

    with pytest.raises(TypeError, match="wraps an AndroidEnv"):
        ScreenshotObservation(gym.make("CartPole-v1"))


def test_both_checkers_pass_on_the_wrapped_env():
    env = DiscreteGridAction(make(shape=(84, 84)), rows=4, cols=3)
    with warnings_raised() as raised:
        check_env(env, skip_render_check=True)
        sb3_check_env(env)
    assert [m for m in raised if "different from the unwrapped" not in m] == []


@pytest.mark.parametrize(
    ("screen", "kwargs"),
    [
        ((360, 800, 160), {"shape": (84, 84)}),
        ((360, 800, 160), {"shape": (84, 40), "grayscale": True}),
        ((360, 800, 160), {"shape": (60, 60), "fit": "crop"}),
        ((360, 800, 160), {"shape": (84, 40), "channels_first": True}),
        ((180, 400, 80), {"shape": (84, 84)}),  # bands of more rows on a small screen
    ],
)
def test_incremental_observations_equal_from_scratch_ones(screen, kwargs):
    """Only the bands over the changed rows are downscaled again; the result must not differ."""
    width, height, density = screen
    env = ScreenshotObservation(
        AndroidEnv(VirtualDevice(width=width, height=height, density=density), task="tap-target"), **kwargs
    )
    scratch = make(width, height, density, **kwargs)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(60):
        obs, _, terminated, truncated, _ = env.step(
            EnvAction(
                action_type=EnvActionType.SYSTEM_TAP,
                coord=(int(rng.integers(width)), int(rng.integers(height))),
            )
        )
        scratch._cache = None
        assert np.array_equal(obs, scratch._image(env.unwrapped.frame))
        if terminated or truncated:
            env.reset()

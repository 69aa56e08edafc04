"""BoxAction: continuous normalised coordinates and a score per action type."""

import numpy as np
import pytest

from androidrl import AndroidEnv, EnvActionType, VirtualDevice
from androidrl.wrappers import BoxAction

from conftest import center, node_bounds


def make(types=("tap", "long_press", "swipe_up", "back")):
    device = VirtualDevice(width=360, height=800, density=160)
    return BoxAction(AndroidEnv(device, screen_size=(360, 800)), types=types), device.phone


def test_space_and_mapping():
    env, _ = make()
    assert env.action_space.shape == (6,) and env.action_space.dtype == np.float32
    corner = env.action(np.array([-1, -1, 1, 0, 0, 0], dtype=np.float32))
    assert corner.action_type == EnvActionType.SYSTEM_TAP and corner.coord.tolist() == [0, 0]
    far = env.action(np.array([1, 1, 0, 0, 0, 1]))
    assert far.action_type == EnvActionType.SYSTEM_BACK
    clipped = env.action(np.array([5, -5, 0, 2, 0, 0]))
    assert clipped.action_type == EnvActionType.USER_LONGPRESS and clipped.coord.tolist() == [359, 0]


def test_acts_on_the_phone():
    env, phone = make()
    env.reset(seed=0)
    # The Settings icon wherever the launcher put it (as more apps are installed it moves).
    x, y = center(node_bounds(env.unwrapped.device.dump_ui(), content_desc="Settings", clickable=True))
    env.step(np.array([x / 359 * 2 - 1, y / 799 * 2 - 1, 1, 0, 0, 0]))
    assert phone.foreground()[0] == "com.android.settings"


def test_bad_input():
    with pytest.raises(ValueError, match="unknown action types"):
        make(types=["tap", "jump"])
    env, _ = make()
    with pytest.raises(ValueError, match="finite numbers"):
        env.action(np.array([np.nan, 0, 1, 0, 0, 0]))
    with pytest.raises(ValueError, match="finite numbers"):
        env.action(np.zeros(3))

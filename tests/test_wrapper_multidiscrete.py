"""MultiDiscreteAction: action type x grid row x grid column."""

import numpy as np
import pytest

from androidrl import AndroidEnv, EnvActionType, VirtualDevice
from androidrl.wrappers import MultiDiscreteAction

from conftest import node_bounds


def make(**kwargs):
    device = VirtualDevice(width=360, height=800, density=160)
    return MultiDiscreteAction(AndroidEnv(device, screen_size=(360, 800)), **kwargs), device.phone


def test_space_and_mapping():
    env, _ = make(rows=8, cols=4, types=["tap", "swipe_up", "home"])
    assert env.action_space.nvec.tolist() == [3, 8, 4]
    tap = env.action([0, 2, 1])
    assert tap.action_type == EnvActionType.SYSTEM_TAP and tap.coord.tolist() == [135, 250]
    swipe = env.action(np.array([1, 7, 3]))
    assert swipe.action_type == EnvActionType.USER_SWIPE and swipe.orient == "up"
    assert env.action([2, 5, 3]).action_type == EnvActionType.SYSTEM_HOME


def test_acts_on_the_phone():
    env, phone = make(rows=8, cols=4)
    env.reset(seed=0)
    # The grid cell whose tap lands on the Settings icon, wherever the launcher put it.
    left, top, right, bottom = node_bounds(env.unwrapped.device.dump_ui(), content_desc="Settings", clickable=True)
    cells = [(r, c) for r in range(8) for c in range(4) if left <= env.action([0, r, c]).coord[0] < right]
    cells = [(r, c) for r, c in cells if top <= env.action([0, r, c]).coord[1] < bottom]
    assert cells, f"no cell of the 8x4 grid taps the Settings icon at {(left, top, right, bottom)}"
    env.step([0, *cells[0]])
    assert phone.foreground()[0] == "com.android.settings"
    env.step([env.types.index("back"), 0, 0])
    assert phone.foreground()[0] == "com.android.launcher3"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"types": ["tap", "fly"]}, "unknown action types"),
        ({"types": []}, "unknown action types"),
        ({"types": ["tap", "tap"]}, "repeat"),
        ({"rows": -1}, "rows must be"),
    ],
)
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make(**kwargs)


def test_bad_actions():
    env, _ = make()
    for bad in ([0, 8, 0], [0, 1], [9, 0, 0]):
        with pytest.raises(ValueError, match=r"\[type, row, col\]"):
            env.action(bad)

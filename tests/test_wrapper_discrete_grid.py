"""DiscreteGridAction: each table entry does what it says on the phone."""

import pytest

from androidrl import AndroidEnv, EnvActionType, VirtualDevice
from androidrl.wrappers import DiscreteGridAction

from conftest import node_bounds


def make(**kwargs):
    device = VirtualDevice(width=360, height=800, density=160)
    return DiscreteGridAction(AndroidEnv(device, screen_size=(360, 800)), **kwargs), device.phone


def test_table_layout_and_descriptions():
    env, _ = make(rows=2, cols=2, long_press=True, texts=["hi"], enter=True)
    labels = [env.describe(i) for i in range(env.action_space.n)]
    assert labels[:4] == ["tap row 0 col 0", "tap row 0 col 1", "tap row 1 col 0", "tap row 1 col 1"]
    assert labels[4] == "long press row 0 col 0"
    assert labels[8:16] == [f"swipe {o} {d}" for o in ("up", "down", "left", "right") for d in ("medium", "long")]
    assert labels[16:] == ["type 'hi'", "back", "home", "enter"]
    assert env.action(0).coord.tolist() == [90, 200] and env.action(3).coord.tolist() == [270, 600]
    assert env.action(16).action_type == EnvActionType.USER_INPUT and env.action(16).input_txt == "hi"


def test_entries_act_on_the_phone():
    env, phone = make(rows=8, cols=4, texts=["grid text"], enter=True)
    env.reset(seed=0)
    # The grid cell whose tap lands on the Settings icon, wherever the launcher put it.
    left, top, right, bottom = node_bounds(env.unwrapped.device.dump_ui(), content_desc="Settings", clickable=True)
    inside = [i for i in range(32) if left <= env.action(i).coord[0] < right and top <= env.action(i).coord[1] < bottom]
    assert inside, f"no cell of the 8x4 grid taps the Settings icon at {(left, top, right, bottom)}"
    env.step(inside[0])
    assert phone.foreground()[0] == "com.android.settings"
    before = phone.top_activity.scroll
    env.step(next(i for i in range(env.action_space.n) if env.describe(i) == "swipe up long"))
    assert phone.top_activity.scroll > before
    env.step(next(i for i in range(env.action_space.n) if env.describe(i) == "back"))
    assert phone.foreground()[0] == "com.android.launcher3"
    phone.shell("am start -n com.androidrl.notes/.MainActivity")
    phone.tap(180, 110)  # focus the note field
    env.step(next(i for i in range(env.action_space.n) if env.describe(i) == "type 'grid text'"))
    env.step(next(i for i in range(env.action_space.n) if env.describe(i) == "enter"))
    saved = phone.shell("content query --uri content://com.androidrl.notes/notes --projection body").stdout.decode()
    assert saved == "Row: 0 body=grid text\n"


def test_table_is_built_at_reset_when_the_size_is_unknown():
    env = DiscreteGridAction(AndroidEnv(VirtualDevice(width=200, height=400, density=80)), rows=2, cols=2)
    assert env._table is None  # nothing asked of the device yet
    env.reset(seed=0)
    assert env.action(3).coord.tolist() == [150, 300]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rows": 0}, ValueError, "rows must be an int in 1..1000"),
        ({"cols": 2.5}, ValueError, "cols must be an int in 1..1000"),
        ({"texts": "hello"}, TypeError, "list of strings"),
        ({"texts": ["héllo"]}, ValueError, "cannot type"),
        ({"texts": ["x" * 300]}, ValueError, "at most 256"),
        ({"region": (0.5, 0, 0.2, 1)}, ValueError, "left < right"),
        ({"region": (0, 0, 1)}, ValueError, "region must be"),
        ({"region": "top"}, ValueError, "region must be"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        make(**kwargs)


def test_out_of_range_action():
    env, _ = make(rows=2, cols=2)
    for bad in (99, -1):
        with pytest.raises(ValueError, match="outside Discrete"):
            env.action(bad)
        with pytest.raises(ValueError, match="outside Discrete"):
            env.describe(bad)

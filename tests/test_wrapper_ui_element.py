"""UIElementAction: actions over the current screen's elements, with masks for MaskablePPO."""

import pytest

from androidrl import AndroidEnv, VirtualDevice
from androidrl.wrappers import UIElementAction


def make(**kwargs):
    device = VirtualDevice(width=360, height=800, density=160)
    return UIElementAction(AndroidEnv(device, dump_xml=False), **kwargs), device.phone


def launcher_icons() -> int:
    """How many apps the launcher shows (every installed app with a launcher activity)."""
    _, phone = make(max_elements=1)
    return sum(1 for app in phone.apps.values() if app.main and app.package != "com.android.launcher3")


def home_elements() -> int:
    """The home screen's elements: the workspace's two scrolls and each icon.

    The workspace says it scrolls even with one page (Launcher3's PagedView.onInitializeAccessibilityNodeInfo:
    setScrollable(getPageCount() > 0) while it allows overscroll).
    """
    return 2 + launcher_icons()


def test_elements_masks_and_descriptions():
    found = home_elements()
    env, phone = make(max_elements=found + 3)
    env.reset(seed=0)
    labels = [env.describe(i) for i in range(env.action_space.n)]
    shown = sorted(app.label for app in phone.apps.values() if app.main and app.package != "com.android.launcher3")
    assert labels[0].startswith("scroll forward") and labels[1].startswith("scroll back")
    assert labels[2:found] == [f"tap {label}" for label in shown]  # the launcher's icons, alphabetical
    assert labels[-2:] == ["back", "home"]
    mask = env.action_masks()
    assert mask.dtype == bool and mask[:found].all() and not mask[found : found + 3].any() and mask[found + 3 :].all()
    assert labels[found] == "nothing (masked)"


def test_tapping_an_element_and_scrolling():
    env, phone = make(max_elements=30)
    env.reset(seed=0)
    env.step(next(i for i in range(30) if env.describe(i) == "tap Settings"))
    assert phone.foreground()[0] == "com.android.settings"
    scroll = next(i for i in range(30) if env.describe(i).startswith("scroll forward"))
    before = phone.top_activity.scroll
    env.step(scroll)
    assert phone.top_activity.scroll > before
    for _ in range(5):
        if "tap About phone" in [env.describe(i) for i in range(30)]:
            break
        env.step(scroll)
    env.step(next(i for i in range(30) if env.describe(i) == "tap About phone"))
    assert phone.foreground()[1].endswith("MyDeviceInfoActivity")


def test_a_masked_action_does_nothing_and_says_so():
    found = home_elements()
    env, phone = make(max_elements=found + 3)
    env.reset(seed=0)
    *_, info = env.step(found + 1)
    assert f"no UI element {found + 1}" in info["action_error"]
    assert phone.foreground()[0] == "com.android.launcher3"
    env.step(env.max_elements + 1)  # home
    with pytest.raises(ValueError, match="outside Discrete"):
        env.step(999)
    with pytest.raises(ValueError, match="outside Discrete"):
        env.describe(-1)


def test_bad_arguments():
    with pytest.raises(ValueError, match="max_elements"):
        make(max_elements=0)


def test_recorded_action_texts_name_the_element_actually_tapped(tmp_path):
    from androidrl.recording import EpisodeRecorder, load_dataset
    from androidrl.solvers import solver_for

    android = AndroidEnv(VirtualDevice(width=360, height=800, density=160), "wifi-on", screen_size=(360, 800))
    env = EpisodeRecorder(UIElementAction(android, max_elements=16), tmp_path)
    solve = solver_for("wifi-on")
    env.reset(seed=0)
    done = False
    while not done:  # the solver taps Settings, then Network & internet, then Wi-Fi
        *_, terminated, truncated, _ = env.step(solve(env))
        done = terminated or truncated
    (episode,) = load_dataset(tmp_path)
    assert episode.action_texts == ["tap Settings", "tap Network & internet", "tap Wi-Fi"]

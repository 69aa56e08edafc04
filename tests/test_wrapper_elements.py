"""ElementObservation and ElementAction: the screen's elements in aligned slots, typing of fields, masks."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from androidrl import AndroidEnv, VirtualDevice
from androidrl.tasks import make_family_task
from androidrl.wrappers import ScreenshotObservation
from androidrl.wrappers.elements import FLAGS, ElementAction, ElementObservation, slider_point
from androidrl.wrappers.instruction import HashTokenizer

from conftest import warnings_raised


def make(task="wifi-on", n=32, image=False, **action):
    android = AndroidEnv(VirtualDevice(width=360, height=800, density=160), task, screen_size=(360, 800))
    inner = ScreenshotObservation(android, shape=(84, 40)) if image else android
    return ElementAction(ElementObservation(inner, max_elements=n), max_elements=n, **action)


def slot(env, text):
    return next(k for k, e in enumerate(env.elements) if e.text == text)


def test_slots_line_up_between_the_observation_and_the_action():
    env = make()
    obs, _ = env.reset(seed=0)
    elements = env.elements
    icons = [e.text for e in elements if e.class_name == "android.widget.TextView" and e.flag("long_clickable")]
    assert icons == sorted(icons) and {"Calendar", "Clock", "Messages", "Notes", "Settings"} <= set(icons)
    workspace = elements[0]  # the launcher's workspace (a PagedView: it scrolls), then its icons in order
    assert workspace.resource_id == "com.android.launcher3:id/workspace" and workspace.flag("scrollable")
    assert [e.text for e in elements[1 : len(icons) + 1]] == icons
    assert obs["element_mask"].sum() == len(elements) and not obs["element_mask"][len(elements) :].any()
    tokens = HashTokenizer(1024, 6)
    for k, element in enumerate(elements):
        left, top, right, bottom = element.bounds
        assert np.allclose(obs["element_boxes"][k], (left / 360, top / 800, right / 360, bottom / 800))
        assert (obs["element_texts"][k] == tokens(element.text)).all()
        assert obs["element_flags"][k].tolist() == [int(f) for f in element.flags]
    assert obs["instruction"][:3].tolist() == HashTokenizer(1024, 16)("Turn on Wi-Fi")[:3].tolist()
    settings = slot(env, "Settings")
    assert env.describe(env.index(settings, "tap")) == "tap Settings"
    obs, *_ = env.step(env.index(settings, "tap"))
    assert env.unwrapped.device.phone.foreground()[0] == "com.android.settings"
    row = slot(env, "Network & internet Mobile, Wi-Fi, hotspot")  # a row is known by the texts inside it
    assert env.elements[row].flag("clickable") and obs["element_mask"][row]


def test_masks_follow_the_elements_and_empty_slots_do_nothing():
    env = make()
    env.reset(seed=0)
    mask, kinds = env.action_masks(), len(env.kinds)
    assert env.kinds[:6] == ["tap", "long_press", "scroll_up", "scroll_down", "scroll_left", "scroll_right"]
    assert env.kinds[6:] == [f"slide_{p}" for p in range(0, 101, 10)]
    icon = slot(env, "Clock")
    assert mask[env.index(icon, "tap")] and mask[env.index(icon, "long_press")]
    assert not mask[env.index(icon, "scroll_down")] and not mask[env.index(icon, "slide_50")]
    assert not mask[len(env.elements) * kinds : 32 * kinds].any()
    assert not mask[env.field_index(0)]  # no field in this task, and nothing has focus
    assert mask[env.key_index("back")] and mask[env.key_index("wait")]
    *_, info = env.step(31 * kinds)
    assert "no element in slot 31" in info["action_error"]
    *_, info = env.step(env.field_index(0))
    assert "no field 0 in this episode" in info["action_error"]
    assert env.unwrapped.device.phone.foreground()[0] == "com.android.launcher3"


def test_a_clock_faces_numbers_take_taps_though_the_dump_calls_them_not_clickable():
    env = make()
    env.reset(seed=0)
    env.unwrapped.device.shell("am start -n com.android.deskclock/.DeskClock")
    env.step(env.key_index("wait"))
    env.step(env.index(slot(env, "Add alarm"), "tap"))  # the time picker, on its clock face
    seven = slot(env, "7")
    assert env.elements[seven].class_name == "android.widget.RadialTimePickerView$RadialPickerTouchHelper"
    assert not env.elements[seven].flag("clickable") and env.action_masks()[env.index(seven, "tap")]
    env.step(env.index(seven, "tap"))  # the hour: the face moves on to the minutes
    assert next(e for e in env.elements if e.resource_id == "android:id/hours").text == "7"
    assert env.action_masks()[env.index(slot(env, "55"), "tap")]


def test_the_typing_action_enters_a_field_value_into_the_focused_field():
    env = make(make_family_task("notes-word", "hard"))
    obs, info = env.reset(seed=3)
    word = info["fields"]["word"]
    assert " " in word and (obs["fields"][0] == HashTokenizer(1024, 4)(word)).all() and not obs["fields"][1].any()
    field = next(k for k, e in enumerate(env.elements) if e.resource_id.endswith("note_input"))
    assert not env.action_masks()[env.field_index(0)]  # not focused yet
    env.step(env.index(field, "tap"))
    assert env.action_masks()[env.field_index(0)] and not env.action_masks()[env.field_index(1)]
    *_, info = env.step(env.field_index(0))
    assert env.elements[field].text == word and "word-typed" in info["subgoals"]
    *_, terminated, _, info = env.step(env.key_index("enter"))
    assert terminated and info["is_success"]


def test_scrolls_move_the_list_and_slider_taps_land_on_the_track():
    env = make(make_family_task("find-about-phone"))
    env.reset(seed=0)
    phone = env.unwrapped.device.phone
    scroller = next(k for k, e in enumerate(env.elements) if e.flag("scrollable"))
    env.step(env.index(scroller, "scroll_down"))
    assert phone.top_activity.scroll > 0
    env.step(env.index(scroller, "scroll_up"))
    assert phone.top_activity.scroll == 0
    assert slider_point((10, 100, 210, 140), 0.0) == (30, 120)  # the track is inset by half the height
    assert slider_point((10, 100, 210, 140), 0.5) == (110, 120)
    assert slider_point((10, 100, 210, 140), 1.0) == (189, 120)


def test_a_notification_row_takes_sideways_swipes_that_dismiss_it():
    env = make()
    env.reset(seed=0)
    device = env.unwrapped.device
    for tag in ("first", "second"):
        device.shell(f"cmd notification post -t {tag.title()} {tag} 'a text'")
    device.shell("cmd statusbar expand-notifications")
    env.step(env.key_index("wait"))
    rows = [k for k, e in enumerate(env.elements) if e.resource_id.endswith(":id/expandableNotificationRow")]
    mask = env.action_masks()
    assert len(rows) == 2
    assert all(mask[env.index(k, "scroll_left")] and mask[env.index(k, "scroll_right")] for k in rows)
    assert not any(mask[env.index(k, "scroll_down")] for k in rows)  # (up and down: what scrolls only)
    second = next(k for k in rows if env.elements[k].text.startswith("Shell Second"))
    env.step(env.index(second, "scroll_right"))  # the finger goes left: the row is swiped away
    assert device.shell("cmd notification list").split() == ["0|com.android.shell|2020|first|2000"]


def test_an_image_observation_is_kept_beside_the_elements():
    env = make(image=True)
    obs, _ = env.reset(seed=0)
    assert obs["screen"].shape == (84, 40, 3) and set(obs) >= {"element_boxes", "element_flags", "instruction"}


@pytest.mark.parametrize("image", [False, True])
def test_gymnasiums_and_sb3s_checkers_pass(image):
    env = make(image=image)
    with warnings_raised() as raised:
        check_env(env, skip_render_check=True)
        sb3_check_env(env)
    # (SB3 calls (N, k) arrays "unconventional": its MultiInputPolicy flattens them, which is what they are for.)
    expected = ("different from the unwrapped", "has an unconventional shape")
    unexpected = [m for m in raised if not any(e in m for e in expected)]
    assert not unexpected


def test_maskable_ppo_trains_on_elements_with_masks():
    from sb3_contrib import MaskablePPO

    env = make(make_family_task("open-app"), n=16)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(64)
    obs, _ = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[int(action)] and env.observation_space["element_flags"].shape == (16, len(FLAGS))


def test_bad_arguments_and_mismatched_slots_are_refused():
    android = AndroidEnv(VirtualDevice(width=360, height=800, density=160))
    with pytest.raises(ValueError, match="ElementAction: max_elements=16 but the ElementObservation it wraps has 32"):
        ElementAction(ElementObservation(android, max_elements=32), max_elements=16)
    with pytest.raises(ValueError, match="max_elements must be an int in 1..256, got 0"):
        ElementObservation(android, max_elements=0)
    with pytest.raises(ValueError, match="fields must be an int in 0..16"):
        ElementAction(android, fields=99)
    with pytest.raises(TypeError, match="ElementObservation wraps an AndroidEnv, got CartPoleEnv"):
        ElementObservation(gym.make("CartPole-v1"))

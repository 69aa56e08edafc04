"""Oracles: their steps (if, repeat, wait, scroll-to-find, long press, swipe, slide), played through every
kind of action wrapper, and clear errors when they cannot go on."""

import numpy as np
import pytest

from androidrl import AndroidEnv, EnvActionType, TaskError, VirtualDevice
from androidrl.solvers import play_oracle, solver_for, to_actions
from androidrl.tasks import SpecTask, make_family_suite, make_family_task, parse_spec
from androidrl.tasks.oracle import Intent, OracleError, Target
from androidrl.wrappers import BoxAction, DiscreteGridAction, MultiDiscreteAction, UIElementAction
from androidrl.wrappers.elements import ElementAction, ElementObservation, slider_point

T = EnvActionType


def android(task):
    return AndroidEnv(VirtualDevice(width=360, height=800, density=160), task, screen_size=(360, 800), dump_xml=False)


def elements(task):
    return ElementAction(ElementObservation(android(task)))


def spec_task(oracle, success=None, **more):
    success = success or {"node": {"text": "Android version"}}
    data = {"name": "t", "instruction": "do it", "success": success, "oracle": oracle, **more}
    data.setdefault("reset", [{"launch": {"action": "android.settings.SETTINGS"}}])
    return SpecTask(parse_spec(data))


@pytest.mark.parametrize(
    "wrap",
    [
        lambda env: UIElementAction(env, max_elements=16),
        lambda env: DiscreteGridAction(env, rows=16, cols=4),
        lambda env: MultiDiscreteAction(env, rows=16, cols=4, types=["tap", "swipe_up", "swipe_down", "home"]),
        lambda env: BoxAction(env, types=["tap", "swipe_up", "swipe_down", "home"]),
    ],
    ids=["ui-elements", "grid", "multi-discrete", "box"],
)
@pytest.mark.parametrize("family", ["wifi-on", "find-about-phone", "airplane-clock"])
def test_oracles_act_through_every_kind_of_action_wrapper(wrap, family):
    env = wrap(android(make_family_task(family, "hard")))
    solve = solver_for(family)
    for seed in range(3):
        env.reset(seed=seed)
        succeeded, steps, info = play_oracle(env, solve)
        assert succeeded and steps <= env.unwrapped.max_steps / 2, info


def test_text_is_typed_character_by_character_when_the_wrapper_has_no_whole_word():
    letters = [*"abcdefghijklmnopqrstuvwxyz", " "]
    env = DiscreteGridAction(android(make_family_task("notes-word", "hard")), rows=8, cols=1, texts=letters, enter=True)
    _, info = env.reset(seed=1)
    succeeded, steps, _ = play_oracle(env, solver_for("notes-word"))
    assert succeeded and steps == 2 + len(info["fields"]["word"])


def test_a_suite_plays_the_oracle_of_each_drawn_task():
    env = elements(make_family_suite(tier="easy", categories=["settings", "navigation"]))
    solve = solver_for("suite")
    names = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        names.add(info["task"])
        assert play_oracle(env, solve)[0], info
    assert len(names) >= 5


def test_repeat_wait_and_if_steps():
    oracle = [
        {"wait": {"until": {"node": {"text": "Network & internet"}}, "max_steps": 2}},
        {"if": {"node": {"text": "No such row"}}, "then": [{"key": "home"}], "else": []},
        {
            "repeat": {
                "until": {"node": {"text": "About phone"}},
                "steps": [
                    {"swipe": {"direction": "up", "on": {"resource_id": "com.android.settings:id/recycler_view"}}}
                ],
                "max": 5,
            }
        },
        {"tap": {"text": "About phone"}},
    ]
    env = elements(spec_task(oracle))
    env.reset(seed=0)
    succeeded, steps, _ = play_oracle(env, solver_for("suite"))
    assert succeeded and 2 <= steps <= 6
    env = elements(spec_task([{"wait": {"steps": 2}}, *oracle[2:]]))  # a pause: two steps of nothing
    env.reset(seed=0)
    assert play_oracle(env, solver_for("suite"))[:2] == (True, steps + 2)


def test_a_pause_lets_a_flung_list_come_to_rest_before_a_tap():
    now = 1_781_514_000_000  # the virtual phone's clock at boot
    texts = [{"address": f"+1 555-01{i:02d}", "body": "Hi", "date": now - i * 60_000} for i in range(12)]
    reset = [
        {"insert": {"uri": "content://sms/inbox", "rows": texts}},
        {"launch": {"package": "com.android.messaging"}},
    ]
    rid = "com.android.messaging:id/"
    success = {"node": {"resource_id": rid + "conversation_title", "text": "+1 555-0109"}}
    swipe = {"swipe": {"direction": "up", "on": {"resource_id": "android:id/list"}}}
    tap = {"tap": {"resource_id": rid + "conversation_name", "text": "+1 555-0109"}}
    env = elements(spec_task([swipe, {"wait": {"steps": 2}}, tap], success=success, reset=reset))
    env.reset(seed=0)
    assert play_oracle(env, solver_for("suite"))[:2] == (True, 4)  # swipe, two pauses, tap
    env = elements(spec_task([swipe, tap], success=success, reset=reset))
    env.reset(seed=0)
    with pytest.raises(OracleError, match="the oracle's steps are done"):  # the tap landed where the row was
        play_oracle(env, solver_for("suite"))


def test_a_pause_waits_its_steps_and_a_wait_takes_a_condition_or_a_number_of_steps():
    find = {"tap": {"text": "About phone"}, "scroll": "down"}
    lengths = []
    for oracle in ([find], [{"wait": {"steps": 2}}, find]):
        env = elements(spec_task(oracle))
        env.reset(seed=0)
        succeeded, steps, _ = play_oracle(env, solver_for("suite"))
        assert succeeded
        lengths.append(steps)
    assert lengths[1] == lengths[0] + 2
    for wait in ({"until": {"node": {"text": "Wi-Fi"}}, "steps": 1}, {"max_steps": 3}):
        with pytest.raises(TaskError, match=r"oracle\[0\]\.wait: .*a wait needs exactly one of until"):
            parse_spec({"name": "t", "success": {"node": {"text": "x"}}, "oracle": [{"wait": wait}]})


@pytest.mark.parametrize(
    ("oracle", "message"),
    [
        ([{"tap": {"text": "No such row"}}], r"tap: no shown node matches \{'text': 'No such row'\}"),
        ([{"tap": {"text": "About phone"}, "scroll": "down", "max_scrolls": 1}], "not shown after 1 scrolls down"),
        ([{"wait": {"until": {"node": {"text": "Never"}}, "max_steps": 2}}], "did not hold within 2 steps"),
        ([{"repeat": {"until": {"node": {"text": "Never"}}, "steps": [{"key": "back"}], "max": 1}}], "after 1 rounds"),
        ([{"key": "back"}], "the oracle's steps are done, but the episode goes on"),
    ],
)
def test_an_oracle_that_cannot_go_on_says_why(oracle, message):
    env = elements(spec_task(oracle, max_steps=20))
    env.reset(seed=0)
    with pytest.raises(OracleError, match=message):
        play_oracle(env, solver_for("suite"))


def test_long_press_slide_and_typing_map_onto_the_wrappers():
    env = elements(spec_task([{"long_press": {"text": "Clock"}}], success={"node": {"text": "Never"}}, reset=["home"]))
    env.reset(seed=0)
    target = _target(env, "Clock")
    with pytest.raises(ValueError, match="ElementAction types field values only"):
        to_actions(env, Intent("type", text="hello"))
    with pytest.raises(ValueError, match="ElementAction masks slide_30 on 'Clock'"):
        to_actions(env, Intent("slide", target, fraction=0.3))  # not a SeekBar
    (action,) = to_actions(env, Intent("long_press", target))
    clock = next(e for e in env.elements if e.text == "Clock")
    env.step(action)  # (the launcher's long-press popup opens: App info)
    assert [e.text for e in env.elements if e.text] == ["App info"]
    assert env.unwrapped.last_action.action_type == T.USER_LONGPRESS
    assert tuple(env.unwrapped.last_action.coord) == clock.center
    box = BoxAction(android(None), types=["tap", "back"])
    box.reset(seed=0)
    track = Target((20, 300, 340, 340), "volume", "android.widget.SeekBar")
    (action,) = to_actions(box, Intent("slide", track, fraction=0.3))
    x, y = slider_point(track.bounds, 0.3)
    assert np.allclose(action[:2], [2 * x / 359 - 1, 2 * y / 799 - 1]) and action[2] > action[3]


def test_a_slide_takes_its_fraction_from_a_parameter():
    level = {"choice": [{"name": "low", "fraction": 0.2, "index": 3}, {"name": "high", "fraction": 0.8, "index": 12}]}
    task = spec_task(
        [{"slide": {"on": {"content_desc": "Media volume"}, "fraction": "{level.fraction}"}}],
        success={"setting": {"namespace": "system", "key": "volume_music_speaker", "equals": "{level.index}"}},
        params={"level": level},
        reset=[{"launch": {"action": "android.settings.SOUND_SETTINGS"}}],
    )
    env = elements(task)
    for seed in range(4):
        _, info = env.reset(seed=seed)
        assert play_oracle(env, solver_for("suite"))[:2] == (True, 1), info
    with pytest.raises(
        TaskError, match=r"oracle\[0\]\.slide\.fraction\.constrained-float: Input should be a valid number"
    ):
        spec_task([{"slide": {"on": {"content_desc": "Media volume"}, "fraction": "most"}}])


def _target(env, text):
    element = next(e for e in env.elements if e.text == text)
    return Target(element.bounds, element.text, element.class_name)

"""AndroidEnv on the virtual phone: the Gymnasium contract, observations, faults."""

import re
import weakref
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.envs.registration import load_env_creator
from gymnasium.utils.env_checker import check_env
from PIL import Image

import androidrl
from androidrl import AndroidEnv, EnvAction, EnvActionType, EnvObsParams, EnvObsType, VirtualDevice
from androidrl.device.adb import AdbDevice
from androidrl.spaces import get_observation_space
from androidrl.tasks import Needs

from conftest import center, node_bounds, warnings_raised

TAP = EnvActionType.SYSTEM_TAP


TIERED = re.compile(r"-(Easy|Medium|Hard)-v0$")
# Every id of a task, and the tier ids of one family (each family's tiers are the same env kinds).
ALL_IDS = sorted(i for i in gym.registry if i.startswith("androidrl/") and (not TIERED.search(i) or "/WifiOn" in i))


def build(env_id):
    """The env an id makes, without the checker wrappers gym.make adds, on a small screen."""
    spec = gym.spec(env_id)
    return load_env_creator(spec.entry_point)(**{**spec.kwargs, "width": 360, "height": 800, "density": 160})


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_gymnasium_check_env_passes_on_every_registered_id(env_id):
    env = build(env_id)
    with warnings_raised() as raised:
        check_env(env, skip_render_check=True)
    messages = [m for m in raised if "different from the unwrapped" not in m]
    if "Pixels" in env_id:
        assert messages == []
    else:
        # The only remark is Gymnasium's generic advice for un-normalised Box actions: the
        # seed API's pixel coordinates are such a Box by design.
        assert all("recommend using a symmetric and normalized space" in m for m in messages), messages
    env.close()


@pytest.mark.parametrize("env_id", [i for i in ALL_IDS if "Pixels" in i])
def test_sb3_check_env_passes_on_every_sb3_ready_id(env_id):
    # The seed-API ids observe file paths (Text spaces), which SB3 cannot take by design;
    # each has a ...Pixels-v0 twin that SB3 trains on.
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = build(env_id)
    with warnings_raised() as raised:
        sb3_check_env(env)
    assert raised == []
    env.close()


def test_construction_does_not_touch_the_device():
    device = VirtualDevice(width=360, height=800, density=160)
    env = AndroidEnv(device, screen_size=(360, 800))
    assert env.action_space["coord"].high.tolist() == [359, 799]
    assert device._phone is None
    env.close()
    env.close()  # idempotent


def test_reset_returns_real_files(env):
    obs, info = env.reset(seed=0)
    assert get_observation_space().contains(obs)
    image = Image.open(obs["screenshot"])
    assert image.size == (360, 800)
    assert np.array_equal(np.asarray(image), env.frame)
    assert Path(obs["xml"]).read_text().startswith("<?xml") and Path(obs["xml"]).read_text() == env.xml
    assert info["task"] == "idle"


def test_step_with_env_action_and_with_a_space_sample(env, phone):
    env.reset(seed=0)
    x, y = center(node_bounds(env.xml, text="Settings"))
    obs, reward, terminated, truncated, info = env.step(EnvAction(action_type=TAP, coord=(x, y)))
    assert phone.foreground()[0] == "com.android.settings"
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info["res"] == "" and info["action_error"] == "" and info["device_error"] == ""
    assert info["episode_step"] == 1
    assert 'package="com.android.settings"' in Path(obs["xml"]).read_text()
    env.action_space.seed(0)
    for _ in range(30):
        obs, *_ = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs)
    obs, *_ = env.step({"action_type": 1})  # a dict with only some fields is fine too


def test_each_action_type_does_what_it_says(env, phone):
    env.reset(seed=0)
    env.step(EnvAction(action_type=TAP, coord=center(node_bounds(env.xml, text="Notes"))))
    env.step(
        EnvAction(action_type=TAP, coord=center(node_bounds(env.xml, resource_id="com.androidrl.notes:id/note_input")))
    )
    env.step(EnvAction(action_type=EnvActionType.USER_INPUT, input_txt="hi there"))
    assert 'text="hi there" resource-id="com.androidrl.notes:id/note_input"' in env.xml
    env.step(EnvAction(action_type=EnvActionType.SYSTEM_ENTER))
    assert 'text="hi there" resource-id="com.androidrl.notes:id/note_item"' in env.xml
    env.step(EnvAction(action_type=EnvActionType.SYSTEM_BACK))  # the first BACK closes the soft keyboard
    assert phone.foreground()[0] == "com.androidrl.notes"
    env.step(EnvAction(action_type=EnvActionType.SYSTEM_BACK))
    assert phone.foreground()[0] == "com.android.launcher3"
    env.step(EnvAction(action_type=EnvActionType.USER_LONGPRESS, coord=center(node_bounds(env.xml, text="Settings"))))
    assert phone.foreground()[0] == "com.android.launcher3"  # launcher icons long-press to a menu, not a click
    phone.shell("am start -n com.android.settings/.Settings")
    env.step(EnvAction(action_type=EnvActionType.USER_SWIPE, coord=(180, 700), orient="up", dist="long"))
    env.step(EnvAction(action_type=EnvActionType.USER_SWIPE_TO, coord=(180, 700), tgt_coord=(180, 100)))
    assert 'text="About phone"' in env.xml
    env.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    assert phone.foreground()[0] == "com.android.launcher3"
    obs, *_ = env.step(EnvAction())  # NONE only observes
    assert Path(obs["screenshot"]).exists()


def test_invalid_actions_raise_before_anything_is_sent(env, phone):
    env.reset(seed=0)
    sent = len(phone.command_log)
    with pytest.raises(ValueError, match="outside the 360x800 screen"):
        env.step(EnvAction(action_type=TAP, coord=(360, 5)))
    with pytest.raises(ValueError, match="tgt_coord"):
        env.step(EnvAction(action_type=EnvActionType.USER_SWIPE_TO, coord=(1, 1), tgt_coord=(5, 900)))
    with pytest.raises(ValueError, match="unknown action_type"):
        env.step({"action_type": 99})
    with pytest.raises(TypeError):
        env.step("tap")
    assert len(phone.command_log) == sent


def test_untypable_text_is_reported_not_crashed(env, phone):
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(
        EnvAction(action_type=EnvActionType.USER_INPUT, input_txt="日本")
    )
    assert "cannot type" in info["action_error"] and not truncated
    assert not [c for c in phone.command_log if c.startswith("input text")]


def test_swipe_end_is_clamped_to_the_screen(env, phone):
    env.reset(seed=0)
    env.step(EnvAction(action_type=EnvActionType.USER_SWIPE, coord=(10, 10), orient="up", dist="long"))
    swipes = [
        re.match(r"input swipe [\d ]+", c).group().strip() for c in phone.command_log if c.startswith("input swipe")
    ]
    assert swipes[-1] == "input swipe 10 10 10 0 400"  # (over adb, the screen and UI are read in the same line)


def test_a_device_that_vanishes_truncates_the_episode(env, phone):
    obs0, _ = env.reset(seed=0)
    phone.reboot(power_off=True)
    obs, reward, terminated, truncated, info = env.step(EnvAction(action_type=TAP, coord=(5, 5)))
    assert truncated and not terminated and reward == 0.0
    assert info["device_error"].startswith("DeviceOfflineError")
    assert obs == obs0  # the last good observation, never None
    with pytest.raises(gym.error.ResetNeeded):
        env.step(EnvAction())
    phone.power_on()
    obs, info = env.reset()
    assert Path(obs["screenshot"]).exists()


def test_reset_waits_for_a_rebooting_device(env, phone):
    env.reset(seed=0)
    phone.reboot()
    obs, info = env.reset()
    assert phone.online and Path(obs["screenshot"]).exists()


def test_reset_gives_up_on_a_dead_device(device, phone, tmp_path):
    env = AndroidEnv(device, save_dir=tmp_path, reset_timeout=0.3)
    phone.reboot(power_off=True)
    with pytest.raises(androidrl.DeviceOfflineError):
        env.reset()
    env.close()


def test_seeded_reset_gives_identical_frames(env):
    obs1, _ = env.reset(seed=42)
    frame1 = env.frame.copy()
    env.step(EnvAction(action_type=TAP, coord=center(node_bounds(env.xml, text="Settings"))))
    env.step(EnvAction(action_type=EnvActionType.USER_SWIPE, coord=(180, 600)))
    obs2, _ = env.reset(seed=42)
    assert obs1 == obs2 and np.array_equal(frame1, env.frame)


def test_observation_files_do_not_grow(env, tmp_path):
    env.reset(seed=0)
    settings_icon = center(node_bounds(env.xml, text="Settings"))
    for _ in range(6):  # every step changes the screen
        env.step(EnvAction(action_type=TAP, coord=settings_icon))
        env.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    files = sorted(p.name for p in (tmp_path / "obs").iterdir())
    assert files == ["screenshot_0.png", "screenshot_1.png", "xml_0.xml", "xml_1.xml"]


def test_unchanged_screens_reuse_their_file(env):
    obs1, _ = env.reset(seed=0)
    obs2, *_ = env.step(EnvAction(action_type=TAP, coord=(5, 700)))  # wallpaper: nothing changes
    assert obs2 == obs1


def test_xml_dumps_can_be_switched_off(device, tmp_path):
    env = AndroidEnv(device, save_dir=tmp_path, dump_xml=False)
    obs, _ = env.reset(seed=0)
    assert obs["xml"] == "" and env.xml is None
    obs, *_ = env.step(EnvAction())
    assert obs["xml"] == ""
    env.close()


def test_timings_are_opt_in(device, tmp_path):
    env = AndroidEnv(device, save_dir=tmp_path, timings=True)
    env.reset(seed=0)
    *_, info = env.step(EnvAction(action_type=TAP, coord=(5, 5)))
    assert set(info["timings_ms"]) >= {"action", "screenshot", "xml", "task", "files", "total"}
    assert all(isinstance(v, float) and v >= 0 for v in info["timings_ms"].values())
    env.close()


def test_observe_all_three_types(env, tmp_path):
    env.reset(seed=0)
    path = env.observe(EnvObsParams(obs_type=EnvObsType.GET_SCREENSHOT, ss_name="step_0", local_save_dir=tmp_path))
    assert path == tmp_path / "step_0.png" and Image.open(path).size == (360, 800)
    path = env.observe(EnvObsParams(obs_type=EnvObsType.GET_XML, xml_name="step_0", local_save_dir=str(tmp_path)))
    assert path == tmp_path / "step_0.xml" and path.read_text().startswith("<?xml")
    obs = env.observe(EnvObsParams(obs_type=EnvObsType.NONE))
    assert set(obs) == {"screenshot", "xml"} and Path(obs["screenshot"]).exists()
    assert set(env.observe()) == {"screenshot", "xml"}


def test_render_returns_the_last_frame(device, tmp_path):
    env = AndroidEnv(device, save_dir=tmp_path, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render() is env.frame
    env.close()


def test_a_step_keeps_no_earlier_frame_alive():
    # Each step reuses the last step's UI parse; it once kept the last step's snapshot instead, a
    # chain that held every frame of the episode (10 MB a frame at 1080x2400) when nobody read the UI.
    env = androidrl.make_virtual_env(360, 800, 160, dump_xml=False, write_files=False, max_steps=100)
    env.reset(seed=0)
    settings = EnvAction(action_type=TAP, coord=center(node_bounds(env.device.dump_ui(), text="Settings")))
    back = EnvAction(action_type=EnvActionType.SYSTEM_BACK)
    frames = []
    for step in range(12):  # Settings and back: the screen changes every step
        env.step(back if step % 2 else settings)
        frames.append(weakref.ref(env.frame))
    assert len({id(ref()) for ref in frames[-2:]}) == 2  # (the screens did change)
    assert [ref() is None for ref in frames[:-2]] == [True] * 10  # older frames are gone (no cycle holds them)
    env.close()


def test_temporary_directory_is_removed_on_close(device):
    env = AndroidEnv(device)
    obs, _ = env.reset(seed=0)
    directory = Path(obs["screenshot"]).parent
    assert directory.exists()
    env.close()
    assert not directory.exists()
    with pytest.raises(gym.error.ClosedEnvironmentError):
        env.reset()


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"keep_files": 0}, ValueError),
        ({"render_mode": "human"}, ValueError),
        ({"max_steps": -1}, ValueError),
        ({"save_dir": "/tmp/" + "d" * 300}, ValueError),
    ],
)
def test_bad_constructor_arguments(device, kwargs, error):
    with pytest.raises(error):
        AndroidEnv(device, **kwargs)


def test_bad_device_and_reset_options(device):
    with pytest.raises(TypeError, match="Device"):
        AndroidEnv("emulator-5554-not-a-device")
    env = AndroidEnv(device)
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"level": 3})
    env.close()


def test_max_steps_truncates(device, tmp_path):
    env = AndroidEnv(device, save_dir=tmp_path, max_steps=3)
    env.reset(seed=0)
    results = [env.step(EnvAction())[3] for _ in range(3)]
    assert results == [False, False, True]
    env.close()


def test_screen_size_change_is_caught_at_reset(env, phone):
    env.reset(seed=0)
    phone.shell("wm size 300x600")
    with pytest.raises(androidrl.DeviceError, match="the screen is now 300x600"):
        env.reset()


# --------------------------------------------------------------------------- what a step reads


def _ui_reads(phone, infos) -> list[int]:
    """UI reads per step: ``uiautomator dump`` lines the phone received (adb), or the env's own timings."""
    dumps = sum("uiautomator dump" in line for line in phone.command_log)
    return [dumps] + [int("xml" in info["timings_ms"] or "ui" in info["timings_ms"]) for info in infos]


def _play(env, phone, steps=4):
    """Reset, then tap along a row ``steps`` times; the phone's command log then holds the steps' only."""
    env.reset(seed=0)
    phone.command_log.clear()
    infos = []
    for i in range(steps):
        *_, terminated, truncated, info = env.step(EnvAction(action_type=TAP, coord=(20 + 40 * i, 400)))
        infos.append(info)
        assert not (terminated or truncated)
    return infos


def test_a_step_dumps_no_ui_when_nobody_reads_it(device, phone):
    from androidrl.wrappers import ScreenshotObservation

    # open-app is judged by the app in front: with no observation files, nobody reads the UI.
    env = ScreenshotObservation(AndroidEnv(device, task="open-app", timings=True, max_steps=50))
    assert Needs.UI not in env.unwrapped.needs
    infos = _play(env, phone)
    assert _ui_reads(phone, infos) == [0, 0, 0, 0, 0]
    assert env.unwrapped.xml is None
    assert any(line.startswith("dumpsys window") for line in phone.command_log)  # (the task did read)
    env.close()


def test_a_ui_task_reads_the_ui_once_per_step(device, phone):
    from androidrl.wrappers import ScreenshotObservation, UIElementAction

    env = ScreenshotObservation(AndroidEnv(device, task="tap-target", timings=True))
    infos = _play(env, phone)
    dumps = 4 if isinstance(device, AdbDevice) else 0  # (in process the nodes come without XML text)
    assert _ui_reads(phone, infos) == [dumps, 1, 1, 1, 1]
    # A wrapper that needs the UI asks for it, and shares the task's read.
    env = UIElementAction(AndroidEnv(device, task="tap-target", timings=True))
    assert Needs.UI in env.unwrapped.needs
    env.reset(seed=0)
    phone.command_log.clear()
    *_, info = env.step(env.action_space.n - 2)  # back: leaves the practice app, ends nothing
    assert _ui_reads(phone, [info]) == [dumps // 4, 1]
    env.close()


def test_a_wrapper_that_needs_the_ui_has_it_read_in_the_step(device, phone):
    from androidrl.wrappers import UIElementAction

    env = UIElementAction(AndroidEnv(device, task="open-app", timings=True, write_files=False, max_steps=50))
    env.reset(seed=0)
    phone.command_log.clear()
    *_, info = env.step(env.action_space.n - 1)  # home
    assert _ui_reads(phone, [info])[1] == 1  # read inside the step (the task itself reads no UI)
    assert env.entries and any(label.startswith("tap ") for label, _ in env.entries)
    env.close()


def test_a_ui_task_sees_fresh_nodes_every_step(device, phone):
    from androidrl.wrappers import ScreenshotObservation

    env = ScreenshotObservation(AndroidEnv(device, task="tap-target"))
    env.reset(seed=3)
    android = env.unwrapped
    target = next(e for e in android.current_elements() if e.resource_id.endswith(":id/target"))
    play_area = next(e for e in android.current_elements() if e.resource_id.endswith(":id/play_area"))
    miss = next(
        (x, y)
        for x in range(play_area.bounds[0] + 5, play_area.bounds[2], 40)
        for y in range(play_area.bounds[1] + 5, play_area.bounds[3], 40)
        if not (target.bounds[0] <= x < target.bounds[2] and target.bounds[1] <= y < target.bounds[3])
    )
    for misses in (1, 2):
        _, reward, terminated, _, info = env.step(EnvAction(action_type=TAP, coord=miss))
        assert not terminated and not info["is_success"] and reward == pytest.approx(-0.05)
        score = next(e for e in android.current_elements() if e.resource_id.endswith(":id/score"))
        assert score.text == f"Hits: 0  Misses: {misses}"
    # The hit is seen on the very step it happens.
    _, reward, terminated, _, info = env.step(EnvAction(action_type=TAP, coord=target.center))
    assert terminated and info["is_success"] and reward == pytest.approx(0.95)
    env.close()


def test_dump_xml_true_keeps_the_xml_observation(device, tmp_path):
    from androidrl.wrappers import ScreenshotObservation

    env = AndroidEnv(device, task="open-app", save_dir=tmp_path, dump_xml=True)
    obs, _ = env.reset(seed=0)
    assert Path(obs["xml"]).read_text() == env.xml and env.xml.startswith("<?xml")
    obs, *_ = env.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    assert Path(obs["xml"]).read_text() == env.xml == device.dump_ui()
    env.close()
    # With the files off (a pixel wrapper), the XML still comes every step, in memory.
    env = ScreenshotObservation(AndroidEnv(device, task="open-app", dump_xml=True))
    env.reset(seed=0)
    env.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    assert env.unwrapped.xml == device.dump_ui() and Needs.UI in env.unwrapped.needs
    env.close()


def test_dump_xml_auto_observes_the_xml_when_files_are_written(device, tmp_path):
    env = AndroidEnv(device, task="open-app", save_dir=tmp_path)
    assert env.dump_xml == "auto" and env.xml_observation
    obs, *_ = env.reset(seed=0)
    assert Path(obs["xml"]).read_text() == env.xml  # MetaGPT's observation, as before
    env.set_write_files(False)
    obs, *_ = env.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    assert obs == {"screenshot": "", "xml": ""} and env.xml is None and not env.xml_observation
    assert env.current_xml() == device.dump_ui()  # still there on demand
    env.close()


def test_bad_dump_xml_and_require_arguments(device):
    with pytest.raises(ValueError, match="dump_xml must be True, False or \"auto\", got 'yes'"):
        AndroidEnv(device, dump_xml="yes")
    env = AndroidEnv(device)
    with pytest.raises(TypeError, match="Needs"):
        env.require("ui")
    with pytest.raises(ValueError, match="SHELL"):
        env.require(Needs.SHELL)
    env.close()


def test_a_step_is_one_command_line_action_screen_and_ui_together(device, phone):
    from androidrl.wrappers import ScreenshotObservation

    # Over adb the action, the screenshot and the UI dump go in one round trip; in process the
    # phone gets the action alone (it hands over its frame and nodes directly).
    env = ScreenshotObservation(AndroidEnv(device, task="tap-target", write_files=False))
    env.reset(seed=0)
    phone.command_log.clear()
    for i in range(3):
        env.step(EnvAction(action_type=TAP, coord=(20 + 40 * i, 400)))
    lines = list(phone.command_log)
    assert len(lines) == 3 and all(line.startswith("input tap") for line in lines)
    over_adb = isinstance(device, AdbDevice)
    assert all(("screencap" in line and "uiautomator dump" in line) == over_adb for line in lines)
    assert env.unwrapped.current_elements()  # the UI read with the action is the one the env holds
    env.close()

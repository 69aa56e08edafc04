"""The MetaGPT drop-in against the virtual phone over the real adb (no mocks)."""

import io
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image

from androidrl.compat.metagpt import ADB_EXEC_FAIL, AndroidExtEnv, EnvAction, EnvActionType, EnvObsParams, EnvObsType
from androidrl.errors import DeviceNotFoundError

from conftest import center, node_bounds


@pytest.fixture
def ext_env(served, adb_server):
    return AndroidExtEnv(
        device_id=served.serial, screenshot_dir="/sdcard/shots", xml_dir="/sdcard/xml", adb_port=adb_server.port
    )


def foreground(phone):
    return phone.foreground()[0]


def test_constructor_reads_the_screen_and_makes_the_device_dirs(ext_env, phone):
    assert (ext_env.width, ext_env.height) == (360, 800)
    assert ext_env.device_shape == (360, 800)
    assert phone.fs.is_dir("/sdcard/shots") and phone.fs.is_dir("/sdcard/xml")
    assert ext_env.action_space["coord"].high.tolist() == [359, 799]


def test_unknown_device_is_a_clear_error(adb_server):
    with pytest.raises(DeviceNotFoundError, match="emulator-5998 not found"):
        AndroidExtEnv(device_id="emulator-5998", adb_port=adb_server.port)


def test_override_size_wins(ext_env, phone):
    phone.shell("wm size 300x600")
    assert ext_env.device_shape == (300, 600)


def test_list_devices_lists_only_ready_devices(ext_env, served, adbd, adb_server):
    from androidrl.virtual.phone import VirtualPhone

    other = VirtualPhone(360, 800, 160, serial="other")
    server = adbd.serve(other)
    try:
        adb_server.adb("connect", server.serial)
        assert set(ext_env.list_devices()) >= {served.serial, server.serial}
        adbd.stop_server(server)  # adb keeps listing it, as offline
        assert served.serial in ext_env.list_devices() and server.serial not in ext_env.list_devices()
    finally:
        adbd.stop_server(server)
        adb_server.adb("disconnect", server.serial, check=False)


def test_screenshot_and_xml_are_real_pulled_files(ext_env, phone, tmp_path):
    shot = ext_env.get_screenshot("s1", tmp_path)
    assert shot == tmp_path / "s1.png"
    assert np.array_equal(np.asarray(Image.open(shot).convert("RGB")), phone.screenshot())
    assert phone.fs.exists("/sdcard/shots/s1.png")
    xml = ext_env.get_xml("x1", tmp_path)
    assert xml == tmp_path / "x1.xml" and xml.read_text() == phone.dump_ui()


def test_busy_screen_xml_fails_cleanly_without_stale_files(ext_env, phone, tmp_path):
    assert ext_env.get_xml("x1", tmp_path).exists()
    phone.shell("am start -n com.androidrl.practice/.TargetActivity --ez animate true")
    assert ext_env.get_xml("x1", tmp_path / "busy") == Path(ADB_EXEC_FAIL)
    assert not (tmp_path / "busy").exists()


def test_action_methods_act_on_the_phone(ext_env, phone):
    x, y = center(node_bounds(phone.dump_ui(), text="Notes"))
    assert ext_env.system_tap(x, y) == ""
    assert foreground(phone) == "com.androidrl.notes"
    ext_env.system_tap(*center(node_bounds(phone.dump_ui(), resource_id="com.androidrl.notes:id/note_input")))
    attack = 'it\'s a "test"; touch /sdcard/pwned & $(reboot) `id` | 50%s'
    assert ext_env.user_input(attack) == ""
    assert phone.top_activity.draft == attack
    assert not phone.fs.exists("/sdcard/pwned") and phone.online
    assert ext_env.system_back() == ""  # the first BACK closes the soft keyboard
    assert foreground(phone) == "com.androidrl.notes"
    ext_env.system_back()
    assert foreground(phone) == "com.android.launcher3"
    phone.shell("am start -n com.android.settings/.Settings")
    ext_env.user_swipe(180, 700, orient="up", dist="long")
    ext_env.user_swipe_to((180, 700), (180, 100))
    assert 'text="About phone"' in phone.dump_ui()
    ext_env.user_longpress(*center(node_bounds(phone.dump_ui(), text="About phone")))
    assert phone.foreground()[1].endswith("MyDeviceInfoActivity")
    ext_env.user_exit()
    assert foreground(phone) == "com.android.launcher3"
    assert ext_env.user_swipe(10, 10, orient="sideways") == ADB_EXEC_FAIL


def test_untypable_text_raises(ext_env):
    with pytest.raises(ValueError, match="cannot type"):
        ext_env.user_input("héllo")


def test_gym_api(ext_env, phone, tmp_path):
    obs, info = ext_env.reset(seed=0)
    assert ext_env.observation_space.contains(obs) and Path(obs["screenshot"]).exists()
    action = EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=center(node_bounds(phone.dump_ui(), text="Clock")))
    obs, reward, terminated, truncated, info = ext_env.step(action)
    assert info["res"] == "" and foreground(phone) == "com.android.deskclock"
    assert 'package="com.android.deskclock"' in Path(obs["xml"]).read_text()
    *_, info = ext_env.step({"action_type": EnvActionType.USER_INPUT, "input_txt": "日本"})
    assert info["res"] == ADB_EXEC_FAIL and "cannot type" in info["action_error"]
    with pytest.raises(ValueError, match="outside"):
        ext_env.step(EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(400, 10)))
    path = ext_env.observe(EnvObsParams(obs_type=EnvObsType.GET_SCREENSHOT, ss_name="a", local_save_dir=tmp_path))
    assert path == tmp_path / "a.png" and Image.open(io.BytesIO(path.read_bytes())).size == (360, 800)
    assert ext_env.observe(EnvObsParams(obs_type=EnvObsType.GET_XML, xml_name="b", local_save_dir=tmp_path)).exists()
    assert set(ext_env.observe(EnvObsParams(obs_type=EnvObsType.NONE))) == {"screenshot", "xml"}


def test_gymnasium_check_env(ext_env):
    # MetaGPT's API has pixel coordinates in a Box: Gymnasium's generic advice about it is expected.
    with pytest.warns(UserWarning, match="symmetric and normalized"):
        check_env(ext_env, skip_render_check=True)


def test_adb_command_lines_never_reach_a_host_shell(ext_env, tmp_path):
    marker = tmp_path / "pwned"
    assert ext_env.execute_adb_with_cmd(f"adb devices; touch {marker}") == ADB_EXEC_FAIL
    assert ext_env.execute_adb_with_cmd(f"adb $(touch {marker})") == ADB_EXEC_FAIL
    assert not marker.exists()

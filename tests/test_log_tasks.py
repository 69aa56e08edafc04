"""Tasks judged from the log and reset from a snapshot: the built-in wifi-on-logged, and the spec's checks."""

import pytest

from androidrl import AndroidEnv, VirtualDevice
from androidrl.device.adb import AdbDevice
from androidrl.errors import TaskError
from androidrl.spaces import EnvAction, EnvActionType
from androidrl.tasks.registry import make_task
from androidrl.tasks.spec import parse_spec

from conftest import serve_as_emulator_with_console

NOOP = EnvAction(action_type=EnvActionType.NONE)
SNAPSHOT = "androidrl-wifi-off-home"


def test_a_log_condition_counts_only_lines_since_the_reset(phone):
    phone.shell("svc wifi enable")  # logged before the episode: must not count
    env = AndroidEnv(VirtualDevice(phone), "wifi-on-logged", dump_xml=False)
    try:
        env.reset(seed=0)
        assert not phone.radios.wifi_enabled  # the snapshot saved at setup: Wi-Fi off, home screen
        _, _, terminated, _, info = env.step(NOOP)
        assert not terminated and not info["is_success"]
        phone.shell("svc wifi disable")  # a WifiService line, but not the one the task waits for
        assert not env.step(NOOP)[2]
        phone.radios.set_wifi(True)  # as the Wi-Fi switch in Settings does: WifiService logs it
        _, reward, terminated, _, info = env.step(NOOP)
        assert terminated and info["is_success"] and reward > 0.5
        env.reset(seed=1)  # from the snapshot again: Wi-Fi off, and the old line no longer counts
        assert not phone.radios.wifi_enabled and phone.foreground()[0] == "com.android.launcher3"
        assert not env.step(NOOP)[2]
    finally:
        env.close()


def test_the_snapshot_is_saved_once_at_setup_and_kept(phone):
    device = VirtualDevice(phone)
    env = AndroidEnv(device, "wifi-on-logged", dump_xml=False)
    try:
        env.reset(seed=0)
        assert device.snapshot_names() == [SNAPSHOT]
        phone.save_snapshot("other")
        phone.shell("svc wifi enable")
        env.reset(seed=1)
        assert device.snapshot_names() == [SNAPSHOT, "other"] and not phone.radios.wifi_enabled
    finally:
        env.close()


def test_on_an_emulator_the_snapshot_is_saved_once_then_only_loaded(phone, adbd, adb_server, monkeypatch):
    """Over adb and the emulator console (``adb emu avd snapshot ...``), as on a real emulator: a
    second env on the same emulator finds the snapshot in the console's list and does not save over it."""
    console, server = serve_as_emulator_with_console(adbd, phone, adb_server)
    monkeypatch.setenv("HOME", str(adb_server.home))  # where the console's token is
    serial = f"emulator-{console.port}"
    try:
        adb_server.adb("-s", serial, "wait-for-device", timeout=20)
        for seed in range(2):
            env = AndroidEnv(AdbDevice(serial, port=adb_server.port), "wifi-on-logged", dump_xml=False)
            try:
                env.reset(seed=seed)
                assert not phone.radios.wifi_enabled  # loaded: Wi-Fi off, as when it was saved
                if seed == 0:
                    saved = phone.snapshots()
                    assert [s.name for s in saved] == [SNAPSHOT]
                    phone.shell("svc wifi enable")  # the phone moves on; the next env must not save this
            finally:
                env.close()
        assert phone.snapshots() == saved
    finally:
        adbd.stop_server(server)
        adbd.stop_server(console)


def test_a_phone_that_cannot_keep_snapshots_is_a_clear_setup_error(served, adb_server):
    device = AdbDevice(served.serial, port=adb_server.port)  # a host:port serial: no emulator console
    task = make_task("wifi-on-logged")
    with pytest.raises(TaskError, match=r"saving snapshots \['androidrl-wifi-off-home'\]: .* is not an emulator"):
        task.setup(device)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"success": {"logcat": {"matches": "("}}}, "invalid regex"),
        ({"success": {"logcat": {"tag": "Wifi Service", "matches": "x"}}}, "logcat.tag"),
        ({"success": {"logcat": {"matches": "x", "buffer": "kernel"}}}, "logcat.buffer"),
        ({"success": {"logcat": {"matches": "x", "priority": "X"}}}, "logcat.priority"),
        ({"reset": [{"snapshot": "bad name!"}]}, "snapshot"),
    ],
)
def test_bad_log_conditions_and_snapshot_steps_are_named(spec, message):
    data = {"name": "t", "success": {"shell": "true", "exit_code": 0}, **spec}
    with pytest.raises(TaskError, match=message):
        parse_spec(data)

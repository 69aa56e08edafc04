"""AdbDevice and the adb client: errors, reconnection, two phones at once, decoding, CLI."""

import struct
import threading

import numpy as np
import pytest

from androidrl import AndroidEnv, EnvAction, EnvActionType
from androidrl.cli import main
from androidrl.device.adb import AdbDevice
from androidrl.device.adb_client import AdbClient
from androidrl.device.adb_server import IsolatedAdbServer, free_port
from androidrl.device.screencap import decode_screencap, screencap_length
from androidrl.errors import DeviceBusyError, DeviceError, DeviceNotFoundError, DeviceOfflineError
from androidrl.virtual.phone import VirtualPhone

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds, serve_as_emulator


def test_unknown_serial_is_not_found(adb_server):
    device = AdbDevice("emulator-5998", port=adb_server.port, timeout=2)
    with pytest.raises(DeviceNotFoundError, match="emulator-5998"):
        device.connect()
    with pytest.raises(DeviceNotFoundError):
        device.tap(1, 1)


def test_nothing_listening_is_a_clear_error(adb_server):
    device = AdbDevice(f"127.0.0.1:{free_port()}", port=adb_server.port, timeout=2)
    with pytest.raises(DeviceOfflineError, match="adb connect"):
        device.connect()


def test_no_adb_server_is_a_clear_error():
    client = AdbClient(port=free_port(), start_server=False, timeout=2)
    with pytest.raises(DeviceError, match="no adb server at 127.0.0.1"):
        client.devices()


def test_an_isolated_server_says_whether_it_answers_and_shows_its_log():
    server = IsolatedAdbServer()
    assert not server.answers() and server.log_tail() == ""
    with server:
        assert server.answers()
        assert "adb starting" in server.log_tail()
    assert not server.answers()


def test_a_tcp_serial_is_connected_on_demand(adb_server, adbd, phone):
    server = adbd.serve(phone)
    try:
        device = AdbDevice(server.serial, port=adb_server.port)
        device.connect()  # adb did not know it: AdbDevice ran `adb connect`
        assert device.shell("echo hi") == "hi\n"
    finally:
        adbd.stop_server(server)
        adb_server.adb("disconnect", server.serial, check=False)


def test_a_killed_server_truncates_the_episode_and_the_device_recovers(served, adbd, adb_server, phone, tmp_path):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=3)
    env = AndroidEnv(device, save_dir=tmp_path, reset_timeout=20)
    env.reset(seed=0)
    adbd.stop_server(served)  # the device's adbd dies mid-episode
    *_, truncated, info = env.step(EnvAction(action_type=EnvActionType.SYSTEM_HOME))
    assert truncated and info["device_error"].startswith("DeviceOfflineError")
    again = adbd.serve(phone, port=served.port)  # ...and comes back on its port
    try:
        obs, _ = env.reset()  # reconnects with `adb disconnect` + `adb connect`, never restarts adb
        x, y = center(node_bounds(env.xml, text="Settings"))
        env.step(EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(x, y)))
        assert phone.foreground()[0] == "com.android.settings"
    finally:
        env.close()
        adbd.stop_server(again)


def test_an_emulator_serial_is_announced_again_after_a_reboot(adb_server, adbd, phone):
    server = serve_as_emulator(adbd, phone, adb_server)
    try:
        device = AdbDevice(f"emulator-{server.port - 1}", port=adb_server.port, timeout=3)
        device.wait_ready(timeout=10)
        with pytest.raises(DeviceOfflineError):  # `reboot` never answers: the connection drops
            device.shell("reboot")
        device.wait_ready(timeout=20)
        assert device.shell("getprop sys.boot_completed") == "1\n"
    finally:
        adbd.stop_server(server)


def test_two_phones_step_in_parallel(adbd, adb_server, tmp_path):
    phones = [VirtualPhone(360, 800, 160, seed=i, serial=f"p{i}") for i in range(2)]
    servers = [adbd.serve(p) for p in phones]
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            device = AdbDevice(servers[index].serial, port=adb_server.port)
            env = AndroidEnv(device, save_dir=tmp_path / str(index))
            env.reset(seed=index)
            target = "Settings" if index == 0 else "Notes"
            env.step(EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=center(node_bounds(env.xml, text=target))))
            for _ in range(20):
                env.step(EnvAction(action_type=EnvActionType.USER_SWIPE, coord=(180, 500)))
            env.close()
        except BaseException as err:  # noqa: BLE001  (reported below)
            errors.append(err)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert not errors, errors
        assert phones[0].foreground()[0] == "com.android.settings"
        assert phones[1].foreground()[0] == "com.androidrl.notes"
    finally:
        for server in servers:
            adbd.stop_server(server)
            adb_server.adb("disconnect", server.serial, check=False)


# ---------------------------------------------------------------------------- decoding


def _raw(width, height, fmt, pixels: bytes, colorspace: bool = True) -> bytes:
    header = struct.pack("<III", width, height, fmt) + (struct.pack("<I", 1) if colorspace else b"")
    return header + pixels


def test_decode_both_header_sizes_and_formats():
    rgb = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    rgba = np.concatenate([rgb, np.full((2, 3, 1), 255, np.uint8)], axis=2).tobytes()
    assert np.array_equal(decode_screencap(_raw(3, 2, 1, rgba)), rgb)
    assert np.array_equal(decode_screencap(_raw(3, 2, 1, rgba, colorspace=False)), rgb)
    bgra = np.concatenate([rgb[..., ::-1], np.full((2, 3, 1), 255, np.uint8)], axis=2).tobytes()
    assert np.array_equal(decode_screencap(_raw(3, 2, 5, bgra)), rgb)
    assert np.array_equal(decode_screencap(_raw(3, 2, 3, rgb.tobytes())), rgb)
    white565 = np.full((2, 3), 0xFFFF, "<u2").tobytes()
    assert np.all(decode_screencap(_raw(3, 2, 4, white565)) == 255)


@pytest.mark.parametrize(
    "raw", [b"", b"/system/bin/sh: screencap: not found\n", _raw(3, 2, 1, b"\0" * 5), _raw(3, 2, 99, b"\0" * 24)]
)
def test_decode_rejects_what_is_not_a_screencap(raw):
    with pytest.raises(DeviceError, match="screencap"):
        decode_screencap(raw)


def test_screencap_length_tells_the_header_size_by_what_follows():
    rgba = bytes(range(24))
    for colorspace, header in ((True, 16), (False, 12)):
        frame = _raw(3, 2, 1, rgba, colorspace=colorspace)
        assert screencap_length(frame, b"<?xml") == header + 24  # the frame alone
        assert screencap_length(frame + b"<?xml version='1.0'?>", b"<?xml") == header + 24
    with pytest.raises(DeviceError, match="and then"):
        screencap_length(_raw(3, 2, 1, rgba) + b"garbage", b"<?xml")


# ---------------------------------------------------------------------------- perform_and_observe


def test_perform_and_observe_acts_then_reads_what_the_three_calls_read(served, adb_server, phone):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=10)
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    field = center(node_bounds(device.dump_ui(), resource_id="com.androidrl.notes:id/note_input"))
    seen = device.perform_and_observe(EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=field))
    assert np.array_equal(seen.frame, phone.screenshot()) and seen.xml == phone.dump_ui()
    attack = "x'; touch /sdcard/p1; echo $(touch /sdcard/p2) && reboot"  # typed literally, runs nothing
    seen = device.perform_and_observe(EnvAction(action_type=EnvActionType.USER_INPUT, input_txt=attack), frame=False)
    assert phone.top_activity.draft == attack and seen.frame is None and seen.xml == phone.dump_ui()
    assert not phone.fs.exists("/sdcard/p1") and not phone.fs.exists("/sdcard/p2") and phone.online
    seen = device.perform_and_observe(EnvAction(action_type=EnvActionType.SYSTEM_HOME), xml=False)
    assert phone.foreground()[0] == "com.android.launcher3" and seen.xml is None
    assert np.array_equal(seen.frame, phone.screenshot())
    assert device.perform_and_observe(EnvAction(), frame=False, xml=False) == (None, None, "")
    assert phone.fs.listdir("/data/local/tmp") == []  # no dump left behind


def test_perform_and_observe_reads_a_frame_with_the_old_12_byte_header(adbd, adb_server):
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, sdk=28, boot_seconds=0.2)
    server = adbd.serve(phone)
    try:
        device = AdbDevice(server.serial, port=adb_server.port, timeout=10)
        device.wait_ready(timeout=10)
        assert len(phone.screencap()) == 12 + WIDTH * HEIGHT * 4
        seen = device.perform_and_observe(EnvAction())
        assert np.array_equal(seen.frame, phone.screenshot()) and seen.xml == phone.dump_ui()
    finally:
        adbd.stop_server(server)
        adb_server.adb("disconnect", server.serial, check=False)


def test_perform_and_observe_refuses_a_bad_action_before_sending_and_the_device_still_runs_commands(
    served, adb_server, phone
):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=10)
    with pytest.raises(ValueError, match="outside the 360x800 screen"):
        device.perform_and_observe(EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(5000, 10)))
    with pytest.raises(ValueError, match="cannot type"):
        device.perform_and_observe(EnvAction(action_type=EnvActionType.USER_INPUT, input_txt="héllo"))
    assert device.shell("echo still here") == "still here\n"  # run, not collected as an action's command


def test_perform_and_observe_dumps_a_busy_screen_again_as_dump_ui_does(served, adb_server, phone):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=10)
    device.shell("am start -n com.androidrl.practice/.TargetActivity --ez animate true")
    with pytest.raises(DeviceBusyError, match="could not get idle state"):
        device.perform_and_observe(EnvAction())
    seen = device.perform_and_observe(EnvAction(action_type=EnvActionType.SYSTEM_HOME))  # home is idle
    assert seen.xml == phone.dump_ui() and "com.android.launcher3" in seen.xml


# ---------------------------------------------------------------------------- CLI


def test_devices_and_doctor_commands(served, capsys, monkeypatch):
    # An adb server of its own: the doctor fails on any unusable device, and the session's
    # server may still list phones that other tests stopped.
    with IsolatedAdbServer() as adb_server:
        adb_server.adb("connect", served.serial)
        adb_server.adb("-s", served.serial, "wait-for-device", timeout=10)
        monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
        _devices_and_doctor(served, capsys)


def _devices_and_doctor(served, capsys):
    assert main(["devices"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(served.serial))
    assert row.split() == [served.serial, "device", "androidrl", "Virtual", "Phone", "360x800"]
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "[ok] adb server" in out and f"[ok] {served.serial}: screen 360x800" in out


def test_devices_explains_an_offline_device(served, adb_server, adbd, capsys, monkeypatch):
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(adb_server.port))
    adbd.stop_server(served)
    main(["devices"])
    out = capsys.readouterr().out
    assert f"{served.serial} is offline: not answering" in out
    assert main(["doctor"]) == 1


@pytest.mark.parametrize("serial", ["", "   ", None])
def test_a_serial_is_required(serial):
    with pytest.raises(ValueError, match="serial must be a non-empty string"):
        AdbDevice(serial)


def test_a_command_over_the_adb_request_limit_is_refused_and_the_device_still_answers(served, adb_server):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=5)
    with pytest.raises(ValueError, match="over the adb server's limit of 65535"):
        device.shell("echo " + "a" * 70_000)
    assert device.shell("echo " + "a" * 60_000) == "a" * 60_000 + "\n"


def test_a_shell_output_of_several_packets_arrives_whole_and_apart_from_stderr(served, adb_server, phone):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=10)
    result = device.execute("screencap; echo done >&2; screencap; exit 3")  # two 1.1 MB shell packets
    assert (result.stdout, result.stderr, result.exit_code) == (2 * phone.screencap(), b"done\n", 3)
    assert isinstance(result.stdout, bytes)


def test_a_device_adb_stops_listing_mid_episode_is_offline_not_unknown(served, adb_server):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=3)
    assert device.shell("echo hi") == "hi\n"
    adb_server.adb("disconnect", served.serial)  # adb forgets the device it was talking to
    with pytest.raises(DeviceOfflineError, match="disconnected"):
        device.execute("echo hi")
    device.wait_ready(timeout=10)  # reconnects it (adb connect), never restarting the server
    assert device.shell("echo back") == "back\n"


def test_adb_command_lines_run_in_process_as_the_adb_binary_would(served, adb_server, tmp_path):
    from androidrl.device.adb_cli import run_adb_command

    client, serial = AdbClient(port=adb_server.port), served.serial
    (tmp_path / "a.txt").write_text("hello")
    assert run_adb_command(f"adb -s {serial} get-state", client).stdout == "device\n"
    assert (
        run_adb_command(["adb", "-s", serial, "push", str(tmp_path / "a.txt"), "/sdcard/a.txt"], client).returncode == 0
    )
    assert adb_server.adb("-s", serial, "exec-out", "cat", "/sdcard/a.txt").stdout == "hello"  # the binary agrees
    assert run_adb_command(f"adb -s {serial} exec-out cat /sdcard/a.txt", client).stdout == "hello"
    assert run_adb_command(f"adb -s {serial} pull /sdcard/a.txt {tmp_path / 'b.txt'}", client).returncode == 0
    assert (tmp_path / "b.txt").read_text() == "hello"
    assert run_adb_command(f"adb disconnect {serial}", client).stdout == f"disconnected {serial}\n"
    assert serial not in adb_server.adb("devices").stdout
    assert "connected to" in run_adb_command(f"adb connect {serial}", client).stdout
    adb_server.adb("-s", serial, "wait-for-device", timeout=10)
    version = run_adb_command("adb version", client)  # not handled in process: the adb binary runs it
    assert version.returncode == 0 and "Android Debug Bridge" in version.stdout

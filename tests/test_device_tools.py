"""The phone's hardware tools through the real adb: getevent and sendevent (input devices), screenrecord (display).

getevent follows AOSP ``system/core/toolbox/getevent.c``; screenrecord follows
``frameworks/av/cmds/screenrecord/screenrecord.cpp`` and writes H.264 that ffmpeg (from the
train extra's imageio-ffmpeg) decodes; the encoder's own output is checked bit for bit.
"""

from __future__ import annotations

import re
import select
import struct
import subprocess
import threading
import time

import numpy as np
import pytest
from PIL import Image

from androidrl.device.adb_server import adb_path
from androidrl.keycodes import KEYCODE_BACK
from androidrl.virtual.media.h264 import H264Encoder, annexb, mp4, rgb_to_yuv420
from androidrl.virtual.system.input.evdev import TOUCH_MAX

from conftest import HEIGHT, WIDTH, center, node_bounds


def adb(adb_server, serial: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([adb_path(), "-s", serial, *args], env=adb_server.env, capture_output=True, timeout=timeout)


def popen(adb_server, serial: str, *args: str) -> subprocess.Popen:
    """An adb client left running, its stdout unbuffered (so select() sees every byte still unread)."""
    return subprocess.Popen([adb_path(), "-s", serial, *args], env=adb_server.env, stdout=subprocess.PIPE, bufsize=0)


def read_lines(process: subprocess.Popen, done, timeout: float = 20) -> list[str]:
    """Lines from ``process`` until ``done(lines)``; fails rather than hangs when they stop coming."""
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while not done(lines):
        ready = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))[0]
        assert ready, f"timed out; got {lines}"
        line = process.stdout.readline()
        assert line, f"the stream ended; got {lines}"
        lines.append(line.decode())
    return lines


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# ------------------------------------------------------------------------------ getevent, sendevent


def _event(line: str) -> str:
    """An event line without its time stamp and with the padding collapsed: 'DEVICE: TYPE CODE VALUE'."""
    return " ".join(re.sub(r"^\[ *\d+\.\d{6}\] ", "", line).split())


def test_getevent_reports_the_hardware_not_what_input_injects(phone, served, adb_server):
    follow = popen(adb_server, served.serial, "shell", "getevent -lt")
    try:
        heading = read_lines(follow, lambda lines: len(lines) == 4)
        assert heading == [
            "add device 1: /dev/input/event0\n",
            '  name:     "qwerty2"\n',
            "add device 2: /dev/input/event1\n",
            '  name:     "virtio_input_multi_touch_1"\n',
        ]
        # injected, as InputManager.injectInputEvent does: it never reaches /dev/input
        assert adb(adb_server, served.serial, "shell", "input tap 50 50; input keyevent HOME").returncode == 0
        phone.tap(90, 200)  # a finger on the touchscreen
        phone.press_key(KEYCODE_BACK)  # a key on the keyboard
        lines = read_lines(follow, lambda lines: len(lines) == 14)
    finally:
        stop(follow)
    stamp = r"^\[ *\d+\.\d{6}\] /dev/input/event1: EV_ABS       ABS_MT_TRACKING_ID   00000000            \n$"
    assert re.match(stamp, lines[0]), lines[0]  # the tap came first: nothing from the injections
    x, y = round(90 * (TOUCH_MAX + 1) / WIDTH), round(200 * (TOUCH_MAX + 1) / HEIGHT)
    assert [_event(line) for line in lines] == [
        "/dev/input/event1: EV_ABS ABS_MT_TRACKING_ID 00000000",
        f"/dev/input/event1: EV_ABS ABS_MT_POSITION_X {x:08x}",
        f"/dev/input/event1: EV_ABS ABS_MT_POSITION_Y {y:08x}",
        "/dev/input/event1: EV_ABS ABS_MT_PRESSURE 00000400",
        "/dev/input/event1: EV_KEY BTN_TOUCH DOWN",
        "/dev/input/event1: EV_SYN SYN_REPORT 00000000",
        "/dev/input/event1: EV_ABS ABS_MT_PRESSURE 00000000",
        "/dev/input/event1: EV_ABS ABS_MT_TRACKING_ID ffffffff",
        "/dev/input/event1: EV_KEY BTN_TOUCH UP",
        "/dev/input/event1: EV_SYN SYN_REPORT 00000000",
        "/dev/input/event0: EV_KEY KEY_BACK DOWN",
        "/dev/input/event0: EV_SYN SYN_REPORT 00000000",
        "/dev/input/event0: EV_KEY KEY_BACK UP",
        "/dev/input/event0: EV_SYN SYN_REPORT 00000000",
    ]


def test_getevent_on_one_device_stops_after_count(phone, served, adb_server):
    follow = popen(adb_server, served.serial, "shell", "getevent -c 2 /dev/input/event0")
    try:
        _until(lambda: "getevent -c 2 /dev/input/event0" in phone.command_log)  # it reached the phone
        time.sleep(0.2)  # and opened the device (it prints nothing to say so with a device given)
        phone.press_key(KEYCODE_BACK)
        assert follow.wait(timeout=20) == 0  # -c 2: two events, then it exits
        assert follow.stdout.read() == b"0001 009e 00000001\n0000 0000 00000000\n"  # no -l: hex; one device: no name
    finally:
        stop(follow)


def test_sendevent_is_read_as_a_touch_and_a_key(phone, served, adb_server):
    x, y = center(node_bounds(phone.dump_ui(), text="Notes"))
    raw_x, raw_y = x * (TOUCH_MAX + 1) // WIDTH, y * (TOUCH_MAX + 1) // HEIGHT
    touch = [(3, 0x39, 7), (3, 0x35, raw_x), (3, 0x36, raw_y), (1, 0x14A, 1), (0, 0, 0)]
    touch += [(3, 0x39, -1), (1, 0x14A, 0), (0, 0, 0)]  # the MT protocol B: a slot's contact, then its lift
    assert adb(adb_server, served.serial, "shell", sendevents("/dev/input/event1", touch)).returncode == 0
    assert phone.foreground()[0] == "com.androidrl.notes"
    key_back = [(1, 158, 1), (0, 0, 0), (1, 158, 0), (0, 0, 0)]
    assert adb(adb_server, served.serial, "shell", sendevents("/dev/input/event0", key_back)).returncode == 0
    assert phone.foreground()[0] == "com.android.launcher3"


def sendevents(device: str, events: list[tuple[int, int, int]]) -> str:
    """One command line writing each (type, code, value) to ``device``."""
    return "; ".join(f"sendevent {device} {t} {c} {v}" for t, c, v in events)


def test_keyboard_letters_type_into_the_focused_field(phone):
    phone.shell("am start -n com.androidrl.notes/.MainActivity")
    bounds = node_bounds(phone.dump_ui(), resource_id="com.androidrl.notes:id/note_input")
    phone.tap(*center(bounds))
    shift_h = [(1, 42, 1), (1, 35, 1), (0, 0, 0), (1, 35, 0), (1, 42, 0), (0, 0, 0)]  # KEY_LEFTSHIFT held over KEY_H
    assert phone.shell(sendevents("/dev/input/event0", shift_h)).exit_code == 0
    assert phone.shell("input keyevent KEYCODE_I KEYCODE_1").exit_code == 0  # the key map types them too
    assert 'text="Hi1" resource-id="com.androidrl.notes:id/note_input"' in phone.dump_ui()


# ------------------------------------------------------------------------------ the H.264 encoder


def _ffmpeg() -> str:
    return pytest.importorskip("imageio_ffmpeg").get_ffmpeg_exe()


def _decode(data: bytes, pixel_format: str, form: str = "mp4") -> bytes:
    result = subprocess.run(
        [_ffmpeg(), "-v", "error", "-f", form, "-i", "pipe:", "-f", "rawvideo", "-pix_fmt", pixel_format,
         "-fps_mode", "passthrough", "pipe:"],
        input=data, capture_output=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0 and not result.stderr, result.stderr.decode()
    return result.stdout


def _frames(rng: np.random.Generator, width: int, height: int) -> list[np.ndarray]:
    frames = [rng.integers(0, 256, (height, width, 3), dtype=np.uint8)]
    for size in (5, 12, 30, height):  # small changes (skipped and I_PCM macroblocks), then everything
        frame = frames[-1].copy()
        top, left = rng.integers(0, height - min(size, height) + 1), rng.integers(0, width - min(size, width) + 1)
        frame[top : top + size, left : left + size] = rng.integers(0, 256, (min(size, height), min(size, width), 3))
        frames.append(frame)
    return frames


@pytest.mark.parametrize(("width", "height"), [(160, 96), (100, 70)], ids=["whole-macroblocks", "cropped"])
def test_h264_decodes_bit_exact_in_mp4_and_as_a_raw_stream(width, height):
    frames = _frames(np.random.default_rng(width), width, height)
    encoder = H264Encoder(width, height)
    units = [encoder.encode(frame, i * 0.1) for i, frame in enumerate(frames)]
    assert [key for _, key in units] == [True, False, False, False, True]  # all new: a key frame again
    expected = b"".join(
        b"".join(plane[: height >> bool(i), : width >> bool(i)].tobytes() for i, plane in enumerate(planes))
        for planes in (rgb_to_yuv420(frame, *encoder.coded) for frame in frames)
    )
    samples = [(nal, key, i * 0.1) for i, (nal, key) in enumerate(units)]
    assert _decode(mp4(encoder, samples, 0.5), "yuv420p") == expected
    stream = annexb(encoder.sps, encoder.pps, *(nal for nal, _ in units))
    assert _decode(stream, "yuv420p", form="h264") == expected
    assert encoder.encode(frames[-1], 0.6) is None  # nothing changed: no frame


# ------------------------------------------------------------------------------ screenrecord


def _close_to(decoded: np.ndarray, screen: np.ndarray) -> bool:
    """Within what YUV 4:2:0 conversion changes in a UI frame."""
    return float(np.abs(decoded.astype(int) - screen).mean()) < 3.0


def test_screenrecord_records_each_change_of_the_screen(phone):
    result = {}
    command = "screenrecord --verbose --time-limit 3 /sdcard/rec.mp4"
    recorder = threading.Thread(target=lambda: result.update(r=phone.shell(command)))
    recorder.start()
    _until(lambda: phone.fs.exists("/sdcard/rec.mp4"))  # it made the file, then looks at the screen
    time.sleep(0.2)
    screens = [phone.screenshot().copy()]
    phone.shell("svc wifi disable")  # the status bar's icon: a few macroblocks (P_Skip around them)
    time.sleep(0.3)
    screens.append(phone.screenshot().copy())
    phone.shell("am start -n com.android.settings/.Settings")  # a new screen
    time.sleep(0.3)
    screens.append(phone.screenshot().copy())
    recorder.join(timeout=30)
    verbose = result["r"].stdout.decode()
    assert result["r"].exit_code == 0 and result["r"].stderr == b""
    assert re.fullmatch(
        r"Time limit set to 3 seconds\nDisplay is 360x800 @60\.00fps \(orientation=ROTATION_0\), layerStack=0\n"
        r"Configuring recorder for 360x800 video/avc at 20\.00Mbps\nContent area is 360x800 at offset x=0 y=0\n"
        r"Time limit reached\nEncoder stopping; recorded 3 frames in \d+ seconds\nStopping encoder and muxer\n"
        r"Executing: /system/bin/am broadcast -a android\.intent\.action\.MEDIA_SCANNER_SCAN_FILE "
        r"-d file:///sdcard/rec\.mp4\n",
        verbose,
    ), verbose
    data = phone.fs.read("/sdcard/rec.mp4")
    assert data[4:12] == b"ftypmp42"
    decoded = np.frombuffer(_decode(data, "rgb24"), np.uint8).reshape(-1, HEIGHT, WIDTH, 3)
    assert len(decoded) == 3 and all(_close_to(d, s) for d, s in zip(decoded, screens))


def _until(check, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_screenrecord_raw_frames_are_the_screen_itself(phone):
    assert phone.shell("screenrecord --output-format=frames --time-limit 1 /sdcard/f.bin").exit_code == 0
    data = phone.fs.read("/sdcard/f.bin")
    size = WIDTH * HEIGHT * 3
    assert struct.unpack("<5I", data[:20]) == (16 + size, WIDTH, HEIGHT, WIDTH * 3, 3)  # HAL_PIXEL_FORMAT_RGB_888
    assert data[20 : 20 + size] == phone.screenshot().tobytes() and len(data) == 20 + size
    assert phone.shell("screenrecord --output-format=raw-frames --time-limit 1 /sdcard/r.bin").exit_code == 0
    assert phone.fs.read("/sdcard/r.bin") == phone.screenshot().tobytes()


def test_adb_screenrecord_stopped_by_ctrl_c_finishes_the_file(phone, served, adb_server, tmp_path):
    recorder = popen(adb_server, served.serial, "shell", "screenrecord /sdcard/demo.mp4")
    try:
        _until(lambda: phone.fs.exists("/sdcard/demo.mp4"))  # screenrecord creates it as it starts
        time.sleep(0.3)
        phone.shell("am start -n com.android.settings/.Settings")
        time.sleep(0.3)
    finally:
        stop(recorder)  # the client goes: adbd hangs up, screenrecord finishes the file
    _until(lambda: phone.fs.read("/sdcard/demo.mp4"))  # finished
    local = tmp_path / "demo.mp4"
    assert adb(adb_server, served.serial, "pull", "/sdcard/demo.mp4", str(local)).returncode == 0
    decoded = np.frombuffer(_decode(local.read_bytes(), "rgb24"), np.uint8).reshape(-1, HEIGHT, WIDTH, 3)
    assert len(decoded) == 2 and _close_to(decoded[-1], phone.screenshot())


def test_adb_exec_out_screenrecord_streams_h264(phone, served, adb_server):
    result = adb(adb_server, served.serial, "exec-out", "screenrecord --output-format=h264 --time-limit 1 -")
    assert result.returncode == 0 and result.stdout.startswith(b"\x00\x00\x00\x01\x67\x42\xc0")  # SPS: Baseline
    decoded = np.frombuffer(_decode(result.stdout, "rgb24", form="h264"), np.uint8).reshape(-1, HEIGHT, WIDTH, 3)
    assert len(decoded) == 1 and _close_to(decoded[0], phone.screenshot())
    command = "screenrecord --size 180x200 --output-format=h264 --time-limit 1 -"
    scaled = adb(adb_server, served.serial, "exec-out", command)
    frame = np.frombuffer(_decode(scaled.stdout, "rgb24", form="h264"), np.uint8).reshape(-1, 200, 180, 3)[0]
    assert frame[:, :45].max() < 20 and frame[:, -45:].max() < 20  # the 9:20 screen letterboxed, fitted in
    small = Image.fromarray(phone.screenshot()).resize((90, 200), Image.Resampling.BILINEAR)
    assert _close_to(frame[:, 45:135], np.asarray(small))

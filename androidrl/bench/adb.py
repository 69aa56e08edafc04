"""The adb suite: screenshot, tap, UI dump and an observed step over the real adb, against baselines."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image

from androidrl.bench.figures import Figure, interleave
from androidrl.device.adb import AdbDevice
from androidrl.device.adb_server import IsolatedAdbServer, adb_path, free_port
from androidrl.device.base import Device
from androidrl.device.virtual import VirtualDevice
from androidrl.spaces import EnvAction, EnvActionType
from androidrl.ui import ui_elements


class SeedWay:
    """MetaGPT's ``AndroidExtEnv`` way: a shell and an ``adb`` process per command, files via the phone."""

    def __init__(self, serial: str, env: dict[str, str], workdir: Path) -> None:
        self.serial, self.env, self.workdir = serial, env, workdir

    def _adb(self, command: str) -> str:
        result = subprocess.run(  # shell=True on purpose: this is the baseline being measured
            f"{adb_path()} -s {self.serial} {command}",
            shell=True,
            capture_output=True,
            text=True,
            env=self.env,
            check=False,
        )
        if result.returncode:
            raise RuntimeError(f"seed way: `adb {command}` failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def screenshot(self) -> np.ndarray:
        self._adb("shell screencap -p /sdcard/bench_ss.png")
        self._adb(f"pull /sdcard/bench_ss.png {self.workdir / 'ss.png'}")
        return np.asarray(Image.open(self.workdir / "ss.png").convert("RGB"))

    def tap(self, x: int, y: int) -> None:
        self._adb(f"shell input tap {x} {y}")

    def dump_ui(self) -> str:
        self._adb("shell uiautomator dump /sdcard/bench_ui.xml")
        self._adb(f"pull /sdcard/bench_ui.xml {self.workdir / 'ui.xml'}")
        return (self.workdir / "ui.xml").read_text()


class VirtualPhoneProcess:
    """``androidrl virtual`` in a child process behind a private adb server (a stand-in device)."""

    def __init__(self, width: int, height: int, density: int) -> None:
        self.server = IsolatedAdbServer().start()
        port = free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "androidrl.cli",
                "virtual",
                "--port",
                str(port),
                "--width",
                str(width),
                "--height",
                str(height),
                "--density",
                str(density),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.serial = self.proc.stdout.readline().strip()
        self.server.adb("connect", self.serial)
        self.device = AdbDevice(self.serial, port=self.server.port, timeout=30)
        self.device.wait_ready(timeout=30)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.server.stop()


def _adbutils_device(port: int, serial: str):
    """The adbutils device object for ``serial`` (adbutils is a dev dependency, for comparison only)."""
    import adbutils

    return adbutils.AdbClient(host="127.0.0.1", port=port).device(serial)


# ---------------------------------------------------------------------------- suites


def _toggle_wifi(device: Device) -> None:
    """Turn Wi-Fi off if it is on, else on (the Wi-Fi screen's switch flips: a new frame)."""
    on = device.shell("settings get global wifi_on").strip() == "1"
    device.shell(f"svc wifi {'disable' if on else 'enable'}")


def _wifi_row(device: Device) -> tuple[int, int]:
    """Centre of the Wi-Fi row: tapping it toggles Wi-Fi, so every step changes the screen."""
    device.shell("am start -a android.settings.WIFI_SETTINGS")
    return next(e.center for e in ui_elements(device.dump_ui()) if e.text == "Wi-Fi")


#: The contender of each adb figure that moves the figure's bytes and nothing else.
LIMIT = "transport limit"
_FRAME_FILE = "/data/local/tmp/bench_frame.raw"
_UI_FILE = "/data/local/tmp/bench_ui.xml"


def _transport_limits(adb: AdbDevice) -> dict[str, Callable[[], object]]:
    """Each adb figure's transport limit: its answer moved by adbd, the adb server and our client, no phone work.

    The answers are saved on the phone first (``screencap``'s raw bytes, a UI dump), then
    read back with ``cat`` over the service the figure's contender uses, so a figure's
    distance from its limit is what the phone's own work and the extra round trips cost:

    - screenshot: the raw frame over ``exec:``, as :meth:`AdbDevice.screenshot` reads it;
    - tap: ``true`` over shell protocol v2: a round trip answered by an exit status alone,
      which is all a tap answers;
    - UI XML: the same XML over shell protocol v2, as :meth:`Device.dump_ui` reads it;
    - observed step: the frame and the XML in one ``exec:`` (the fewest round trips that move
      both; the tap's request is a few bytes on the way there). Two ``cat`` commands, so the phone
      never joins the two files into one.
    """
    adb.shell(f"screencap {_FRAME_FILE} && uiautomator dump {_UI_FILE}")
    client, serial = adb.client, adb.serial
    both = f"cat {_FRAME_FILE}; cat {_UI_FILE}"
    size = len(client.exec_out_view(serial, both))  # read into buffers of the right size, as AdbDevice does
    return {
        "screenshot": lambda: client.exec_out_view(serial, f"cat {_FRAME_FILE}", size_hint=size),
        "tap": lambda: client.shell(serial, "true"),
        "xml": lambda: client.shell(serial, f"cat {_UI_FILE}"),
        "step": lambda: client.exec_out_view(serial, both, size_hint=size),
    }


def adb_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Screenshot, tap, UI dump and a whole observed step: seed vs AdbDevice vs in process, and each one's limit."""
    phone_proc = VirtualPhoneProcess(width, height, density)
    local = VirtualDevice(width=width, height=height, density=density)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            seed = SeedWay(phone_proc.serial, phone_proc.server.env, Path(tmp))
            lib = _adbutils_device(phone_proc.server.port, phone_proc.serial)
            adb = phone_proc.device
            devices = {"adbdevice": adb, "inprocess": local}
            points = {name: _wifi_row(dev) for name, dev in devices.items()}

            # Turning Wi-Fi on and off cost differently, so every contender must see both in turn:
            # each round flips the adb phone's Wi-Fi an odd number of times (three captures or taps;
            # in the step figure four taps and one flip before the limit).
            def change_screen(contender: str) -> None:  # untimed: every capture is of a new frame
                if contender != LIMIT:  # the limit reads a file: it needs no new frame
                    _toggle_wifi(local if contender == "inprocess" else adb)

            def even_out(contender: str) -> None:  # untimed, before each step
                if contender == LIMIT:
                    _toggle_wifi(adb)

            def step(dev_tap, dev_shot, dev_xml) -> Callable[[], None]:
                return lambda: (dev_tap(), dev_shot(), dev_xml())

            limits = _transport_limits(adb)
            x, y = points["adbdevice"]
            lx, ly = points["inprocess"]
            tap = EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(x, y))
            lib_shot = lambda: np.asarray(lib.screenshot())  # noqa: E731  (decoded, like the others)
            lib_tap = lambda: lib.shell(f"input tap {x} {y}")  # noqa: E731
            figures = [
                Figure(
                    "screenshot (RGB array)",
                    "seed",
                    interleave(
                        {
                            "seed": seed.screenshot,
                            "adbutils": lib_shot,
                            "adbdevice": adb.screenshot,
                            "inprocess": local.screenshot,
                            LIMIT: limits["screenshot"],
                        },
                        rounds,
                        before=change_screen,
                    ),
                    limit=LIMIT,
                ),
                Figure(
                    "tap",
                    "seed",
                    interleave(
                        {
                            "seed": lambda: seed.tap(x, y),
                            "adbutils": lib_tap,
                            "adbdevice": lambda: adb.tap(x, y),
                            "inprocess": lambda: local.tap(lx, ly),
                            LIMIT: limits["tap"],
                        },
                        rounds,
                    ),
                    limit=LIMIT,
                ),
                Figure(
                    "UI XML",
                    "seed",
                    interleave(
                        {
                            "seed": seed.dump_ui,
                            "adbutils": lib.dump_hierarchy,
                            "adbdevice": adb.dump_ui,
                            "inprocess": local.dump_ui,
                            LIMIT: limits["xml"],
                        },
                        rounds,
                        before=change_screen,
                    ),
                    limit=LIMIT,
                ),
                Figure(
                    "observed step (tap + screenshot + XML)",
                    "seed",
                    interleave(
                        {
                            "seed": step(lambda: seed.tap(x, y), seed.screenshot, seed.dump_ui),
                            "adbutils": step(lib_tap, lib_shot, lib.dump_hierarchy),
                            # as AndroidEnv steps: the action, the screen and the UI in one round trip
                            "adbdevice": lambda: adb.perform_and_observe(tap),
                            "adbdevice, 3 calls": step(lambda: adb.tap(x, y), adb.screenshot, adb.dump_ui),
                            "inprocess": step(lambda: local.tap(lx, ly), local.screenshot, local.dump_ui),
                            LIMIT: limits["step"],
                        },
                        rounds,
                        before=even_out,
                    ),
                    limit=LIMIT,
                ),
            ]
    finally:
        phone_proc.close()
    return figures

"""A drop-in for MetaGPT's ``metagpt.environment.android`` (``AndroidExtEnv`` and its spaces).

Agents built on MetaGPT switch by changing imports::

    from androidrl.compat.metagpt import AndroidExtEnv, EnvAction, EnvActionType, EnvObsParams, EnvObsType

The method-level contract is MetaGPT's: the same constructor arguments, ``adb_prefix*``
strings, ``device_shape``, ``list_devices``, ``get_screenshot``/``get_xml`` (screencap or
uiautomator dump on the device, then pull), ``system_back``, ``system_tap``, ``user_input``,
``user_longpress``, ``user_swipe``, ``user_swipe_to``, ``user_exit``, each returning adb's
stdout or :data:`ADB_EXEC_FAIL`, and every adb call going through the replaceable
:meth:`AndroidExtEnv.execute_adb_with_cmd`. Underneath, the env drives a :class:`MetaGPTDevice`
— androidrl's :class:`~androidrl.device.base.Device` whose shell goes through that method —
so screen size, UI dumps and actions are the Device layer's, as in
:class:`~androidrl.env.AndroidEnv`. What MetaGPT gets wrong is fixed: it is a real
``gymnasium.Env`` with real spaces and observations; ``execute_adb_with_cmd`` runs adb
in process (no ``shell=True``, a timeout on every call); typed text is quoted so that it is
typed literally and never runs a command; ``wm size`` overrides and ``adb devices`` junk
are parsed correctly; no models are loaded.

For speed on the training path use :class:`androidrl.env.AndroidEnv` with an
:class:`~androidrl.device.adb.AdbDevice`.
"""

from __future__ import annotations

import logging
import shlex
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from androidrl.device.adb_cli import run_adb_command
from androidrl.device.adb_client import AdbClient
from androidrl.device.base import CommandResult, Device
from androidrl.errors import DeviceError, DeviceNotFoundError
from androidrl.spaces import (
    DISTS,
    ORIENTS,
    EnvAction,
    EnvActionType,
    EnvObsParams,
    EnvObsType,
    check_on_screen,
    get_action_space,
    get_observation_space,
    swipe_end,
)

#: What adb-level calls return on failure (MetaGPT's constant).
ADB_EXEC_FAIL = "FAILED"

__all__ = [
    "ADB_EXEC_FAIL",
    "AndroidExtEnv",
    "EnvAction",
    "EnvActionType",
    "EnvObsParams",
    "EnvObsType",
    "MetaGPTDevice",
    "get_action_space",
    "get_observation_space",
]

logger = logging.getLogger(__name__)


class MetaGPTDevice(Device):
    """The :class:`~androidrl.device.base.Device` of an :class:`AndroidExtEnv`: shell commands as adb lines.

    Each command runs as ``adb -s SERIAL shell CMD`` through the env's
    :meth:`~AndroidExtEnv.execute_adb_with_cmd` (looked up at every call, so replacing it
    takes effect at once), which answers the stripped stdout or :data:`ADB_EXEC_FAIL` — a
    failure is exit code 1. The screen is the env's ``width`` x ``height``.
    """

    def __init__(self, env: AndroidExtEnv) -> None:
        super().__init__()
        self.env = env
        self.serial = env.device_id or ""

    @property
    def screen_size(self) -> tuple[int, int]:
        """The env's (width, height)."""
        return self.env.width, self.env.height

    def execute(self, command: str, *, timeout: float | None = None) -> CommandResult:
        output = self.env.execute_adb_with_cmd(f"{self.env.adb_prefix_shell}{shlex.quote(command)}")
        if output == ADB_EXEC_FAIL:
            return CommandResult(b"", ADB_EXEC_FAIL.encode(), 1)
        return CommandResult(output.encode(), b"", 0)

    def screenshot(self) -> np.ndarray:
        raise NotImplementedError("MetaGPT's API takes screenshots as files: use AndroidExtEnv.get_screenshot")


def _result(call: Callable[[], str]) -> str:
    """What ``call`` printed, or :data:`ADB_EXEC_FAIL` when the device refused it."""
    try:
        return call()
    except DeviceError:
        return ADB_EXEC_FAIL


class AndroidExtEnv(gym.Env):
    """MetaGPT's Android environment, as a Gymnasium env over adb.

    Args:
        device_id: Serial of the device (``adb devices``); None builds an env without a device.
        screenshot_dir: Directory on the device for screenshots (default ``/data/local/tmp``).
        xml_dir: Directory on the device for UI dumps (default ``/data/local/tmp``).
        width: Screen width; default from ``wm size``.
        height: Screen height; default from ``wm size``.
        adb_host: Host of the adb server.
        adb_port: Port of the adb server (default ``$ANDROID_ADB_SERVER_PORT`` or 5037).
        timeout: Timeout of one adb call, in seconds.

    Raises:
        DeviceNotFoundError: ``device_id`` is not among the devices adb lists.
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        device_id: str | None = None,
        screenshot_dir: str | Path | None = None,
        xml_dir: str | Path | None = None,
        width: int | None = None,
        height: int | None = None,
        *,
        adb_host: str = "127.0.0.1",
        adb_port: int | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.device_id = device_id
        self.screenshot_dir = Path(screenshot_dir or "/data/local/tmp")
        self.xml_dir = Path(xml_dir or "/data/local/tmp")
        self.timeout = timeout
        self.client = AdbClient(adb_host, adb_port, timeout=timeout)
        self.width, self.height = width or 720, height or 1080
        self.device = MetaGPTDevice(self)
        self._local_dir: Path | None = None
        if device_id:
            devices = self.list_devices()
            if device_id not in devices:
                raise DeviceNotFoundError(f"device-id: {device_id} not found; adb lists {devices}", serial=device_id)
            shape = self.device_shape
            self.width, self.height = width or shape[0], height or shape[1]
            self.create_device_path(self.screenshot_dir)
            self.create_device_path(self.xml_dir)
        self.action_space = get_action_space((self.width, self.height))
        self.observation_space = get_observation_space()

    # ------------------------------------------------------------------ adb plumbing

    @property
    def adb_prefix_si(self) -> str:
        """Adb command prefix with ``device_id`` and ``shell input``."""
        return f"adb -s {self.device_id} shell input "

    @property
    def adb_prefix_shell(self) -> str:
        """Adb command prefix with ``device_id`` and ``shell``."""
        return f"adb -s {self.device_id} shell "

    @property
    def adb_prefix(self) -> str:
        """Adb command prefix with ``device_id``."""
        return f"adb -s {self.device_id} "

    def execute_adb_with_cmd(self, adb_cmd: str) -> str:
        """Run an adb command line; its stripped stdout, or :data:`ADB_EXEC_FAIL`.

        Every adb call of this class goes through here, so it can be replaced (e.g. in tests).
        """
        result = run_adb_command(adb_cmd, self.client, timeout=self.timeout)
        if result.returncode != 0:
            logger.warning("%s failed (exit %d): %s", adb_cmd, result.returncode, result.stderr.strip())
            return ADB_EXEC_FAIL
        return result.stdout.strip()

    def create_device_path(self, folder_path: str | Path) -> None:
        """``mkdir -p`` on the device.

        Raises:
            RuntimeError: The directory could not be created.
        """
        if _result(lambda: self.device.shell(f"mkdir -p {shlex.quote(str(folder_path))}")) == ADB_EXEC_FAIL:
            raise RuntimeError(f"create device path: {folder_path} failed")

    @property
    def device_shape(self) -> tuple[int, int]:
        """(width, height) from ``wm size`` — the override size when one is set; (0, 0) on failure."""
        try:
            return self.device.query_screen_size()
        except DeviceError:
            return 0, 0

    def list_devices(self) -> list[str]:
        """Serials of the devices adb lists as ready (offline and unauthorized ones are left out)."""
        output = self.execute_adb_with_cmd("adb devices")
        if output == ADB_EXEC_FAIL:
            return []
        devices = []
        for line in output.splitlines()[1:]:
            parts = line.split()
            if not parts or parts[0].startswith("*"):
                continue
            if len(parts) == 1 or parts[1] == "device":
                devices.append(parts[0])
        return devices

    # ------------------------------------------------------------------ observations

    def get_screenshot(self, ss_name: str, local_save_dir: str | Path) -> Path:
        """Screenshot to ``<screenshot_dir>/<ss_name>.png`` on the device, pulled to ``local_save_dir``.

        Returns:
            The local path, or ``Path("FAILED")``.
        """
        remote = self.screenshot_dir / f"{ss_name}.png"
        if _result(lambda: self.device.shell(f"screencap -p {shlex.quote(str(remote))}")) == ADB_EXEC_FAIL:
            return Path(ADB_EXEC_FAIL)
        return self._pull(remote, Path(local_save_dir) / f"{ss_name}.png")

    def get_xml(self, xml_name: str, local_save_dir: str | Path) -> Path:
        """UI dump to ``<xml_dir>/<xml_name>.xml`` on the device, pulled to ``local_save_dir``.

        A dump that fails (e.g. "could not get idle state") is retried, and never leaves a
        stale file to be pulled in its place.

        Returns:
            The local path, or ``Path("FAILED")``.
        """
        remote = self.xml_dir / f"{xml_name}.xml"
        try:
            self.device.dump_ui_file(str(remote))
        except DeviceError:
            return Path(ADB_EXEC_FAIL)
        return self._pull(remote, Path(local_save_dir) / f"{xml_name}.xml")

    def _pull(self, remote: Path, local: Path) -> Path:
        command = f"{self.adb_prefix} pull {shlex.quote(str(remote))} {shlex.quote(str(local))}"
        return Path(ADB_EXEC_FAIL) if self.execute_adb_with_cmd(command) == ADB_EXEC_FAIL else local

    # ------------------------------------------------------------------ actions

    def system_back(self) -> str:
        """Press BACK."""
        return _result(self.device.back)

    def system_tap(self, x: int, y: int) -> str:
        """Tap at ``(x, y)``."""
        return _result(lambda: self.device.tap(int(x), int(y)))

    def user_input(self, input_txt: str) -> str:
        """Type ``input_txt`` literally (any printable ASCII, quotes and shell characters included).

        Raises:
            ValueError: The text holds characters Android's ``input text`` cannot type.
        """
        return _result(lambda: self.device.text(input_txt))

    def user_longpress(self, x: int, y: int, duration: int = 500) -> str:
        """Touch and hold ``(x, y)`` for ``duration`` ms."""
        return _result(lambda: self.device.long_press(int(x), int(y), int(duration)))

    def user_swipe(self, x: int, y: int, orient: str = "up", dist: str = "medium", if_quick: bool = False) -> str:
        """MetaGPT's relative swipe (unit = width/10; ×2 medium, ×3 long), clamped to the screen."""
        if orient not in ORIENTS or dist not in DISTS:
            return ADB_EXEC_FAIL
        x, y = int(x), int(y)
        x2, y2 = swipe_end(x, y, orient, dist, (self.width, self.height))
        return _result(lambda: self.device.swipe(x, y, x2, y2, 100 if if_quick else 400))

    def user_swipe_to(self, start: tuple[int, int], end: tuple[int, int], duration: int = 400) -> str:
        """Swipe from ``start`` to ``end``."""
        (x1, y1), (x2, y2) = (tuple(int(v) for v in p) for p in (start, end))
        return _result(lambda: self.device.swipe(x1, y1, x2, y2, int(duration)))

    def user_exit(self) -> str:
        """Go to the home screen."""
        return _result(
            lambda: self.device.shell("am start -a android.intent.action.MAIN -c android.intent.category.HOME")
        )

    def user_enter(self) -> str:
        """Press ENTER."""
        return _result(lambda: self.device.key("enter"))

    # ------------------------------------------------------------------ gym API

    def _local(self) -> Path:
        if self._local_dir is None:
            self._local_dir = Path(tempfile.mkdtemp(prefix="androidrl-metagpt-"))
        return self._local_dir

    def _get_obs(self) -> dict[str, str]:
        screenshot = self.get_screenshot("obs_screenshot", self._local())
        xml = self.get_xml("obs_xml", self._local())
        return {
            "screenshot": "" if screenshot == Path(ADB_EXEC_FAIL) else str(screenshot),
            "xml": "" if xml == Path(ADB_EXEC_FAIL) else str(xml),
        }

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Observe the device as it is: ``({"screenshot": path, "xml": path}, {})``."""
        super().reset(seed=seed)
        return self._get_obs(), {}

    def observe(self, obs_params: EnvObsParams | None = None) -> Any:
        """The whole observation (NONE), or a screenshot or XML file saved where asked."""
        params = obs_params or EnvObsParams()
        if params.obs_type == EnvObsType.GET_SCREENSHOT:
            return self.get_screenshot(params.ss_name, params.local_save_dir or self._local())
        if params.obs_type == EnvObsType.GET_XML:
            return self.get_xml(params.xml_name, params.local_save_dir or self._local())
        return self._get_obs()

    def step(self, action: EnvAction | dict[str, Any]):
        """Perform ``action`` (as :class:`~androidrl.env.AndroidEnv` does); observe; ``info["res"]`` is its output.

        Reward is 0.
        """
        if isinstance(action, dict):
            action = EnvAction(**action)
        check_on_screen(action, (self.width, self.height))
        info = {"res": "", "action_error": ""}
        try:
            info["res"] = _result(lambda: self.device.perform(action))
        except ValueError as err:  # text Android cannot type
            info["res"], info["action_error"] = ADB_EXEC_FAIL, str(err)
        return self._get_obs(), 0.0, False, False, info

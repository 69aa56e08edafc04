"""AndroidEnv: a Gymnasium environment over any :class:`~androidrl.device.base.Device`.

Observations are MetaGPT's ``{"screenshot": path, "xml": path}`` — files in a per-env
directory that holds at most ``keep_files`` of each — and the last frame and XML stay in
memory (:attr:`AndroidEnv.frame`, :attr:`AndroidEnv.xml`) for wrappers. A step reads the UI
only when someone uses it: the XML observation, the task's conditions
(:attr:`~androidrl.tasks.base.Task.needs`) or a wrapper that asked (:meth:`AndroidEnv.require`). Actions are
:class:`~androidrl.spaces.EnvAction` objects or members of the Dict action space. A
device fault during a step ends the episode with ``truncated=True`` and the reason in
``info["device_error"]`` instead of raising.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any, Literal

import gymnasium as gym
import numpy as np
from annotated_types import Ge, Gt, Le  # (bounds the training config reads from this signature)
from PIL import Image
from pydantic import ValidationError

from androidrl.device.base import Device
from androidrl.errors import DeviceError
from androidrl.screen import MIN_DENSITY, check_screen
from androidrl.spaces import (
    MAX_TEXT_LENGTH,
    EnvAction,
    EnvObsParams,
    EnvObsType,
    check_on_screen,
    get_action_space,
    get_observation_space,
)
from androidrl.tasks.base import Needs, Task
from androidrl.tasks.registry import make_task
from androidrl.tasks.spec import MAX_STEPS, TaskSpec
from androidrl.tasks.suite import TaskSuite
from androidrl.ui import Snapshot, UIElement
from androidrl.validation import error_items, shorten


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


class _FileRing:
    """Observation files of one kind, written to ``keep`` rotating slots.

    Content equal to the last file written reuses that file, so a screen that did not
    change costs a comparison, not a PNG encode. Slots restart at every reset, which
    makes the paths of a seeded episode repeat exactly.
    """

    def __init__(self, stem: str, suffix: str, keep: int) -> None:
        self.stem, self.suffix, self.keep = stem, suffix, keep
        self.restart()

    def restart(self) -> None:
        """Start again from slot 0 (each episode)."""
        self._slot = 0
        self._last: tuple[object, str] | None = None

    def write(self, content: np.ndarray | str, directory: Path) -> str:
        """Path of a file holding ``content``, writing one only if it differs from the last."""
        if self._last is not None and _same(self._last[0], content):
            return self._last[1]
        path = directory / f"{self.stem}_{self._slot}{self.suffix}"
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            Image.fromarray(content).save(path, compress_level=1)
        self._slot = (self._slot + 1) % self.keep
        self._last = (content, str(path))
        return str(path)


def _same(a: object, b: object) -> bool:
    if a is b:
        return True
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.shape == b.shape and bool(np.array_equal(a, b))
    return isinstance(a, str) and a == b


#: The most observation files kept on disk, and the longest a reset waits for a device (a day is "never").
MAX_KEEP_FILES = 1000
MAX_RESET_TIMEOUT = 86_400.0


def _check_timeout(seconds: Any) -> float:
    """``reset_timeout``: a number of seconds in (0, a day]."""
    number = isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
    if not number or not 0 < seconds <= MAX_RESET_TIMEOUT:  # (NaN fails the comparison too)
        raise ValueError(f"reset_timeout must be seconds in (0, {MAX_RESET_TIMEOUT:g}], got {seconds!r}")
    return float(seconds)


def _check_screen_size(size: Any) -> tuple[int, int]:
    """``screen_size``: (width, height) in pixels, as a phone's screen can be."""
    try:
        width, height = size
        whole = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (width, height))
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise ValueError(f"screen_size must be (width, height) in pixels, got {size!r}")
    try:
        check_screen(int(width), int(height), MIN_DENSITY)
    except ValueError as err:
        raise ValueError(f"screen_size: {err}") from None
    return int(width), int(height)


class AndroidEnv(gym.Env):
    """A phone as a Gymnasium environment.

    Args:
        device: The phone to drive (never touched until :meth:`reset`).
        task: Start state, reward and termination: a Task, a task spec (model or mapping), a
            built-in task name (``"wifi-on"``) or a YAML path; default an idle task.
        save_dir: Where observation files go; default a temporary directory removed on close.
        dump_xml: Whether the observation includes the UI XML: ``"auto"`` (default) when the
            observation files are written (MetaGPT's ``{"screenshot": path, "xml": path}``),
            ``True`` every step (also in :attr:`xml` when files are off), ``False`` never
            (``obs["xml"]`` is ""). Whatever it says, a step also reads the UI when the task's
            conditions or a wrapper need it, and only then.
        write_files: Write the observation files; when off, ``obs`` holds "" and the data is
            only in :attr:`frame` and :attr:`xml` (wrappers that read those turn it off).
        keep_files: How many distinct screenshots (and XML dumps) stay on disk; an
            unchanged screen reuses its file instead of writing it again.
        screen_size: ``(width, height)`` of the screen, to build the action space without
            asking the device; default: asked on first use of :attr:`action_space`.
        max_steps: Truncate episodes after this many steps (default: the task's).
        timings: Add per-step timings in ms as ``info["timings_ms"]``. Off by default:
            they make step infos differ between otherwise identical runs.
        render_mode: None or ``"rgb_array"`` (:meth:`render` returns the last frame).
        reset_timeout: Seconds :meth:`reset` waits for an offline device to come back (one
            reset may ask for another wait with ``options={"reset_timeout": seconds}``; with a
            task suite, ``options={"task": name}`` picks the episode's task).

    Example:
        >>> env = AndroidEnv(VirtualDevice(width=360, height=800, density=160))
        >>> obs, info = env.reset(seed=0)
        >>> obs, reward, terminated, truncated, info = env.step(
        ...     EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(180, 400)))
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(
        self,
        device: Device,
        task: Task | TaskSpec | dict[str, Any] | str | Path | None = None,
        *,
        save_dir: str | Path | None = None,
        dump_xml: bool | Literal["auto"] = "auto",
        write_files: bool = True,
        keep_files: Annotated[int, Ge(1), Le(MAX_KEEP_FILES)] = 2,
        screen_size: tuple[int, int] | None = None,
        max_steps: Annotated[int, Ge(1), Le(MAX_STEPS)] | None = None,
        timings: bool = False,
        render_mode: Literal["rgb_array"] | None = None,
        reset_timeout: Annotated[float, Gt(0), Le(MAX_RESET_TIMEOUT)] = 60.0,
    ) -> None:
        if not isinstance(device, Device):
            raise TypeError(f"device must be an androidrl Device, got {type(device).__name__}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if isinstance(keep_files, bool) or not isinstance(keep_files, int) or not 1 <= keep_files <= MAX_KEEP_FILES:
            raise ValueError(f"keep_files must be an int in 1..{MAX_KEEP_FILES}, got {keep_files!r}")
        if not isinstance(dump_xml, bool) and dump_xml != "auto":
            raise ValueError(f'dump_xml must be True, False or "auto", got {dump_xml!r}')
        whole = isinstance(max_steps, int) and not isinstance(max_steps, bool)
        if max_steps is not None and (not whole or not 1 <= max_steps <= MAX_STEPS):
            raise ValueError(f"max_steps must be an int in 1..{MAX_STEPS} or None, got {max_steps!r}")
        _check_timeout(reset_timeout)
        if screen_size is not None:
            screen_size = _check_screen_size(screen_size)
        self.device = device
        self.task = make_task(task)
        self.dump_xml = dump_xml
        self.write_files = write_files
        self.keep_files = keep_files
        self._max_steps = max_steps  # (None: each episode's task says)
        self.max_steps = max_steps if max_steps is not None else self.task.max_steps
        self.timings = timings
        self.render_mode = render_mode
        self.reset_timeout = reset_timeout
        self.observation_space = get_observation_space()
        self._screen_size = tuple(screen_size) if screen_size is not None else None
        self._action_space: gym.spaces.Dict | None = None
        self._save_dir = Path(save_dir) if save_dir is not None else None
        self._owns_dir = save_dir is None
        if self._save_dir is not None:
            self._check_dir_length(self._save_dir)
        #: The last screenshot (RGB uint8, read-only) and UI XML (None when not dumped).
        self.frame: np.ndarray | None = None
        self.xml: str | None = None
        self._snapshot: Snapshot | None = None  # what the last observation read
        self._required = Needs.NONE  # what wrappers asked every step to read
        self._obs: dict[str, str] | None = None
        #: The EnvAction of the last step (what the action wrappers chose), for recordings.
        self.last_action: EnvAction | None = None
        self._files = {
            "screenshot": _FileRing("screenshot", ".png", keep_files),
            "xml": _FileRing("xml", ".xml", keep_files),
        }
        self._episode_step = 0
        self._set_up = False
        self._needs_reset = True
        self._closed = False

    # ------------------------------------------------------------------ spaces

    @property
    def action_space(self) -> gym.spaces.Dict:
        """The Dict action space for this screen (asks the device for its size if not given)."""
        if self._action_space is None:
            if self._screen_size is None:
                self._screen_size = self.device.screen_size
            self._action_space = get_action_space(self._screen_size)
        return self._action_space

    @action_space.setter
    def action_space(self, space: gym.spaces.Space) -> None:
        self._action_space = space

    @property
    def screen_size(self) -> tuple[int, int]:
        """(width, height) the action space was built for."""
        self.action_space  # noqa: B018  (builds it on first use)
        return self._screen_size

    # ------------------------------------------------------------------ gym API

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start an episode: wait for the device, wake and unlock it, run the task's reset steps, observe.

        Raises:
            DeviceError: The device stayed unreachable for ``reset_timeout`` seconds, or
                a reset step failed.
        """
        super().reset(seed=seed)
        options = dict(options or {})
        timeout = _check_timeout(options.pop("reset_timeout", self.reset_timeout))
        task = options.pop("task", None)
        if options:
            raise ValueError(f"AndroidEnv.reset: unknown options {sorted(options)}; it takes reset_timeout, task")
        if task is not None and not isinstance(self.task, TaskSuite):
            raise ValueError(f"AndroidEnv.reset: option task={task!r} needs a task suite; this env's task is one task")
        self._check_open()
        self.device.wait_ready(timeout=timeout)
        self.device.wake_and_unlock()  # a phone that slept or locked in the last episode starts awake and unlocked
        if not self._set_up:
            self.task.setup(self.device)
            self._set_up = True
        if isinstance(self.task, TaskSuite):
            task_info = self.task.reset(self.device, self.np_random, task)
        else:
            task_info = self.task.reset(self.device, self.np_random)
        # Asked after the task's reset: a snapshot it loads may carry another size.
        actual = self.device.query_screen_size()
        if actual != self.screen_size:
            raise DeviceError(
                f"the screen is now {actual[0]}x{actual[1]} but this env's action space was built for "
                f"{self.screen_size[0]}x{self.screen_size[1]}; make a new env (or reset the size with `wm size reset`)",
                serial=self.device.serial,
            )
        self.max_steps = self._max_steps if self._max_steps is not None else self.task.max_steps
        self._episode_step = 0
        for ring in self._files.values():
            ring.restart()
        snapshot = Snapshot(self.device)
        obs = self._observe(snapshot)
        self._needs_reset = False
        info = {"task": self.task.name, **task_info}
        return obs, info

    def step(self, action: EnvAction | dict[str, Any]):
        """Perform ``action``, then observe and ask the task for reward and termination.

        Raises:
            ValueError: The action is invalid or off the screen (nothing is sent).
            gymnasium.error.ResetNeeded: Called before :meth:`reset`.
        """
        if self._needs_reset:
            raise gym.error.ResetNeeded("call reset() before step() (and after an episode ends)")
        act = self._to_action(action)
        self.last_action = act
        start = time.perf_counter()
        # The same keys every step (vector envs batch infos by key).
        info: dict[str, Any] = {
            "task": self.task.name,
            "res": "",
            "action_error": "",
            "device_error": "",
            "is_success": False,
        }
        try:
            snapshot = Snapshot(self.device, self._snapshot)
            needs = self.needs
            try:  # a device that reads faster with the action (over adb: one round trip) reads now
                observed = self.device.perform_and_observe(act, frame=Needs.FRAME in needs, xml=Needs.UI in needs)
                info["res"] = observed.res
                snapshot.preload(observed.frame, observed.xml)
            except ValueError as err:  # text Android cannot type: a no-op, reported
                info["action_error"] = str(err)
            t_action = _ms(start)
            t0 = time.perf_counter()
            evaluation = self.task.evaluate(snapshot)
            t_task = _ms(t0)
            obs = self._observe(snapshot)
        except DeviceError as err:
            self._needs_reset = True
            info["device_error"] = f"{type(err).__name__}: {err}"
            info["episode_step"] = self._episode_step
            return dict(self._obs), 0.0, False, True, info
        self._episode_step += 1
        terminated = bool(evaluation.terminated)
        truncated = not terminated and self.max_steps is not None and self._episode_step >= self.max_steps
        self._needs_reset = terminated or truncated
        info["episode_step"] = self._episode_step
        info["is_success"] = bool(evaluation.is_success)
        info.update(evaluation.info)
        if self.timings:
            info["timings_ms"] = {"action": t_action, "task": t_task, **snapshot.timings_ms, "total": _ms(start)}
        return obs, float(evaluation.reward), terminated, truncated, info

    def render(self) -> np.ndarray | None:
        """The last frame (``render_mode="rgb_array"``), or None."""
        return self.frame if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        """Close the device connection and delete the temporary observation directory. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self.device.close()
        if self._owns_dir and self._save_dir is not None:
            shutil.rmtree(self._save_dir, ignore_errors=True)

    def shell(self, command: str) -> str:
        """Run a shell command on the env's device and return its output.

        Handy on vector envs: ``vector_env.call("shell", "svc wifi disable")``.

        Raises:
            DeviceCommandError: The command exited non-zero.
        """
        return self.device.shell(command)

    # ------------------------------------------------------------------ MetaGPT API

    def observe(self, obs_params: EnvObsParams | None = None) -> dict[str, str] | Path:
        """MetaGPT's partial observation: a screenshot or XML file, or (NONE) a fresh full observation.

        GET_SCREENSHOT saves ``<local_save_dir>/<ss_name>.png``, GET_XML saves
        ``<local_save_dir>/<xml_name>.xml``; both return the Path. ``local_save_dir``
        defaults to the env's directory.
        """
        params = obs_params or EnvObsParams()
        if params.obs_type == EnvObsType.NONE:
            return self._observe(Snapshot(self.device))
        directory = Path(params.local_save_dir) if params.local_save_dir else self._directory()
        directory.mkdir(parents=True, exist_ok=True)
        if params.obs_type == EnvObsType.GET_SCREENSHOT:
            path = directory / f"{params.ss_name or 'screenshot'}.png"
            Image.fromarray(self.device.screenshot()).save(path, compress_level=1)
        else:
            path = directory / f"{params.xml_name or 'xml'}.xml"
            path.write_text(self.device.dump_ui(), encoding="utf-8")
        return path

    # ------------------------------------------------------------------ internals

    def _check_open(self) -> None:
        if self._closed:
            raise gym.error.ClosedEnvironmentError("this AndroidEnv is closed")

    @staticmethod
    def _check_dir_length(directory: Path) -> None:
        longest = len(str(directory / "screenshot_00.png"))
        if longest > MAX_TEXT_LENGTH:
            raise ValueError(
                f"save_dir is too long: observation paths must fit in {MAX_TEXT_LENGTH} characters, "
                f"got {longest} for {str(directory)[:60]}..."
            )

    def _directory(self) -> Path:
        if self._save_dir is None:
            safe = "".join(c if c.isalnum() else "_" for c in self.device.serial)[:40]
            self._save_dir = Path(tempfile.mkdtemp(prefix=f"androidrl-{safe}-"))
            self._check_dir_length(self._save_dir)
        self._save_dir.mkdir(parents=True, exist_ok=True)
        return self._save_dir

    def _observe(self, snapshot: Snapshot) -> dict[str, str]:
        self._snapshot = snapshot
        self.frame = snapshot.frame
        xml_observed = self.xml_observation
        if xml_observed:
            snapshot.xml  # noqa: B018  (dump it now, once)
        elif Needs.UI in self._required:
            # Read now, inside the step, so a device fault ends the episode as any other does (the parse
            # into elements, which cannot fail, is left to the wrapper that reads them).
            snapshot.hierarchy  # noqa: B018
        self.xml = snapshot.xml if snapshot.has_xml else None
        screenshot_path = xml_path = ""
        if self.write_files:
            t0 = time.perf_counter()
            screenshot_path = self._files["screenshot"].write(self.frame, self._directory())
            if xml_observed:
                xml_path = self._files["xml"].write(self.xml, self._directory())
            snapshot.timings_ms["files"] = _ms(t0)
        self._obs = {"screenshot": screenshot_path, "xml": xml_path}
        return dict(self._obs)

    @property
    def last_screenshot_path(self) -> str:
        """The screenshot path of the last observation ("" when files are off): :attr:`frame` is its content."""
        return self._obs["screenshot"] if self._obs else ""

    @property
    def known_screen_size(self) -> tuple[int, int] | None:
        """(width, height) if already known, without asking the device."""
        return self._screen_size

    def current_snapshot(self) -> Snapshot:
        """What the last step (or reset) read of the screen, shared with the task's checks: read it, not the device."""
        return self._current_snapshot()

    def current_xml(self) -> str:
        """The UI XML of the current screen: the last dump if this step made one, else a fresh dump."""
        if self.xml is None:
            self.xml = self._current_snapshot().xml
        return self.xml

    def current_elements(self) -> list[UIElement]:
        """The UI elements of :meth:`current_xml`, parsed once per step (the task and wrappers share them)."""
        self.current_xml()
        return self._current_snapshot().elements

    def changed_regions(self, old: np.ndarray, new: np.ndarray) -> tuple[tuple[int, int, int, int], ...] | None:
        """Boxes where frame ``new`` differs from the earlier frame ``old``, if the device knows (see Device)."""
        return self.device.changed_regions(old, new)

    def set_write_files(self, on: bool) -> None:
        """Turn writing the observation files on or off (wrappers that read :attr:`frame` turn it off)."""
        self.write_files = bool(on)

    @property
    def xml_observation(self) -> bool:
        """Whether each observation includes the UI XML (``dump_xml``; ``"auto"``: when files are written)."""
        return self.write_files if self.dump_xml == "auto" else bool(self.dump_xml)

    def require(self, needs: Needs) -> None:
        """Read ``needs`` in every step from now on: for a wrapper that uses them each step.

        ``Needs.UI`` (UI-element actions, clickable masks) has the UI read and parsed inside
        :meth:`step`, where a device fault ends the episode as any other fault does; the
        wrapper's :meth:`current_elements` then reads no device. ``Needs.FRAME`` is always
        read (it is the observation).

        Raises:
            TypeError: ``needs`` is not a :class:`~androidrl.tasks.base.Needs`.
            ValueError: It holds what only tasks read (shell, foreground, logcat).
        """
        if not isinstance(needs, Needs):
            raise TypeError(f"AndroidEnv.require takes Needs (e.g. Needs.UI), got {type(needs).__name__}")
        if needs & ~(Needs.UI | Needs.FRAME):
            raise ValueError(f"AndroidEnv.require takes Needs.UI or Needs.FRAME (what a wrapper reads), got {needs}")
        self._required |= needs

    @property
    def needs(self) -> Needs:
        """What a step reads at most: the observation's (the frame; the UI if observed), the task's, the wrappers'."""
        observed = Needs.FRAME | (Needs.UI if self.xml_observation else Needs.NONE)
        return observed | self.task.needs | self._required

    def _current_snapshot(self) -> Snapshot:
        if self._snapshot is None:
            self._snapshot = Snapshot(self.device)
        return self._snapshot

    def _to_action(self, action: EnvAction | dict[str, Any]) -> EnvAction:
        if isinstance(action, dict):
            try:
                action = EnvAction(**action)
            except ValidationError as err:
                problems = "; ".join(f"{path}: {message}" if path else message for path, message in error_items(err))
                raise ValueError(f"invalid action {shorten(action)}: {problems}") from None
        elif not isinstance(action, EnvAction):
            raise TypeError(f"action must be an EnvAction or a dict of its fields, got {type(action).__name__}")
        check_on_screen(action, self.screen_size)
        return action

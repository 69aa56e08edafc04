"""What runs in a worker: building its envs (device, AndroidEnv, wrappers, Monitor, guard), and its loop."""

from __future__ import annotations

import contextlib
import signal
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import gymnasium as gym
from gymnasium.envs.registration import EnvSpec

from androidrl.device.spec import DeviceSpec
from androidrl.env import AndroidEnv
from androidrl.tasks.registry import gym_id
from androidrl.vector.guard import DeviceFaultGuard
from androidrl.vector.lifeline import Lifeline, ParentGone
from androidrl.vector.monitor import Monitor
from androidrl.vector.settings import VectorSettings

Wrap = Callable[[gym.Env], gym.Env]
#: What a Monitor writes besides return, length and time.
MONITOR_KEYWORDS = ("is_success", "task")


def env_factory(
    spec: DeviceSpec,
    index: int,
    task: Any = None,
    wrap: Wrap | None = None,
    env_kwargs: dict[str, Any] | None = None,
    monitor_dir: str | Path | None = None,
    seed: int = 0,
    settings: VectorSettings | None = None,
    monitor: type[gym.Wrapper] = Monitor,
) -> Callable[[], gym.Env]:
    """A function that builds one worker's env: device, AndroidEnv, Monitor, wrappers, guard.

    Building it never touches the device (Gymnasium builds one copy in the parent process
    to read the spaces). ``settings`` are the :class:`DeviceFaultGuard`'s. The Monitor wraps
    the AndroidEnv itself, as SB3's ``make_vec_env`` puts it first: it counts the task's
    rewards, whatever wrappers (a ``ClipReward``) come after, and adds ``info["episode"]``
    (which SB3's ``evaluate_policy`` reads); with ``monitor_dir`` it writes its CSV there. It is
    :class:`androidrl.vector.monitor.Monitor` (no torch in the worker) unless ``monitor`` names
    another (SB3's, for SB3's own vec envs, which test ``isinstance``).
    """

    def make() -> gym.Env:
        env: gym.Env = AndroidEnv(
            spec.make_device(index, seed), task, screen_size=spec.screen_size(), **(env_kwargs or {})
        )
        if env.spec is None:  # named as its gym id would name it (the Monitor's header says which env it was)
            env.spec = EnvSpec(gym_id(env.task.name) if isinstance(task, str) else "androidrl/AndroidEnv-v0")
        path = str(monitor_path(Path(monitor_dir), index)) if monitor_dir is not None else None
        env = monitor(env, path, info_keywords=MONITOR_KEYWORDS)
        if wrap is not None:
            env = wrap(env)
        return DeviceFaultGuard(env, settings)

    return make


def monitor_path(directory: Path, index: int) -> Path:
    """``worker_<i>``, or ``worker_<i>.<k>`` when a resumed run or a rebuilt worker starts again.

    One CSV per segment, as a Monitor's times count from its file's ``t_start`` header; a
    file without episodes (such as the one of the env Gymnasium builds to read the spaces)
    is started over.
    """
    directory.mkdir(parents=True, exist_ok=True)
    name, segment = f"worker_{index}", 0
    while _has_episodes(directory / f"{name}.monitor.csv"):
        segment += 1
        name = f"worker_{index}.{segment}"
    return directory / name


def _has_episodes(path: Path) -> bool:
    if not path.exists():
        return False
    with path.open() as f:
        return sum(1 for _, _line in zip(range(3), f)) == 3  # the JSON header, the CSV header, a row


# ---------------------------------------------------------------------------- the worker process


def run_worker(
    conn: Connection,
    env_fns: list[Callable[[], gym.Env]],
    slots: list[int],
    buffer: Any,
    lifeline: Lifeline | None = None,
) -> None:
    """The loop of one worker process: build its envs, then answer the parent's commands until ``close``.

    Each command is one message and each answer one message (see :func:`answer`).
    Observations go to ``buffer`` (shared memory, slot per env) when there is one. With a
    ``lifeline``, the worker ends when its parent does, closing its envs and removing the
    parent's temporary directories (:mod:`androidrl.vector.lifeline`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it closes us
    envs: list[gym.Env] = []
    gone = False  # whether the parent is gone: nothing more will come
    try:
        if lifeline is not None:
            lifeline.hold()
        envs = [fn() for fn in env_fns]
        while True:
            try:
                command, data = conn.recv()
            except (EOFError, OSError):  # the parent is gone
                gone = True
                return
            reply = ("ok", None) if command == "close" else answer(envs, slots, buffer, command, data)
            try:
                conn.send(reply)
            except OSError:  # (a broken pipe) the parent is gone
                gone = True
                return
            if command == "close":
                return
    except ParentGone:
        gone = True
        return
    except (BrokenPipeError, EOFError, KeyboardInterrupt):
        return
    finally:
        try:
            for env in envs:
                with contextlib.suppress(Exception):
                    env.close()
        finally:
            if lifeline is not None:
                lifeline.release(gone)


def answer(envs: list[gym.Env], slots: list[int], buffer: Any, command: str, data: Any) -> tuple[str, Any]:
    """Do one command on a worker's envs: ``("ok", payload)``, or ``("error", text)`` if it raised.

    Commands: ``step`` (one action per env; an env whose episode ended is reset at once,
    ``SAME_STEP``, and each env answers ``(obs or None, reward, terminated, truncated,
    info, final)`` with ``final = (final_obs, reset_info)`` for an episode that ended),
    ``reset`` (seeds, options), ``call`` (name, args, kwargs), ``get``, ``has``, ``set``.
    An observation is None in the answer when it went to ``buffer``.
    """
    try:
        return "ok", _HANDLERS[command](envs, slots, buffer, data)
    except Exception as err:  # noqa: BLE001 (reported to the parent, which decides)
        return "error", f"{type(err).__name__}: {err}\n{traceback.format_exc(limit=8)}"


def _obs(buffer: Any, slot: int, obs: Any) -> Any:
    if buffer is None:
        return obs
    buffer.write(slot, obs)
    return None


def _step(envs: list[gym.Env], slots: list[int], buffer: Any, actions: list[Any]) -> list[tuple]:
    answers = []
    for env, slot, action in zip(envs, slots, actions):
        obs, reward, terminated, truncated, info = env.step(action)
        final = None
        if terminated or truncated:
            final_obs = obs
            obs, reset_info = env.reset()
            final = (final_obs, reset_info)
        answers.append((_obs(buffer, slot, obs), float(reward), bool(terminated), bool(truncated), info, final))
    return answers


def _reset(envs: list[gym.Env], slots: list[int], buffer: Any, data: tuple) -> list[tuple]:
    seeds, options = data
    answers = []
    for env, slot, seed in zip(envs, slots, seeds):
        obs, info = env.reset(seed=seed, options=options)
        answers.append((_obs(buffer, slot, obs), info))
    return answers


def _call(envs: list[gym.Env], slots: list[int], buffer: Any, data: tuple) -> list[Any]:
    name, args, kwargs = data
    results = []
    for env in envs:
        attr = env.get_wrapper_attr(name)
        results.append(attr(*args, **kwargs) if callable(attr) else attr)
    return results


_HANDLERS: dict[str, Callable[..., Any]] = {
    "step": _step,
    "reset": _reset,
    "call": _call,
    "get": lambda envs, slots, buffer, name: [env.get_wrapper_attr(name) for env in envs],
    "has": lambda envs, slots, buffer, name: [env.has_wrapper_attr(name) for env in envs],
    "set": lambda envs, slots, buffer, data: [env.set_wrapper_attr(data[0], v) for env, v in zip(envs, data[1])],
}

"""In-process suites: raw and wrapped env steps, and vector envs, on virtual phones."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from androidrl.bench.figures import Figure, interleave
from androidrl.device.spec import DeviceSpec
from androidrl.registration import make_virtual_env, pixel_wrap, wrap_env
from androidrl.vector.settings import VectorSettings


def env_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Raw AndroidEnv steps per second on the in-process virtual phone, with and without XML."""
    from androidrl.spaces import EnvAction, EnvActionType

    envs = {
        "xml every step": make_virtual_env(width, height, density, dump_xml=True),
        "no XML": make_virtual_env(width, height, density, dump_xml=False),
    }
    steps = 50
    try:
        for env in envs.values():
            env.reset(seed=0)
        rng = np.random.default_rng(0)
        taps = [
            EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(int(rng.integers(width)), int(rng.integers(height))))
            for _ in range(steps)
        ]

        def run(env) -> Callable[[], None]:
            def go() -> None:
                for action in taps:
                    _, _, terminated, truncated, _ = env.step(action)
                    if terminated or truncated:
                        env.reset()

            return go

        samples = interleave({name: run(env) for name, env in envs.items()}, max(3, rounds // 4), warmup=1)
        per_second = {name: [steps * 1000 / ms for ms in values] for name, values in samples.items()}
        return [Figure.rate(f"env steps/s, random taps, {width}x{height} in process", "xml every step", per_second)]
    finally:
        for env in envs.values():
            env.close()


def _vector_rate(devices: list[DeviceSpec], backend: str, steps: int, settings: VectorSettings) -> float:
    """Random-action steps per second (all envs together, real steps only) of an SB3 vec env on ``devices``."""
    from androidrl.vector.sb3 import make_sb3_vec_env

    env = make_sb3_vec_env(
        devices, "tap-target", pixel_wrap, backend=backend, settings=settings, env_kwargs={"dump_xml": False}
    )
    try:
        env.seed(0)
        env.reset()
        rng = np.random.default_rng(0)
        actions = rng.integers(0, env.action_space.n, size=(steps + 10, len(devices)))
        for a in actions[:10]:  # warm up
            env.step(a)
        good = 0
        start = time.perf_counter()
        for a in actions[10:]:
            infos = env.step(a)[3]
            good += sum(not info.get("device_error") for info in infos)  # a blank step a late worker made is no step
        return good / (time.perf_counter() - start)
    finally:
        env.close()


#: The vector backends compared: SB3's two, ours, and ours with two devices in each worker process.
BACKENDS = {
    "subproc (SB3)": ("subproc", VectorSettings()),
    "dummy (SB3)": ("dummy", VectorSettings()),
    "async (androidrl)": ("async", VectorSettings()),
    "async, 2 per worker": ("async", VectorSettings(envs_per_worker=2)),
}


def vector_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Wrapped (84x84, Discrete) vector steps/s of every backend on 1, 2, 4 and 8 virtual phones."""
    device = DeviceSpec.virtual_phone(width, height, density)
    steps = 100 if rounds < 8 else 200 if rounds < 20 else 400
    figures = []
    for n in (1, 2, 4, 8):
        figure = Figure.rate(f"vector steps/s, tap-target 84x84, {n} device{'s' if n > 1 else ''}", "subproc (SB3)")
        for _ in range(max(1, rounds // 8)):
            for name, (backend, settings) in BACKENDS.items():
                if settings.envs_per_worker <= n:
                    figure.samples.setdefault(name, []).append(_vector_rate([device] * n, backend, steps, settings))
        figures.append(figure)
    return figures


def wrapped_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """In-process steps/s at the run's size and, if different, at 360x800 (the targets name both).

    And at 360x800 on the Notes screen with the soft keyboard up, and on Clock's main screen.
    """
    sizes = [(width, height, density)] + ([(360, 800, 160)] if (width, height) != (360, 800) else [])
    return [_wrapped(rounds, *size) for size in sizes] + [_keyboard(rounds), _screen(rounds, CLOCK_ALARMS, "Clock")]


#: Notes with its field tapped, so the soft keyboard is up; random taps type, save, move the cursor.
NOTES_KEYBOARD = {
    "name": "notes-keyboard",
    "description": "Random taps on Notes with the keyboard up (a benchmark, never succeeds).",
    "max_steps": 50,
    "reset": [
        {"shell": "pm clear com.androidrl.notes"},
        {"launch": {"component": "com.androidrl.notes/.MainActivity"}},
        {"tap": {"node": {"resource_id": "com.androidrl.notes:id/note_input"}}},
    ],
    "success": {"node": {"text": "never typed by chance: 0xdeadbeef"}},
}


def _keyboard(rounds: int) -> Figure:
    """In-process steps/s at 360x800 on Notes with the keyboard up: raw, and wrapped 84x84.

    Only the grid's taps are drawn, and the grid leaves out the navigation bar, so nothing
    sends the keyboard or the app away: a tap on the keyboard types, on Save saves, in the
    field moves the cursor.
    """
    return _screen(rounds, NOTES_KEYBOARD, "Notes with the keyboard up")


#: Clock's main screen (the Alarm tab with DeskClock's two alarms); random taps expand alarms, flip
#: switches, open the time picker, change tabs, start the stopwatch.
CLOCK_ALARMS = {
    "name": "clock-alarms",
    "description": "Random taps on Clock's main screen (a benchmark, never succeeds).",
    "max_steps": 50,
    "reset": [
        {"shell": "pm clear com.android.deskclock"},
        {"launch": {"component": "com.android.deskclock/.DeskClock"}},
    ],
    "success": {"node": {"text": "never typed by chance: 0xdeadbeef"}},
}


def _screen(rounds: int, task: dict, title: str) -> Figure:
    """In-process steps/s at 360x800 on an app's screen (``task`` opens it): raw, and wrapped 84x84.

    The grid's taps leave out the navigation bar (they may still leave the screen through the app).
    """
    grid = {"type": "grid", "region": [0, 0.03, 1, 0.94]}
    envs = {
        "raw AndroidEnv": make_virtual_env(360, 800, 160, task=task, dump_xml=False, write_files=False),
        "wrapped 84x84": wrap_env(make_virtual_env(360, 800, 160, task=task, dump_xml=False), action=grid),
    }
    rng = np.random.default_rng(0)
    acts = [int(a) for a in rng.integers(0, 8 * 4, size=200)]  # the 8x4 grid's taps (not BACK, HOME...)
    table = [envs["wrapped 84x84"].action(a) for a in acts]
    try:
        for env in envs.values():
            env.reset(seed=0)

        def run(env, steps) -> Callable[[], None]:
            def go() -> None:
                for a in steps:
                    if any(env.step(a)[2:4]):
                        env.reset()

            return go

        samples = interleave(
            {name: run(env, table if name == "raw AndroidEnv" else acts) for name, env in envs.items()},
            max(3, rounds // 4),
            warmup=1,
        )
        per_second = {name: [len(acts) * 1000 / ms for ms in values] for name, values in samples.items()}
        return Figure.rate(f"in-process steps/s, {title}, 360x800", "raw AndroidEnv", per_second)
    finally:
        for env in envs.values():
            env.close()


def _wrapped(rounds: int, width: int, height: int, density: int) -> Figure:
    """In-process steps/s: the raw env, the same env wrapped for pixels, and the idle phone wrapped.

    The first two show the transform's cost on tap-target (whose score line changes on
    every miss); the idle phone's launcher mostly does not change when tapped.
    """
    envs = {
        "raw AndroidEnv": make_virtual_env(
            width, height, density, task="tap-target", dump_xml=False, write_files=False
        ),
        "wrapped 84x84": pixel_wrap(make_virtual_env(width, height, density, task="tap-target", dump_xml=False)),
        "wrapped 84x84, idle": pixel_wrap(make_virtual_env(width, height, density, dump_xml=False, max_steps=50)),
    }
    rng = np.random.default_rng(0)
    grid = [int(a) for a in rng.integers(0, envs["wrapped 84x84"].action_space.n, size=200)]
    table = [envs["wrapped 84x84"].action(a) for a in grid]  # the same taps for the raw env
    try:
        for env in envs.values():
            env.reset(seed=0)

        def run(env, acts) -> Callable[[], None]:
            def go() -> None:
                for a in acts:
                    if any(env.step(a)[2:4]):
                        env.reset()

            return go

        samples = interleave(
            {name: run(env, table if name == "raw AndroidEnv" else grid) for name, env in envs.items()},
            max(3, rounds // 4),
            warmup=1,
        )
        per_second = {name: [len(grid) * 1000 / ms for ms in values] for name, values in samples.items()}
        return Figure.rate(f"in-process steps/s, {width}x{height}", "raw AndroidEnv", per_second)
    finally:
        for env in envs.values():
            env.close()


def reset_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Episode reset time of wifi-on: its reset steps against one snapshot load of the same start, in process.

    Both envs play the same task (the same success check) and the same seeded action before
    each reset, untimed; only ``reset()`` is timed. The snapshot variant runs wifi-on's reset
    steps once at setup and saves the phone there; each reset then loads that snapshot.
    """
    from androidrl.device.virtual import VirtualDevice
    from androidrl.env import AndroidEnv
    from androidrl.tasks.registry import builtin_specs

    wifi_on = builtin_specs()["wifi-on"].model_dump(exclude_none=True)
    snapshot = {**wifi_on, "name": "wifi-on-snapshot", "setup": wifi_on["reset"], "reset": [{"snapshot": "bench"}]}

    def make(task) -> AndroidEnv:  # no files: the reset itself, not the observation's PNG, is measured
        device = VirtualDevice(width=width, height=height, density=density)
        return AndroidEnv(device, task, dump_xml=False, write_files=False)

    envs = {"reset steps (wifi-on)": make("wifi-on"), "snapshot (wifi-on)": make(snapshot)}
    first = next(iter(envs.values()))
    first.action_space.seed(0)
    actions = [first.action_space.sample() for _ in range(rounds + 2)]  # the same actions and seeds for both
    episode_seeds = np.random.default_rng(0).integers(0, 2**31, size=rounds + 2).tolist()
    turn = {name: iter(actions) for name in envs}
    seeds = {name: iter(episode_seeds) for name in envs}
    try:
        for env in envs.values():
            env.reset(seed=0)  # setup (and the snapshot's saving) happen here, not in the samples

        def step(name: str) -> None:  # untimed: leave the start behind, the same way in both
            envs[name].step(next(turn[name]))

        samples = interleave(
            {name: (lambda env=env, name=name: env.reset(seed=next(seeds[name]))) for name, env in envs.items()},
            rounds,
            before=step,
            warmup=2,
        )
        return [Figure(f"episode reset of wifi-on, {width}x{height} in process", "reset steps (wifi-on)", samples)]
    finally:
        for env in envs.values():
            env.close()

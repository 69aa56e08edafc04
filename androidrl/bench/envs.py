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

    And at 360x800 on the app screens of :data:`APP_SCREENS` (Notes with the soft keyboard up...).
    """
    sizes = [(width, height, density)] + ([(360, 800, 160)] if (width, height) != (360, 800) else [])
    return [_wrapped(rounds, *size) for size in sizes] + [_app_screen(rounds, *screen) for screen in APP_SCREENS]


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
#: Calendar's month view (AllInOneActivity) over five events, each episode from the snapshot taken after
#: setup; random taps open days, the view menu, the editor and events, as an agent exploring the app would.
CALENDAR_MONTH = {
    "name": "calendar-month",
    "description": "Random taps on Calendar's month view (a benchmark, never succeeds).",
    "max_steps": 50,
    "setup": [
        *(
            {
                "shell": "content insert --uri content://com.android.calendar/events --bind calendar_id:i:1 "
                f"--bind title:s:Event{i} --bind eventTimezone:s:UTC --bind dtstart:l:{1781514000000 + i * 172800000} "
                f"--bind dtend:l:{1781517600000 + i * 172800000}"
            }
            for i in range(5)
        ),
        {"launch": {"component": "com.android.calendar/.AllInOneActivity"}},
        {"tap": {"node": {"resource_id": "android:id/action_bar_spinner"}}},
        {"tap": {"node": {"text": "Month"}}},
    ],
    "success": {"node": {"text": "never shown: 0xdeadbeef"}},
}


#: Clock's main screen (the Alarm tab with DeskClock's two alarms, cleared each episode); random taps
#: expand alarms, flip switches, open the time picker, change tabs, start the stopwatch.
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


def _sms(address: str, body: str, box: str = "inbox", read: int = 1) -> dict:
    """A reset step that puts a text message in the telephony provider."""
    binds = " ".join(f"--bind '{b}'" for b in (f"address:s:{address}", f"body:s:{body}", f"read:i:{read}"))
    return {"shell": f"content insert --uri content://sms/{box} {binds}"}


#: Messaging's conversation list with six conversations; random taps open them, start new ones, go back.
MESSAGES_LIST = {
    "name": "messages-list",
    "description": "Random taps on Messaging's conversation list (a benchmark, never succeeds).",
    "max_steps": 50,
    "reset": [
        {"shell": "content delete --uri content://sms"},
        {"shell": "pm clear com.android.messaging"},
        *(
            _sms(f"+1 555-01{i:02d}", f"Message number {i} about the plans for the weekend", read=i % 2)
            for i in range(5)
        ),
        _sms("+1 555-0142", "See you at noon", box="sent"),
        {"launch": {"component": "com.android.messaging/.ui.conversationlist.ConversationListActivity"}},
    ],
    "success": {"node": {"text": "never typed by chance: 0xdeadbeef"}},
}


#: The Phone app's Recents tab (a denser list than the Favorites it opens on), as the call log's VIEW opens it.
PHONE_RECENTS = {
    "name": "phone-recents",
    "description": "Random taps on the Phone app's Recents tab (a benchmark, never succeeds).",
    "max_steps": 50,
    "reset": [
        {"shell": "am force-stop com.android.dialer"},
        {"shell": "am start -a android.intent.action.VIEW -t vnd.android.cursor.dir/calls"},
    ],
    "success": {"node": {"text": "never shown by chance: 0xdeadbeef"}},
}


#: SystemUI's Quick Settings pulled all the way down; random taps switch tiles, slide the brightness, open Settings.
QUICK_SETTINGS = {
    "name": "quick-settings",
    "description": "Random taps on the Quick Settings (a benchmark, never succeeds).",
    "max_steps": 50,
    "reset": [{"shell": "am force-stop com.android.settings; input keyevent HOME; cmd statusbar expand-settings"}],
    "success": {"node": {"text": "never shown by chance: 0xdeadbeef"}},
}


def _app_screen(rounds: int, title: str, task: dict) -> Figure:
    """In-process steps/s at 360x800 on an app screen: raw, and wrapped 84x84.

    Only the grid's taps are drawn, and the grid leaves out the navigation bar, so nothing
    sends the app away (on Notes with the keyboard up: a tap on the keyboard types, on Save
    saves, in the field moves the cursor).
    """
    grid = {"type": "grid", "region": [0, 0.03, 1, 0.94]}
    envs = {
        "raw AndroidEnv": make_virtual_env(
            360, 800, 160, task=task, content=APP_CONTENT, dump_xml=False, write_files=False
        ),
        "wrapped 84x84": wrap_env(
            make_virtual_env(360, 800, 160, task=task, content=APP_CONTENT, dump_xml=False), action=grid
        ),
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


def _app_screen_task(name: str, component: str) -> dict:
    """A task that opens ``component`` (force-stopped first) and never succeeds: random taps from its main screen."""
    return {
        "name": f"{name}-screen",
        "description": f"Random taps from {name}'s main screen (a benchmark, never succeeds).",
        "max_steps": 50,
        "reset": [{"shell": f"am force-stop {component.split('/')[0]}"}, {"launch": {"component": component}}],
        "success": {"node": {"text": "never shown by chance: 0xdeadbeef"}},
    }


#: The app screens the wrapped suite times at 360x800: (figure title, task that opens it).
APP_SCREENS = (
    ("Notes with the keyboard up", NOTES_KEYBOARD),
    ("Calendar's month view", CALENDAR_MONTH),
    ("Messaging's conversation list", MESSAGES_LIST),
    ("Files", _app_screen_task("files", "com.android.documentsui/.files.FilesActivity")),
    ("Camera", _app_screen_task("camera", "com.android.camera2/com.android.camera.CameraLauncher")),
    ("Gallery", _app_screen_task("gallery", "com.android.gallery3d/.app.GalleryActivity")),
    ("Clock's alarms", CLOCK_ALARMS),
    ("Contacts list", _app_screen_task("contacts", "com.android.contacts/.activities.PeopleActivity")),
    ("Phone", _app_screen_task("phone", "com.android.dialer/.main.impl.MainActivity")),
    ("Phone, Recents", PHONE_RECENTS),
    ("Settings", _app_screen_task("settings", "com.android.settings/.Settings")),
    ("Calculator", _app_screen_task("calculator", "com.android.calculator2/.Calculator")),
    ("Quick Settings", QUICK_SETTINGS),
)
#: What their phone holds, so the screens have something to show (files, photos, contacts, calls).
APP_CONTENT = {"files": 8, "photos": 6, "contacts": 20, "calls": 10}


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

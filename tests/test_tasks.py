"""Built-in tasks end to end: scripted solutions succeed (in process and over adb), random play does not."""

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from androidrl import AndroidEnv, EnvAction, EnvActionType
from androidrl.tasks import Needs, builtin_specs, gym_id, make_task
from androidrl.ui import Snapshot

from conftest import center, node_bounds

T = EnvActionType


def tap(env, **attrs):
    return env.step(EnvAction(action_type=T.SYSTEM_TAP, coord=center(node_bounds(env.xml, **attrs))))


def solve_tap_target(env, info):
    return [tap(env, resource_id="com.androidrl.practice:id/target")]


def solve_open_app(env, info):
    return [tap(env, text=info["params"]["app"]["label"])]


def solve_wifi_on(env, info):
    return [tap(env, text="Settings"), tap(env, text="Network & internet"), tap(env, text="Wi-Fi")]


def solve_airplane_home(env, info):
    return [
        tap(env, text="Settings"),
        tap(env, text="Network & internet"),
        tap(env, text="Airplane mode"),
        env.step(EnvAction(action_type=T.SYSTEM_HOME)),
    ]


def solve_notes_word(env, info):
    word = info["params"]["word"]
    return [
        tap(env, resource_id="com.androidrl.notes:id/note_input"),
        env.step(EnvAction(action_type=T.USER_INPUT, input_txt=word)),
        env.step(EnvAction(action_type=T.SYSTEM_ENTER)),
    ]


def solve_find_about_phone(env, info):
    results = []
    while 'text="About phone"' not in env.xml:
        results.append(env.step(EnvAction(action_type=T.USER_SWIPE, coord=(180, 600), orient="up", dist="medium")))
    results.append(tap(env, text="About phone"))
    return results


SOLUTIONS = {
    "tap-target": (solve_tap_target, -0.05 + 1.0),
    "open-app": (solve_open_app, -0.02 + 1.0),
    "wifi-on": (solve_wifi_on, 3 * -0.01 + 0.1 + 0.2 + 1.0),
    "airplane-home": (solve_airplane_home, 4 * -0.01 + 0.5 + 1.0),
    "notes-word": (solve_notes_word, 3 * -0.02 + 0.1 + 0.3 + 1.0),
    "find-about-phone": (solve_find_about_phone, None),  # the number of swipes depends on the screen
}


def test_every_builtin_has_a_scripted_solution_and_a_gym_id():
    assert set(SOLUTIONS) <= set(builtin_specs())  # (tests/test_solvers.py plays each oracle through its config)
    assert sum(spec.stock_android for spec in builtin_specs().values()) >= 3
    for name in builtin_specs():
        assert gym_id(name) in gym.registry


@pytest.mark.parametrize("name", sorted(SOLUTIONS))
def test_scripted_solution_succeeds_with_the_specified_reward(name, device, tmp_path):
    env = AndroidEnv(device, task=name, save_dir=tmp_path)
    solve, expected = SOLUTIONS[name]
    for seed in (0, 1):
        obs, info = env.reset(seed=seed)
        assert info["task"] == name and isinstance(info["instruction"], str)
        results = solve(env, info)
        *_, (obs, reward, terminated, truncated, last_info) = results
        assert terminated and not truncated and last_info["is_success"]
        assert not any(r[2] for r in results[:-1])  # nothing ended early
        total = sum(r[1] for r in results)
        if expected is not None:
            assert total == pytest.approx(expected)
        spec = builtin_specs()[name]
        assert sorted(last_info["subgoals"]) == sorted(g.name for g in spec.reward.subgoals)
    env.close()


@pytest.mark.parametrize("name", sorted(SOLUTIONS))
def test_random_play_rarely_succeeds_and_truncates_at_max_steps(name, phone, tmp_path):
    from androidrl.device import VirtualDevice

    env = AndroidEnv(VirtualDevice(phone), task=name, save_dir=tmp_path, dump_xml=False)
    env.action_space.seed(0)
    max_steps = builtin_specs()[name].max_steps
    successes = 0
    episodes = 3
    for episode in range(episodes):
        env.reset(seed=episode)
        terminated = truncated = False
        while not (terminated or truncated):
            *_, terminated, truncated, info = env.step(env.action_space.sample())
        successes += info["is_success"]
        if not terminated:
            assert truncated and info["episode_step"] == max_steps
    assert successes < episodes
    env.close()


def test_parameters_and_screens_repeat_under_a_seed(phone, tmp_path):
    from androidrl.device import VirtualDevice

    env = AndroidEnv(VirtualDevice(phone), task="tap-target", save_dir=tmp_path)
    _, first = env.reset(seed=5)
    frame = env.frame.copy()
    env.step(EnvAction(action_type=T.SYSTEM_TAP, coord=(5, 300)))
    _, again = env.reset(seed=5)
    assert first["params"] == again["params"] and np.array_equal(frame, env.frame)
    _, other = env.reset(seed=6)
    assert other["params"]["seed"] != first["params"]["seed"]
    env.close()


def test_notes_word_shows_its_instruction_on_screen(device, tmp_path):
    env = AndroidEnv(device, task="notes-word", save_dir=tmp_path)
    _, info = env.reset(seed=3)
    word = info["params"]["word"]
    assert info["instruction"] == f'Type "{word}" and save it'
    assert f'text="Type &quot;{word}&quot; and save it" resource-id="com.androidrl.notes:id/instruction"' in env.xml
    env.close()


def test_wrong_note_fails_the_episode(device, tmp_path):
    env = AndroidEnv(device, task="notes-word", save_dir=tmp_path)
    env.reset(seed=3)
    tap(env, resource_id="com.androidrl.notes:id/note_input")
    env.step(EnvAction(action_type=T.USER_INPUT, input_txt="wrong"))
    *_, reward, terminated, truncated, info = env.step(EnvAction(action_type=T.SYSTEM_ENTER))
    assert terminated and info["failed"] and not info["is_success"] and reward == pytest.approx(-0.52)
    env.close()


def test_wifi_on_from_gym_make():
    env = gym.make("androidrl/WifiOn-v0", width=360, height=800, density=160)
    obs, info = env.reset(seed=0)
    assert info["task"] == "wifi-on" and Path(obs["screenshot"]).exists()
    env.close()


def test_make_task_accepts_names_specs_mappings_and_paths(tmp_path):
    spec = builtin_specs()["wifi-on"]
    assert make_task("wifi-on").spec == spec
    assert make_task(spec).spec == spec
    assert make_task(spec.model_dump(by_alias=True)).spec == spec
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\nsuccess: {shell: echo 1, equals: '1'}\n")
    assert make_task(path).name == "mine" and make_task(str(path)).name == "mine"


#: What built-ins' conditions read, written out by hand from their YAML (every kind of condition among them).
DECLARED_NEEDS = {
    "tap-target": ["ui"],
    "open-app": ["foreground"],
    "open-any-app": ["foreground"],
    "wifi-on": ["ui", "shell", "foreground"],
    "wifi-off": ["ui", "shell", "foreground"],
    "bluetooth-on": ["ui", "shell", "foreground"],
    "bluetooth-off": ["ui", "shell", "foreground"],
    "airplane-off": ["shell", "foreground"],
    "settings-page": ["ui"],
    "airplane-home": ["shell", "foreground"],
    "airplane-clock": ["shell", "foreground"],
    "notes-word": ["ui"],
    "find-about-phone": ["ui"],
    "wifi-on-logged": ["ui", "shell", "foreground", "logcat"],  # (shell: its side-effect check)
    "open-folder": ["ui", "shell"],  # (shell: its file watchers)
    "create-note": ["ui", "shell"],  # (shell: content query)
    "confirm-dialog": ["ui", "logcat"],
    "file-to-note": ["shell", "foreground"],
    "swipe-photos": ["ui", "shell", "logcat"],
    "files-sort": ["ui", "shell", "logcat"],  # (logcat: DocumentsUI's sort; shell: its file watchers)
    "size-past-dialog": ["ui", "logcat"],
    "note-code-folder": ["ui", "shell", "foreground"],
    # Clock and Calendar (shell: providers and dumpsys; logcat: Calendar's "view=... date=..." lines)
    "add-world-clock": ["ui"],
    "agenda-scroll-event": ["ui", "shell", "foreground"],
    "alarm-before-event": ["ui", "shell"],
    "alarm-label": ["ui", "shell"],
    "alarm-repeat-days": ["ui", "shell"],
    "alarm-time-note": ["ui", "shell", "foreground"],
    "alarm-vibrate": ["ui", "shell"],
    "alarm-time-dial": ["ui", "shell"],
    "alarm-time-keyboard": ["ui", "shell"],
    "calendar-day-swipe": ["ui", "shell", "logcat"],
    "calendar-swipe-month": ["ui", "shell", "logcat"],
    "calendar-today": ["ui", "shell", "logcat"],
    "calendar-view": ["ui", "shell", "foreground"],
    "day-scroll-event": ["ui", "shell", "foreground"],
    "clock-tab": ["ui", "foreground"],
    "create-alarm": ["ui", "shell"],
    "create-event": ["ui", "shell"],
    "delete-alarm": ["ui", "shell"],
    "delete-event": ["ui", "shell", "foreground"],
    "event-all-day": ["ui", "shell"],
    "event-count-note": ["ui", "shell", "foreground", "logcat"],
    "event-date-picker": ["ui", "shell"],
    "event-then-alarm": ["shell"],
    "event-location": ["ui", "shell"],
    "note-to-alarm": ["ui", "shell"],
    "event-time-note": ["ui", "shell", "foreground"],
    "event-time-text": ["ui", "shell"],
    "discard-event-draft": ["ui", "shell", "foreground"],
    "alarm-picker-left-open": ["ui", "shell"],
    "label-dialog-left-open": ["ui", "shell"],
    "stale-event-page": ["ui", "shell", "foreground"],
    "event-title-edit": ["ui", "shell"],
    "open-event": ["ui", "shell", "foreground"],
    "stopwatch-laps": ["ui"],
    "timer-clear-digits": ["ui", "shell"],
    "timer-keypad": ["ui", "shell"],
    "toggle-alarm": ["shell", "foreground"],
    "week-swipe-event": ["ui", "shell", "foreground"],
    # Messages and its flows: providers through `content` (shell), sub-goals on the screen (ui)
    "open-conversation": ["ui", "shell", "foreground"],
    "swipe-archive-conversation": ["ui", "shell"],
    "sms-compose": ["ui", "shell"],
    "delete-conversation": ["ui", "shell"],
    "text-contact-number": ["ui", "shell"],
    "reply-to-sender": ["ui", "shell"],
    "save-sender-as-contact": ["ui", "shell", "foreground"],
    "forward-message": ["ui", "shell", "foreground"],
    "contact-then-text": ["ui", "shell"],
    "call-then-text": ["ui", "shell"],
    "message-to-note": ["ui", "shell", "foreground"],
    "note-to-message": ["ui", "shell"],
    # Contacts and Phone: providers (shell) for success and side effects, nodes for sub-goals
    "dialer-tab": ["ui", "shell", "foreground"],
    "open-contact": ["ui", "shell", "foreground"],
    "scroll-to-contact": ["ui", "shell"],
    "dial-number": ["ui", "shell"],
    "search-contact": ["ui", "shell"],
    "contact-add-email": ["ui", "shell"],
    "contact-rename": ["ui", "shell"],
    "contact-phone-type": ["ui", "shell"],
    "create-contact": ["ui", "shell"],
    "edit-contact-phone": ["ui", "shell"],
    "delete-contact": ["ui", "shell"],
    "star-contact": ["ui", "shell"],
    "call-contact": ["ui", "shell"],
    "call-back-missed": ["ui", "shell"],
    "missed-calls-note": ["ui", "shell", "foreground"],
    "contact-from-call-log": ["ui", "shell"],
    "wrong-app-start": ["shell", "foreground"],
    "shade-pulled-down": ["ui", "shell"],
    "snackbar-undo": ["shell"],
    "toast-overlay": ["ui"],
    "keyboard-covers-button": ["shell"],
    "locked-start": ["shell", "foreground"],
    "slow-list": ["ui"],
    "permission-dialog": ["ui", "shell"],
    "interrupted-by-app": ["ui"],
    "locked-mid-task": ["ui", "shell", "foreground"],
    "config-change-mid-task": ["ui", "shell"],
    "list-shifts-mid-task": ["ui"],
    # Settings, Calculator, Quick Settings and the shade: settings/dumpsys/pidof (shell), sub-goals on screen (ui)
    "app-clear-storage": ["ui", "shell"],
    "app-force-stop": ["ui", "shell"],
    "app-info-page": ["ui", "shell"],
    "app-notifications-off": ["ui", "shell"],
    "auto-rotate": ["ui", "shell", "foreground"],
    "back-to-list": ["shell", "foreground"],
    "battery-saver": ["ui", "shell", "foreground"],
    "calculator-expression": ["ui", "shell", "foreground"],
    "clear-dialog-force-stop": ["ui", "shell"],
    "dark-theme": ["ui", "shell", "foreground"],
    "dark-theme-then-calc": ["ui", "shell"],
    "device-name-note": ["ui", "shell", "foreground"],
    "dialog-over-settings": ["ui", "shell"],
    "dismiss-notification": ["ui", "shell"],
    "dnd-on": ["ui", "shell", "foreground"],
    "drag-brightness": ["ui", "shell"],
    "font-size": ["ui", "shell"],
    "location-off": ["ui", "shell", "foreground"],
    "long-press-app-info": ["ui", "shell"],
    "media-volume": ["ui", "shell", "foreground"],
    "qs-brightness": ["ui", "shell"],
    "quick-settings-tile": ["ui", "shell"],
    "rename-device": ["ui", "shell"],
    "rename-device-after-contact": ["ui", "shell"],
    "screen-timeout-dialog": ["ui", "shell"],
    "scroll-to-setting": ["ui", "shell", "foreground"],
    "seekbar-volume": ["ui", "shell"],
    "shade-over-settings": ["ui", "shell"],
    "tile-settings-page": ["ui", "shell", "foreground"],
    "time-24h": ["ui", "shell", "foreground"],
}


def test_every_builtin_declares_what_its_conditions_read():
    assert set(DECLARED_NEEDS) <= set(builtin_specs())
    assert all(make_task(name).needs != Needs.NONE for name in builtin_specs())  # every goal reads something
    for name, labels in DECLARED_NEEDS.items():
        assert make_task(name).needs.labels == labels, name
    suite = make_task(["open-app", "tap-target"])
    assert suite.needs == Needs.FOREGROUND | Needs.UI
    assert make_task(None).needs == Needs.NONE


def _reads(commands: list[str]) -> Needs:
    """What a task read, from the shell command lines the phone received."""
    kinds = Needs.NONE
    for line in commands:
        if "uiautomator dump" in line:
            kinds |= Needs.UI
        elif line.startswith("dumpsys window"):
            kinds |= Needs.FOREGROUND
        elif line.startswith("logcat"):
            kinds |= Needs.LOGCAT
        else:
            kinds |= Needs.SHELL
    return kinds


@pytest.fixture
def adb_device(phone, served, adb_server):
    from androidrl.device.adb import AdbDevice

    return AdbDevice(served.serial, port=adb_server.port, timeout=5.0)


@pytest.mark.parametrize("name", sorted(DECLARED_NEEDS))
def test_a_builtin_reads_nothing_it_did_not_declare_over_adb(name, phone, adb_device):
    from androidrl.device import VirtualDevice

    task = make_task(name)
    here = VirtualDevice(phone)  # (set up and reset in process: snapshots over adb need an emulator's console)
    task.setup(here)
    task.reset(here, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    read = Needs.NONE
    for _ in range(3):
        phone.command_log.clear()
        task.evaluate(Snapshot(adb_device))
        read |= _reads(list(phone.command_log))
        adb_device.tap(int(rng.integers(360)), int(rng.integers(800)))
    assert read, name  # it read something (the effect is visible)...
    assert read & ~task.needs == Needs.NONE, f"{name} read {read} but declared {task.needs}"

"""Vector envs over devices: SB3 and Gymnasium faces, seeding, fault isolation, per-worker recovery."""

import contextlib
import json
import logging
import multiprocessing
import os
import resource
import signal
import threading
import time

import gymnasium as gym
import numpy as np
import pytest

from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.vector import VectorSettings, WorkerError, make_vector_env
from androidrl.vector.sb3 import SB3VecEnv, make_sb3_vec_env
from androidrl.virtual.phone import VirtualPhone
from androidrl.wrappers import DiscreteGridAction, ScreenshotObservation

SMALL = "virtual:360x800@160"


def wrap(env):
    return DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24)), rows=4, cols=2)


#: make_vector_env's own arguments; the rest of a test's keywords are VectorSettings.
_OWN = ("env_kwargs", "shared_memory", "monitor_dir", "seed", "adb_host", "adb_port")


def vec(devices=(SMALL, SMALL), task="tap-target", **kwargs):
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    return SB3VecEnv(make_vector_env(list(devices), task, wrap, settings=VectorSettings(**kwargs), **own))


# ---------------------------------------------------------------------------- specs


def test_device_specs():
    assert DeviceSpec.parse("emulator-5554") == DeviceSpec("emulator-5554")
    assert DeviceSpec.parse("virtual").screen_size() == (1080, 2400)
    assert DeviceSpec.parse("virtual:360x800@160").density == 160
    assert DeviceSpec.parse("virtual:540x1200").density == 210
    with pytest.raises(ValueError, match="bad virtual device"):
        DeviceSpec.parse("virtual:big")
    with pytest.raises(ValueError, match="non-empty list"):
        parse_devices([])


def test_duplicate_serials_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="emulator-5554 is listed twice: two workers would drive the same phone"):
        make_vector_env(["emulator-5554", "127.0.0.1:6101", "emulator-5554"])
    assert len(parse_devices(["virtual", "virtual"])) == 2  # virtual phones are separate per worker


def test_the_gymnasium_face_batches_infos_and_autoresets_on_the_same_step():
    env = make_vector_env([SMALL, SMALL], "tap-target", wrap)
    obs, infos = env.reset(seed=0)
    assert obs.shape == (2, 48, 24, 3) and list(infos["task"]) == ["tap-target", "tap-target"]
    assert env.metadata["autoreset_mode"].name == "SAME_STEP"
    for _ in range(10):  # tap-target truncates after 10 steps
        obs, rewards, terminated, truncated, infos = env.step(np.array([0, 0]))
    assert truncated.all() and infos["_final_obs"].all() and infos["final_obs"][0].shape == (48, 24, 3)
    assert list(infos["final_info"]["episode_step"]) == [10, 10] and list(infos["task"]) == ["tap-target"] * 2
    assert env.call("shell", "getprop ro.serialno") == ("virtual-0\n", "virtual-1\n")
    env.close()


# ---------------------------------------------------------------------------- semantics


def test_terminal_observation_truncation_flag_and_monitor_episode(tmp_path):
    env = vec(monitor_dir=tmp_path)
    env.seed(0)
    obs = env.reset()
    assert obs.shape == (2, 48, 24, 3) and env.reset_infos[0]["task"] == "tap-target"
    done_info = None
    for _ in range(12):  # tap-target truncates after 10 steps
        obs, rewards, dones, infos = env.step(np.array([0, 0]))  # tap the top-left cell: never the target
        if dones.any():
            done_info = infos[int(np.argmax(dones))]
            break
    assert done_info is not None
    assert done_info["TimeLimit.truncated"] is True and done_info["terminal_observation"].shape == (48, 24, 3)
    assert done_info["episode"]["l"] == 10 and done_info["episode"]["r"] == pytest.approx(-0.5)
    assert done_info["is_success"] is False
    assert sorted(p.name for p in tmp_path.iterdir()) == ["worker_0.monitor.csv", "worker_1.monitor.csv"]
    env.close()


def test_success_terminates_without_the_truncation_flag():
    def cells(env):  # the quickstart's grid: one tap per cell of the target's 3x3 layout
        return DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24)), rows=3, cols=3, region=(0, 0.09, 1, 0.94))

    env = SB3VecEnv(make_vector_env([SMALL], "tap-target", cells))
    env.seed(3)
    env.reset()
    for action in range(9):  # a miss leaves the target where it is, so one of the 9 taps hits it
        obs, rewards, dones, infos = env.step(np.array([action]))
        if dones[0]:
            break
    assert dones[0] and infos[0]["is_success"] is True, f"no success within 9 taps: {infos[0]}"
    assert infos[0]["TimeLimit.truncated"] is False and rewards[0] > 0
    env.close()


def test_seeding_reproduces_and_observations_are_copies():
    runs = []
    for _ in range(2):
        env = vec()
        env.seed(42)
        frames = [env.reset()]
        for _ in range(3):
            frames.append(env.step(np.array([1, 2]))[0])
        assert frames[0] is not frames[1]
        runs.append(np.stack(frames))
        env.close()
    assert np.array_equal(runs[0], runs[1])


def test_get_attr_and_env_method_never_kill_workers():
    env = vec()
    env.reset()
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        env.get_attr("no_such_thing")
    with pytest.raises(AttributeError, match="no method 'no_such_method'"):
        env.env_method("no_such_method")
    assert env.has_attr("action_masks") is False
    assert env.get_attr("serial") == ["virtual-0", "virtual-1"]
    assert env.env_method("shell", "getprop ro.serialno") == ["virtual-0\n", "virtual-1\n"]
    from stable_baselines3.common.monitor import Monitor

    assert env.env_is_wrapped(Monitor) == [True, True]  # every worker's env has one, first (as SB3's make_vec_env)
    assert env.env_is_wrapped(gym.wrappers.ClipReward) == [False, False]
    assert env.step(np.array([0, 0]))[0].shape == (2, 48, 24, 3)  # still stepping
    env.close()


@pytest.mark.parametrize("backend", ["dummy", "subproc"])
def test_the_factory_also_builds_sb3_vec_envs(backend):
    env = make_sb3_vec_env([SMALL, SMALL], "tap-target", wrap, backend=backend)
    obs = env.reset()
    assert obs.shape == (2, 48, 24, 3)
    env.step(np.array([0, 1]))
    env.close()
    with pytest.raises(ValueError, match="backend"):
        make_sb3_vec_env([SMALL], backend="threads")


# ---------------------------------------------------------------------------- faults


def _serial_command(serial, command):
    return f'[ "$(getprop ro.serialno)" = {serial} ] && {command}; true'


def test_an_in_process_fault_truncates_one_worker_and_the_others_keep_stepping():
    guard = {"retry_interval": 0.2, "probe_timeout": 0.3, "max_down_seconds": 30}
    env = vec(**guard)
    env.reset()
    with pytest.raises(RuntimeError, match="worker 1 .*DeviceOfflineError"):  # worker 1's phone powers off
        env.env_method("shell", _serial_command("virtual-1", "reboot -p"))  # (`reboot` never answers)
    obs, rewards, dones, infos = env.step(np.array([0, 0]))
    assert dones[1] and infos[1]["TimeLimit.truncated"] and "DeviceOfflineError" in infos[1]["device_error"]
    assert not dones[0]
    for _ in range(5):  # worker 1 answers at once with blank, truncated steps; worker 0 plays on
        start = time.monotonic()
        obs, rewards, dones, infos = env.step(np.array([0, 0]))
        assert time.monotonic() - start < 2
        assert dones[1] and infos[1]["device_down"] and np.all(obs[1] == 0)
    assert obs[0].any()
    env.close()


def test_a_killed_adbd_server_truncates_that_worker_and_it_recovers(adbd, adb_server):
    phones = [VirtualPhone(360, 800, 160, seed=i, serial=f"p{i}", boot_seconds=0.2) for i in range(2)]
    servers = [adbd.serve(p) for p in phones]
    for server in servers:
        adb_server.adb("connect", server.serial)
    guard = {"retry_interval": 0.2, "probe_timeout": 2.0, "max_down_seconds": 60}
    # forkserver: forked workers would inherit the adbd listening sockets of this process
    # and keep the port taken after the server is stopped.
    env = vec(devices=[s.serial for s in servers], adb_port=adb_server.port, **guard, start_method="forkserver")
    try:
        env.reset()
        adbd.stop_server(servers[1])  # the device's adbd dies mid-rollout
        saw_fault = False
        for _ in range(3):
            obs, rewards, dones, infos = env.step(np.array([0, 0]))
            saw_fault |= bool(dones[1] and infos[1].get("device_error"))
        assert saw_fault and obs[0].any()
        servers[1] = adbd.serve(phones[1], port=servers[1].port)  # ...and comes back
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            obs, rewards, dones, infos = env.step(np.array([0, 0]))
            if not infos[1].get("device_down") and not infos[1].get("device_error"):
                break
        assert not infos[1].get("device_down") and obs[1].any()  # stepping on the real screen again
    finally:
        env.close()
        for server in servers:
            adbd.stop_server(server)
            adb_server.adb("disconnect", server.serial, check=False)


def _until_back(env, index, seconds=60):
    """Step until env ``index`` steps on its phone again (a loaded machine may take a while); its last step."""
    deadline = time.monotonic() + seconds
    actions = np.zeros(env.num_envs, dtype=int)
    while True:
        obs, rewards, dones, infos = env.step(actions)
        if not infos[index].get("device_down") or time.monotonic() > deadline:
            return obs, infos


# The target: a fault costs the healthy devices <= 1 s of stall when it is detected and none while
# the device is down. The bound leaves room for a loaded machine's noise; what it catches is a
# reconnection attempt or a detection that holds the step: with fault_timeout 3 s (so the vector env
# does not leave the worker behind first) that shows as 3 s or more, the old detection as up to 13 s.
STALL_BOUND = 1.5


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["power-off", "adbd-stopped"])
def test_a_fault_does_not_stall_the_healthy_devices(adbd, adb_server, fault):
    phones = [VirtualPhone(360, 800, 160, seed=i, serial=f"stall{i}", boot_seconds=0.2) for i in range(3)]
    servers = [adbd.serve(p) for p in phones]
    for server in servers:
        adb_server.adb("connect", server.serial)
    guard = {"retry_interval": 0.5, "probe_timeout": 5.0, "max_down_seconds": 120}
    serials = [s.serial for s in servers]
    env = vec(serials, adb_port=adb_server.port, **guard, start_method="forkserver", fault_timeout=3.0)
    actions = np.zeros(3, dtype=int)

    def timed(phase):
        start = time.monotonic()
        obs, rewards, dones, infos = env.step(actions)
        took = time.monotonic() - start
        for i in (0, 1):  # the healthy phones step on their real screens throughout
            assert not infos[i].get("device_error") and obs[i].any(), f"{phase}: env {i} {infos[i]}"
        return took, infos[2]

    try:
        env.reset()
        usual = float(np.median([timed("before")[0] for _ in range(10)]))
        if fault == "power-off":
            phones[2].reboot(power_off=True)
        else:
            adbd.stop_server(servers[2])
        detection, deadline = [], time.monotonic() + 30
        while time.monotonic() < deadline:  # until phone 2 reports its fault
            took, info = timed("detection")
            detection.append(took)
            if info.get("device_error"):
                break
        assert info.get("device_error"), "the fault was never reported"
        down, until = [], time.monotonic() + 12  # several reconnection attempts (one every 0.5 s, up to 5 s each)
        while time.monotonic() < until:
            took, info = timed("down")
            down.append(took)
            assert info.get("device_down") and info.get("device_error")
        if fault == "power-off":
            phones[2].power_on()
        else:
            servers[2] = adbd.serve(phones[2], port=servers[2].port)
        back, deadline = [], time.monotonic() + 60
        while time.monotonic() < deadline:
            took, info = timed("recovery")
            back.append(took)
            if not info.get("device_down") and not info.get("device_error"):
                break
        assert not info.get("device_down"), "phone 2 did not come back"
    finally:
        env.close()
        for server in servers:
            adbd.stop_server(server)
            adb_server.adb("disconnect", server.serial, check=False)
    stalls = {"detection": max(detection) - usual, "down": max(down) - usual, "recovery": max(back) - usual}
    print(
        f"\nstall: {fault}: usual step {usual * 1000:.0f} ms; detection after {len(detection)} step(s), "
        f"longest {max(detection):.2f} s (stall {stalls['detection']:.2f} s); while down {len(down)} steps, "
        f"median {np.median(down) * 1000:.0f} ms, longest {max(down):.2f} s (stall {stalls['down']:.2f} s); "
        f"recovery after {len(back)} steps, "
        f"longest {max(back):.2f} s (stall {stalls['recovery']:.2f} s)"
    )
    assert all(stall < STALL_BOUND for stall in stalls.values()), stalls


def test_while_too_many_devices_are_down_the_step_waits_for_them(caplog):
    guard = {"retry_interval": 0.2, "probe_timeout": 0.5, "max_down_seconds": 60}
    env = vec(**guard, max_blank_share=0.25)  # one phone of two down is too many
    try:
        env.reset()
        with pytest.raises(RuntimeError, match="worker 1 .*DeviceOfflineError"):  # offline for a second, then boots
            env.env_method("shell", _serial_command("virtual-1", "reboot"))
        reported = False
        with caplog.at_level(logging.WARNING, logger="androidrl.vector.async_env"):
            for _ in range(15):  # the reboot and beyond
                obs, rewards, dones, infos = env.step(np.array([0, 0]))
                fault = bool(dones[1] and infos[1].get("device_error"))
                assert not infos[1].get("device_down")  # no blank step while too many are down: it is held
                assert obs[1].any() or fault  # (the step that finds the fault starts its next episode blank)
                reported |= fault
        assert reported and "1 of 2 devices are down (virtual-1): waiting for them" in caplog.text
    finally:
        env.close()


def test_a_dead_worker_is_restarted_alone_then_gives_up_naming_the_device():
    env = vec(max_restarts=1)
    env.reset()
    for _ in range(3):
        env.step(np.array([0, 0]))
    os.kill(env.venv.processes[1].pid, signal.SIGKILL)
    obs, rewards, dones, infos = env.step(np.array([0, 0]))
    assert dones[1] and "died" in infos[1]["device_error"] and not dones[0]  # worker 0 keeps its episode
    assert infos[1]["terminal_observation"].shape == (48, 24, 3) and env.restarts == 1
    obs, infos = _until_back(env, 1)  # the new worker's phone comes back with a fresh episode
    assert not infos[1].get("device_down") and obs[1].any()
    os.kill(env.venv.processes[1].pid, signal.SIGKILL)
    with pytest.raises(WorkerError, match=r"worker 1 \(virtual-1\): died; restarted 1 times .* giving up"):
        for _ in range(3):
            env.step(np.array([0, 0]))
    env.close()


def test_restarts_are_budgeted_per_time_window_not_per_lifetime():
    env = vec(max_restarts=1, restart_window=1.0)
    try:
        env.reset()
        for death in range(3):  # one restart a second is allowed: three deaths well apart are all survived
            os.kill(env.venv.processes[1].pid, signal.SIGKILL)
            obs, rewards, dones, infos = env.step(np.array([0, 0]))
            restarted = time.monotonic()
            assert dones[1] and "died" in infos[1]["device_error"] and env.restarts == death + 1
            obs, infos = _until_back(env, 1)
            assert not infos[1].get("device_down") and obs[1].any()
            while time.monotonic() - restarted < 1.5:  # the window passes: that restart no longer counts
                env.step(np.array([0, 0]))
    finally:
        env.close()


def _wake(pid):
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGCONT)


def test_a_stopped_worker_is_killed_so_no_step_outlasts_the_timeout_by_more_than_seconds():
    step_timeout = 2.0
    env = vec(step_timeout=step_timeout, fault_timeout=0.5)
    try:
        env.reset()
        for _ in range(5):  # past the warm-up: worker 0 has a record of answering quickly
            env.step(np.array([0, 0]))
        pid = env.venv.processes[0].pid
        os.kill(pid, signal.SIGSTOP)  # hung for good: a SIGTERM stays pending, only SIGKILL ends it
        # Should nothing send SIGKILL, wake the worker (its pending SIGTERM then ends it) so the test
        # fails on the step's duration below instead of hanging.
        waker = threading.Timer(step_timeout + 30, _wake, (pid,))
        waker.start()
        longest, deadline = 0.0, time.monotonic() + 90
        try:
            while time.monotonic() < deadline:
                start = time.monotonic()
                obs, rewards, dones, infos = env.step(np.array([0, 0]))
                longest = max(longest, time.monotonic() - start)
                if env.restarts and not infos[0].get("device_down"):
                    break
        finally:
            waker.cancel()
        assert longest < step_timeout + 5, f"a step took {longest:.1f} s: the stopped worker held it"
        assert env.restarts == 1 and not infos[0].get("device_down") and obs[0].any()
        with pytest.raises(ProcessLookupError):  # killed (and reaped), not left stopped
            os.kill(pid, 0)
    finally:
        env.close()


def test_a_hung_worker_is_left_behind_then_killed_and_restarted():
    hang = {
        "name": "hang",
        "max_steps": 50,
        "success": {"shell": "test -e /sdcard/hang && sleep 20; echo 0", "equals": "1"},
    }
    env = vec(task=hang, step_timeout=2.0, fault_timeout=0.5)
    env.reset()
    env.env_method("shell", "touch /sdcard/hang", indices=[0])
    start = time.monotonic()
    obs, rewards, dones, infos = env.step(np.array([0, 0]))
    assert time.monotonic() - start < 10  # not the 20 s of the hang: worker 1 was not held up
    assert dones[0] and "no answer within" in infos[0]["device_error"] and not dones[1]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # past step_timeout the worker is killed; the new one starts clean
        obs, rewards, dones, infos = env.step(np.array([0, 0]))
        if env.restarts and not infos[0].get("device_down"):
            break
        time.sleep(0.1)
    assert env.restarts == 1 and not infos[0].get("device_down") and obs[0].any()
    env.close()


def test_a_worker_that_hangs_in_reset_is_restarted():
    hang = {
        "name": "hang-in-reset",
        "start": "steps",  # the reset steps run every episode (the default starts from their snapshot)
        "reset": [{"shell": "test -e /sdcard/hang && sleep 20; true"}],
        "success": {"shell": "echo 0", "equals": "1"},
    }
    env = vec(task=hang, step_timeout=2.0)
    env.reset()
    env.env_method("shell", "touch /sdcard/hang", indices=[1])
    start = time.monotonic()
    obs = env.reset()  # worker 1 hangs: it is restarted on a fresh phone, which resets (at once, or soon after)
    assert time.monotonic() - start < 15 and env.restarts == 1 and obs.shape == (2, 48, 24, 3)
    obs, infos = _until_back(env, 1)
    assert env.restarts == 1 and not infos[1].get("device_down") and obs[1].any()
    env.close()


def test_vector_settings_are_one_typed_object_with_one_default_each():
    # Every part reads the one object: the vector env, each worker's guard, the SB3 backends.
    settings = VectorSettings(step_timeout=7, fault_timeout=0.5, max_down_seconds=9, retry_interval=0.25)
    env = vec(step_timeout=7, fault_timeout=0.5, max_down_seconds=9, retry_interval=0.25)
    try:
        assert env.venv.settings == settings
        assert (env.venv.step_timeout, env.venv.fault_timeout, env.venv.max_down_seconds) == (7, 0.5, 9)
        assert env.get_attr("max_down_seconds") == [9, 9] and env.get_attr("retry_interval") == [0.25, 0.25]
    finally:
        env.close()
    dummy = make_sb3_vec_env([SMALL], "tap-target", wrap, backend="dummy", settings=settings)
    assert dummy.envs[0].max_down_seconds == 9
    dummy.close()
    with pytest.raises(ValueError, match="step_timeout"):
        VectorSettings(step_timeout=-1)
    with pytest.raises(ValueError, match="extra_forbidden|Extra inputs"):
        VectorSettings(step_timout=5)  # a typo is an error, not a silent default


def test_a_write_error_in_a_step_ends_the_episode_and_the_worker_lives_on(tmp_path):
    def small_files(env):  # in the worker: files may not grow past 200 bytes, as on a full disk
        if multiprocessing.parent_process() is not None:  # (the parent builds one env to read the spaces)
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (200, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        return wrap(env)

    env = SB3VecEnv(make_vector_env([SMALL], "tap-target", small_files, monitor_dir=tmp_path))
    env.reset()
    errors = []
    for _ in range(60):  # 6 episodes of 10 steps: the Monitor's rows soon no longer fit
        obs, rewards, dones, infos = env.step(np.array([0]))
        errors += [infos[0]["device_error"]] if dones[0] and infos[0]["device_error"] else []
    assert errors and all("File too large" in e for e in errors)
    assert env.restarts == 0 and obs[0].any()  # the same worker, still stepping on the real screen
    env.close()


def test_a_write_error_in_a_reset_ends_the_episode_and_the_worker_lives_on():
    def full_disk(env):  # in the worker: the observation files (PNG, XML) no longer fit, as on a full disk
        if multiprocessing.parent_process() is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (200, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        return DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24), write_files=True), rows=4, cols=2)

    env = SB3VecEnv(make_vector_env([SMALL, SMALL], "tap-target", full_disk, env_kwargs={"dump_xml": True}))
    try:
        obs = env.reset()  # (the reset's files do not fit either)
        assert not obs.any()
        for _ in range(10):  # each episode ends at once with the reason; the autoreset's write fails again
            obs, rewards, dones, infos = env.step(np.array([0, 0]))
            assert dones.all() and all("File too large" in info["device_error"] for info in infos)
            assert not any(info["device_down"] for info in infos)  # the phones are fine: no waiting for them
        assert env.restarts == 0  # the same workers throughout
    finally:
        env.close()


def test_observation_files_of_killed_workers_are_removed_on_close():
    def with_files(env):  # the MetaGPT-style PNG and XML files, as well as the image
        return DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24), write_files=True), rows=4, cols=2)

    env = make_vector_env([SMALL, SMALL], "tap-target", with_files, env_kwargs={"dump_xml": True})
    env.reset(seed=0)
    env.step(np.array([0, 1]))
    (root,) = env._cleanup  # where every worker writes its observation files
    assert any(root.rglob("*.png"))
    os.kill(env.processes[0].pid, signal.SIGKILL)  # no chance to clean up after itself
    env.close()
    assert not root.exists()


@pytest.mark.parametrize("backend", ["async", "dummy"])
def test_the_monitor_counts_the_tasks_rewards_under_the_users_wrappers_and_names_the_env(tmp_path, backend):
    # As SB3's make_vec_env: the Monitor wraps the env first, so a ClipReward after it clips what the agent
    # learns from, not the episode returns the run reports.
    def clipped(env):
        return gym.wrappers.ClipReward(wrap(env), min_reward=0.0, max_reward=0.0)

    env = make_sb3_vec_env([SMALL], "tap-target", clipped, backend=backend, monitor_dir=tmp_path)
    env.seed(0)
    env.reset()
    learned = 0.0
    for _ in range(10):  # tap-target ends after 10 steps: -0.05 a step unless the target is hit
        _, rewards, dones, infos = env.step(np.array([0]))
        learned += float(rewards[0])
    env.close()
    assert dones[0] and learned == 0.0
    (path,) = tmp_path.glob("*.monitor.csv")
    header, columns, row = path.read_text().splitlines()[:3]
    assert json.loads(header[1:])["env_id"] == "androidrl/TapTarget-v0"
    assert float(row.split(",")[0]) == pytest.approx(infos[0]["episode"]["r"]) != 0.0

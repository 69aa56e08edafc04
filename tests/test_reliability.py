"""Reliability: torn checkpoints, full disks, signals, untrusted checkpoints, dead devices and wrong ports."""

import base64
import contextlib
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import cloudpickle
import numpy as np
import pytest
import yaml
from stable_baselines3.common.callbacks import BaseCallback

from androidrl.device.adb_client import AdbClient
from androidrl.device.adb_server import free_port
from androidrl.errors import DeviceError
from androidrl.train.checkpoints import CheckpointError, atomic_write
from androidrl.train.compose import check_devices
from androidrl.train.config import ConfigError, parse_config
from androidrl.train.lock import RunInUse
from androidrl.train.runs import Run, checkpoint_path, checkpoint_steps
from androidrl.train.training import main as train_main
from androidrl.train.training import train
from androidrl.virtual.phone import VirtualPhone

from conftest import children, tiny_config, wait_until_gone

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[1]
SHORT = tiny_config(
    devices={"virtual": {"count": 2, "width": 180, "height": 400, "density": 80}},
    action={"swipes": False},
    training={"total_timesteps": 384, "checkpoint_freq": 128},
)


def _run(tmp_path, **training) -> Run:
    config = parse_config({**SHORT, "training": {**SHORT["training"], **training}})
    return Run.create(config, tmp_path / "run", ["scripts/train.py"])


def _start_training(tmp_path, preexec=None, env=None, **training) -> tuple[subprocess.Popen, Path]:
    """scripts/train.py on a long config in a process group of its own; returns once it is training.

    ``env``: more environment variables.
    """
    config = tmp_path / "long.yaml"
    config.write_text(
        yaml.safe_dump({**SHORT, "training": {**SHORT["training"], "total_timesteps": 10**6, **training}})
    )
    run = tmp_path / "run"
    command = [sys.executable, str(ROOT / "scripts" / "train.py"), "--config", str(config), "--run-dir", str(run)]
    process = subprocess.Popen(
        command,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
        preexec_fn=preexec,
        env={**os.environ, **(env or {})},
    )
    deadline = time.monotonic() + 120
    while not list((run / "checkpoints").glob("rl_model_*_steps.zip")):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"training did not start: {process.communicate()[1]}")
        time.sleep(0.2)
    return process, run


# ---------------------------------------------------------------------------- checkpoints


def test_resume_skips_torn_checkpoints_and_says_which(tmp_path, capsys):
    run = _run(tmp_path, total_timesteps=256)
    train(run)
    newest = run.latest_checkpoint()
    steps = checkpoint_steps(newest)
    torn = checkpoint_path(run, steps + 128)  # what a kill -9 during a save used to leave
    torn.write_bytes(b"")
    half = checkpoint_path(run, steps + 256)  # ...and a full disk
    half.write_bytes(newest.read_bytes()[: newest.stat().st_size // 2])
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    unfinished = run.checkpoints / f".rl_model_{steps + 384}_steps.zip.tmp-{dead.stdout.strip()}"  # a kill -9 leaves
    unfinished.write_bytes(b"half a checkpoint")
    resumed = train(Run.open(run.directory, ["training.total_timesteps=448"]), resume=True)
    err = capsys.readouterr().err
    assert f"resume: removed {unfinished.name} (a write cut short)" in err and not unfinished.exists()
    assert f"skipping {half.name}" in err and f"skipping {torn.name}" in err
    assert f"continuing from {newest.name} after skipping 2" in err
    assert resumed.timesteps >= 448 and resumed.final_model.exists()


def test_a_write_that_fails_leaves_the_old_file_whole(tmp_path):
    path = tmp_path / "step_1.zip"
    path.write_bytes(b"the good checkpoint")

    def fail_midway(f):
        f.write(b"half of a new one")
        raise OSError(28, "No space left on device")

    with pytest.raises(CheckpointError, match=f"cannot write step_1.zip in {tmp_path}: No space left on device"):
        atomic_write(path, fail_midway)
    assert path.read_bytes() == b"the good checkpoint" and sorted(p.name for p in tmp_path.iterdir()) == ["step_1.zip"]


def test_a_ctrl_c_during_a_write_takes_effect_once_the_file_is_whole(tmp_path):
    path = tmp_path / "step_1.zip"

    def interrupted_midway(f):
        f.write(b"the first half, ")
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C
        f.write(b"the second half")

    with pytest.raises(KeyboardInterrupt):
        atomic_write(path, interrupted_midway)
    assert path.read_bytes() == b"the first half, the second half"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step_1.zip"]


def test_a_full_disk_stops_training_with_an_error_and_loses_no_checkpoint(tmp_path):
    def small_files():  # as on a nearly full disk: no file may grow past 600 KB (a checkpoint is bigger)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (600_000, resource.RLIM_INFINITY))

    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump(SHORT))
    run = tmp_path / "run"
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "train.py"), "--config", str(config), "--run-dir", str(run)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=small_files,
        timeout=300,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"cannot write rl_model_128_steps.zip in {run / 'checkpoints'}: File too large" in result.stderr
    assert not [p for p in (run / "checkpoints").iterdir()]  # no torn file left behind


class FullDisk(BaseCallback):
    """After ``rollouts`` rollouts the disk fills up under ``target`` of the run: its path now leads to /dev/full.

    ``target``: ``tensorboard`` (the event files) or ``evaluations`` (evaluations.csv).
    """

    def __init__(self, target: str, rollouts: int = 2) -> None:
        super().__init__()
        self.target, self.rollouts, self.seen = target, rollouts, 0

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        self.seen += 1
        if self.seen == self.rollouts:
            run = Path(self.model.tensorboard_log).parent
            if self.target == "tensorboard":
                paths = list(run.glob("tb/*/events.out.tfevents.*"))
            else:
                paths = [run / "evaluations.csv"]
            for path in paths:
                path.unlink()
                path.symlink_to("/dev/full")  # every write: "No space left on device"


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("tensorboard", "cannot write the TensorBoard log in {run}/tb: No space left on device"),
        ("evaluations", "cannot write evaluations.csv in {run}: No space left on device"),
    ],
)
def test_a_full_disk_under_the_logs_stops_training_with_an_error_and_loses_no_checkpoint(
    tmp_path, capsys, target, message
):
    callbacks = [{f"{__name__}.FullDisk": {"target": target}}]
    training = {"total_timesteps": 2048, "eval_freq": 128, "eval_episodes": 1, "callbacks": callbacks}
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({**SHORT, "training": {**SHORT["training"], **training}}))
    run = tmp_path / "run"
    assert train_main(["--config", str(config), "--run-dir", str(run)]) == 1
    err = capsys.readouterr().err
    assert f"error: {message.format(run=run)}" in err and "Traceback" not in err, err
    checkpoints = Run.open(run).checkpoint_paths()
    names = [p.name for p in checkpoints][:2]
    assert names == ["rl_model_128_steps.zip", "rl_model_256_steps.zip"]  # saved before the disk filled
    assert all(zipfile.is_zipfile(p) for p in checkpoints)


# ---------------------------------------------------------------------------- resuming


def test_normalization_statistics_are_plain_arrays_and_come_back_on_resume(tmp_path):
    config = parse_config({**SHORT, "algo": {**SHORT["algo"], "normalize_reward": True}})
    run = Run.create(config, tmp_path / "run")
    train(run)
    steps = checkpoint_steps(run.latest_checkpoint())
    statistics = checkpoint_path(run, steps, "vecnormalize_", "npz")  # SB3's name, but arrays: nothing pickled
    with np.load(statistics, allow_pickle=False) as data:
        saved = {key: data[key] for key in data.files}
    assert saved["norm_reward"] and not saved["norm_obs"] and saved["ret_rms.count"] > steps - 1
    train(Run.open(run.directory, [f"training.total_timesteps={steps + 128}"]), resume=True)
    after = checkpoint_steps(run.latest_checkpoint())
    with np.load(checkpoint_path(run, after, "vecnormalize_", "npz"), allow_pickle=False) as data:
        resumed = {key: data[key] for key in data.files}
    # The statistics went on from the saved ones (fresh ones would have counted the new steps only).
    assert resumed["ret_rms.count"] == pytest.approx(saved["ret_rms.count"] + (after - steps))


def test_resume_keeps_the_evaluations_so_far_and_the_best_model(tmp_path):
    run = _run(tmp_path, total_timesteps=256, eval_freq=128, eval_episodes=1)
    train(run)
    path = run.directory / "evaluations.npz"
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    assert list(arrays["timesteps"]) == [128, 256]
    arrays["successes"][:], arrays["results"][:] = 1.0, 1e6  # as if the best so far were perfect
    np.savez(path, **arrays)
    best = run.best_model.read_bytes()
    train(Run.open(run.directory, ["training.total_timesteps=384"]), resume=True)
    with np.load(path, allow_pickle=False) as data:
        assert list(data["timesteps"]) == [128, 256, 384]
        assert (data["results"][:2] == 1e6).all()  # the evaluations from before the resume are still there
    assert run.best_model.read_bytes() == best  # the next evaluation, worse, did not replace the best model


# ---------------------------------------------------------------------------- loading never unpickles


def _poison(path: Path, marker: Path, key: str) -> None:
    """Put a pickle that creates ``marker`` when unpickled into field ``key`` of a model file (the probe's attack)."""

    class Attack:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    with zipfile.ZipFile(path) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    data = json.loads(files["data"])
    data[key] = {":type:": "<class 'x'>", ":serialized:": base64.b64encode(cloudpickle.dumps(Attack())).decode()}
    files["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)


@pytest.mark.parametrize("key", ["policy_class", "lr_schedule", "not_a_field"])
def test_a_malicious_checkpoint_runs_nothing(tmp_path, capsys, key):
    run = _run(tmp_path, total_timesteps=128, checkpoint_freq=0)
    train(run)
    marker = tmp_path / "pwned"
    _poison(run.latest_checkpoint(), marker, key)
    reloaded = Run.open(run.directory, ["training.total_timesteps=256"])
    if key == "not_a_field":  # a field the config cannot supply: the checkpoint is refused
        with pytest.raises(CheckpointError, match="holds pickled fields \\['not_a_field'\\]"):
            train(reloaded, resume=True)
    else:  # a field the config supplies: the pickle in the file is never read
        assert train(reloaded, resume=True).timesteps >= 256
    assert not marker.exists()


# ---------------------------------------------------------------------------- signals


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signals_save_a_checkpoint_and_stop_quietly(tmp_path, sig, code):
    process, run = _start_training(tmp_path)
    sent = time.time()
    os.killpg(process.pid, sig)  # the whole group, as a terminal's Ctrl-C or a scheduler does
    _, err = process.communicate(timeout=60)
    assert process.returncode == code, err
    assert "Traceback" not in err and "continue with --resume" in err
    saved = (run / "checkpoints").glob("rl_model_*_steps.zip")
    assert max(p.stat().st_mtime for p in saved) >= sent  # saved on the signal


def test_more_ctrl_c_while_a_stopped_training_saves_its_checkpoint_print_no_traceback(tmp_path):
    process, run = _start_training(tmp_path)
    os.killpg(process.pid, signal.SIGINT)
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:  # an impatient user: Ctrl-C, Ctrl-C, Ctrl-C...
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGINT)
        time.sleep(0.02)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err, err
    (saved,) = re.findall(r"SIGINT: saved (\S+); continue with --resume", err)
    assert zipfile.is_zipfile(saved) and Path(saved).parent == run / "checkpoints"
    assert not list((run / "checkpoints").glob(".*.tmp-*"))  # no half-written file either


def test_kill_9_then_resume_loses_at_most_one_checkpoint_interval(tmp_path):
    tmp = tmp_path / "tmp"  # (the workers die too: their directory is left for the next trainer to remove)
    tmp.mkdir()
    process, run = _start_training(tmp_path, env={"TMPDIR": str(tmp)}, checkpoint_freq=128)
    time.sleep(2)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    latest = Run.open(run).latest_checkpoint()
    saved = checkpoint_steps(latest)
    monitor_steps = sum(
        int(line.split(",")[1])
        for path in (run / "monitor").glob("*.csv")
        for line in path.read_text().splitlines()[2:]
    )
    assert monitor_steps - saved <= 128 + 2 * 10  # one interval (+ the episodes in flight on 2 phones)
    resumed = train(Run.open(run, ["training.total_timesteps=" + str(saved + 128)]), resume=True)
    assert resumed.timesteps >= saved + 128


def test_a_trainer_killed_with_sigkill_leaves_no_worker_and_no_temporary_directory(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    process, _ = _start_training(tmp_path, env={"TMPDIR": str(tmp)})
    try:
        workers = children(process.pid)
        assert len(workers) == 2 and list(tmp.glob("androidrl-vec-*"))  # a worker per phone, their directory
        os.kill(process.pid, signal.SIGKILL)  # the trainer alone: nothing tells its workers
        process.wait(timeout=10)
        alive, dirs = wait_until_gone(workers, tmp)
        assert not alive, f"workers {alive} outlived the trainer"
        assert not dirs, f"temporary directories left: {dirs}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # (its group: whatever outlived it)
        process.stderr.close()


# ---------------------------------------------------------------------------- one trainer per run


def test_a_run_held_by_a_live_trainer_is_refused_and_a_killed_ones_is_taken_over(tmp_path, capsys):
    process, run = _start_training(tmp_path)
    try:
        before = {name: (run / name).read_bytes() for name in ("config.yaml", "command.txt")}
        assert train_main(["--resume", str(run), "--set", "training.eval_freq=0"]) == 2
        err = capsys.readouterr().err
        holder = f"pid {process.pid} on host {socket.gethostname()}"
        assert f"error: run directory {run} is in use by another trainer ({holder}, training since" in err, err
        assert {name: (run / name).read_bytes() for name in before} == before  # the refused one wrote nothing
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        process.stderr.close()
    steps = checkpoint_steps(Run.open(run).latest_checkpoint())
    assert train_main(["--resume", str(run), "--set", f"training.total_timesteps={steps + 128}"]) == 0
    assert f"{run}: taking over the run from {holder} (training since" in capsys.readouterr().err
    assert (run / "trainer.lock").read_text() == ""  # a clean end leaves no holder named


def test_a_run_is_held_once_within_a_process_too(tmp_path):
    run = _run(tmp_path)
    with run.hold(), pytest.raises(RunInUse, match=f"pid {os.getpid()} on host .* \\(this process\\)"):
        run.hold().acquire()
    with run.hold():  # released: free again
        pass


# ---------------------------------------------------------------------------- devices and adb


def test_a_dead_host_port_serial_is_an_error_before_training(adb_server):
    dead = f"127.0.0.1:{free_port()}"
    config = parse_config(
        {**SHORT, "devices": {"serials": [dead], "adb": {"port": adb_server.port}}, "training": {"eval_freq": 0}}
    )
    with pytest.raises(ConfigError, match=rf"devices.serials: {dead} does not answer within 2 s"):
        check_devices(config, timeout=2)


class PowerOff(BaseCallback):
    """Powers off phone ``index`` (``reboot -p`` in its shell) once ``at`` steps are taken; it stays off."""

    def __init__(self, index: int = 1, at: int = 64) -> None:
        super().__init__()
        self.index, self.at, self.done = index, at, False

    def _on_step(self) -> bool:
        if not self.done and self.num_timesteps >= self.at:
            self.done = True
            with contextlib.suppress(RuntimeError):  # (`reboot` never answers: the phone goes under it)
                self.training_env.env_method("shell", "reboot -p", indices=[self.index])
        return True


def test_blank_steps_of_a_device_that_is_down_reach_tensorboard_and_the_progress_bar(tmp_path, capsys):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    training = {"total_timesteps": 384, "progress_bar": True, "callbacks": [{f"{__name__}.PowerOff": {"at": 64}}]}
    config = parse_config({**SHORT, "training": {**SHORT["training"], **training}})  # 1 of 2 down: not held
    run = Run.create(config, tmp_path / "run")
    train(run)
    (events,) = {p.parent for p in run.tensorboard.rglob("events.out.tfevents.*")}
    scalars = EventAccumulator(str(events)).Reload()
    blank = [e.value for e in scalars.Scalars("rollout/blank_steps")]
    assert blank[-1] > 100  # (one phone of two down for 320 of 384 steps: 160 vector steps)
    assert [e.value for e in scalars.Scalars("rollout/blank_steps/env_1")][-1] == blank[-1]
    bar = [line for line in capsys.readouterr().err.replace("\r", "\n").splitlines() if "%|" in line]
    assert bar[-1].endswith(f"blank {int(blank[-1])}]"), bar[-1]  # the same count as TensorBoard's, at the end


def test_a_device_down_longer_than_max_down_seconds_stops_training_naming_it(tmp_path, capsys, adbd, adb_server):
    phones = [VirtualPhone(180, 400, 80, seed=i, serial=f"down{i}") for i in range(2)]
    servers = [adbd.serve(phone) for phone in phones]
    for server in servers:
        adb_server.adb("connect", server.serial)
    devices = {"serials": [s.serial for s in servers], "adb": {"port": adb_server.port}}
    vector = {"retry_interval": 0.5, "probe_timeout": 1, "max_down_seconds": 3}
    callbacks = [{f"{__name__}.PowerOff": {"at": 64}}]
    training = {**SHORT["training"], "total_timesteps": 10**5, "callbacks": callbacks}
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({**SHORT, "devices": devices, "vector": vector, "training": training}))
    try:
        assert train_main(["--config", str(config), "--run-dir", str(tmp_path / "run")]) == 1
    finally:
        for server in servers:
            adbd.stop_server(server)
            adb_server.adb("disconnect", server.serial, check=False)
    err = capsys.readouterr().err
    assert f"error: worker 1 ({servers[1].serial}): " in err and "Traceback" not in err, err
    assert f"device {servers[1].serial} down for" in err or "unreachable for" in err, err


def test_a_wrong_adb_port_is_an_error_and_starts_no_server():
    port = free_port()
    with pytest.raises(DeviceError, match=f"no adb server at 127.0.0.1:{port}"):
        AdbClient(port=port, timeout=2).devices()
    with pytest.raises(ConnectionRefusedError):  # nothing was started there
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_a_signal_inside_tqdm_write_still_stops_training(monkeypatch):
    from tqdm.auto import tqdm

    from androidrl.train.callbacks import say

    def write_interrupted(*args, **kwargs):  # what tqdm 4.67 does when Ctrl-C lands inside write()
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise AttributeError("type object 'tqdm_asyncio' has no attribute '_lock'") from None

    monkeypatch.setattr(tqdm, "write", write_interrupted)
    with pytest.raises(KeyboardInterrupt):
        say("eval at 1000 steps: success 50%")

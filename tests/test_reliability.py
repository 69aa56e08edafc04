"""Reliability: torn checkpoints, full disks, signals, untrusted checkpoints, dead devices and wrong ports."""

import base64
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import cloudpickle
import pytest
import yaml

from androidrl.device.adb_client import AdbClient
from androidrl.device.adb_server import free_port
from androidrl.errors import DeviceError
from androidrl.train.checkpoints import CheckpointError, atomic_write
from androidrl.train.compose import check_devices
from androidrl.train.config import ConfigError, parse_config
from androidrl.train.runs import Run
from androidrl.train.training import train

from conftest import tiny_config

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


def _start_training(tmp_path, preexec=None, **training) -> tuple[subprocess.Popen, Path]:
    """scripts/train.py on a long config in a process group of its own; returns once it is training."""
    config = tmp_path / "long.yaml"
    config.write_text(
        yaml.safe_dump({**SHORT, "training": {**SHORT["training"], "total_timesteps": 10**6, **training}})
    )
    run = tmp_path / "run"
    command = [sys.executable, str(ROOT / "scripts" / "train.py"), "--config", str(config), "--run-dir", str(run)]
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True, preexec_fn=preexec
    )
    deadline = time.monotonic() + 120
    while not list((run / "checkpoints").glob("step_*.zip")):
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
    steps = int(newest.stem.split("_")[1])
    torn = run.checkpoints / f"step_{steps + 128}.zip"  # what a kill -9 during a save used to leave
    torn.write_bytes(b"")
    half = run.checkpoints / f"step_{steps + 256}.zip"  # ...and a full disk
    half.write_bytes(newest.read_bytes()[: newest.stat().st_size // 2])
    resumed = train(Run.open(run.directory, ["training.total_timesteps=448"]), resume=True)
    err = capsys.readouterr().err
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
    assert f"cannot write step_128.zip in {run / 'checkpoints'}: File too large" in result.stderr
    assert not [p for p in (run / "checkpoints").iterdir()]  # no torn file left behind


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
    assert max(p.stat().st_mtime for p in (run / "checkpoints").glob("step_*.zip")) >= sent  # saved on the signal


def test_kill_9_then_resume_loses_at_most_one_checkpoint_interval(tmp_path):
    process, run = _start_training(tmp_path, checkpoint_freq=128)
    time.sleep(2)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    latest = Run.open(run).latest_checkpoint()
    saved = int(latest.stem.split("_")[1])
    monitor_steps = sum(
        int(line.split(",")[1])
        for path in (run / "monitor").glob("*.csv")
        for line in path.read_text().splitlines()[2:]
    )
    assert monitor_steps - saved <= 128 + 2 * 10  # one interval (+ the episodes in flight on 2 phones)
    resumed = train(Run.open(run, ["training.total_timesteps=" + str(saved + 128)]), resume=True)
    assert resumed.timesteps >= saved + 128


# ---------------------------------------------------------------------------- devices and adb


def test_a_dead_host_port_serial_is_an_error_before_training(adb_server):
    dead = f"127.0.0.1:{free_port()}"
    config = parse_config(
        {**SHORT, "devices": {"serials": [dead], "adb": {"port": adb_server.port}}, "training": {"eval_freq": 0}}
    )
    with pytest.raises(ConfigError, match=rf"devices.serials: {dead} does not answer within 2 s"):
        check_devices(config, timeout=2)


def test_a_wrong_adb_port_is_an_error_and_starts_no_server():
    port = free_port()
    with pytest.raises(DeviceError, match=f"no adb server at 127.0.0.1:{port}"):
        AdbClient(port=port, timeout=2).devices()
    with pytest.raises(ConnectionRefusedError):  # nothing was started there
        socket.create_connection(("127.0.0.1", port), timeout=1).close()

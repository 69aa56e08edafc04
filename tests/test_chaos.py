"""Chaos: PPO trains over four phones while a seeded plan cuts, hangs, garbles, slows and reboots them."""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest
from stable_baselines3.common.callbacks import BaseCallback

from androidrl.device.adb_server import IsolatedAdbServer, free_port
from androidrl.train.compose import make_model, make_vec_env
from androidrl.train.config import dump_config, parse_config
from androidrl.train.runs import Run, checkpoint_steps
from androidrl.train.training import train

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[1]
PHONES = 4
PLAN = "seed=7,every=2.5,start=2,duration=600"
GRACE = 5  # seconds after a fault within which its phone must report it
RECOVER = 15  # seconds after a fault within which its phone must be back (a reboot, a reconnection, the next fault)
# Seconds a fault's link needs to come back by itself: the adb server reconnects a cut link (drop,
# garbage, the end of a blackhole) in about 0.25 s; a reboot takes the phone's boot time (1 s).
HEAL = {"reboot": 1.5}
HEAL_DEFAULT = 0.3


class FaultyPhones:
    """``androidrl virtual --count 4 --faults PLAN`` in a child process; the faults it logs, as they happen."""

    def __init__(self, adb_server, plan: str) -> None:
        port = free_port(count=PHONES)
        command = [sys.executable, "-m", "androidrl.cli", "virtual", "--count", str(PHONES), "--port", str(port)]
        command += ["--width", "360", "--height", "800", "--density", "160", "--faults", plan]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.serials = [self.process.stdout.readline().strip() for _ in range(PHONES)]
        self.faults: list[dict] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.adb_server = adb_server
        for serial in self.serials:
            adb_server.adb("connect", serial)

    def _read(self) -> None:
        for line in self.process.stderr:
            if line.startswith("{"):
                self.faults.append(json.loads(line))

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self._reader.join(timeout=10)  # (it reads stderr to its end, then the pipes close)
        self.process.stdout.close()
        self.process.stderr.close()
        if self.adb_server.answers():  # (`adb disconnect` would start a server that went away: keep its absence seen)
            for serial in self.serials:
                self.adb_server.adb("disconnect", serial, check=False)


class Reasons(BaseCallback):
    """Every truncation with a device error, with its serial and time."""

    def __init__(self, serials: list[str]) -> None:
        super().__init__()
        self.serials, self.seen = serials, []
        self.gaps: list[float] = []  # seconds between steps within a rollout (a stall shows as a long one)
        self.steps: list[float] = []  # when each vector step returned (time.time())
        self.good: dict[str, list[float]] = {s: [] for s in serials}  # when each phone stepped on its screen
        self._last = None

    def _on_rollout_start(self) -> None:
        self._last = None

    def _on_step(self) -> bool:
        now = time.monotonic()
        if self._last is not None:
            self.gaps.append(now - self._last)
        self._last = now
        stamp = time.time()  # (one time for the step and what it reported: a window's edge includes both)
        self.steps.append(stamp)
        for i, (done, info) in enumerate(zip(self.locals["dones"], self.locals["infos"])):
            if done and info.get("device_error"):
                self.seen.append((self.serials[i], stamp, info["device_error"]))
            elif not info.get("device_down") and not info.get("device_error") and self.locals["new_obs"][i].any():
                self.good[self.serials[i]].append(stamp)
        return True

    def recovered(self, fault: dict) -> bool:
        """Whether ``fault``'s phone gave a good step (neither down nor an error) after the fault was over."""
        return any(t > fault["time"] + fault["seconds"] for t in self.good[fault["serial"]])

    def reported(self, fault: dict) -> bool:
        """Whether ``fault``'s phone reported a device error near it.

        Near: from the last vector step before the fault (a phone already down is reported
        there) to ``GRACE`` seconds after the fault, or to the first step after that if the
        vector env held the step meanwhile (waiting for devices).
        """
        start = min([fault["time"] - 1] + [t for t in self.steps if t <= fault["time"]][-1:])
        over = fault["time"] + fault["seconds"] + GRACE
        end = max([over] + [t for t in self.steps if t > over][:1])
        return any(s == fault["serial"] and start <= t <= end for s, t, _ in self.seen)

    def waited(self, fault: dict) -> bool:
        """Whether the vector env waited a hang out: no step returned while it lasted (it was shorter
        than the worker's allowance, so it came back as a slow step, not a fault)."""
        return not any(fault["time"] + 0.2 < t < fault["time"] + fault["seconds"] - 0.2 for t in self.steps)

    def absorbed(self, fault: dict) -> bool:
        """Whether the fault came and went while its phone was not asked anything, so nothing could see it.

        That is: the first vector step after the fault returned only once the link was back by
        itself (its phone's next command went out after that), or the fault was a cut that adb
        heals at once (drop, garbage), and that phone's steps then were good, on its real screen.
        (On a loaded machine a stalled vector step leaves a phone idle for seconds: a cut link is
        reconnected before the phone is asked again.)
        """
        back = fault["time"] + fault["seconds"] + HEAL.get(fault["kind"], HEAL_DEFAULT)
        after = [t for t in self.steps if t > fault["time"]][:2]
        good = set(self.good[fault["serial"]])
        # A cut link (drop, garbage) is over at once and adb reconnects it by itself: a phone whose steps
        # right after were good on its real screen was not hurt (a step already answered when the bytes came).
        in_time = after[:1] != [] and (after[0] >= back or fault["kind"] in ("drop", "garbage"))
        return len(after) == 2 and in_time and all(t in good for t in after)

    def around(self, fault: dict) -> str:
        """What the learner saw near ``fault``: its phone's reports and the vector steps' times."""
        near = [(round(t - fault["time"], 2), e) for s, t, e in self.seen if s == fault["serial"]]
        near = [x for x in near if -10 < x[0] < 30]
        good = [round(t - fault["time"], 2) for t in self.good[fault["serial"]] if -5 < t - fault["time"] < 30]
        steps = [round(t - fault["time"], 2) for t in self.steps if -5 < t - fault["time"] < 30]
        return (
            f"its phone's reports (s after the fault): {near}\nits good steps: {good}\n"
            f"vector steps (s after the fault): {steps}"
        )


def config(serials, adb_port, **training):
    return parse_config(
        {
            "experiment": "chaos",
            "devices": {"serials": serials, "adb": {"port": adb_port}},
            "task": "tap-target",
            "observation": {"shape": [84, 40]},
            "action": {"type": "grid", "rows": 3, "cols": 3, "region": [0, 0.09, 1, 0.94], "swipes": False},
            "vector": {"step_timeout": 20, "retry_interval": 0.5, "probe_timeout": 2, "max_down_seconds": 60},
            "algo": {"name": "PPO", "hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 1}},
            "training": {"total_timesteps": 4 * 1000, "eval_freq": 0, "progress_bar": False, **training},
        }
    )


@pytest.fixture
def own_adb_server():
    """An adb server for this test alone: its faults (reboots, cut and garbled links) reach no other
    test's devices, and no other test's leftovers (phones gone, still being reconnected) reach it."""
    with IsolatedAdbServer() as server:
        yield server


def test_ppo_trains_through_a_random_fault_plan_and_every_fault_is_reported(tmp_path, own_adb_server):
    phones = FaultyPhones(own_adb_server, PLAN)
    try:
        cfg = config(phones.serials, own_adb_server.port)
        env = make_vec_env(cfg, cfg.devices)
        reasons = Reasons(phones.serials)
        try:
            model = make_model(cfg, env, tmp_path)
            model.learn(cfg.training.total_timesteps, callback=reasons)
            ended = time.time()
        finally:
            env.close()
        faults = list(phones.faults)
    finally:
        phones.close()
    assert model.num_timesteps >= 4 * 1000  # training finished: >= 1,000 vector steps on 4 phones
    # Checked: the faults while the learner stepped (one during set-up meets set-up's own retries; a slow
    # link need not fail anything; a fault in the last seconds may outlast the training).
    first = reasons.steps[0]
    checked = [f for f in faults if f["kind"] != "slow" and first < f["time"] < ended - f["seconds"] - GRACE]
    assert len(checked) >= 5, faults
    reported = [f for f in checked if reasons.reported(f)]
    waited = [f for f in checked if f not in reported and f["kind"] == "hang" and reasons.waited(f)]
    absorbed = [f for f in checked if f not in reported + waited and reasons.absorbed(f)]
    missed = [f for f in checked if f not in reported + waited + absorbed]
    assert not missed, "\n".join(f"not reported: {f}\n{reasons.around(f)}" for f in missed)
    recovered = [f for f in checked if reasons.recovered(f)]  # its phone stepped on its screen again
    due = [f for f in checked if f["time"] + f["seconds"] + RECOVER < ended]  # (time enough to come back)
    assert all(f in recovered for f in due), "\n".join(
        f"never back: {f}\n{reasons.around(f)}" for f in due if f not in recovered
    )
    gaps = np.array(reasons.gaps)
    print(
        f"\nchaos: {len(faults)} faults injected ({len(checked)} checked: {len(reported)} reported, "
        f"{len(waited)} hangs waited out, {len(absorbed)} gone before their phone was next asked; "
        f"{len(recovered)} recovered, {len(checked) - len(due)} of them too near the end to be due), "
        f"{len(reasons.seen)} truncated episodes with a device error, {len(gaps)} vector steps: "
        f"median {np.median(gaps) * 1000:.0f} ms, p99 {np.percentile(gaps, 99) * 1000:.0f} ms, "
        f"max {gaps.max():.1f} s, {int((gaps > 1).sum())} steps over 1 s"
    )


def _writing(directory: Path) -> int:
    """The steps of the checkpoint being written now (its temporary file ``.rl_model_N_steps.zip.tmp-PID``), or 0."""
    names = os.listdir(directory) if directory.is_dir() else []
    return max(
        (checkpoint_steps(Path(n.split(".zip.tmp-")[0][1:] + ".zip")) for n in names if ".zip.tmp-" in n), default=0
    )


def test_kill_9_then_resume_through_faults_loses_at_most_one_checkpoint_interval(tmp_path, own_adb_server):
    phones = FaultyPhones(own_adb_server, "seed=11,every=3,start=2,duration=600")
    try:
        cfg = config(phones.serials, own_adb_server.port, total_timesteps=10**6, checkpoint_freq=256)
        path = tmp_path / "chaos.yaml"
        path.write_text(dump_config(cfg))
        run = tmp_path / "run"
        command = [sys.executable, str(ROOT / "scripts" / "train.py"), "--config", str(path), "--run-dir", str(run)]
        process = subprocess.Popen(command, stderr=subprocess.DEVNULL, cwd=ROOT, start_new_session=True)
        steps = 256 * (2 + random.Random(11).randint(1, 3))  # the kill lands in the save of this checkpoint (seeded)
        deadline = time.monotonic() + 300
        while _writing(run / "checkpoints") < steps and time.monotonic() < deadline:
            time.sleep(0.002)  # (a save writes for tens of milliseconds)
        os.killpg(process.pid, signal.SIGKILL)  # while that checkpoint is being written
        process.wait(timeout=10)
        torn = [p.name for p in (run / "checkpoints").iterdir() if ".tmp-" in p.name]
        assert torn, "the kill did not land during a save"  # what it left: a half-written temporary file
        checkpoints = Run.open(run).checkpoint_paths()
        assert len(checkpoints) >= 2 and all(zipfile.is_zipfile(p) for p in checkpoints)  # none torn
        saved = checkpoint_steps(checkpoints[-1])
        episodes = [line.split(",") for p in (run / "monitor").glob("*.csv") for line in p.read_text().splitlines()[2:]]
        assert sum(int(e[1]) for e in episodes) - saved <= 256 + PHONES * 10  # + the episodes in flight
        resumed = train(Run.open(run, [f"training.total_timesteps={saved + 256}"]), resume=True)
        assert resumed.timesteps >= saved + 256 and resumed.final_model.exists()
        assert not [p for p in (run / "checkpoints").iterdir() if p.name in torn]  # the resume removed them
    finally:
        phones.close()

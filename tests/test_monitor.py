"""The workers' Monitor: what SB3's Monitor records, in SB3's files, without loading torch in a worker."""

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from stable_baselines3.common import monitor as sb3_monitor

from androidrl.registration import make_virtual_env
from androidrl.spaces import EnvActionType
from androidrl.vector import VectorSettings, make_vector_env
from androidrl.vector.monitor import Monitor
from androidrl.vector.workers import MONITOR_KEYWORDS
from androidrl.wrappers import DiscreteGridAction, ScreenshotObservation


def _play(monitor_class, path: Path) -> list[dict]:
    """Seeded random taps on tap-target through ``monitor_class``; the ``info["episode"]`` of each episode."""
    env = monitor_class(
        make_virtual_env(360, 800, 160, task="tap-target", dump_xml=False, write_files=False),
        str(path),
        info_keywords=MONITOR_KEYWORDS,
    )
    rng = np.random.default_rng(3)
    episodes = []
    try:
        env.reset(seed=0)
        for _ in range(60):
            action = {"action_type": EnvActionType.SYSTEM_TAP, "coord": rng.integers(0, [360, 800])}
            *_, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                episodes.append(info["episode"])
                env.reset()
    finally:
        env.close()
    return episodes


def _rows(path: Path) -> tuple[dict, list[dict]]:
    lines = path.read_text().splitlines()
    assert lines[0].startswith("#")
    return json.loads(lines[0][1:]), list(csv.DictReader(lines[1:]))


def test_it_records_what_sb3s_monitor_records_in_the_same_file(tmp_path):
    ours = _play(Monitor, tmp_path / "ours")
    theirs = _play(sb3_monitor.Monitor, tmp_path / "theirs")
    assert len(ours) >= 5
    strip = [{k: v for k, v in e.items() if k != "t"} for e in ours]
    assert strip == [{k: v for k, v in e.items() if k != "t"} for e in theirs]
    header, rows = _rows(tmp_path / "ours.monitor.csv")
    their_header, their_rows = _rows(tmp_path / "theirs.monitor.csv")
    assert header.keys() == their_header.keys() and rows[0].keys() == their_rows[0].keys()
    assert [{k: v for k, v in r.items() if k != "t"} for r in rows] == [
        {k: v for k, v in r.items() if k != "t"} for r in their_rows
    ]
    found = sorted(Path(p).name for p in sb3_monitor.get_monitor_files(str(tmp_path)))  # (what load_results reads)
    assert found == ["ours.monitor.csv", "theirs.monitor.csv"]


def test_a_step_after_the_end_is_refused_as_sb3_refuses_it():
    env = Monitor(make_virtual_env(360, 800, 160, task="tap-target", dump_xml=False, write_files=False))
    try:
        with pytest.raises(RuntimeError, match="needs reset"):
            env.step({"action_type": EnvActionType.SYSTEM_TAP, "coord": np.array([180, 400])})
    finally:
        env.close()


def wrap(env):
    return DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24)), rows=4, cols=2)


def test_workers_from_a_forkserver_start_clean_of_the_trainers_torch():
    # They map nothing of this process (which has torch loaded, by the import of SB3 above) and load
    # nothing that imports it: their Monitor is this one, and this module's functions go by value.
    settings = VectorSettings(start_method="forkserver")
    env = make_vector_env(["virtual:360x800@160"] * 2, "tap-target", wrap, settings=settings)
    try:
        env.reset(seed=0)
        env.step(np.zeros(2, dtype=int))
        for process in env.processes:
            maps = Path(f"/proc/{process.pid}/maps").read_text()
            assert "libtorch" not in maps and "/torch/" not in maps
    finally:
        env.close()

"""Workers end with their trainer, however it ends: no orphan process, no pipe kept open, no temporary directory."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from androidrl.vector import make_vector_env
from androidrl.vector.lifeline import temporary_directory
from androidrl.wrappers import DiscreteGridAction, ScreenshotObservation

from conftest import wait_until_gone

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc (Linux)")
SMALL = "virtual:360x800@160"


def wrap(env):
    return DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24)), rows=2, cols=2)


def sockets(pid: int | str) -> set[str]:
    """The sockets process ``pid`` has open (``socket:[inode]``; a worker's pipe to its parent is one)."""
    links = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            links.add(os.readlink(fd))
        except OSError:  # (closed meanwhile)
            continue
    return {link for link in links if link.startswith("socket:")}


def test_workers_hold_no_copy_of_the_parents_pipe_ends():
    # A forked worker that kept its own parent end (or a sibling's) would never read EOF when the parent dies.
    before = sockets("self")
    env = make_vector_env([SMALL, SMALL, SMALL], "tap-target", wrap)
    try:
        env.reset(seed=0)
        parent_ends = sockets("self") - before
        assert len(parent_ends) >= 3  # one per worker
        for process in env.processes:
            assert not sockets(process.pid) & parent_ends, f"worker {process.pid} holds a parent end"
    finally:
        env.close()


#: Builds a vector env whose workers hang in their step (as on a stuck device), then SIGKILLs itself.
HANGING_TRAINER = """
import json, os, signal, sys, time
from pathlib import Path
import gymnasium as gym
import numpy as np
from androidrl.vector import make_vector_env
from androidrl.vector.lifeline import temporary_directory
from androidrl.wrappers import DiscreteGridAction, ScreenshotObservation

marks = Path(sys.argv[1])

class Hang(gym.Wrapper):
    def step(self, action):
        (marks / str(os.getpid())).touch()  # in the step now
        time.sleep(600)

def wrap(env):
    return Hang(DiscreteGridAction(ScreenshotObservation(env, shape=(48, 24)), rows=2, cols=2))

env = make_vector_env(["virtual:360x800@160"] * 2, "tap-target", wrap)
env.reset(seed=0)
env.step_async(np.array([0, 0]))
pids = [p.pid for p in env.processes]
while len(list(marks.iterdir())) < len(pids):  # both workers are busy, not reading their pipes
    time.sleep(0.05)
started = {pid: Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19] for pid in pids}
print(json.dumps(started), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_workers_busy_in_a_step_end_with_their_killed_parent_and_remove_its_temporary_directory(tmp_path):
    marks, tmp, out = tmp_path / "marks", tmp_path / "tmp", tmp_path / "out.json"
    marks.mkdir()
    tmp.mkdir()
    script = tmp_path / "trainer.py"
    script.write_text(textwrap.dedent(HANGING_TRAINER))
    with out.open("w") as stdout:  # (a file, not a pipe: an orphaned worker would hold a pipe open)
        process = subprocess.Popen(
            [sys.executable, str(script), str(marks)],
            stdout=stdout,
            env={**os.environ, "TMPDIR": str(tmp)},
            start_new_session=True,  # its group: whatever outlives it is killed at the end
        )
    try:
        assert process.wait(timeout=120) == -9
        pids = {int(pid): started for pid, started in json.loads(out.read_text()).items()}
        assert len(pids) == 2
        alive, dirs = wait_until_gone(pids, tmp)
        assert not alive, f"workers {alive} outlived their parent"
        assert not dirs, f"temporary directories left: {dirs}"
    finally:
        kill_group(process.pid)


def kill_group(pgid: int) -> None:
    """SIGKILL what is left of process group ``pgid`` (a test's own), if anything."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def test_directories_of_trainers_killed_with_their_workers_are_removed_by_the_next(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # (where tempfile makes its directories)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f"androidrl-vec-{dead.stdout.strip()}-k9xq2z"  # a kill -9 of a whole process group leaves it
    alive = tmp_path / f"androidrl-vec-{os.getppid()}-a8c3e1"  # (a process that runs)
    other = tmp_path / "androidrl-vec-1ohaiqes"  # (no pid in its name: not ours to judge)
    for path in (left, alive, other):
        (path / "env_0").mkdir(parents=True)
    made = Path(temporary_directory())
    assert made.parent == tmp_path and made.name.startswith(f"androidrl-vec-{os.getpid()}-")
    assert not left.exists() and alive.exists() and other.exists()

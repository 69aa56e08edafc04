"""The same config and seed give the same run: evaluations, best model and summaries, on every backend."""

import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml
from stable_baselines3 import PPO

from androidrl.train.config import parse_config
from androidrl.train.evaluation import evaluate_run
from androidrl.train.runs import Run
from androidrl.train.training import train

from conftest import tiny_config

pytestmark = pytest.mark.slow

#: Sampled actions in the evaluations too: every source of chance is seeded, not only the policy's argmax.
CONFIG = tiny_config(
    action={"swipes": False, "back": False, "home": False},
    algo={"hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 2}},
    training={"total_timesteps": 256, "eval_freq": 128, "eval_episodes": 4, "eval_deterministic": False},
)


def _weights(path):
    return {k: v.numpy() for k, v in PPO.load(path).policy.state_dict().items()}


@pytest.mark.parametrize("backend", ["async", "dummy"])
def test_the_same_config_and_seed_twice_give_byte_identical_evaluations(tmp_path, backend):
    config = parse_config({**CONFIG, "vector": {"backend": backend}})
    runs = [train(Run.create(config, tmp_path / name)).run.directory for name in ("first", "second")]
    first, second = runs
    assert (first / "evaluations.npz").read_bytes() == (second / "evaluations.npz").read_bytes()
    assert (first / "evaluations.csv").read_text() == (second / "evaluations.csv").read_text()
    best, again = _weights(first / "best_model.zip"), _weights(second / "best_model.zip")
    assert all(np.array_equal(best[k], again[k]) for k in best)
    # The evaluations differ from one another (each has its own seeded episodes), not only from chance.
    results = np.load(first / "evaluations.npz")["results"]
    assert results.shape == (2, 4) and not np.array_equal(results[0], results[1])
    # `androidrl evaluate` too: the same episodes, the same summary.
    summaries = [evaluate_run(run, episodes=3, deterministic=False, record=False) for run in runs]
    assert [s["episodes_detail"] for s in summaries][0] == summaries[1]["episodes_detail"]
    assert summaries[0]["seed"] == summaries[1]["seed"]


def test_command_txt_runs_again_as_written(tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump({**CONFIG, "training": {**CONFIG["training"], "eval_freq": 0}}))
    script = str(Path(sys.executable).with_name("androidrl"))  # the installed command, as a user types it
    done = subprocess.run([script, "train", "--config", "tiny.yaml", "--run-dir", "run"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (line,) = (tmp_path / "run" / "command.txt").read_text().splitlines()
    python, *recorded = shlex.split(line)  # the train word kept, in a form that needs no script on the PATH
    assert Path(python).parent == Path(sys.executable).parent  # this environment's Python
    assert recorded == ["-m", "androidrl", "train", "--config", "tiny.yaml", "--run-dir", "run"]
    (tmp_path / "run").rename(tmp_path / "first")
    again = subprocess.run(shlex.split(line), cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "run" / "final_model.zip").is_file()
    assert (tmp_path / "run" / "config.yaml").read_text() == (tmp_path / "first" / "config.yaml").read_text()

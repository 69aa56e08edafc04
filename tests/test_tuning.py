"""Tuning with Optuna: a resumable SQLite study, the best parameters as a ready config, early stops."""

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from androidrl.train.config import load_config, parse_config
from androidrl.train.runs import Run
from androidrl.train.training import train

from conftest import tiny_config

pytestmark = pytest.mark.slow
COMMAND = str(Path(sys.executable).with_name("androidrl"))
TINY = tiny_config(
    experiment="tiny",
    observation={"shape": [48, 40]},
    algo={"hyperparams": {"n_steps": 32, "batch_size": 64}},
    training={"eval_freq": 64, "eval_episodes": 2},
)


def test_a_study_resumes_and_writes_the_best_config(tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(TINY))
    study = tmp_path / "study"
    first = subprocess.run(
        [COMMAND, "tune", "--config", str(config), "--trials", "2", "--study-dir", str(study)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert first.returncode == 0, first.stderr[-2000:]
    assert "best: trial" in first.stdout and (study / "study.db").stat().st_size > 0
    again = subprocess.run(
        [COMMAND, "tune", "--config", str(config), "--trials", "1", "--study-dir", str(study)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert again.returncode == 0 and "3 trials in" in again.stdout  # the study went on
    # Another budget in the same study would mix trials that do not compare: refused, before any trial runs.
    longer = subprocess.run(
        [COMMAND, "tune", "--config", str(config), "--trials", "1", "--study-dir", str(study),
         "--set", "training.total_timesteps=256"],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert longer.returncode == 2, longer.stderr[-2000:]
    assert "made with another budget (training.total_timesteps 128 -> 256)" in longer.stderr
    assert "Start a new study with --study-dir" in longer.stderr
    with (study / "trials.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["trial"] for r in rows] == ["0", "1", "2"] and all(r["learning_rate"] for r in rows)
    assert sorted(p.name for p in study.glob("trial_*")) == ["trial_0", "trial_1", "trial_2"]
    best = load_config(study / "best.yaml")  # a ready config
    best_row = max((r for r in rows if r["state"] == "complete"), key=lambda r: float(r["value"]))
    assert best.algo.hyperparams["learning_rate"] == pytest.approx(float(best_row["learning_rate"]))
    assert best.algo.hyperparams["n_steps"] == 32  # the config's own settings stay


def test_an_evaluation_hook_can_stop_training_early(tmp_path):
    config = parse_config({**TINY, "training": {**TINY["training"], "total_timesteps": 100_000}})
    seen = []

    def stop(steps: int, summary: dict) -> bool:
        seen.append(steps)
        return False

    result = train(Run.create(config, tmp_path / "run"), on_evaluation=stop)
    assert seen == [64] and result.timesteps < 1000 and result.final_model.exists()


def test_seeds_train_one_run_each_and_compare(tmp_path):
    from androidrl.train import analysis

    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(TINY))
    done = subprocess.run(
        [COMMAND, "train", "--config", str(config), "--seeds", "0", "1", "--run-dir", str(tmp_path / "runs")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    runs = [tmp_path / "runs" / "seed_0", tmp_path / "runs" / "seed_1"]
    assert [load_config(r / "config.yaml").seed for r in runs] == [0, 1]
    summary = next(line for line in done.stdout.splitlines() if line.startswith("2 seeds, last evaluation success:"))
    assert "(mean ± std), IQM" in summary and "95% CI" in summary  # a sample std of two seeds, and rliable's IQM
    assert analysis.seed_runs(runs[1]) == runs
    spread = analysis.across_seeds(runs)
    assert list(spread["steps"]) == [64, 128] and spread["runs"].shape == (2, 2)


def test_ctrl_c_stops_tuning_without_scoring_the_half_trained_trial(tmp_path):
    import optuna

    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump({**TINY, "training": {**TINY["training"], "total_timesteps": 1_000_000}}))
    study = tmp_path / "study"
    command = [COMMAND, "tune", "--config", str(config), "--trials", "3", "--study-dir", str(study)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 300
    while not list(study.glob("trial_0/seed_*/evaluations.csv")) and time.monotonic() < deadline:
        time.sleep(0.2)  # until the first trial is training (it has evaluated once)
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "the same command goes on" in err
    trials = optuna.load_study(study_name="tiny", storage=f"sqlite:///{study / 'study.db'}").trials
    assert len(trials) == 1 and trials[0].state == optuna.trial.TrialState.FAIL  # not scored, no next trial

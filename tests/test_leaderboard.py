"""The leaderboard: cells written one file each (a rerun skips them), baselines, a PPO cell, the page."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from androidrl.errors import TaskError
from androidrl.tasks.family import family_specs
from androidrl.tasks.spec import CATEGORIES
from androidrl.train.leaderboard import PPO_FAMILIES, _run_cells, main
from androidrl.train.lock import RunLock

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "leaderboard.py"


def _start(argv: list[str], started) -> subprocess.Popen:
    """scripts/leaderboard.py in a process group of its own; returns once ``started()`` holds."""
    process = subprocess.Popen([sys.executable, str(SCRIPT), *argv], stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 120
    while not started():
        if process.poll() is not None or time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"the leaderboard did not start: {process.communicate()[1]}")
        time.sleep(0.1)
    return process


def test_baseline_cells_are_written_once_and_rendered(tmp_path, capsys):
    results, docs = tmp_path / "results", tmp_path / "docs"
    argv = ["baselines", "--results", str(results), "--families", "wifi-on", "tap-target", "--episodes", "4"]
    assert main([*argv, "--tiers", "easy", "hard"]) == 0
    files = sorted(p.name for p in (results / "baseline").iterdir())
    assert files == ["tap-target-easy.json", "tap-target-hard.json", "wifi-on-easy.json", "wifi-on-hard.json"]
    cell = json.loads((results / "baseline" / "wifi-on-hard.json").read_text())
    assert cell["oracle"]["success"] == 1.0 and cell["oracle"]["length"] >= 2  # hard: Settings, then Wi-Fi
    assert 0 <= cell["random"]["success"] < 1 and cell["random"]["length"] > cell["oracle"]["length"]
    assert cell["split"] == "test" and cell["cpu_seconds"] > 0
    (results / "baseline" / "wifi-on-hard.json").write_text(json.dumps({**cell, "episodes": -1}))
    capsys.readouterr()
    assert main([*argv, "--tiers", "hard"]) == 0  # made cells are kept, not remade
    assert json.loads((results / "baseline" / "wifi-on-hard.json").read_text())["episodes"] == -1
    assert capsys.readouterr().err == ""

    assert main(["render", "--results", str(results), "--out", str(docs)]) == 0
    page, data = (docs / "leaderboard.md").read_text(), json.loads((docs / "leaderboard.json").read_text())
    assert "| wifi-on | settings | hard | " in page and "| oracle | 100.0% | 4 family x tier cells |" in page
    assert len(data["baseline"]) == 4 and data["command"].startswith("python scripts/leaderboard.py")


@pytest.mark.slow
def test_a_ppo_cell_trains_on_the_train_split_and_is_judged_on_the_test_split(tmp_path, capsys):
    results, runs = tmp_path / "results", tmp_path / "runs"
    argv = ["ppo", "--results", str(results), "--runs", str(runs), "--families", "tap-target"]
    (runs / "tap-target-easy-s0").mkdir(parents=True)  # a cell killed mid-training left its run behind
    (runs / "tap-target-easy-s0" / "config.yaml").write_text("left by a killed cell")
    with RunLock(runs / "tap-target-easy-s0"):  # a live trainer's run is left alone
        assert main([*argv, "--seeds", "0", "--budget", "512", "--episodes", "3"]) == 1
    assert "is in use" in capsys.readouterr().err
    assert (runs / "tap-target-easy-s0" / "config.yaml").read_text() == "left by a killed cell"
    assert main([*argv, "--seeds", "0", "--budget", "512", "--episodes", "3"]) == 0
    cell = json.loads((results / "ppo" / "tap-target-easy-seed0.json").read_text())
    assert cell["budget"] == 512 and 0 <= cell["success"] <= 1 and cell["wall_seconds"] > 0
    config = (runs / "tap-target-easy-s0" / "config.yaml").read_text()
    assert "split: train" in config and "eval_split: test" in config and "tap-target" in config


def test_a_cell_that_fails_is_reported_and_the_others_still_run(tmp_path, capsys):
    def broken():
        raise TaskError("task x: reset step 2 kept failing")

    cells = [
        (tmp_path / "x-easy.json", broken),
        (tmp_path / "y-easy.json", lambda: {"success": 0.5, "wall_seconds": 1}),
    ]
    assert _run_cells(cells, "ppo") == ["x-easy"]
    assert (
        not (tmp_path / "x-easy.json").exists() and json.loads((tmp_path / "y-easy.json").read_text())["success"] == 0.5
    )
    assert "ppo x-easy: FAILED: task x: reset step 2 kept failing" in capsys.readouterr().err


def test_ppo_trains_three_families_of_every_category():
    specs = family_specs()
    assert list(PPO_FAMILIES) == list(CATEGORIES)
    for category, names in PPO_FAMILIES.items():
        assert len(set(names)) == 3 and all(specs[name].category == category for name in names), category


def test_sigterm_between_cells_stops_the_runner_and_keeps_the_cells_written(tmp_path):
    results = tmp_path / "results"
    argv = ["baselines", "--results", str(results), "--families", "wifi-on", "--episodes", "400"]
    process = _start(argv, lambda: (results / "baseline" / "wifi-on-easy.json").exists())
    os.kill(process.pid, signal.SIGTERM)  # (while it plays the medium tier: no training to stop)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and "Traceback" not in err, err
    assert "SIGTERM: stopped; the cells written so far are kept" in err
    assert [p.name for p in (results / "baseline").iterdir()] == ["wifi-on-easy.json"]


@pytest.mark.slow
def test_sigterm_while_a_cell_trains_stops_the_runner_without_writing_the_cell(tmp_path):
    results, runs = tmp_path / "results", tmp_path / "runs"
    argv = ["ppo", "--results", str(results), "--runs", str(runs), "--families", "tap-target", "--budget", "100000"]
    process = _start(argv, lambda: any((runs / "tap-target-easy-s0" / "checkpoints").glob("*.zip")) or
                     (runs / "tap-target-easy-s0" / "tb").is_dir())  # fmt: skip
    time.sleep(1)
    os.kill(process.pid, signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and "Traceback" not in err, err
    assert "SIGTERM: saved" in err and "the same command goes on" in err
    assert not (results / "ppo").exists()  # the cell is not written: the next run trains it again


def test_the_page_scores_each_agent_beside_random_on_the_same_cells(tmp_path):
    results, docs = tmp_path / "results", tmp_path / "docs"
    argv = ["baselines", "--results", str(results), "--families", "wifi-on", "wifi-off", "--episodes", "4"]
    assert main([*argv, "--tiers", "easy"]) == 0
    (results / "multitask").mkdir()
    cell = {"category": "settings", "tier": "easy", "seed": 0, "budget": 100, "success": 0.5, "length": 3.0,
            "per_family": {"wifi-on": 1.0, "wifi-off": 0.0}, "wall_seconds": 1.0, "cpu_seconds": 1.0}  # fmt: skip
    (results / "multitask" / "settings-seed0.json").write_text(json.dumps(cell))
    assert main(["render", "--results", str(results), "--out", str(docs)]) == 0
    page = docs.joinpath("leaderboard.md").read_text()
    random = {
        c["family"]: c["random"]["success"] for c in json.loads((docs / "leaderboard.json").read_text())["baseline"]
    }
    both = (random["wifi-on"] + random["wifi-off"]) / 2
    assert (
        "| PPO (one policy per category) | 50.0% | 1 categories' easy tiers, 1 runs "
        f"(random on those cells: {both:.1%}) |" in page
    )
    assert f"| settings | 1 | 50% | {both:.0%} | wifi-off 0%, wifi-on 100% |" in page

"""The learnability table: a config trained, evaluated beside random and oracle, tabulated, merged."""

import json
from pathlib import Path

import pytest
import yaml

from androidrl.train.results import main

from conftest import tiny_config

pytestmark = pytest.mark.slow


def test_results_trains_each_seed_and_writes_a_table_that_merges_back(tmp_path, capsys):
    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny_config(training={"total_timesteps": 128, "eval_freq": 64})))
    rows, page = tmp_path / "rows.json", tmp_path / "results.md"
    argv = [str(config), "--seeds", "0", "1", "--episodes", "3", "--runs", str(tmp_path / "runs")]
    assert main([*argv, "--json", str(rows), "--out", str(page)]) == 0
    table = capsys.readouterr().out

    (row,) = json.loads(rows.read_text())
    assert row["config"] == "tiny.yaml" and row["task"] == "tap-target" and row["budget"] == 128
    assert [s["seed"] for s in row["seeds"]] == [0, 1]
    for seed in row["seeds"]:
        assert 0 <= seed["success"] <= 1 and seed["wall_seconds"] > 0 and seed["length"] >= 1
        assert (seed["steps_to_90"] is None) == (seed["held"] is None)
        assert seed["oracle"] == 1.0 and seed["oracle_length"] == 1.0  # the scripted solver taps the target at once
        assert (tmp_path / "runs" / f"tiny-seed{seed['seed']}" / "final_model.zip").is_file()
    assert "| `tiny.yaml` | tap-target | 128 | 2 |" in table and "| 100% | " in table
    text = page.read_text()
    assert table in text and "tiny.yaml --seeds 0 1 --episodes 3 --json results/learnability/tiny.json" in text

    merged = tmp_path / "merged.md"
    assert main(["--merge", str(rows), "--episodes", "3", "--out", str(merged)]) == 0
    assert merged.read_text() == text  # the saved rows make the same page


def test_results_refuses_bad_arguments_clearly(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main([])
    assert "name configs to train, or --merge saved rows" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SystemExit):
        main(["--merge", str(bad)])
    assert "--merge: not rows saved with --json" in capsys.readouterr().err
    assert main([str(Path(tmp_path / "missing.yaml"))]) == 2
    assert "missing.yaml" in capsys.readouterr().err


def test_steps_to_90_and_how_long_it_held(tmp_path):
    from androidrl.train.results import steps_to

    (tmp_path / "evaluations.csv").write_text(
        "timesteps,success_rate\n1000,0.2\n2000,0.95\n3000,0.0\n4000,1.0\n5000,0.9\n"
    )
    assert steps_to(tmp_path) == (2000, 0.75)  # reached at 2,000; 3 of the 4 evaluations from there held
    (tmp_path / "evaluations.csv").write_text("timesteps,success_rate\n1000,0.2\n")
    assert steps_to(tmp_path) == (None, None)
    assert steps_to(tmp_path / "none") == (None, None)

"""docs/performance.md is generated from benchmark JSON: targets read off the figures, hand-written text kept."""

import json

import pytest

from androidrl.bench import main
from androidrl.bench.report import HAND_WRITTEN, TARGETS


def _figure(name, baseline, unit, medians):
    contenders = {
        c: {"median": m, "p90": m * 1.1, "ratio_to_baseline": m / medians[baseline], "samples": [m]}
        for c, m in medians.items()
    }
    return {"name": name, "unit": unit, "baseline": baseline, "contenders": contenders}


def _run(size=(1080, 2400), async_2=1100.0, commit="abc1234def5678"):
    vector = {
        n: _figure(
            f"vector steps/s, tap-target 84x84, {n} device{'s' if n > 1 else ''}",
            "subproc (SB3)",
            "steps/s",
            {"subproc (SB3)": 1000.0, "dummy (SB3)": 1200.0, "async (androidrl)": async_2 if n == 2 else 1300.0},
        )
        for n in (1, 2, 4, 8)
    }
    figures = [
        _figure(
            "observed step (tap + screenshot + XML)",
            "seed",
            "ms",
            {"seed": 200.0, "adbdevice": 40.0, "transport limit": 20.0},
        ),
        _figure(
            "in-process steps/s, 360x800",
            "raw AndroidEnv",
            "steps/s",
            {"raw AndroidEnv": 2000.0, "wrapped 84x84": 1500.0},
        ),
        *vector.values(),
        _figure(
            "PPO: share of wall time in the envs",
            "subproc (SB3)",
            "%",
            {"subproc (SB3)": 30.0, "async (androidrl)": 20.0},
        ),
        _figure("worker RSS MB", "after warm-up", "MB", {"after warm-up": 380.0, "peak": 400.0}),
        _figure(
            "worker RSS MB by start method",
            "fork (default)",
            "MB",
            {"fork (default)": 400.0, "forkserver": 95.0, "forkserver, its own": 50.0},
        ),
        _figure(
            "in-process steps/s, Phone, Recents, 360x800",
            "raw AndroidEnv",
            "steps/s",
            {"raw AndroidEnv": 1400.0, "wrapped 84x84": 900.0},
        ),
        _figure(
            "in-process steps/s, Settings, 360x800",
            "raw AndroidEnv",
            "steps/s",
            {"raw AndroidEnv": 1900.0, "wrapped 84x84": 1200.0},
        ),
        _figure(
            "episode reset of wifi-on, 360x800 in process",
            "reset steps (wifi-on)",
            "ms",
            {"reset steps (wifi-on)": 9.0, "snapshot (wifi-on)": 4.0},
        ),
        _figure(
            "suite steps/s per family, 3 families x 1 tier, 360x800 in process",
            "raw AndroidEnv",
            "steps/s",
            {"raw AndroidEnv": 1500.0, "wrapped 84x84": 1100.0},
        ),
        _figure(
            "suite episode reset per family, 3 families x 1 tier, 360x800 in process",
            "snapshot load alone",
            "ms",
            {"snapshot load alone": 1.0, "family reset": 12.0},
        ),
    ]
    # per family: one sample each (min 700 steps/s; resets 4, 12 and 30 ms)
    figures[-2]["contenders"]["wrapped 84x84"]["samples"] = [700.0, 1100.0, 1500.0]
    figures[-1]["contenders"]["family reset"]["samples"] = [4.0, 12.0, 30.0]
    return {
        "date": "2026-11-25 10:00:00 UTC",
        "machine": {"python": "3.11.7", "platform": "Linux", "cpus": 2, "cpu": "AMD EPYC", "adb": "adb 1.0.41"},
        "versions": {"androidrl": "0.1.0", "androidrl_commit": commit, "torch": "2.13.0"},
        "settings": {"rounds": 30, "size": list(size), "density": 420, "suite_seconds": {"adb": 60.0, "vector": 300.0}},
        "figures": figures,
    }


def test_the_page_states_each_target_as_measured(tmp_path, capsys):
    full, page = tmp_path / "full.json", tmp_path / "performance.md"
    full.write_text(json.dumps(_run()))
    page.write_text(f"# old page\n{HAND_WRITTEN}\n## What bounds each figure\nkept by hand\n")
    assert main(["--report", str(page), "--from", str(full)]) == 0
    text = page.read_text()
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| ")}
    assert len([t for t in TARGETS if t.text in rows]) == len(TARGETS)
    assert "1.10x | **met**" in rows["async backend ≥ 1.1x SubprocVecEnv at 2 devices"]
    assert "0.92x | **met**" in rows["async within 10% of DummyVecEnv at 2 devices"]
    assert "2.00x the limit | **missed**" in rows["over adb, observed step at 1080x2400 ≤ 1.5x the transport limit"]
    assert "1,500 steps/s | **met**" in rows["in process, wrapped 84x84 tap-target ≥ 1,000 steps/s at 360x800"]
    assert "— | not measured" in rows["in process, wrapped 84x84 tap-target ≥ 300 steps/s at 1080x2400"]
    assert "20% | **met**" in rows["PPO quickstart: env share of wall time ≤ 25%"]
    assert (
        "slowest Phone, Recents: 900 steps/s (2 screens) | **missed**"
        in rows["in process, wrapped 84x84 ≥ 1,000 steps/s on every app screen at 360x800"]
    )
    assert "4.00 ms (360x800) | **met**" in rows["an episode reset from a snapshot ≤ 10 ms (wifi-on)"]
    assert (
        "forkserver: peak 95 MB (forked: RSS 400 MB) | **met**"
        in rows["a worker holding one phone ≤ 100 MB RSS (a forked one shares the trainer's pages)"]
    )
    assert (
        "median 1,100, min 700 steps/s | **missed**"
        in rows["the task suite, wrapped 84x84: ≥ 1,000 steps/s per family (min and median)"]
    )
    assert (
        "median 12.0 ms, max 30.0 ms | **missed**"
        in rows["the task suite: episode reset ≤ 10 ms (median over families)"]
    )
    assert "commit `abc1234def`" in text and "# old page" not in text
    assert text.endswith("## What bounds each figure\nkept by hand\n")  # the hand-written part, kept
    assert main(["--report", str(page), "--from", str(full)]) == 0 and page.read_text() == text  # stable


def test_before_and_after_line_up_across_renamed_figures(tmp_path):
    before = _run(async_2=500.0, commit="0ld")
    before["figures"].append(
        _figure("vector steps/s, 2 devices, by backend", "async (androidrl)", "steps/s", {"async (androidrl)": 700.0})
    )
    before["figures"] = [f for f in before["figures"] if f["name"] != "vector steps/s, tap-target 84x84, 2 devices"]
    paths = {}
    for name, data in (("full", _run()), ("before", before), ("after", _run())):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(data))
    page = tmp_path / "performance.md"
    argv = ["--report", str(page), "--from", str(paths["full"]), "--before", str(paths["before"])]
    assert main([*argv, "--after", str(paths["after"])]) == 0
    text = page.read_text()
    assert "| vector steps/s, tap-target 84x84, 2 devices | async (androidrl) | 700 | 1,100 | 1.57x |" in text
    assert "| no `--quick` figure worse than before this round |" in text and "worker RSS" not in text.split("##")[-1]


def test_report_arguments_are_checked(tmp_path, capsys):
    for argv in (["--report", "x.md"], ["--from", "x.json"]):
        with pytest.raises(SystemExit):
            main(argv)
        assert "go together" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    with pytest.raises(SystemExit):
        main(["--report", str(tmp_path / "p.md"), "--from", str(bad)])
    assert "not the JSON of scripts/benchmark.py --json" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_run()))
    with pytest.raises(SystemExit):
        main(["--report", str(tmp_path / "p.md"), "--from", str(good), "--before", str(good)])
    assert "--before and --after go together" in capsys.readouterr().err

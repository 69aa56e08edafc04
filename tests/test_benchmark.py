"""The benchmark runs its contenders side by side and reports them (figures, not timings, are checked)."""

import json

import pytest

from androidrl.bench import main
from androidrl.bench.envs import APP_SCREENS


def test_quick_benchmark_reports_every_contender_as_a_ratio(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert (
        main(
            [
                "--quick",
                "--suite",
                "adb",
                "--suite",
                "wrapped",
                "--size",
                "180x400",
                "--density",
                "80",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads(out.read_text())
    settings = report["settings"]
    assert {k: settings[k] for k in ("rounds", "size", "density", "quick")} == {
        "rounds": 4,
        "size": [180, 400],
        "density": 80,
        "quick": True,
    }
    assert set(settings["suite_seconds"]) == {"adb", "wrapped"} and report["machine"]["adb"].startswith("Android")
    figures = {f["name"]: f for f in report["figures"]}
    observed = figures["observed step (tap + screenshot + XML)"]
    assert set(observed["contenders"]) == {
        "seed",
        "adbutils",
        "adbdevice",
        "adbdevice, 3 calls",
        "inprocess",
        "transport limit",
    }
    assert observed["baseline"] == "seed"
    for figure in figures.values():
        for name, contender in figure["contenders"].items():
            assert len(contender["samples"]) >= 3 and min(contender["samples"]) > 0
            baseline = figure["contenders"][figure["baseline"]]["median"]
            expected = baseline / contender["median"] if figure["unit"] == "ms" else contender["median"] / baseline
            assert abs(contender["ratio_to_baseline"] - expected) < 1e-9, name
    # every adb figure has its transport limit, and each contender its distance from it
    for name in ("screenshot (RGB array)", "tap", "UI XML", "observed step (tap + screenshot + XML)"):
        figure = figures[name]
        assert figure["limit"] == "transport limit", name
        limit = figure["contenders"]["transport limit"]["median"]
        for contender in figure["contenders"].values():
            assert abs(contender["ratio_to_limit"] - contender["median"] / limit) < 1e-9, name
    assert figures["in-process steps/s, 180x400"]["limit"] is None
    for size in ("180x400", "360x800"):  # the run's size, and 360x800 (a target names it)
        wrapped = figures[f"in-process steps/s, {size}"]["contenders"]
        assert set(wrapped) == {"raw AndroidEnv", "wrapped 84x84", "wrapped 84x84, idle"}
    for title, _ in APP_SCREENS:  # each app screen: the raw env and the wrapped one
        assert set(figures[f"in-process steps/s, {title}, 360x800"]["contenders"]) == {
            "raw AndroidEnv",
            "wrapped 84x84",
        }
    printed = capsys.readouterr().out
    assert "observed step (tap + screenshot + XML)" in printed and "baseline" in printed and "vs limit" in printed


def test_bad_arguments_are_refused_by_the_parser(capsys):
    for args in (["--size", "360"], ["--size", "0x800"], ["--rounds", "0"], ["--density", "-5"]):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 2
        assert "expected" in capsys.readouterr().err


def test_the_families_suite_times_a_family_raw_wrapped_and_its_reset():
    from androidrl.bench.families import _family

    raw, wrapped, reset, load = _family("wifi-on", "medium", steps=10, resets=3)
    assert raw > 0 and wrapped > 0 and reset > 0 and load > 0

"""``docs/performance.md`` from benchmark JSON: the figures, the targets they meet or miss, before and after.

``python scripts/benchmark.py --report docs/performance.md --from full.json [--before A.json --after B.json]``
writes the page from a full run's JSON (``--json``) and, optionally, two ``--quick`` runs of
the same machine (an older commit and this one). Everything above the marker line
:data:`HAND_WRITTEN` is generated; what follows it in the existing page (what bounds each
figure, what made it fast) is kept as written.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Everything after this line of the page is written by hand and kept when the page is made again.
HAND_WRITTEN = "<!-- written by hand below: kept when the page is regenerated -->"

#: Figures renamed since an older benchmark: (old figure, old contender) -> (figure, contender).
RENAMED: dict[tuple[str, str], tuple[str, str]] = {
    **{
        ("vector steps/s, tap-target 84x84 (async)", f"{n} device{'s' if n > 1 else ''}"): (
            f"vector steps/s, tap-target 84x84, {n} device{'s' if n > 1 else ''}",
            "async (androidrl)",
        )
        for n in (1, 2, 4)
    },
    **{
        ("vector steps/s, 2 devices, by backend", name): ("vector steps/s, tap-target 84x84, 2 devices", name)
        for name in ("subproc (SB3)", "dummy (SB3)", "async (androidrl)")
    },
    (
        "episode reset (after one step), 360x800 in process",
        "reset steps (wifi-on)",
    ): ("episode reset of wifi-on, 360x800 in process", "reset steps (wifi-on)"),
}


@dataclass
class Run:
    """One benchmark run's JSON, with lookups by figure and contender."""

    data: dict[str, Any]

    @classmethod
    def load(cls, path: str | Path) -> Run:
        """Read ``--json`` output.

        Raises:
            ValueError: The file is not a benchmark's JSON.
        """
        try:
            data = json.loads(Path(path).read_text())
            assert isinstance(data["figures"], list)
        except (OSError, ValueError, KeyError, TypeError, AssertionError) as err:
            raise ValueError(f"{path}: not the JSON of scripts/benchmark.py --json ({err})") from None
        return cls(data)

    def figure(self, name: str) -> dict[str, Any] | None:
        """The figure of that name, if measured."""
        return next((f for f in self.data["figures"] if f["name"] == name), None)

    def median(self, figure: str, contender: str) -> float | None:
        """The median of one contender of one figure, if measured."""
        found = self.figure(figure)
        entry = found["contenders"].get(contender) if found else None
        return entry["median"] if entry else None

    def medians(self) -> dict[tuple[str, str], tuple[float, str, bool]]:
        """(figure, contender) -> (median, unit, higher is better), with old names mapped to today's."""
        out = {}
        for f in self.data["figures"]:
            higher = f["unit"] in ("steps/s",)
            for name, entry in f["contenders"].items():
                out[RENAMED.get((f["name"], name), (f["name"], name))] = (entry["median"], f["unit"], higher)
        return out


@dataclass
class Target:
    """A target and how to read it off a run: ``measure`` gives (value shown, met) or None if not measured."""

    text: str
    measure: Callable[[Run], tuple[str, bool] | None]


def _ratio(run: Run, figure: str, a: str, b: str) -> float | None:
    x, y = run.median(figure, a), run.median(figure, b)
    return x / y if x is not None and y else None


def _at_least(figure: str, a: str, b: str, bound: float) -> Callable[[Run], tuple[str, bool] | None]:
    def measure(run: Run) -> tuple[str, bool] | None:
        ratio = _ratio(run, figure, a, b)
        return None if ratio is None else (f"{ratio:.2f}x", ratio >= bound)

    return measure


ASYNC, SUBPROC, DUMMY = "async (androidrl)", "subproc (SB3)", "dummy (SB3)"


def _vector(n: int) -> str:
    return f"vector steps/s, tap-target 84x84, {n} device{'s' if n > 1 else ''}"


def _never_slowest(run: Run) -> tuple[str, bool] | None:
    shown, met = [], True
    for n in (1, 2, 4, 8):
        values = {c: run.median(_vector(n), c) for c in (SUBPROC, DUMMY, ASYNC)}
        if None in values.values():
            continue
        met &= min(values, key=values.get) != ASYNC
        shown.append(f"{n}: {values[ASYNC] / max(values[SUBPROC], values[DUMMY]):.2f}x")
    return (" · ".join(shown) + " of the faster SB3 one", met) if shown else None


def _ppo_share(run: Run) -> tuple[str, bool] | None:
    share = run.median("PPO: share of wall time in the envs", ASYNC)
    return None if share is None else (f"{share:.0f}%", share <= 25)


def _wrapped(size: str, bound: float) -> Callable[[Run], tuple[str, bool] | None]:
    def measure(run: Run) -> tuple[str, bool] | None:
        rate = run.median(f"in-process steps/s, {size}", "wrapped 84x84")
        return None if rate is None else (f"{rate:,.0f} steps/s", rate >= bound)

    return measure


def _adb_limit(run: Run) -> tuple[str, bool] | None:
    if run.data["settings"]["size"] != [1080, 2400]:
        return None
    ratio = _ratio(run, "observed step (tap + screenshot + XML)", "adbdevice", "transport limit")
    return None if ratio is None else (f"{ratio:.2f}x the limit", ratio <= 1.5)


def _app_screens(run: Run) -> tuple[str, bool] | None:
    rates = {
        f["name"].split(", ", 1)[1].rsplit(", ", 1)[0]: f["contenders"]["wrapped 84x84"]["median"]
        for f in run.data["figures"]
        if f["name"].startswith("in-process steps/s, ") and f["name"].count(", ") >= 2
    }
    if not rates:
        return None
    slowest = min(rates, key=rates.get)
    return f"slowest {slowest}: {rates[slowest]:,.0f} steps/s ({len(rates)} screens)", rates[slowest] >= 1000


def _suite(contender: str, statistic: str, bound: float, higher: bool) -> Callable[[Run], tuple[str, bool] | None]:
    def measure(run: Run) -> tuple[str, bool] | None:
        figure = next((f for f in run.data["figures"] if f["name"].startswith(f"suite {statistic}")), None)
        if figure is None:
            return None
        samples = figure["contenders"][contender]["samples"]
        median, worst = sorted(samples)[len(samples) // 2], (min(samples) if higher else max(samples))
        if higher:
            return f"median {median:,.0f}, min {worst:,.0f} steps/s", worst >= bound
        return f"median {median:.1f} ms, max {worst:.1f} ms", median <= bound

    return measure


def _snapshot_reset(run: Run) -> tuple[str, bool] | None:
    figure = next((f["name"] for f in run.data["figures"] if f["name"].startswith("episode reset of wifi-on")), None)
    value = None if figure is None else run.median(figure, "snapshot (wifi-on)")
    return None if value is None else (f"{value:.2f} ms ({figure.split(', ')[1].split()[0]})", value <= 10)


def _worker_rss(run: Run) -> tuple[str, bool] | None:
    served = next((f for f in run.data["figures"] if f["name"].startswith("worker RSS MB by start method")), None)
    if served is None:
        return None
    rss = max(served["contenders"]["forkserver"]["samples"])
    forked = max(served["contenders"]["fork (default)"]["samples"])
    own = next((f for f in run.data["figures"] if f["name"].startswith("worker memory MB of its own")), None)
    unique = f", its own {run.median(own['name'], 'unique'):.0f} MB" if own is not None else ""
    return f"forkserver: peak {rss:.0f} MB (forked: RSS {forked:.0f} MB{unique})", rss <= 100


#: The targets (issues 16, 24 and 25), each read off one full run.
TARGETS = [
    Target("async backend ≥ 1.1x SubprocVecEnv at 2 devices", _at_least(_vector(2), ASYNC, SUBPROC, 1.1)),
    Target("async backend ≥ 1.1x SubprocVecEnv at 4 devices", _at_least(_vector(4), ASYNC, SUBPROC, 1.1)),
    Target("async within 10% of DummyVecEnv at 2 devices", _at_least(_vector(2), ASYNC, DUMMY, 0.9)),
    Target("the default backend (async) never the slowest of the three (1/2/4/8 devices)", _never_slowest),
    Target("PPO quickstart: env share of wall time ≤ 25%", _ppo_share),
    Target(
        "PPO quickstart: steps/s ≥ SubprocVecEnv's",
        _at_least("PPO training steps/s, quickstart", ASYNC, SUBPROC, 1.0),
    ),
    Target("in process, wrapped 84x84 tap-target ≥ 1,000 steps/s at 360x800", _wrapped("360x800", 1000)),
    Target("in process, wrapped 84x84 tap-target ≥ 300 steps/s at 1080x2400", _wrapped("1080x2400", 300)),
    Target("over adb, observed step at 1080x2400 ≤ 1.5x the transport limit", _adb_limit),
    Target("in process, wrapped 84x84 ≥ 1,000 steps/s on every app screen at 360x800", _app_screens),
    Target("an episode reset from a snapshot ≤ 10 ms (wifi-on)", _snapshot_reset),
    Target("a worker holding one phone ≤ 100 MB RSS (a forked one shares the trainer's pages)", _worker_rss),
    Target(
        "the task suite, wrapped 84x84: ≥ 1,000 steps/s per family (min and median)",
        _suite("wrapped 84x84", "steps/s", 1000, True),
    ),
    Target(
        "the task suite: episode reset ≤ 10 ms (median over families)",
        _suite("family reset", "episode reset", 10, False),
    ),
]


def targets_table(run: Run, before: Run | None, after: Run | None) -> list[str]:
    """The targets with their measured value and status."""
    lines = ["| target | measured | status |", "|---|---|---|"]
    for target in TARGETS:
        result = target.measure(run)
        value, status = (
            ("—", "not measured") if result is None else (result[0], "**met**" if result[1] else "**missed**")
        )
        lines.append(f"| {target.text} | {value} | {status} |")
    if before is not None and after is not None:
        rows = compare(before, after)
        worse = [row for row in rows if row[4] < 0.9]
        status = "**met**" if not worse else f"**missed**: {len(worse)} more than 10% worse (below)"
        lines.append(f"| no `--quick` figure worse than before this round | {len(rows)} figures compared | {status} |")
    return lines


def compare(before: Run, after: Run) -> list[tuple[str, str, float, float, float, str]]:
    """Figures both runs measured: (figure, contender, before, after, after's goodness ratio, unit)."""
    old, new = before.medians(), after.medians()
    rows = []
    for key in new:
        if key in old:
            (b, unit, higher), (a, _, _) = old[key], new[key]
            if unit in ("MB",):  # memory is a level, not a speed
                continue
            goodness = (a / b if higher else b / a) if a and b else float("nan")
            rows.append((key[0], key[1], b, a, goodness, unit))
    return rows


def _fmt(value: float, unit: str) -> str:
    return f"{value:,.2f} ms" if unit == "ms" else f"{value:,.0f}" if unit == "steps/s" else f"{value:,.1f} {unit}"


def figures_tables(run: Run) -> list[str]:
    """Every figure of the run: contender, median, p90, ratio to its baseline."""
    lines: list[str] = []
    for f in run.data["figures"]:
        unit = f["unit"]
        lines += [f"**{f['name']}** ({unit}; baseline: {f['baseline']})", ""]
        lines += ["| contender | median | p90 | vs baseline |", "|---|---|---|---|"]
        for name, entry in f["contenders"].items():
            ratio = "baseline" if name == f["baseline"] else f"{entry['ratio_to_baseline']:.2f}x"
            lines.append(f"| {name} | {_fmt(entry['median'], unit)} | {_fmt(entry['p90'], unit)} | {ratio} |")
        lines.append("")
    return lines


def before_after_table(before: Run, after: Run) -> list[str]:
    """``--quick`` figures of an older commit and this one, side by side."""
    lines = [
        "| figure | contender | before | after | after vs before |",
        "|---|---|---|---|---|",
    ]
    for figure, contender, b, a, goodness, unit in compare(before, after):
        mark = " ⚠" if goodness < 0.9 else ""
        lines.append(f"| {figure} | {contender} | {_fmt(b, unit)} | {_fmt(a, unit)} | {goodness:.2f}x{mark} |")
    return lines


def _commit(run: Run) -> str:
    commit = run.data.get("versions", {}).get("androidrl_commit") or "unknown"
    return commit[:10] + ("+dirty" if commit.endswith("+dirty") else "")


def page(full: Run, before: Run | None = None, after: Run | None = None, hand_written: str = "") -> str:
    """The whole ``docs/performance.md``."""
    machine, versions, settings = full.data["machine"], full.data.get("versions", {}), full.data["settings"]
    width, height = settings["size"]
    seconds = settings.get("suite_seconds", {})
    lines = [
        "# Performance",
        "",
        "Every figure below comes from `scripts/benchmark.py` (also `androidrl bench`), which runs",
        "each contender in interleaved rounds in one process run and reports the median, the 90th",
        "percentile and the ratio of each contender's median to the baseline's (above 1 is better).",
        "Over adb the virtual phone runs in its own process (`androidrl virtual`) behind a private",
        "adb server, as a device would. This page is generated from the runs' JSON (`androidrl/bench/report.py`);",
        "tests never assert timings.",
        "",
        "## Reproduce",
        "",
        "```bash",
        "python scripts/benchmark.py --json full.json           # every suite at 1080x2400",
        "python scripts/benchmark.py --quick --json after.json   # every suite, short, at 360x800",
        "python scripts/benchmark.py --report docs/performance.md --from full.json \\",
        "    --before before.json --after after.json             # this page (before.json: --quick of an older commit)",
        "```",
        "",
        f"The full run took {sum(seconds.values()) / 60:.0f} minutes"
        + (f" ({', '.join(f'{k} {v:.0f} s' for k, v in seconds.items())})." if seconds else "."),
        "",
        "## The machine",
        "",
        f"{machine.get('cpus')} CPU cores ({machine.get('cpu', '?')}, {machine['platform']}), "
        f"Python {machine['python']}, "
        f"{machine.get('adb') or 'adb ?'}; androidrl {versions.get('androidrl', '?')} at commit `{_commit(full)}`, "
        f"torch {_version(versions, 'PyTorch', 'torch')}, "
        f"stable-baselines3 {_version(versions, 'Stable-Baselines3', 'stable_baselines3')}, "
        f"gymnasium {_version(versions, 'Gymnasium', 'gymnasium')}. Measured {full.data.get('date', '?')}, "
        f"{settings['rounds']} rounds, screens {width}x{height} at {settings['density']} dpi "
        "(the ppo and memory suites run the quickstart config as it is). On this shared VM figures swing",
        "by up to ±40% between runs; compare ratios within one run.",
        "",
        "## Targets",
        "",
        *targets_table(full, before, after),
        "",
        "## Figures",
        "",
        *figures_tables(full),
    ]
    if before is not None and after is not None:
        lines += [
            "## Before and after (`--quick`, same machine, same session)",
            "",
            f"Before: commit `{_commit(before)}` ({before.data.get('date', 'date not recorded')}); "
            f"after: `{_commit(after)}` ({after.data.get('date', '?')}). Ratios above 1 are better; ⚠ marks",
            "a figure more than 10% worse (single `--quick` samples are noisy: ±30% is common here).",
            "",
            *before_after_table(before, after),
            "",
        ]
    lines += [HAND_WRITTEN, hand_written.strip("\n"), ""]
    return "\n".join(lines)


def write(out: Path, full: Path, before: Path | None = None, after: Path | None = None) -> None:
    """Write the page to ``out``, keeping its hand-written part.

    Raises:
        ValueError: A JSON file is not a benchmark's, or only one of before/after is given.
    """
    if (before is None) != (after is None):
        raise ValueError("--before and --after go together")
    existing = out.read_text() if out.exists() else ""
    hand = existing.split(HAND_WRITTEN, 1)[1] if HAND_WRITTEN in existing else ""
    runs = [Run.load(p) if p is not None else None for p in (full, before, after)]
    out.write_text(page(runs[0], runs[1], runs[2], hand))


def _version(versions: dict, name: str, old: str) -> str:
    """A library's version in a run's JSON, under SB3's ``get_system_info`` name or the name runs used before."""
    return versions.get(name) or versions.get(old) or "?"

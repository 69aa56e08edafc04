"""Figures: samples of several contenders measured in interleaved rounds, and their report."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Figure:
    """One measured quantity for several contenders; samples in ms (or the unit given)."""

    name: str
    baseline: str
    samples: dict[str, list[float]] = field(default_factory=dict)
    unit: str = "ms"
    higher_is_better: bool = False
    #: The contender that marks the best possible (e.g. the transport limit over adb), if any.
    limit: str | None = None

    @classmethod
    def rate(cls, name: str, baseline: str, samples: dict[str, list[float]] | None = None) -> Figure:
        """A steps-per-second figure (higher is better)."""
        return cls(name, baseline, samples or {}, unit="steps/s", higher_is_better=True)

    def median(self, contender: str) -> float:
        """Median sample of ``contender``."""
        return statistics.median(self.samples[contender])

    def p90(self, contender: str) -> float:
        """90th-percentile sample of ``contender``."""
        values = sorted(self.samples[contender])
        return values[min(len(values) - 1, round(0.9 * (len(values) - 1)))]

    def ratio(self, contender: str) -> float:
        """How many times better ``contender`` is than the baseline (by medians)."""
        base, this = self.median(self.baseline), self.median(contender)
        return this / base if self.higher_is_better else base / this

    def ratio_to_limit(self, contender: str) -> float | None:
        """How many times the limit's cost ``contender`` pays (1.0: at the limit), or None without a limit."""
        if self.limit is None:
            return None
        limit, this = self.median(self.limit), self.median(contender)
        return limit / this if self.higher_is_better else this / limit


def interleave(
    contenders: dict[str, Callable[[], None]], rounds: int, before: Callable[[str], None] | None = None, warmup: int = 2
) -> dict[str, list[float]]:
    """Time each contender once per round, in turn; ``before(name)`` runs untimed before each call."""
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for round_index in range(warmup + rounds):
        for name, fn in contenders.items():
            if before is not None:
                before(name)
            start = time.perf_counter()
            fn()
            elapsed = (time.perf_counter() - start) * 1000
            if round_index >= warmup:
                samples[name].append(elapsed)
    return samples


def table(figures: list[Figure]) -> str:
    """A plain-text table of medians, p90s, ratios to the baseline and (where a figure has one) to its limit."""
    lines = [f"{'figure':<44} {'contender':<16} {'median':>10} {'p90':>10} {'vs baseline':>12} {'vs limit':>9}"]
    for fig in figures:
        for name in fig.samples:
            ratio = "baseline" if name == fig.baseline else f"{fig.ratio(name):.1f}x"
            to_limit = fig.ratio_to_limit(name)
            limit = "" if to_limit is None else "limit" if name == fig.limit else f"{to_limit:.2f}x"
            lines.append(
                f"{fig.name:<44} {name:<16} {fig.median(name):>8.2f}{fig.unit if fig.unit == 'ms' else '':>2} "
                f"{fig.p90(name):>8.2f}{'ms' if fig.unit == 'ms' else '':>2} {ratio:>12} {limit:>9}"
            )
        if fig.unit != "ms":
            lines.append(f"{'':<44} (unit: {fig.unit})")
    return "\n".join(lines)


def as_json(figures: list[Figure], settings: dict) -> dict:
    """The figures, when and on what they ran (machine, versions, adb), for ``--json``."""
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "cpu": _cpu_model(),
            "adb": _adb_version(),
        },
        "versions": _package_versions(),
        "settings": settings,
        "figures": [
            {
                "name": f.name,
                "unit": f.unit,
                "baseline": f.baseline,
                "limit": f.limit,
                "contenders": {
                    n: {
                        "median": f.median(n),
                        "p90": f.p90(n),
                        "ratio_to_baseline": f.ratio(n),
                        "ratio_to_limit": f.ratio_to_limit(n),
                        "samples": f.samples[n],
                    }
                    for n in f.samples
                },
            }
            for f in figures
        ],
    }


def _cpu_model() -> str:
    """The CPU's model name (Linux), or the platform's processor string."""
    try:
        for line in open("/proc/cpuinfo"):  # noqa: SIM115
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def _adb_version() -> str | None:
    """The first line of ``adb version``, if adb is installed."""
    try:
        done = subprocess.run(["adb", "version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.splitlines()[0] if done.stdout else None


def _package_versions() -> dict:
    """The versions of androidrl (with its commit) and its libraries, as a training run records them."""
    try:
        from androidrl.train.runs import package_versions
    except ImportError:  # the training extra is not installed
        return {}
    return package_versions()

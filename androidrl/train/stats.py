"""Spread and confidence across episodes and seeds: sample std, IQM, bootstrap intervals.

Every summary androidrl prints gives a mean with its sample standard deviation (ddof 1: a
handful of seeds or episodes is a sample, not the population). Results over several seeds
also get what rliable (Agarwal et al., 2021, "Deep RL at the Edge of the Statistical Precipice")
recommends for few runs: the interquartile mean (the mean of the middle half, robust to one
outlying seed) and a percentile bootstrap confidence interval of it, resampling runs within
each task (rliable's stratified bootstrap). Written with NumPy: rliable itself pulls pandas,
SciPy, statsmodels and seaborn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

#: Bootstrap resamples (rliable uses 50,000 for papers; 2,000 keep a summary instant and its bounds to ~0.01).
REPS = 2000


def sample_std(values: Sequence[float]) -> float:
    """The sample standard deviation (ddof 1); NaN for fewer than two values (there is no spread to tell)."""
    values = np.asarray(values, dtype=float)
    return float(values.std(ddof=1)) if values.size > 1 else math.nan


def iqm(scores: Sequence[float] | np.ndarray) -> float:
    """The interquartile mean: the mean of the middle 50% of all scores (SciPy's ``trim_mean(x, 0.25)``)."""
    flat = np.sort(np.asarray(scores, dtype=float).ravel())
    if not flat.size:
        return math.nan
    cut = int(0.25 * flat.size)
    return float(flat[cut : flat.size - cut].mean())


def bootstrap_ci(
    scores: Sequence[float] | np.ndarray,
    statistic: Callable[[np.ndarray], float] = iqm,
    confidence: float = 0.95,
    reps: int = REPS,
    seed: int = 0,
) -> tuple[float, float]:
    """A percentile bootstrap interval of ``statistic`` over ``scores`` (runs, or runs x tasks).

    The runs (rows) are resampled with replacement, separately for each task (column), as
    rliable's stratified bootstrap does; seeded, so the same scores give the same interval.
    """
    scores = np.asarray(scores, dtype=float)
    scores = scores.reshape(len(scores), -1)
    runs, tasks = scores.shape
    if runs < 2:
        value = statistic(scores)
        return value, value
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, runs, size=(reps, runs, tasks))
    samples = [statistic(np.take_along_axis(scores, pick, axis=0)) for pick in picks]
    low, high = np.percentile(samples, [50 * (1 - confidence), 50 * (1 + confidence)])
    return float(low), float(high)


def plus_minus(mean: float, std: float, spec: str = ".2f") -> str:
    """``mean ± std`` (``± n/a`` when there is no spread to tell)."""
    return f"{mean:{spec}} ± {'n/a' if math.isnan(std) else format(std, spec)}"


def across_runs(scores: Sequence[float] | np.ndarray, spec: str = ".0%") -> str:
    """Several runs' scores in words: mean ± sample std, and the IQM with its 95% bootstrap interval."""
    scores = np.asarray(scores, dtype=float)
    per_run = scores.reshape(len(scores), -1).mean(axis=1)
    low, high = bootstrap_ci(scores)
    return (
        f"{plus_minus(float(per_run.mean()), sample_std(per_run), spec)} (mean ± std), "
        f"IQM {iqm(scores):{spec}} [95% CI {low:{spec}}–{high:{spec}}]"
    )

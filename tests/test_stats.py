"""Summaries across episodes and seeds: sample std, IQM and bootstrap intervals, checked against known values."""

import math

import numpy as np
import pytest

from androidrl.train import stats


def test_std_is_the_samples_not_the_populations():
    assert stats.sample_std([0.0, 1.0]) == pytest.approx(math.sqrt(0.5))  # two seeds: ddof 1, not 0.5
    assert math.isnan(stats.sample_std([1.0]))  # one value has no spread to tell
    assert stats.plus_minus(0.5, math.nan) == "0.50 ± n/a" and stats.plus_minus(1, 0.25, ".0%") == "100% ± 25%"


def test_iqm_is_the_mean_of_the_middle_half():
    assert stats.iqm([0, 1, 2, 3, 4, 5, 6, 100]) == pytest.approx(3.5)  # 2, 3, 4, 5: one outlier ignored
    assert stats.iqm([1.0, 2.0, 3.0]) == pytest.approx(2.0)  # too few to trim: the mean, as SciPy's trim_mean
    runs_by_tasks = np.array([[0.0, 1.0], [0.5, 0.5], [1.0, 0.0], [0.2, 0.8]])
    assert stats.iqm(runs_by_tasks) == pytest.approx(np.mean([0.2, 0.5, 0.5, 0.8]))


def test_bootstrap_intervals_hold_the_iqm_and_repeat():
    scores = [0.6, 0.7, 0.8, 0.9, 1.0]
    low, high = stats.bootstrap_ci(scores)
    assert low <= stats.iqm(scores) <= high and 0.6 <= low < high <= 1.0
    assert stats.bootstrap_ci(scores) == (low, high)  # seeded
    assert stats.bootstrap_ci([0.8, 0.8, 0.8]) == (pytest.approx(0.8), pytest.approx(0.8))
    assert stats.bootstrap_ci([0.4]) == (0.4, 0.4)
    line = stats.across_runs([0.5, 1.0])
    assert line.startswith("75% ± 35% (mean ± std), IQM 75% [95% CI 50%–100%]"), line

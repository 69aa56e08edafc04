"""Benchmarks of androidrl's hot paths beside baselines (see androidrl/benchmark.py)."""

import sys

from androidrl.benchmark import main

if __name__ == "__main__":
    sys.exit(main())

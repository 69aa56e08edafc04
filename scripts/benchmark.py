"""Benchmarks of androidrl's hot paths beside baselines (see androidrl/bench/)."""

import sys

from androidrl.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))

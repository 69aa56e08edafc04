"""Evaluate a trained run: python scripts/evaluate.py --run runs/<run> --episodes 20"""

import sys

from androidrl.cli import main

if __name__ == "__main__":
    sys.exit(main(["evaluate", *sys.argv[1:]]))

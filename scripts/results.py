"""The learnability table: python scripts/results.py configs/quickstart.yaml --seeds 0 1 2"""

import sys

from androidrl.cli import main

if __name__ == "__main__":
    sys.exit(main(["results", *sys.argv[1:]]))

"""Train a Stable-Baselines3 agent on Android: python scripts/train.py --config configs/quickstart.yaml"""

import sys

from androidrl.train.training import main

if __name__ == "__main__":
    sys.exit(main())

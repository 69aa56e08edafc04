"""Train a Stable-Baselines3 agent on Android: python scripts/train.py --config configs/quickstart.yaml"""

import sys

if __name__ == "__main__":
    from androidrl.train.training import main  # (here: forkserver/spawn workers run this file too)

    sys.exit(main())

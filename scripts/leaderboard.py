"""The suite's leaderboard: python scripts/leaderboard.py baselines|ppo|multitask|render (cells resumable)."""

import sys

from androidrl.train.leaderboard import main

if __name__ == "__main__":
    sys.exit(main())

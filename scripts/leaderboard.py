"""The suite's leaderboard: python scripts/leaderboard.py baselines|ppo|multitask|render (cells resumable)."""

import sys

if __name__ == "__main__":
    from androidrl.train.leaderboard import main  # (here: forkserver/spawn workers run this file too)

    sys.exit(main())

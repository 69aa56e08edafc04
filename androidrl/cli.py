"""The ``androidrl`` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from PIL import Image


def _rollout(args: argparse.Namespace) -> int:
    """A random agent on a virtual phone; saves a few screenshots."""
    from androidrl.registration import make_virtual_env
    from androidrl.spaces import EnvAction

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = make_virtual_env(args.width, args.height, args.density, seed=args.seed, dump_xml=False)
    try:
        env.reset(seed=args.seed)
        env.action_space.seed(args.seed)
        save_at = set(np.linspace(0, args.steps, num=min(args.save, args.steps + 1), dtype=int).tolist())
        saved = []
        for step in range(args.steps + 1):
            if step:
                action = EnvAction(**env.action_space.sample())
                _, _, terminated, truncated, info = env.step(action)
                note = info["action_error"] or info["device_error"]
                print(
                    f"step {step:4d}/{args.steps}  {action.action_type.name:<15}" + (f"  ({note[:60]})" if note else "")
                )
                if terminated or truncated:
                    env.reset()
            if step in save_at:
                path = out / f"step_{step:04d}.png"
                Image.fromarray(env.frame).save(path)
                saved.append(path)
        package = env.device.shell("dumpsys window | grep mCurrentFocus").strip()
        print(f"done: {args.steps} random steps; {len(saved)} screenshots in {out}/; focus: {package}")
    finally:
        env.close()
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="androidrl", description="Reinforcement learning on Android phones.")
    sub = parser.add_subparsers(dest="command", required=True)

    rollout = sub.add_parser("rollout", help="random agent on a virtual phone, saving screenshots")
    rollout.add_argument("--steps", type=int, default=30, help="number of random actions (default 30)")
    rollout.add_argument("--out", default="runs/rollout", help="directory for screenshots (default runs/rollout)")
    rollout.add_argument("--save", type=int, default=5, help="how many screenshots to save (default 5)")
    rollout.add_argument("--seed", type=int, default=0)
    rollout.add_argument("--width", type=int, default=1080)
    rollout.add_argument("--height", type=int, default=2400)
    rollout.add_argument("--density", type=int, default=420)
    rollout.set_defaults(func=_rollout)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``androidrl`` console script."""
    args = build_parser().parse_args(argv)
    if getattr(args, "steps", 1) < 0:
        print("androidrl: --steps must be >= 0", file=sys.stderr)
        return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

"""``androidrl rollout``: a random agent on a virtual phone, saving a few screenshots (a first look)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from androidrl.arguments import USAGE, add_screen, int_in, seed_arg


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl rollout``."""
    rollout = sub.add_parser(
        "rollout",
        help="random agent on a virtual phone, saving screenshots",
        description="Play random actions (taps, swipes, typeable text, keys) on a virtual phone and save "
        "a few screenshots: a first look at the environment.",
    )
    rollout.add_argument("--steps", type=int_in(0, 10**7), default=30, help="number of random actions (default 30)")
    rollout.add_argument("--out", default="runs/rollout", help="directory for screenshots (default runs/rollout)")
    rollout.add_argument("--save", type=int_in(0, 10_000), default=5, help="how many screenshots to save (default 5)")
    rollout.add_argument("--seed", type=seed_arg, default=0, help="seed of the phone and the agent (default 0)")
    add_screen(rollout)
    rollout.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play ``--steps`` random actions; save ``--save`` screenshots."""
    from androidrl.registration import make_virtual_env
    from androidrl.spaces import EnvAction

    out = Path(args.out)
    try:
        env = make_virtual_env(args.width, args.height, args.density, seed=args.seed, dump_xml=False)
    except ValueError as err:  # a screen it cannot make
        print(f"androidrl rollout: {err}", file=sys.stderr)
        return USAGE
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        env.close()
        print(f"androidrl rollout: --out {out}: cannot make the directory: {err.strerror}", file=sys.stderr)
        return USAGE
    try:
        env.reset(seed=args.seed)
        env.action_space.seed(args.seed)
        save_at = set(np.linspace(0, args.steps, num=min(args.save, args.steps + 1), dtype=int).tolist())
        saved = []
        for step in range(args.steps + 1):
            if step:
                action = EnvAction(**_typable_sample(env.action_space))
                _, _, terminated, truncated, info = env.step(action)
                note = info["action_error"] or info["device_error"]
                print(f"step {step:4d}/{args.steps}  {action.action_type.name:<15}" + (f"  ({note})" if note else ""))
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


def _typable_sample(space) -> dict:
    """A random action whose text Android can type (the space holds any printable text, as MetaGPT's)."""
    from androidrl.device.base import TYPABLE

    action = {name: sub.sample() for name, sub in space.spaces.items() if name != "input_txt"}
    rng = space.np_random
    length = int(rng.integers(1, 13))
    chars = sorted(TYPABLE)  # drawn by index, as PrintableText does: a NumPy string array can swallow a Ctrl-C
    action["input_txt"] = "".join([chars[i] for i in rng.integers(0, len(chars), size=length).tolist()])
    return action

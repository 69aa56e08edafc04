"""``androidrl record`` and ``androidrl minari``: episodes of a random policy, and recordings as Minari datasets."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from androidrl.arguments import USAGE, int_in, seed_arg


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl record`` and ``androidrl minari``."""
    record = sub.add_parser(
        "record",
        help="record episodes of a random policy as a dataset",
        description="Record episodes of a random policy (observations, frames, actions, rewards, infos) as "
        ".npz + .json files that androidrl.recording.load_dataset reads back (and `androidrl minari` exports).",
    )
    record.add_argument("--task", default="tap-target", help="built-in task name or YAML file")
    record.add_argument("--episodes", type=int_in(1, 100_000), default=3, help="number of episodes (default 3)")
    record.add_argument("--out", default="recordings", help="directory for the episodes (default recordings)")
    record.add_argument(
        "--devices", nargs=1, default=["virtual:360x800@160"], metavar="DEVICE",
        help="the device to play on: an adb serial or virtual[:WxH[@DPI]] (default virtual:360x800@160)",
    )  # fmt: skip
    record.add_argument(
        "--shape", type=int, nargs=2, default=[84, 84], metavar=("HEIGHT", "WIDTH"),
        help="the observation's size, as a config's observation.shape (default 84 84)",
    )  # fmt: skip
    record.add_argument("--xml", action="store_true", help="also record the UI XML of every step")
    record.add_argument("--seed", type=seed_arg, default=0, help="seed of the env and the policy (default 0)")
    record.set_defaults(func=run_record)

    export = sub.add_parser(
        "minari",
        help="export a recording (androidrl record / evaluate) as a Minari dataset",
        description="Export a recording directory as a Minari dataset, which minari.load_dataset(ID) reads "
        "(and recover_environment() makes its env again).",
    )
    export.add_argument("recording", help="the recording directory (its meta.json and episode_*.npz)")
    export.add_argument("dataset_id", help="the dataset's name, e.g. androidrl/tap-target/random-v0")
    export.add_argument("--description", help="what the dataset holds")
    export.add_argument("--author", help="who made it (default: git's user.name)")
    export.add_argument("--overwrite", action="store_true", help="replace a dataset of that name")
    export.set_defaults(func=run_export)


def run_record(args: argparse.Namespace) -> int:
    """Play ``--episodes`` of a random policy and record them (2: a bad device or task)."""
    import gymnasium as gym

    from androidrl.errors import AndroidRLError, DeviceError
    from androidrl.recording import EpisodeRecorder
    from androidrl.registration import pixel_spec

    try:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"androidrl record: --out {args.out}: cannot make the directory: {err.strerror}", file=sys.stderr)
        return USAGE
    try:
        spec = pixel_spec(args.task, device=args.devices[0], seed=args.seed, observation={"shape": args.shape})
        env = EpisodeRecorder(gym.make(spec), args.out, record_xml=args.xml, policy="random")
    except (AndroidRLError, ValueError, TypeError) as err:  # (the task and the device are read here)
        print(f"androidrl record: {err}", file=sys.stderr)
        return USAGE
    try:
        env.action_space.seed(args.seed)
        for episode in range(args.episodes):
            env.reset(seed=args.seed + episode)
            done = False
            while not done:
                *_, terminated, truncated, _ = env.step(env.action_space.sample())
                done = terminated or truncated
            print(f"episode {episode}: saved {env.saved[-1]}")
    except DeviceError as err:
        print(f"androidrl record: {err}", file=sys.stderr)
        return 1
    finally:
        env.close()
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Export a recording as a Minari dataset (2: a bad id; 1: a recording that cannot be exported)."""
    from androidrl.recording import check_dataset_id, export_minari

    try:
        check_dataset_id(args.dataset_id)
    except ValueError as err:
        print(f"androidrl minari: {err}", file=sys.stderr)
        return USAGE
    try:
        path = export_minari(args.recording, args.dataset_id, args.description, args.author, args.overwrite)
    except (ValueError, ImportError, OSError) as err:
        print(f"androidrl minari: {err}", file=sys.stderr)
        return 1
    print(f"{args.dataset_id}: {path} (load it with minari.load_dataset({args.dataset_id!r}))")
    return 0

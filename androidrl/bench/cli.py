"""The command line of the benchmarks: ``scripts/benchmark.py`` and ``androidrl bench``."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from androidrl.bench.adb import adb_suite
from androidrl.bench.cluster import ray_suite
from androidrl.bench.envs import env_suite, reset_suite, vector_suite, wrapped_suite
from androidrl.bench.figures import Figure, as_json, table
from androidrl.bench.training import memory_suite, ppo_suite

SUITES = {
    "adb": adb_suite,
    "env": env_suite,
    "reset": reset_suite,
    "wrapped": wrapped_suite,
    "vector": vector_suite,
    "ppo": ppo_suite,
    "memory": memory_suite,
    "ray": ray_suite,
}


def _screen(text: str) -> tuple[int, int]:
    """``WxH`` as (width, height), for argparse."""
    match = re.fullmatch(r"(\d+)x(\d+)", text.strip().lower())
    if match is None or 0 in (width := int(match[1]), height := int(match[2])):
        raise argparse.ArgumentTypeError(f"expected WxH such as 360x800, got {text!r}")
    return width, height


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Command line of ``scripts/benchmark.py`` and ``androidrl bench``."""
    parser = argparse.ArgumentParser(
        prog="androidrl bench",
        description="Benchmarks of the hot paths, side by side with baselines in the same run, as ratios.",
    )
    parser.add_argument("--quick", action="store_true", help="a short run (about 20 seconds)")
    parser.add_argument("--rounds", type=_positive, default=None, help="samples per contender (default 30, quick 4)")
    parser.add_argument("--suite", action="append", choices=sorted(SUITES), help="suites to run (default all)")
    parser.add_argument(
        "--size",
        type=_screen,
        default=None,
        help="virtual screen WxH of the adb, env, wrapped and vector suites (default 1080x2400, quick "
        "360x800; the ppo and memory suites run the quickstart config as it is)",
    )
    parser.add_argument("--density", type=_positive, default=None, help="screen density (default 420, quick 160)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    rounds = args.rounds or (4 if args.quick else 30)
    width, height = args.size or ((360, 800) if args.quick else (1080, 2400))
    args.density = args.density or (160 if args.quick else 420)
    figures: list[Figure] = []
    for name in args.suite or list(SUITES):
        print(f"running suite {name!r} ({rounds} rounds, {width}x{height})...", file=sys.stderr, flush=True)
        figures += SUITES[name](rounds, width, height, args.density)
    print(table(figures))
    if args.json:
        settings = {"rounds": rounds, "size": [width, height], "density": args.density}
        args.json.write_text(json.dumps(as_json(figures, settings), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

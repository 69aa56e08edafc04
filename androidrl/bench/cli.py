"""The command line of the benchmarks: ``scripts/benchmark.py`` and ``androidrl bench``."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from androidrl.bench.adb import adb_suite
from androidrl.bench.cluster import ray_suite
from androidrl.bench.envs import env_suite, reset_suite, vector_suite, wrapped_suite
from androidrl.bench.families import families_suite
from androidrl.bench.figures import Figure, as_json, table
from androidrl.bench.report import write
from androidrl.bench.training import memory_suite, ppo_suite

SUITES = {
    "adb": adb_suite,
    "env": env_suite,
    "reset": reset_suite,
    "families": families_suite,
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
    parser.add_argument("--quick", action="store_true", help="a short run (one to two minutes)")
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
    parser.add_argument(
        "--report", type=Path, metavar="PAGE", help="write the performance page (docs/performance.md) from --from"
    )
    parser.add_argument("--from", dest="full", type=Path, metavar="JSON", help="with --report: a full run's --json")
    parser.add_argument("--before", type=Path, metavar="JSON", help="with --report: a --quick run of an older commit")
    parser.add_argument("--after", type=Path, metavar="JSON", help="with --report: a --quick run of this commit")
    args = parser.parse_args(argv)
    if args.report or args.full:
        if not (args.report and args.full):
            parser.error("--report PAGE and --from JSON go together")
        try:
            write(args.report, args.full, args.before, args.after)
        except ValueError as err:
            parser.error(str(err))
        print(f"wrote {args.report}")
        return 0
    rounds = args.rounds or (4 if args.quick else 30)
    width, height = args.size or ((360, 800) if args.quick else (1080, 2400))
    args.density = args.density or (160 if args.quick else 420)
    settings = {"rounds": rounds, "size": [width, height], "density": args.density, "quick": args.quick}
    settings["suite_seconds"] = {}
    figures: list[Figure] = []
    for name in args.suite or list(SUITES):
        print(f"running suite {name!r} ({rounds} rounds, {width}x{height})...", file=sys.stderr, flush=True)
        start = time.monotonic()
        figures += SUITES[name](rounds, width, height, args.density)
        settings["suite_seconds"][name] = round(time.monotonic() - start, 1)
        if args.json:  # after every suite: a crash late in a long run keeps what was measured
            args.json.write_text(json.dumps(as_json(figures, settings), indent=2))
    print(table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())

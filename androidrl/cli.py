"""The ``androidrl`` command line: gathers the subcommands and runs the one asked for.

The commands live in their own modules (:mod:`androidrl.commands`); the training commands
parse their own arguments (:data:`DELEGATES`). Every command exits 2 when it is used wrongly
(as argparse does), 1 when it fails, 130/143 when Ctrl-C/SIGTERM stops it.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from androidrl.commands import configs, devices, node, record, rollout, tasks, virtual

#: Subcommands with parsers of their own: name -> ("module:function", help).
DELEGATES = {
    "train": ("androidrl.train.training:main", "train an agent from a YAML config (or resume a run)"),
    "evaluate": ("androidrl.train.evaluation:main", "evaluate a trained run: success rate, return, recordings"),
    "tune": ("androidrl.train.tuning:main", "tune a config's hyperparameters with Optuna (resumable study)"),
    "watch": ("androidrl.train.watch:main", "play a trained agent and write an MP4 with the actions drawn"),
    "results": ("androidrl.train.results:main", "train shipped configs and tabulate what they learn"),
    "bench": ("androidrl.bench:main", "run the benchmarks (same as scripts/benchmark.py)"),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    from androidrl.provenance import version

    parser = argparse.ArgumentParser(
        prog="androidrl",
        description="Reinforcement learning on Android phones, emulators and a headless virtual phone.",
        epilog="androidrl COMMAND --help explains a command.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"androidrl {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    rollout.add(sub)
    tasks.add(sub)
    record.add(sub)
    for name, (_, text) in DELEGATES.items():  # (they parse their own arguments: `androidrl train --help`)
        sub.add_parser(name, help=text, add_help=False)
    configs.add(sub)
    virtual.add(sub)
    devices.add(sub)
    node.add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``androidrl`` console script (and ``python -m androidrl``)."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] in DELEGATES:
            module, function = DELEGATES[argv[0]][0].split(":")
            return getattr(importlib.import_module(module), function)(argv[1:])
        parser = build_parser()
        args = parser.parse_args(argv)
        for name, low in (("steps", 0), ("count", 1), ("episodes", 1)):
            if getattr(args, name, low) < low:
                parser.error(f"--{name} must be >= {low}")
        return args.func(args)
    except KeyboardInterrupt:  # Ctrl-C ends any command quietly, with the shell's code for SIGINT
        print("androidrl: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

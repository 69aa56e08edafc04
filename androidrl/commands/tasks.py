"""``androidrl tasks``: list the built-in tasks, or check a task file."""

from __future__ import annotations

import argparse
import sys

from androidrl.commands import USAGE


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl tasks``."""
    tasks = sub.add_parser(
        "tasks",
        help="list the built-in tasks, or `tasks check FILE` to validate a task file",
        description="`androidrl tasks` lists the built-in tasks; `androidrl tasks check FILE` validates a "
        "task YAML file (every key, condition and step) without running it.",
    )
    tasks.add_argument("action", nargs="?", choices=["list", "check"], default="list", help="list (default) or check")
    tasks.add_argument("file", nargs="?", help="the task YAML file to check")
    tasks.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """List the built-in tasks, or check a task file (1: it is not a valid task)."""
    from androidrl.errors import TaskError
    from androidrl.tasks.registry import builtin_specs, gym_id
    from androidrl.tasks.spec import load_spec

    if args.action == "check":
        if not args.file:
            print("androidrl tasks check: give the task file to check", file=sys.stderr)
            return USAGE
        try:
            spec = load_spec(args.file)
        except TaskError as err:
            print(err, file=sys.stderr)
            return 1
        print(
            f"{args.file}: ok — task {spec.name!r}, max_steps {spec.max_steps}, "
            f"{len(spec.reset)} reset steps, params {sorted(spec.params) or 'none'}"
        )
        return 0
    rows = [("NAME", "GYM ID", "STEPS", "STOCK", "DESCRIPTION")]
    for name, spec in builtin_specs().items():
        rows.append((name, gym_id(name), str(spec.max_steps), "yes" if spec.stock_android else "no", spec.description))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4])
    print("STOCK: runs unchanged on an Android emulator (stock apps and settings only).")
    return 0

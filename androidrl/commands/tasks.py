"""``androidrl tasks``: list the built-in tasks, or check a task file."""

from __future__ import annotations

import argparse
import sys

from androidrl.arguments import USAGE


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl tasks``."""
    tasks = sub.add_parser(
        "tasks",
        help="list the task families (filter by --app, --category, --tier), or `tasks check FILE`",
        description="`androidrl tasks` lists the task families (each a gym id per tier), filtered by app, "
        "category and tier; `androidrl tasks check FILE` validates a task YAML file (every key, condition "
        "and step) without running it.",
    )
    tasks.add_argument("action", nargs="?", choices=["list", "check"], default="list", help="list (default) or check")
    tasks.add_argument("file", nargs="?", help="the task YAML file to check")
    tasks.add_argument("--app", action="append", metavar="PACKAGE", help="only families using this app (repeatable)")
    tasks.add_argument("--category", action="append", help="only families of this category (repeatable)")
    tasks.add_argument("--tier", choices=["easy", "medium", "hard"], help="show this tier's gym id and step budget")
    tasks.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """List the built-in tasks, or check a task file (1: it is not a valid task)."""
    from androidrl.errors import TaskError
    from androidrl.tasks.family import family_gym_id, list_families
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
    try:
        families = list_families(categories=args.category, apps=args.app)
    except TaskError as err:
        print(f"androidrl tasks: {err}", file=sys.stderr)
        return USAGE
    order = {name: i for i, name in enumerate(builtin_specs())}  # easiest first
    families.sort(key=lambda info: order[info.name])
    rows = [("NAME", "CATEGORY", "GYM ID", "STEPS", "STOCK", "DESCRIPTION")]
    for info in families:
        env_id = family_gym_id(info.name, args.tier) if args.tier else gym_id(info.name)
        steps = info.max_steps[args.tier] if args.tier else builtin_specs()[info.name].max_steps
        stock = "yes" if info.stock_android else "no"
        rows.append((info.name, info.category, env_id, str(steps), stock, info.description))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:5], widths)) + "  " + row[5])
    print(f"{len(families)} families. STOCK: runs unchanged on an Android emulator (stock apps and settings only).")
    if not args.tier:
        print("Each family has a gym id per tier: --tier easy|medium|hard shows them.")
    return 0

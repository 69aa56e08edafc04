"""``androidrl configs``: list the shipped training configs, or copy them to start your own."""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

from androidrl.arguments import USAGE


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl configs``."""
    configs = sub.add_parser(
        "configs",
        help="list the shipped training configs, or copy them to start your own",
        description="The training configs shipped with androidrl: `androidrl configs` lists them, "
        "`androidrl configs copy NAME [DEST]` copies one (or `all`) to DEST (default: here).",
    )
    configs.add_argument("action", nargs="?", choices=["list", "copy"], default="list", help="list (default) or copy")
    configs.add_argument("name", nargs="?", help="the config to copy (e.g. quickstart), or all")
    configs.add_argument("dest", nargs="?", default=".", help="where to copy it (default: the current directory)")
    configs.set_defaults(func=run)


def about(path: Path) -> str:
    """The first sentence of a config's opening comment, whole however many lines it spans."""
    words = []
    for line in path.read_text().splitlines():
        text = line[1:].strip() if line.startswith("#") else None
        if not text or line.startswith("#  "):  # the comment ends, or its usage lines begin
            break
        words.append(text)
    paragraph = " ".join(words)
    end = re.search(r"[.!?](\s|$)", paragraph)
    return paragraph[: end.start() + 1] if end else paragraph


def run(args: argparse.Namespace) -> int:
    """List the shipped configs, or copy one (or all) to a directory."""
    from androidrl.train.config import shipped_configs

    shipped = shipped_configs()
    if args.action == "list":
        width = max(len(name) for name in shipped) + 2
        for name, path in shipped.items():
            print(f"{name:<{width}}{about(path)}")
        print("copy one with: androidrl configs copy NAME [DEST]; train it with: androidrl train --config NAME")
        return 0
    names = list(shipped) if args.name == "all" else [args.name]
    unknown = [n for n in names if n not in shipped]
    if not args.name or unknown:
        which = f"no shipped config {unknown[0]!r}; give" if unknown and args.name else "give the name of"
        print(f"androidrl configs copy: {which} a shipped config ({', '.join(shipped)}) or all", file=sys.stderr)
        return USAGE
    dest = Path(args.dest)
    as_file = len(names) == 1 and dest.suffix in (".yaml", ".yml") and not dest.is_dir()
    try:
        (dest.parent if as_file else dest).mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"androidrl configs copy: {dest}: cannot make the directory: {err.strerror}", file=sys.stderr)
        return USAGE
    for name in names:
        target = dest / shipped[name].name if dest.is_dir() else dest
        if target.exists():
            print(f"androidrl configs copy: {target} exists; not overwritten", file=sys.stderr)
            return 1
        shutil.copyfile(shipped[name], target)
        print(target)
    return 0

"""The ``androidrl`` subcommands that are not training: one module a command (or a pair of close ones).

Each module has ``add(sub)``, which adds its parser (arguments, help) to the command line's
subparsers and names the function that runs it; :mod:`androidrl.cli` only gathers them.
The training commands (``train``, ``evaluate``, ``tune``, ``watch``, ``results``) live in
:mod:`androidrl.train`, the benchmarks in :mod:`androidrl.bench`.

Exit codes, the same in every command: 0 done, 1 it failed (a device, a file, the network),
2 the command was used wrongly (a bad argument or input; argparse's own code), 130/143
stopped by Ctrl-C/SIGTERM.
"""

import argparse

#: The exit code of a command used wrongly (argparse's own).
USAGE = 2


def add_screen(parser: argparse.ArgumentParser, width: int = 1080, height: int = 2400, density: int = 420) -> None:
    """``--width``, ``--height``, ``--density``: the phone's screen, in every command that makes a phone."""
    parser.add_argument("--width", type=int, default=width, help=f"screen width in pixels (default {width})")
    parser.add_argument("--height", type=int, default=height, help=f"screen height in pixels (default {height})")
    parser.add_argument("--density", type=int, default=density, help=f"screen density in dpi (default {density})")

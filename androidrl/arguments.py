"""The command line's shared argument types and flags (``--seed``, ports, hosts, the screen's size).

Every ``androidrl`` command — :mod:`androidrl.commands`, the training commands in :mod:`androidrl.train`,
the benchmarks in :mod:`androidrl.bench` — takes its bounded arguments from here, so a flag reads and
fails the same everywhere.

Exit codes, the same in every command: 0 done, 1 it failed (a device, a file, the network),
2 the command was used wrongly (a bad argument or input; argparse's own code), 130/143
stopped by Ctrl-C/SIGTERM.
"""

import argparse
import math
import re

from androidrl.validation import HOST

#: The exit code of a command used wrongly (argparse's own).
USAGE = 2
#: The largest seed (NumPy's and torch's take 32 bits; a training config's ``seed`` is bounded the same).
MAX_SEED = 2**32 - 1


def int_in(low: int, high: int):
    """An argparse type: an int in ``low..high`` (argparse names the flag: ``argument --seed: expected ...``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:  # (text, or more digits than Python reads)
            value = None
        if value is None or not low <= value <= high:
            shown = text if len(text) <= 40 else f"{text[:20]}... ({len(text):,} characters)"
            raise argparse.ArgumentTypeError(f"expected an int in {low:,}..{high:,}, got {shown!r}")
        return value

    parse.__name__ = "int"
    return parse


def number_in(low: float, high: float):
    """An argparse type: a finite number in ``(low, high]`` (seconds, frames per second)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low < value <= high:  # (NaN and infinity fail it)
            raise argparse.ArgumentTypeError(f"expected a number in ({low:g}, {high:g}], got {text[:40]!r}")
        return value

    parse.__name__ = "number"
    return parse


def add_trust_plugins(parser: argparse.ArgumentParser, whose: str = "the run's") -> None:
    """``--trust-plugins``: import the classes of {whose} config even from modules inside the run directory."""
    parser.add_argument(
        "--trust-plugins",
        action="store_true",
        help=f"import the classes {whose} config names even from modules inside the run directory "
        "(code that came with the run: read it first)",
    )


#: An argparse type for seeds.
seed_arg = int_in(0, MAX_SEED)
#: An argparse type for TCP ports.
port_arg = int_in(1, 65535)


def host_arg(text: str) -> str:
    """An argparse type: a host name or an IP address (no scheme, port or spaces)."""
    if not re.fullmatch(HOST, text):
        raise argparse.ArgumentTypeError(f"expected a host name or an IP address, got {text[:60]!r}")
    return text


def add_screen(parser: argparse.ArgumentParser, width: int = 1080, height: int = 2400, density: int = 420) -> None:
    """``--width``, ``--height``, ``--density``: the phone's screen, in every command that makes a phone."""
    parser.add_argument("--width", type=int, default=width, help=f"screen width in pixels (default {width})")
    parser.add_argument("--height", type=int, default=height, help=f"screen height in pixels (default {height})")
    parser.add_argument("--density", type=int, default=density, help=f"screen density in dpi (default {density})")

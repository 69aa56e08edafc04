"""What toybox's tools share (toybox's ``lib/``): flags before operands, and the error line for a file."""

from __future__ import annotations


def flags_and_args(argv: list[str], allowed: str) -> tuple[set[str], list[str]]:
    """(flags, operands) of ``argv``: single-letter flags among ``allowed`` until the first operand."""
    flags: set[str] = set()
    args: list[str] = []
    for arg in argv[1:]:
        if arg.startswith("-") and len(arg) > 1 and not args and all(ch in allowed for ch in arg[1:]):
            flags.update(arg[1:])
        else:
            args.append(arg)
    return flags, args


def file_error(tool: str, path: str, exc: OSError) -> str:
    """``tool: path: strerror``, the line a toybox tool prints for a file it cannot use."""
    return f"{tool}: {path}: {exc.strerror}\n"

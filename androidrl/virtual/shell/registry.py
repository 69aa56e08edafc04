"""The one table of the shell's commands, and the decorator that puts a command into it.

Each module of :mod:`androidrl.virtual.shell.commands` registers its commands with
:func:`command`; importing that package fills :data:`COMMANDS`, which every shell of a
:class:`~androidrl.virtual.phone.VirtualPhone` runs its lines with.
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.shell.interpreter import Command

#: What a command returns: stdout, stderr and exit status.
Result = tuple[bytes, bytes, int]
#: Every command of the phone's shell by name (``/system/bin``).
COMMANDS: dict[str, Command] = {}


def command(*names: str) -> Callable[[Command], Command]:
    """Register the decorated function as the shell command ``names`` (a tool and its aliases).

    Raises:
        ValueError: A name is taken by another command.
    """

    def register(fn: Command) -> Command:
        for name in names:
            if COMMANDS.get(name, fn) is not fn:
                raise ValueError(f"shell command {name!r} is registered twice")
            COMMANDS[name] = fn
        return fn

    return register


def ok(text: str = "") -> Result:
    """Success with ``text`` on stdout."""
    return text.encode(), b"", 0


def fail(text: str, code: int = 1) -> Result:
    """Failure with ``text`` on stderr."""
    return b"", text.encode(), code

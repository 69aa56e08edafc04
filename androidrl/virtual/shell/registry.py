"""The one table of the shell's commands, and the decorator that puts a command into it.

Each module of :mod:`androidrl.virtual.shell.commands` registers its commands with
:func:`command`; importing that package fills :data:`COMMANDS`, which every shell of a
:class:`~androidrl.virtual.phone.VirtualPhone` runs its lines with.
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.shell.interpreter import Command, Shell, is_builtin
from androidrl.virtual.system.fs import MountedFiles

#: What a command returns: stdout, stderr and exit status.
Result = tuple[bytes, bytes, int]
#: Every command of the phone's shell by name (``/system/bin``).
COMMANDS: dict[str, Command] = {}


def command(*names: str, builtin: bool = False) -> Callable[[Command], Command]:
    """Register the decorated function as the shell command ``names`` (a tool and its aliases).

    Args:
        names: The command's names.
        builtin: A command of the shell itself (``cd``, ``read``, ``set``...): not a file of ``/system/bin``.

    Raises:
        ValueError: A name is taken by another command.
    """

    def register(fn: Command) -> Command:
        for name in names:
            if COMMANDS.get(name, fn) is not fn:
                raise ValueError(f"shell command {name!r} is registered twice")
            COMMANDS[name] = fn
        fn.shell_builtin = builtin
        return fn

    return register


def tools() -> list[str]:
    """The names of the commands that are files of ``/system/bin`` (every command but the shell's own), sorted."""
    return sorted(name for name, fn in COMMANDS.items() if not is_builtin(fn))


#: What a tool's file holds: the start of an ELF header (the shell runs the tool by its name, never these bytes).
_ELF = b"\x7fELF\x02\x01\x01" + bytes(57)


def system_bin() -> Callable[[], MountedFiles]:
    """The files of ``/system/bin``: one per tool (for the file system's ``mount``)."""
    files: MountedFiles = {name: (lambda: _ELF, 0o755) for name in tools()}
    return lambda: files


def bi_error(sh: Shell, name: str, message: str, code: int = 1) -> Result:
    """A builtin's failure as mksh prints it (``bi_errorf``): ``/system/bin/sh: NAME: MESSAGE``."""
    return b"", f"{sh.prefix()}{name}: {message}\n".encode(), code


def ok(text: str = "") -> Result:
    """Success with ``text`` on stdout."""
    return text.encode(), b"", 0


def fail(text: str, code: int = 1) -> Result:
    """Failure with ``text`` on stderr."""
    return b"", text.encode(), code

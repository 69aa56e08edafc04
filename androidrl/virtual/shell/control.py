"""How the shell leaves what it is running: ``exit``, ``return``, ``break``, ``continue``, and mksh's fatal errors."""

from __future__ import annotations


class ShellExit(Exception):
    """``exit N`` was run (or a shell must end with status ``code``)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class ShellError(Exception):
    """An error that ends a non-interactive shell, as mksh's ``errorf`` does.

    A bad substitution, an arithmetic error, ``${v?}`` of an unset variable. ``message`` is
    printed after the shell's prefix (``/system/bin/sh: ``).
    """

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.message, self.status = message, status


class FunctionReturn(Exception):
    """``return [N]`` inside a function (or a script run with ``.``)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class LoopControl(Exception):
    """``break [N]`` (``again`` False) or ``continue [N]`` (``again`` True), ``levels`` loops out."""

    def __init__(self, levels: int, again: bool) -> None:
        super().__init__(levels)
        self.levels, self.again = levels, again

"""How a ``cmd``-based tool reports an exception thrown in its service: a Java stack trace, exit status 255.

``input``, ``am``, ``pm`` and the other tools that run as binder shell commands
(``BasicShellCommandHandler``) fail this way on bad arguments.
"""

from __future__ import annotations

from androidrl.virtual.shell.registry import Result


class JavaException(Exception):
    """An exception thrown inside a ``cmd`` service, reported as Android reports it."""

    def __init__(self, java_class: str, message: str, frame: str) -> None:
        super().__init__(message)
        self.java_class, self.message, self.frame = java_class, message, frame


def java_exception_result(subcommand: str, exc: JavaException) -> Result:
    """``BasicShellCommandHandler.exec``: blank line, header, stack trace on stderr; exit 255."""
    trace = (
        f"\nException occurred while executing '{subcommand}':\n{exc.java_class}: {exc.message}\n"
        f"\tat {exc.frame}\n"
        "\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)\n"
        "\tat android.os.ShellCommand.exec(ShellCommand.java:38)\n"
        "\tat android.os.Binder.shellCommand(Binder.java:1075)\n"
        "\tat android.os.Binder.onTransact(Binder.java:903)\n"
    )
    return b"", trace.encode(), 255


def argument_expected(prev: str, frame: str) -> JavaException:
    """The exception a tool throws when an option's argument is missing."""
    return JavaException("java.lang.IllegalArgumentException", f'Argument expected after "{prev}"', frame)


def java_float(text: str, subcommand: str, frame: str) -> float:
    """``Float.parseFloat``, with InputShellCommand's error message on bad numbers."""
    value = text.strip()
    if value and value[-1] in "fFdD" and not value.lower().endswith("inf"):
        value = value[:-1]
    try:
        return float(value)
    except ValueError:
        raise JavaException(
            "java.lang.IllegalArgumentException", f"Error: Invalid arguments for command: {subcommand}", frame
        ) from None

"""The virtual phone's ``/system/bin/sh``: mksh's language, run on the phone's commands (mksh's ``exec.c``).

A program is parsed by :mod:`~androidrl.virtual.shell.syntax` (cached: the same line is not
parsed twice) and run by :mod:`~androidrl.virtual.shell.execution`: lists, ``&&``/``||``,
pipelines, ``if``/``while``/``until``/``for``/``case``, functions with ``local``, ``( )`` and
``{ }``, ``(( ))`` and ``[[ ]]``, redirections, ``&`` jobs (:mod:`~.jobs`),
``set -e``/``-u``/``-x``/``-f``/``-o pipefail``. Words are expanded by
:mod:`~androidrl.virtual.shell.expansion`. This module holds the shell's state and what its
commands use of it. What the shell cannot run fails with mksh's message
(``/system/bin/sh: foo: inaccessible or not found``, 127). Quoting works exactly as in a real
shell: a client that quotes typed text correctly gets it literally, and one that does not gets
a shell that really runs what the text says — on the virtual phone only, so tests can see it.
"""

from __future__ import annotations

import contextlib
import random
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from androidrl.virtual.shell import patterns
from androidrl.virtual.shell.arithmetic import Evaluator
from androidrl.virtual.shell.background import DetachedJobs
from androidrl.virtual.shell.control import FunctionReturn, LoopControl, ShellError, ShellExit
from androidrl.virtual.shell.execution import Command, Execution, is_builtin
from androidrl.virtual.shell.jobs import Job, Jobs
from androidrl.virtual.shell.stdin import Stdin
from androidrl.virtual.shell.streams import CLOSED, NO_INPUT, Sink, Streams
from androidrl.virtual.shell.syntax import RESERVED, ShellSyntaxError, parse
from androidrl.virtual.shell.tree import FunctionDef, Node

__all__ = ["Command", "Shell", "ShellExit", "ShellResult", "ShellSyntaxError", "is_builtin"]

#: The environment adbd's shell starts with.
ENVIRONMENT = {
    "HOME": "/",
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin",
    "EXTERNAL_STORAGE": "/sdcard",
    "ANDROID_DATA": "/data",
    "ANDROID_ROOT": "/system",
    "SHELL": "/system/bin/sh",
    "USER": "shell",
    "HOSTNAME": "localhost",
    "TMPDIR": "/data/local/tmp",
    "PWD": "/",
}
#: The cancel event of a shell nobody can interrupt: never set.
_NEVER = threading.Event()
# A simple command with nothing to expand, quote, redirect or assign: its words are its fields.
_PLAIN = re.compile(r"[ \t]*[A-Za-z0-9_./:@%,+-]+(?:[ \t]+[A-Za-z0-9_./:@%,=+-]+)*[ \t]*")


@dataclass
class ShellResult:
    """What a command line produced."""

    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int = 0


class Shell(Execution, DetachedJobs):
    """One shell process on a phone (``sh -c LINE``, an ``adb shell`` session, a script, a subshell or a job).

    Args:
        phone: The phone the commands act on.
        commands: Command name -> implementation (the registry: builtins and ``/system/bin``).
        cancel: Set it to interrupt what runs (a client gone, a signal to a job).
        deadline: ``time.monotonic()`` after which waiting commands give up.
        depth: How deep in subshells and command substitutions this shell runs.
        sink: ``sink(fd, data)`` receives the shell's output as it is produced, stdout (1)
            and stderr (2) in the order written; without one, :meth:`run` collects it.

    Attributes:
        name: ``$0``, and the prefix of mksh's messages (``/system/bin/sh: ...``).
        script: The file being run (``sh FILE``): messages then say ``FILE[line]: ...``.
        io: The input and output descriptors of what runs now.
    """

    def __init__(
        self,
        phone,
        commands: dict[str, Command],
        cancel: threading.Event | None = None,
        deadline: float | None = None,
        depth: int = 0,
        sink: Callable[[int, bytes], None] | None = None,
    ) -> None:
        self.phone = phone
        self.commands = commands
        self.cancel = cancel or _NEVER  # (nothing sets a shell's cancel but the one who gave it)
        self.deadline = deadline
        self.depth = depth
        self.sink = sink
        self.cwd = "/"
        self.status = 0
        self.variables: dict[str, str] = dict(ENVIRONMENT)
        self.exported: set[str] = set(ENVIRONMENT)
        self.readonly: set[str] = set()
        self.positional: list[str] = []
        self.functions: dict[str, FunctionDef] = {}
        self.options: set[str] = set()
        self.name = "/system/bin/sh"
        self.script: str | None = None
        self.pid = phone.processes.shell_pid()
        self.last_job: int | None = None
        self._jobs: Jobs | None = None  # (made when the first job starts: most shells start none)
        self.signal = 0  # the signal that stopped this shell (a job's), 0 while none did
        self.line = 1
        self.io = Streams(NO_INPUT, {1: CLOSED, 2: CLOSED})
        self.frames: list[dict[str, str | None]] = []  # each function call's locals: their outer values
        self.loops = 0
        self.errexit_off = 0
        self.substituted = False  # a command substitution ran in the current simple command
        self.keep_io = False  # `exec` with redirections only: they stay
        self.job: Job | None = None  # the background job this shell runs, if it is one
        self.exit_trap: str | None = None  # `trap ACTION EXIT`
        self.getopts_at = (1, 0)  # where `getopts` is: OPTIND, and the letter within that argument
        self.interactive = False  # an `adb shell` session: errors end a line, not the shell
        self.exited = False  # `exit` (or an error) ended the shell
        self.live: Callable[[bytes], None] | None = None
        self._random: random.Random | None = None

    # ------------------------------------------------------------------ running

    def run(self, line: str, stdin: bytes | Stdin = b"", wait: bool = True) -> ShellResult:
        """Run a whole program: its output collected, or (with a sink) sent as produced.

        The shell keeps its working directory, variables and functions from one program to the next.

        Args:
            line: The program text.
            stdin: What its commands read (a client's :class:`Stdin`, or bytes).
            wait: Wait for the background jobs it started before returning (a session's next line does not).
        """
        # Output is kept as a list of chunks: joining once at the end copies a big output
        # (a raw screenshot is 10 MB) once instead of at every stage.
        out = Sink(1, self.sink) if self.sink else []
        err = Sink(2, self.sink) if self.sink else []
        self.io = Streams(
            stdin if isinstance(stdin, Stdin) else Stdin.of(stdin) if stdin else NO_INPUT, {1: out, 2: err}
        )
        try:
            status = self.run_program(line)
        except ShellExit as stop:
            status, self.exited = stop.code & 0xFF, True
        self.status = status
        if wait:
            self.finish()
            self.status = status
        if self.sink:
            return ShellResult(b"", b"", self.status)
        return ShellResult(b"".join(out), b"".join(err), self.status)

    def run_program(self, src: str) -> int:
        """Parse and run ``src`` in this shell, one complete command at a time; its status.

        Raises:
            ShellExit: ``exit``, ``set -e``, or an error that ends a non-interactive shell (in an
                interactive one, an error ends only the line).
        """
        if not self.options and _PLAIN.fullmatch(src):  # most lines an agent sends (`input tap 12 34`): plain words
            argv = src.split()
            if argv[0] not in RESERVED and argv[0] not in self.functions:
                self.status = self.run_argv(argv)
                return self.status
        commands, error = parse(src)
        try:
            for command in commands:
                self.execute(command)
        except ShellError as failure:
            self.error(failure.message)
            return self._fail(failure.status)
        except RecursionError:
            self.error("too deeply nested")
            return self._fail(1)
        except (FunctionReturn, LoopControl) as stray:  # `return` outside a function ends a script, as mksh
            return stray.status if isinstance(stray, FunctionReturn) else self.status
        if error is not None:
            self.error(error.message, error.line)
            return self._fail(1)
        return self.status

    def _fail(self, status: int) -> int:
        """After an error (mksh's ``unwind(LERROR)``): a non-interactive shell ends, an interactive one goes on."""
        self.status = status
        if not self.interactive:
            raise ShellExit(status)
        return status

    def finish(self) -> None:
        """End this shell: run its ``EXIT`` trap, then wait for its jobs (or stop them if it was interrupted).

        adbd waits for the output of a command's jobs before it reports the command's end.
        """
        if self.exit_trap is not None:
            action, self.exit_trap = self.exit_trap, None
            with contextlib.suppress(ShellExit):
                self.run_program(action)
        if self._jobs is not None:
            if self._jobs.running() and not self.interrupted:
                self._jobs.wait(None, lambda: self.interrupted)
            self._jobs.stop_all()

    @property
    def jobs(self) -> Jobs:
        """The background jobs this shell started."""
        if self._jobs is None:
            self._jobs = Jobs()
        return self._jobs

    def error(self, message: str, line: int | None = None) -> None:
        """Print ``message`` with mksh's prefix: ``/system/bin/sh: `` (``FILE[line]: `` in a script)."""
        self.io.err.append(f"{self.prefix(line)}{message}\n".encode())

    def prefix(self, line: int | None = None) -> str:
        """The start of an error line (mksh's ``error_prefix``): the shell's name, or the script and line."""
        if self.script is None:
            return f"{self.name}: "
        shown = "" if self.script == self.name else f"{self.name}: "
        return f"{shown}{self.script}[{self.line if line is None else line}]: "

    def execute(self, node: Node) -> int:
        """Run one node of a parsed program; its exit status (also in :attr:`status`)."""
        status = self._dispatch[type(node)](self, node)
        self.status = status
        return status

    def run_nodes(self, nodes: tuple[Node, ...]) -> int:
        for node in nodes:
            self.execute(node)
        return self.status

    # ------------------------------------------------------------------ variables

    def lookup(self, name: str) -> str | None:
        """A variable's or special parameter's value; None when unset."""
        value = self.variables.get(name)
        if value is not None:
            return value
        if name.isdigit():
            index = int(name)
            if index == 0:
                return self.name
            return self.positional[index - 1] if index <= len(self.positional) else None
        special = _SPECIAL_PARAMETERS.get(name)
        return special(self) if special else None

    def flags(self) -> set[str]:
        """The option letters ``$-`` shows.

        The options set, ``h`` (trackall, on in a non-interactive mksh), ``c`` for a shell running
        a command string (adbd's ``sh -c``), ``i`` for an interactive one.
        """
        shown = {o for o in self.options if len(o) == 1}
        shown |= {"i"} if self.interactive else {"h", "c"} if self.script is None else {"h"}
        return shown

    @property
    def random(self) -> random.Random:
        """``$RANDOM``'s generator (seeded by the shell's pid: a replay sees the same numbers)."""
        if self._random is None:
            self._random = random.Random(self.pid)
        return self._random

    def assign(self, name: str, value: str) -> None:
        """Set a variable (``name=value``)."""
        if name in self.readonly:
            raise ShellError(f"{name}: is read only")
        self.variables[name] = value

    def make_local(self, name: str) -> None:
        """``local name``: its value is restored when the function returns."""
        if self.frames and name not in self.frames[-1]:
            self.frames[-1][name] = self.variables.get(name)

    def arithmetic(self, expression: str) -> int:
        """The value of an arithmetic expression (mksh: 32-bit)."""
        return Evaluator(self.lookup, self.assign).evaluate(expression)

    def glob(self, pattern: str) -> list[str]:
        """The paths matching ``pattern`` on the phone, sorted."""
        fs = self.phone.fs
        return patterns.glob(
            pattern,
            self.cwd,
            lambda p: fs.exists(fs.normalize(p)),
            lambda p: fs.is_dir(fs.normalize(p)),
            lambda p: fs.listdir(fs.normalize(p)),
        )

    # ------------------------------------------------------------------ for commands

    def stream(self, data: bytes) -> bool:
        """For a command that runs until stopped (``logcat``): send ``data`` to the client now.

        Returns:
            False when the command's output cannot go out live (collected, piped or redirected):
            then the command returns its output as usual.
        """
        if self.live is None:
            return False
        self.live(data)
        return True

    def read_stdin(self, stdin: bytes | Stdin) -> bytes:
        """A command's input as bytes (waiting for a client's :class:`Stdin` to close)."""
        return stdin.read_all(lambda: self.interrupted) if isinstance(stdin, Stdin) else stdin

    def stdin_chunks(self, stdin: bytes | Stdin) -> Iterator[bytes]:
        """A command's input chunk by chunk, as the client sends it."""
        if not isinstance(stdin, Stdin):
            if stdin:
                yield stdin
            return
        while chunk := stdin.read(lambda: self.interrupted):
            yield chunk

    def read_stdin_until(self, stdin: bytes | Stdin, enough: Callable[[bytes], bool]) -> bytes:
        """A command's input up to the point where ``enough(what_came)`` holds, or all of it (``head``)."""
        came = bytearray()
        for chunk in self.stdin_chunks(stdin):
            came += chunk
            if enough(came):
                break
        return bytes(came)

    def read_line(self, stdin: bytes | Stdin) -> bytes:
        """One line of the input, leaving the rest for the next reader (``read``)."""
        if isinstance(stdin, Stdin):
            return stdin.read_line(lambda: self.interrupted)
        return stdin.split(b"\n", 1)[0] + (b"\n" if b"\n" in stdin else b"")

    @property
    def interrupted(self) -> bool:
        """Whether the command was cancelled or ran past its deadline."""
        return self.cancel.is_set() or (self.deadline is not None and time.monotonic() >= self.deadline)

    @property
    def killed_status(self) -> int:
        """The status of what a signal stopped: 128 + the signal (SIGINT when the client went away)."""
        return 128 + (self.job.signal if self.job is not None and self.job.signal else 2)

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True if cancelled or the deadline passed first."""
        limit = seconds
        if self.deadline is not None:
            limit = min(limit, max(0.0, self.deadline - time.monotonic()))
        return self.cancel.wait(limit) or limit < seconds

    def path(self, path: str) -> str:
        """``path`` made absolute against this shell's working directory."""
        return self.phone.fs.normalize(path, self.cwd)


_SPECIAL_PARAMETERS: dict[str, Callable[[Shell], str | None]] = {
    "?": lambda sh: str(sh.status),
    "#": lambda sh: str(len(sh.positional)),
    "$": lambda sh: str(sh.pid),
    "!": lambda sh: str(sh.last_job) if sh.last_job is not None else None,
    "-": lambda sh: "".join(c for c in "aeiklXmCnfbuprshUvxc" if c in sh.flags()),
    "RANDOM": lambda sh: str(sh.random.randrange(32768)),
    "LINENO": lambda sh: str(sh.line),
    "PPID": lambda sh: "1",
}

"""The virtual phone's ``/system/bin/sh``: enough of the POSIX shell language for adb clients.

Supported: single and double quotes, backslash escapes, ``;`` ``&&`` ``||`` ``&`` and
newlines between commands, pipes, redirections (``>``, ``>>``, ``<``, ``2>``, ``2>&1``,
``>&2``), ``$?``, ``$VAR``/``${VAR}``, variable assignment, command substitution with
``$(...)`` and backticks, word splitting of unquoted expansions, ``*``/``?`` globs and
comments. Quoting works exactly as in a real shell: a client that quotes typed text
correctly gets it literally, and one that does not gets a shell that really runs what
the text says — on the virtual phone only, so tests can see it.
"""

from __future__ import annotations

import errno
import fnmatch
import posixpath
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from androidrl.virtual.shell.stdin import Stdin
from androidrl.virtual.shell.syntax import (
    REDIRECT,
    ShellSyntaxError,
    backtick_body,
    paren_body,
    read_plain,
    split_lists,
    split_pipes,
)
from androidrl.virtual.system.core import PhoneCore

MAX_SUBSTITUTION_DEPTH = 16
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A simple command with nothing to expand, quote, redirect or assign: its words are its fields.
_PLAIN = re.compile(r"[ \t]*[A-Za-z0-9_./:@%,+-]+(?:[ \t]+[A-Za-z0-9_./:@%,=+-]+)*[ \t]*")
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(.*)", re.S)
_SPECIAL = set(" \t\n;&|<>'\"\\$`()")


@dataclass
class ShellResult:
    """What a command line produced."""

    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int = 0


class ShellExit(Exception):
    """``exit N`` was run."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _Sink:
    """Where a shell's own stdout or stderr goes as it is produced: ``write(fd, data)``."""

    def __init__(self, fd: int, write: Callable[[int, bytes], None]) -> None:
        self.fd, self.write = fd, write

    def append(self, data: bytes) -> None:
        if data:
            self.write(self.fd, data)


# A command: (shell, argv, stdin) -> (stdout, stderr, exit code); stdin is bytes, or a
# client's Stdin for the first command of a line (read it with Shell.read_stdin).
Command = Callable[["Shell", list[str], "bytes | Stdin"], tuple[bytes, bytes, int]]


@dataclass
class _Word:
    """A word being built: parts of (text, splittable, globbable)."""

    parts: list[tuple[str, bool, bool]]


class Shell:
    """One shell invocation (``sh -c LINE``) on a phone: its own cwd, variables and ``$?``.

    Args:
        phone: The phone the commands act on.
        commands: Command name -> implementation (the shell language knows none itself).
        cancel: Set it to interrupt a running command.
        deadline: ``time.monotonic()`` after which waiting commands give up.
        depth: How deep in command substitutions this shell runs.
        sink: ``sink(fd, data)`` receives the shell's output as it is produced, stdout (1)
            and stderr (2) in the order written; without one, :meth:`run` collects it.
    """

    def __init__(
        self,
        phone: PhoneCore,
        commands: dict[str, Command],
        cancel: threading.Event | None = None,
        deadline: float | None = None,
        depth: int = 0,
        sink: Callable[[int, bytes], None] | None = None,
    ) -> None:
        self.phone = phone
        self.sink = sink
        self._live: Callable[[bytes], None] | None = None
        self.commands = commands
        self.cancel = cancel or threading.Event()
        self.deadline = deadline
        self.depth = depth
        self.cwd = "/"
        self.status = 0
        self.variables: dict[str, str] = {
            "HOME": "/",
            "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin",
            "EXTERNAL_STORAGE": "/sdcard",
            "ANDROID_DATA": "/data",
            "ANDROID_ROOT": "/system",
            "SHELL": "/system/bin/sh",
            "USER": "shell",
            "HOSTNAME": "localhost",
            "TMPDIR": "/data/local/tmp",
        }

    # ------------------------------------------------------------------ running

    def run(self, line: str, stdin: bytes | Stdin = b"") -> ShellResult:
        """Run a whole command line: its output collected, or (with a sink) sent as produced.

        The shell keeps its working directory and variables from one line to the next.
        """
        # Output is kept as a list of chunks: joining once at the end copies a big output
        # (a raw screenshot is 10 MB) once instead of at every stage.
        out: list[bytes] | _Sink = _Sink(1, self.sink) if self.sink else []
        err: list[bytes] | _Sink = _Sink(2, self.sink) if self.sink else []
        try:
            lists = split_lists(line)
        except ShellSyntaxError as exc:
            return ShellResult(b"", f"/system/bin/sh: syntax error: {exc}\n".encode(), 2)
        try:
            for pipeline, connector_before in lists:
                if self.interrupted:
                    self.status = 130  # killed, like a shell whose client went away
                    break
                if connector_before == "&&" and self.status != 0:
                    continue
                if connector_before == "||" and self.status == 0:
                    continue
                self.status = self._run_pipeline(pipeline, stdin, out, err)
                stdin = b""
        except ShellExit as stop:
            self.status = stop.code
        except ShellSyntaxError as exc:
            err.append(f"/system/bin/sh: syntax error: {exc}\n".encode())
            self.status = 2
        if self.sink:
            return ShellResult(b"", b"", self.status)
        return ShellResult(b"".join(out), b"".join(err), self.status)

    def stream(self, data: bytes) -> bool:
        """For a command that runs until stopped (``logcat``): send ``data`` to the client now.

        Returns:
            False when the command's output cannot go out live (collected, piped or redirected):
            then the command returns its output as usual.
        """
        if self._live is None:
            return False
        self._live(data)
        return True

    def _run_pipeline(self, pipeline: str, stdin: bytes | Stdin, out: list[bytes], err: list[bytes]) -> int:
        stages = split_pipes(pipeline)
        data, status = stdin, 0
        for i, stage in enumerate(stages):
            if i == len(stages) - 1:
                return self._run_simple(stage, data, out, err)
            stage_out: list[bytes] = []
            status = self._run_simple(stage, data, stage_out, err)
            data = b"".join(stage_out)
        return status

    def _run_simple(self, text: str, stdin: bytes | Stdin, out: list[bytes], err: list[bytes]) -> int:
        # Most lines an agent sends (`input tap 12 34`) have nothing to expand: split them as they are.
        argv, redirects = (text.split(), []) if _PLAIN.fullmatch(text) else self.expand(text)
        while argv and _ASSIGNMENT.fullmatch(argv[0]):
            name, value = _ASSIGNMENT.fullmatch(argv[0]).groups()
            self.variables[name] = value
            argv = argv[1:]
        stdout_to, stderr_to = None, None
        stderr_to_stdout = stdout_to_stderr = False
        for fd, op, target in redirects:
            if op == "<":
                try:
                    stdin = self.phone.fs.read(self.path(target))
                except OSError as exc:
                    err.append(f"/system/bin/sh: can't open '{target}': {exc.strerror}\n".encode())
                    return 1
            elif op == ">&":
                stderr_to_stdout = stderr_to_stdout or (fd == 2 and target == "1")
                stdout_to_stderr = stdout_to_stderr or (fd == 1 and target == "2")
            elif fd == 1:
                stdout_to = (target, op == ">>")
            elif fd == 2:
                stderr_to = (target, op == ">>")
        replaces = argv[:1] == ["exec"]  # `exec CMD`: the command replaces the shell; the line ends with it
        if replaces:
            argv = argv[1:]
        if not argv:
            return self.status if not redirects else 0
        name = argv[0]
        if name.startswith(("/system/bin/", "/system/xbin/", "/vendor/bin/")):
            name = posixpath.basename(name)
        command = self.commands.get(name)
        if command is None:
            stdout, stderr, code = b"", f"/system/bin/sh: {argv[0]}: inaccessible or not found\n".encode(), 127
        else:
            live = isinstance(out, _Sink) and stdout_to is None and not stdout_to_stderr
            self._live = out.append if live else None
            try:
                stdout, stderr, code = command(self, argv, stdin)
            finally:
                self._live = None
        if stderr_to_stdout and stderr_to is None:
            stdout, stderr = stdout + stderr, b""
        elif stdout_to_stderr and stdout_to is None:
            stdout, stderr = b"", stderr + stdout
        for stream, dest in ((stdout, stdout_to), (stderr, stderr_to)):
            if dest is not None:
                target, append = dest
                try:
                    self.phone.fs.write(self.path(target), stream, append=append)
                except OSError as exc:
                    if exc.errno == errno.ENOSPC:  # made, then the command's write ran out of space
                        err.append(_write_error(name, exc.strerror))
                    else:
                        err.append(f"/system/bin/sh: can't create {target}: {exc.strerror}\n".encode())
                    return 1
        if stdout_to is None and stdout:
            out.append(stdout)
        if stderr_to is None and stderr:
            err.append(stderr)
        if replaces:
            raise ShellExit(code)
        return code

    def substitute(self, command: str) -> str:
        """Output of ``$(command)``, trailing newlines removed."""
        if self.depth >= MAX_SUBSTITUTION_DEPTH:
            raise ShellSyntaxError("command substitution nested too deeply")
        inner = Shell(self.phone, self.commands, self.cancel, self.deadline, self.depth + 1)
        inner.cwd, inner.variables = self.cwd, dict(self.variables)
        result = inner.run(command)
        self.status = result.exit_code
        return result.stdout.decode("utf-8", "replace").rstrip("\n")

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

    @property
    def interrupted(self) -> bool:
        """Whether the command was cancelled or ran past its deadline."""
        return self.cancel.is_set() or (self.deadline is not None and time.monotonic() >= self.deadline)

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True if cancelled or the deadline passed first."""
        limit = seconds
        if self.deadline is not None:
            limit = min(limit, max(0.0, self.deadline - time.monotonic()))
        return self.cancel.wait(limit) or limit < seconds

    def path(self, path: str) -> str:
        """``path`` made absolute against this shell's working directory."""
        return self.phone.fs.normalize(path, self.cwd)

    # ------------------------------------------------------------------ expansion

    def expand(self, text: str) -> tuple[list[str], list[tuple[int, str, str]]]:
        """Words and redirections of one simple command, with every expansion done."""
        words: list[_Word] = []
        redirects: list[tuple[int, str, str]] = []
        current: _Word | None = None
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c in " \t\n":
                if current is not None:
                    words.append(current)
                    current = None
                i += 1
                continue
            if c == "#" and current is None:
                break
            redirect = REDIRECT.match(text, i) if (current is None or c in "<>") else None
            if redirect and (c in "<>" or current is None):
                if current is not None:
                    words.append(current)
                    current = None
                fd_text, op = redirect.group(1), redirect.group(2)
                fd = int(fd_text) if fd_text else (0 if op == "<" else 1)
                i = redirect.end()
                if op in (">&", "<&"):
                    target, i = read_plain(text, i)
                    redirects.append((fd, ">&", target))
                    continue
                if op == "&>":
                    target_word, i = self._read_word(text, i)
                    target = "".join(p[0] for p in target_word.parts)
                    redirects += [(1, ">", target), (2, ">&", "1")]
                    continue
                target_word, i = self._read_word(text, i)
                redirects.append((fd, op, "".join(p[0] for p in target_word.parts)))
                continue
            if current is None:
                current = _Word([])
            i = self._read_part(text, i, current)
        if current is not None:
            words.append(current)
        argv: list[str] = []
        for word in words:
            argv.extend(self._fields(word))
        return argv, redirects

    def _read_word(self, text: str, i: int) -> tuple[_Word, int]:
        while i < len(text) and text[i] in " \t":
            i += 1
        word = _Word([])
        while i < len(text) and text[i] not in " \t\n<>":
            i = self._read_part(text, i, word)
        if not word.parts:
            raise ShellSyntaxError("redirection without a file name")
        return word, i

    def _read_part(self, text: str, i: int, word: _Word) -> int:
        """Read one piece of a word at ``text[i]`` into ``word``; return the next index."""
        c = text[i]
        if c == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated quoted string")
            word.parts.append((text[i + 1 : end], False, False))
            return end + 1
        if c == '"':
            value, end = self._double_quoted(text, i + 1)
            word.parts.append((value, False, False))
            return end
        if c == "\\":
            if i + 1 < len(text):
                if text[i + 1] != "\n":
                    word.parts.append((text[i + 1], False, False))
                return i + 2
            word.parts.append(("\\", False, False))
            return i + 1
        if c == "$":
            value, end, expanded = self._dollar(text, i)
            word.parts.append((value, expanded, False))
            return end
        if c == "`":
            body, end = backtick_body(text, i)
            word.parts.append((self.substitute(body), True, False))
            return end
        j = i
        while j < len(text) and text[j] not in _SPECIAL:
            j += 1
        if j == i:  # a lone operator character inside a word, e.g. "(": keep it literal
            j = i + 1
        word.parts.append((text[i:j], False, True))
        return j

    def _double_quoted(self, text: str, i: int) -> tuple[str, int]:
        out: list[str] = []
        while i < len(text):
            c = text[i]
            if c == '"':
                return "".join(out), i + 1
            if c == "\\" and i + 1 < len(text) and text[i + 1] in '$`"\\\n':
                if text[i + 1] != "\n":
                    out.append(text[i + 1])
                i += 2
            elif c == "$":
                value, i, _ = self._dollar(text, i)
                out.append(value)
            elif c == "`":
                body, i = backtick_body(text, i)
                out.append(self.substitute(body))
            else:
                out.append(c)
                i += 1
        raise ShellSyntaxError("unterminated quoted string")

    def _dollar(self, text: str, i: int) -> tuple[str, int, bool]:
        """Expand ``$...`` at ``text[i]``: (value, next index, whether anything was expanded)."""
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if nxt == "(":
            body, end = paren_body(text, i + 1)
            return self.substitute(body), end, True
        if nxt == "?":
            return str(self.status), i + 2, True
        if nxt == "$":
            return "1234", i + 2, True
        if nxt == "{":
            end = text.find("}", i + 2)
            if end < 0:
                raise ShellSyntaxError("missing '}'")
            return self.variables.get(text[i + 2 : end], ""), end + 1, True
        match = _NAME.match(text, i + 1)
        if match:
            return self.variables.get(match.group(), ""), match.end(), True
        return "$", i + 1, False

    def _fields(self, word: _Word) -> list[str]:
        """Split unquoted expansions on whitespace, then expand globs."""
        fields: list[list[tuple[str, bool]]] = [[]]
        quoted_or_literal = False
        for text, splittable, globbable in word.parts:
            if not splittable:
                fields[-1].append((text, globbable))
                quoted_or_literal = True
                continue
            pieces = re.split(r"[ \t\n]+", text)
            for k, piece in enumerate(pieces):
                if k:
                    fields.append([])
                if piece:
                    fields[-1].append((piece, False))
        result: list[str] = []
        for field in fields:
            if not field:
                continue
            value = "".join(t for t, _ in field)
            if any(g and any(ch in t for ch in "*?[") for t, g in field):
                result.extend(self._glob(field) or [value])
            else:
                result.append(value)
        if not result and quoted_or_literal:
            result.append("")
        return result

    def _glob(self, field: list[tuple[str, bool]]) -> list[str]:
        pattern = "".join(t if g else re.sub(r"([*?\[])", r"[\1]", t) for t, g in field)
        directory, name = posixpath.split(pattern)
        absolute = self.path(directory or ".")
        if any(ch in directory for ch in "*?[") or not self.phone.fs.is_dir(absolute):
            return []
        names = [
            n
            for n in self.phone.fs.listdir(absolute)
            if fnmatch.fnmatchcase(n, name) and (name.startswith(".") or not n.startswith("."))
        ]
        return [posixpath.join(directory, n) if directory else n for n in sorted(names)]


def _write_error(name: str, strerror: str) -> bytes:
    """What a command says when its output cannot be written: mksh's builtins (``c_print``), toybox's ``xwrite``."""
    if name in ("echo", "print", "pwd"):
        return f"/system/bin/sh: {name}: write: {strerror}\n".encode()
    return f"{name}: xwrite: {strerror}\n".encode()

"""Where a command's input comes from and its output goes: the shell's file descriptors and redirections.

A shell's ``fds`` map 1, 2 (and 3-9) to channels: the client (a :class:`Sink`, output sent
as produced), a list collecting it (a pipe, ``$(...)``), a file on the phone, or nothing
(``>&-``). Input is one :class:`~androidrl.virtual.shell.stdin.Stdin` that every command of a
script reads from in turn, as a device's commands share their file descriptor 0.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from dataclasses import dataclass, field

from androidrl.virtual.shell import expansion
from androidrl.virtual.shell.stdin import Stdin


class Sink:
    """A shell's stdout or stderr going straight to its client: ``write(fd, data)`` as produced."""

    def __init__(self, fd: int, write: Callable[[int, bytes], None]) -> None:
        self.fd, self.write = fd, write

    def append(self, data: bytes) -> None:
        if data:
            self.write(self.fd, data)


class FileOut:
    """Output appended to a file of the phone as it is written (the file was created or emptied at ``>``)."""

    def __init__(self, write: Callable[..., None], path: str) -> None:
        self.write_file, self.path = write, path

    def append(self, data: bytes) -> None:
        if data:
            try:
                self.write_file(self.path, data, append=True)
            except OSError as exc:
                if exc.errno == errno.ENOSPC:  # the writer reports it (the file holds what fitted)
                    raise
                # (the file went away meanwhile: the descriptor's writes would still work, to no file)


class Closed:
    """A closed descriptor (``>&-``): what is written is lost."""

    def append(self, data: bytes) -> None:
        pass


CLOSED = Closed()
#: An input that is empty and closed (``/dev/null``): shared, since nothing can change it.
NO_INPUT = Stdin.of(b"")


@dataclass
class Streams:
    """A command's input and its output descriptors (1 stdout, 2 stderr, 3-9 more)."""

    stdin: Stdin
    fds: dict[int, object] = field(default_factory=dict)

    @property
    def out(self):
        """Descriptor 1's channel."""
        channel = self.fds.get(1)
        return CLOSED if channel is None else channel

    @property
    def err(self):
        """Descriptor 2's channel."""
        channel = self.fds.get(2)
        return CLOSED if channel is None else channel

    def copy(self) -> Streams:
        return Streams(self.stdin, dict(self.fds))


class RedirectError(Exception):
    """A redirection that cannot be made (mksh: ``can't create FILE: Read-only file system``): nothing runs."""


def apply_redirects(sh, redirects, streams: Streams) -> Streams:
    """``streams`` with ``redirects`` made, in order (mksh's ``iosetup``): files created or emptied now.

    Raises:
        RedirectError: mksh's message for a file that cannot be opened or created, or a bad descriptor.
    """
    io = streams.copy()
    fs = sh.phone.fs
    for redirect in redirects:
        op, fd = redirect.op, redirect.fd
        if op in ("<<", "<<-"):
            doc = redirect.heredoc
            body = expansion.string(sh, doc.body) if doc.expand else doc.body.parts[0].text
            if fd == 0:
                io.stdin = Stdin.of(body.encode())
            continue
        target = expansion.string(sh, redirect.target)
        if op == "<<<":
            if fd == 0:
                io.stdin = Stdin.of((target + "\n").encode())
            continue
        if op in (">&", "<&"):
            if target == "-":
                if fd == 0:
                    io.stdin = NO_INPUT
                else:
                    io.fds[fd] = CLOSED
            elif target.isdigit() and len(target) == 1:
                if op == ">&" or fd != 0:
                    if int(target) not in io.fds:
                        raise RedirectError(f"{fd}>&{target}: bad file descriptor")
                    io.fds[fd] = io.fds[int(target)]
            elif op == ">&" and fd == 1:  # `>&file`: stdout and stderr to the file (as &>file)
                io.fds[1] = io.fds[2] = _open_out(sh, fs, target, append=False)
            else:
                raise RedirectError(f"{target}: bad file descriptor")
            continue
        if op in ("<", "<>") and fd == 0:
            try:
                io.stdin = Stdin.of(fs.read(sh.path(target)))
            except OSError as exc:
                raise RedirectError(f"can't open {target}: {exc.strerror}") from None
            continue
        if target in ("/dev/stdout", "/dev/stderr", "/proc/self/fd/1", "/proc/self/fd/2"):
            io.fds[fd] = io.fds.get(2 if target.endswith(("stderr", "/2")) else 1, CLOSED)
            continue
        io.fds[fd] = _open_out(sh, fs, target, append=op == ">>")
    return io


def _open_out(sh, fs, target: str, append: bool) -> FileOut:
    path = sh.path(target)
    try:
        fs.write(path, b"", append=append)
    except OSError as exc:
        raise RedirectError(f"can't create {target}: {exc.strerror}") from None
    return FileOut(fs.write, path)

"""The shell services: ``shell:`` (with or without shell protocol v2; interactive when empty) and ``exec:``.

A command runs in a worker thread of the adbd (:meth:`Adbd.run_shell`); its output goes to
the client as it is produced, the client's input is its stdin as it arrives, and a shell stream
the host closes (the client went away) cancels it; an ``exec:`` stream's close ends its stdin.
"""

from __future__ import annotations

import asyncio
import struct
import threading
from collections.abc import AsyncIterator, Awaitable, Callable

from androidrl.virtual.adbd.daemon import Adbd, banner_value
from androidrl.virtual.adbd.transport import Stream, StreamClosed
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.stdin import Stdin
from androidrl.virtual.shell.syntax import incomplete

SHELL_STDIN, SHELL_STDOUT, SHELL_STDERR, SHELL_EXIT, SHELL_CLOSE_STDIN = range(5)


_SHELL_HEADER = struct.Struct("<BI")


async def exec_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    """``exec:CMD`` (``adb exec-out``, ``exec-in``): raw output as produced, stdin until the host closes.

    Like adbd's raw subprocess: stdout and stderr share the stream, and the host's data is the
    command's stdin (``adb exec-in 'cat > f' < file`` sends it, then closes the stream).
    """
    stdin = Stdin()
    feeder = asyncio.create_task(_feed(stdin, _raw_input(stream)))
    # The host closing the stream is the end of the command's stdin, not of the command: `exec-in`
    # closes right after its input (as the real adb does), and `cat > f` must still write `f`.
    # Output to a closed stream stops the command, as SIGPIPE stops it on a device.
    broken_pipe = threading.Event()

    async def emit(chunks: list[tuple[int, bytes]]) -> None:
        try:
            if not stream.closed:
                await stream.write(*(data for _, data in chunks))
                return
        except StreamClosed:
            pass
        broken_pipe.set()

    job = asyncio.ensure_future(_run_streaming(adbd, arg, stdin, broken_pipe, emit))
    try:
        await asyncio.shield(job)
    finally:  # (when the host closed the stream the feeder first hands on what came, then closes stdin)
        job.add_done_callback(lambda _: feeder.cancel())


async def _raw_input(stream: Stream) -> AsyncIterator[bytes]:
    while (data := await stream.read()) is not None:
        yield data


async def _feed(stdin: Stdin, source: AsyncIterator[bytes]) -> None:
    """The client's input into ``stdin``, closing it when the client does."""
    try:
        async for data in source:
            stdin.feed(data)
    except StreamClosed:
        pass
    finally:
        stdin.close()


async def _run_streaming(
    adbd: Adbd,
    command: str,
    stdin: bytes | Stdin,
    cancel: threading.Event,
    emit: Callable[[list[tuple[int, bytes]]], Awaitable[None]],
    session: Shell | None = None,
) -> int:
    """Run ``command``, handing its output to ``emit(chunks)`` as it is produced, in order; its exit status.

    ``chunks`` are ``(fd, data)`` pairs: every chunk written since the last call, so output
    written in pieces (``screencap``'s header and pixels) goes out in as few packets as fit.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[int, bytes] | None] = asyncio.Queue()

    def sink(fd: int, data: bytes) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, (fd, data))

    job = asyncio.ensure_future(adbd.run_shell(command, stdin, cancel, sink=sink, session=session))
    job.add_done_callback(lambda _: queue.put_nowait(None))  # after every chunk: those were queued first
    try:
        done = False
        while not done:
            chunks = [await queue.get()]
            while not queue.empty():
                chunks.append(queue.get_nowait())
            done = chunks[-1] is None  # the end comes last
            chunks = [chunk for chunk in chunks if chunk is not None]
            if chunks:
                await emit(chunks)
    except BaseException:
        cancel.set()  # the client went away: stop the command too (how it ends has nobody to go to)
        job.add_done_callback(lambda ended: ended.cancelled() or ended.exception())
        raise
    return (await job).exit_code


class _ShellChannel:
    """Output to and input from an ``adb shell`` client, with or without shell protocol v2."""

    def __init__(self, stream: Stream, framed: bool, pty: bool) -> None:
        self.stream = stream
        self.framed = framed
        self.pty = pty

    async def emit(self, stdout: bytes, stderr: bytes = b"") -> None:
        await self.emit_chunks([(1, stdout), (2, stderr)])

    async def emit_chunks(self, chunks: list[tuple[int, bytes]]) -> None:
        """Output in the order written: ``(fd, data)`` pairs (1 stdout, 2 stderr), in as few packets as fit."""
        if self.pty:  # a terminal turns \n into \r\n and has a single output
            await self.stream.write(b"".join(data for _, data in chunks).replace(b"\n", b"\r\n"))
        elif not self.framed:
            await self.stream.write(*(data for _, data in chunks))
        else:  # each chunk a shell packet, its header and data written as they are: big output is not copied
            kinds = {1: SHELL_STDOUT, 2: SHELL_STDERR}
            await self.stream.write(
                *(part for fd, data in chunks if data for part in (_SHELL_HEADER.pack(kinds[fd], len(data)), data))
            )

    async def exit(self, code: int) -> None:
        if self.framed:
            await self.stream.write(_SHELL_HEADER.pack(SHELL_EXIT, 1) + bytes([code & 0xFF]))

    async def stdin(self) -> AsyncIterator[bytes]:
        """The client's stdin, until it closes it (or the stream closes)."""
        if not self.framed:
            while (data := await self.stream.read()) is not None:
                yield data
            return
        while True:
            kind, length = _SHELL_HEADER.unpack(await self.stream.read_exactly(_SHELL_HEADER.size))
            data = await self.stream.read_exactly(length)
            if kind == SHELL_CLOSE_STDIN:
                return
            if kind == SHELL_STDIN:
                yield data


class _LineReader:
    """Splits a shell's stdin into command lines; with a pty, edits them as a terminal does."""

    def __init__(self, pty: bool) -> None:
        self.pty = pty
        self.line = bytearray()

    def feed(self, data: bytes) -> tuple[bytes, list[bytes | None]]:
        """Take input; return what the terminal echoes and the finished lines (None = Ctrl-D)."""
        if not self.pty:
            self.line += data
            *lines, rest = self.line.split(b"\n")
            self.line = bytearray(rest)
            return b"", [bytes(line) for line in lines]
        echo, lines = bytearray(), []
        for byte in data:
            if byte in b"\r\n":
                echo += b"\n"
                lines.append(bytes(self.line))
                self.line.clear()
            elif byte in b"\x7f\x08":
                if self.line:
                    del self.line[-1]
                    echo += b"\b \b"
            elif byte == 0x03:  # Ctrl-C drops the line
                echo += b"^C\n"
                self.line.clear()
                lines.append(b"")
            elif byte == 0x04:  # Ctrl-D on an empty line ends the session
                if not self.line:
                    lines.append(None)
            else:
                self.line.append(byte)
                echo.append(byte)
        return bytes(echo), lines


async def shell_service(adbd: Adbd, options: list[str], command: str, stream: Stream) -> None:
    """``shell[,v2][,raw|,pty][,TERM=...]:CMD``; an empty command is an interactive shell."""
    pty = "pty" in options or (not command and "raw" not in options)
    channel = _ShellChannel(stream, framed="v2" in options, pty=pty)
    if command:
        # stdin is forwarded as it comes; only commands that read it wait for it to close
        # (clients such as adbutils never close it, and their commands do not read it)
        stdin = Stdin()
        feeder = asyncio.create_task(_feed(stdin, channel.stdin()))
        try:
            code = await _run_streaming(adbd, command, stdin, stream.cancel, channel.emit_chunks)
        finally:
            feeder.cancel()
        await channel.exit(code)
    else:
        await channel.exit(await _interactive_shell(adbd, channel))


async def _interactive_shell(adbd: Adbd, channel: _ShellChannel) -> int:
    """Run stdin line by line as it arrives; return the exit status of the session.

    The lines run in one shell, as in a terminal (``cd``, variables and functions carry over);
    a command that is not finished at the end of a line (an open ``if``, quote or
    here-document) takes the next lines too, after mksh's ``PS2`` prompt. ``exit`` ends the
    session, as does the end of stdin; the jobs still running then stop.
    """
    device = banner_value(adbd.phone.getprop("ro.product.device"))
    reader, status, pending = _LineReader(channel.pty), 0, b""
    session = adbd.phone.open_shell(channel.stream.cancel)
    session.interactive = True

    def prompt() -> bytes:
        if not channel.pty:
            return b""
        if pending:
            return b"> "  # mksh's PS2
        return f"{device}:{session.cwd} $ ".encode()  # mksh's PS1 on Android: ${HOSTNAME}:${PWD} $

    async def run(text: bytes) -> int:
        command = text.decode("utf-8", "replace")
        return await _run_streaming(adbd, command, b"", channel.stream.cancel, channel.emit_chunks, session)

    try:
        await channel.emit(prompt())
        async for data in channel.stdin():
            echo, lines = reader.feed(data)
            await channel.emit(echo)
            for line in lines:
                if line is None:
                    return status
                text = pending + line
                if text.strip() and incomplete(text.decode("utf-8", "replace")):
                    pending = text + b"\n"
                elif text.strip():
                    pending = b""
                    status = await run(text)
                    if session.exited:
                        return status
                else:
                    pending = b""
                await channel.emit(prompt())
        if (pending + reader.line).strip():  # a last line without a newline still runs, as in sh
            status = await run(pending + bytes(reader.line))
        return status
    finally:
        if session.jobs.jobs or session.exit_trap is not None:  # (they may take a moment: not on the event loop)
            await asyncio.get_running_loop().run_in_executor(None, session.finish)

"""The ``sync:`` service: file transfer (``adb push``, ``pull``, ``ls``), as AOSP's ``SYNC.TXT`` describes it."""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import posixpath
import struct
from collections.abc import Awaitable, Callable

from androidrl.virtual.adbd.daemon import Adbd
from androidrl.virtual.adbd.transport import Stream
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.fs import FileStat

SYNC_DATA_MAX = 64 * 1024


SYNC_PATH_MAX = 1024


_SYNC_HEADER = struct.Struct("<4sI")


_STAT_V1 = struct.Struct("<4sIII")  # id, mode, size, mtime


_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")  # id, error, dev, ino, mode, nlink, uid, gid, size, a/m/ctime


_DENT_V1 = struct.Struct("<4sIIII")  # id, mode, size, mtime, name length


_DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")  # stat v2 fields, name length


class _SyncFailure(Exception):
    """A sync request failed; the message goes to the host in a FAIL reply."""


async def sync_service(adbd: Adbd, stream: Stream, arg: str) -> None:
    """``sync:``: file transfer requests until QUIT (``adb push``, ``pull``, ``ls``)."""
    session = _SyncSession(adbd.phone, stream)
    try:
        await session.run()
    except _SyncFailure as exc:  # like adbd: report the failure, then end the session
        message = str(exc).encode()
        await stream.write(_SYNC_HEADER.pack(b"FAIL", len(message)) + message)


class _SyncSession:
    """One ``sync:`` stream: each request is a 4-byte id, a u32 length and a path."""

    def __init__(self, phone: VirtualPhone, stream: Stream) -> None:
        self.phone = phone
        self.stream = stream
        self.handlers: dict[bytes, Callable[[str], Awaitable[None]]] = {
            b"STAT": self._stat_v1,
            b"STA2": functools.partial(self._stat_v2, b"STA2"),
            b"LST2": functools.partial(self._stat_v2, b"LST2"),
            b"LIST": self._list_v1,
            b"LIS2": self._list_v2,
            b"RECV": self._recv,
            b"SEND": self._send,
        }

    async def run(self) -> None:
        while True:
            request, length = _SYNC_HEADER.unpack(await self.stream.read_exactly(_SYNC_HEADER.size))
            if request == b"QUIT":
                return
            handler = self.handlers.get(request)
            if handler is None:
                raise _SyncFailure(f"unknown sync request {request!r}")
            if length > SYNC_PATH_MAX:
                raise _SyncFailure(f"path too long: {length} bytes, at most {SYNC_PATH_MAX}")
            path = (await self.stream.read_exactly(length)).decode("utf-8", "replace")
            await handler(path)

    def _lstat(self, path: str) -> tuple[int, FileStat | None]:
        """(errno, stat) of ``path``: (0, stat), or (code, None) when it cannot be read."""
        try:
            with self.phone.lock:
                return 0, self.phone.fs.stat(self.phone.fs.normalize(path))
        except OSError as exc:
            return exc.errno or errno.EIO, None

    async def _stat_v1(self, path: str) -> None:
        _, st = self._lstat(path)
        fields = (st.mode, st.size & 0xFFFFFFFF, st.mtime) if st else (0, 0, 0)  # all zero: missing
        await self.stream.write(_STAT_V1.pack(b"STAT", *fields))

    async def _stat_v2(self, reply: bytes, path: str) -> None:
        error, st = self._lstat(path)
        await self.stream.write(_STAT_V2.pack(reply, error, *_stat_v2_fields(st)))

    def _entries(self, path: str) -> list[tuple[str, FileStat]]:
        """A directory's entries with their stats, ``.`` and ``..`` included as readdir has them."""
        fs = self.phone.fs
        with self.phone.lock:
            directory = fs.normalize(path)
            try:
                names = fs.listdir(directory)
            except OSError:
                return []  # adbd ends the listing at once when opendir fails
            parent = posixpath.dirname(directory)
            entries = [(".", fs.stat(directory)), ("..", fs.stat(parent))]
            return entries + [(name, fs.stat(posixpath.join(directory, name))) for name in names]

    async def _list_v1(self, path: str) -> None:
        packets = []
        for name, st in self._entries(path):
            raw = name.encode()
            packets.append(_DENT_V1.pack(b"DENT", st.mode, st.size & 0xFFFFFFFF, st.mtime, len(raw)) + raw)
        packets.append(_DENT_V1.pack(b"DONE", 0, 0, 0, 0))  # DONE is padded to a whole entry
        await self.stream.write(b"".join(packets))

    async def _list_v2(self, path: str) -> None:
        packets = []
        for name, st in self._entries(path):
            raw = name.encode()
            packets.append(_DENT_V2.pack(b"DNT2", 0, *_stat_v2_fields(st), len(raw)) + raw)
        packets.append(_DENT_V2.pack(b"DONE", 0, *_stat_v2_fields(None), 0))
        await self.stream.write(b"".join(packets))

    async def _recv(self, path: str) -> None:
        try:
            with self.phone.lock:
                data = self.phone.fs.read(self.phone.fs.normalize(path))
        except OSError as exc:
            raise _SyncFailure(f"open failed: {exc.strerror}") from exc
        view = memoryview(data)
        packets = []
        for start in range(0, len(view), SYNC_DATA_MAX):
            chunk = view[start : start + SYNC_DATA_MAX]
            packets += [_SYNC_HEADER.pack(b"DATA", len(chunk)), chunk]
        packets.append(_SYNC_HEADER.pack(b"DONE", 0))
        await self.stream.write(*packets)

    async def _send(self, spec: str) -> None:
        """SEND ``path,mode``: the DATA chunks up to DONE become the file, as adbd's ``send_impl`` writes it.

        A regular file in the way is removed first; a file that does not fit in the phone's
        storage fails with "write failed: No space left on device" and is removed, the rest of
        its data read and dropped (AOSP ``daemon/file_sync_service.cpp``, ``handle_send_file``). The
        file gets the host file's mode (its ``fchmod``), where the file system keeps modes.
        """
        path, comma, mode = spec.rpartition(",")
        fs = self.phone.fs
        failure = None
        try:
            with self.phone.lock:
                target = fs.normalize(path if comma else spec)
                fs.mkdir(posixpath.dirname(target), parents=True)  # the fixed_push_mkdir feature
                if fs.exists(target) and not fs.is_dir(target):
                    fs.remove(target)
                fs.write(target, b"")  # open(O_CREAT): created before the data comes
        except OSError as exc:
            failure = f"couldn't create file: {exc.strerror}"
        received = io.BytesIO()  # (grown in place, and handed over without a copy)
        while True:
            request, length = _SYNC_HEADER.unpack(await self.stream.read_exactly(_SYNC_HEADER.size))
            if request == b"DONE":
                break
            if request != b"DATA" or length > SYNC_DATA_MAX:
                failure = failure or f"invalid data message {request!r} of {length} bytes"
                break
            data = await self.stream.read_exactly(length)
            if failure is None:
                if received.tell() + length > fs.free_bytes():  # the write(2) that runs out of space
                    failure, received = f"write failed: {os.strerror(errno.ENOSPC)}", io.BytesIO()
                else:
                    received.write(data)
        if failure is None:
            try:
                with self.phone.lock:
                    fs.write(target, received.getvalue())
                    if comma and mode.isdigit():
                        fs.chmod(target, int(mode) & 0o777)
            except OSError as exc:  # (another push took the space meanwhile)
                failure = f"write failed: {exc.strerror}"
        if failure is not None:
            if not failure.startswith("couldn't create"):
                with self.phone.lock, contextlib.suppress(OSError):
                    fs.remove(target)
            raise _SyncFailure(failure)
        await self.stream.write(_SYNC_HEADER.pack(b"OKAY", 0))


def _stat_v2_fields(st: FileStat | None) -> tuple[int, ...]:
    """dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime (all 0 when missing)."""
    if st is None:
        return (0,) * 10
    return 0, 0, st.mode, 1, 0, 0, st.size, st.mtime, st.mtime, st.mtime

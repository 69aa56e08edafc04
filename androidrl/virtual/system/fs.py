"""A small in-memory file system for the virtual phone (``/sdcard``, ``/data/local/tmp``...).

Paths behave as on Android for the shell user: ``/sdcard`` and ``/data/local/tmp`` are
writable, the rest is read-only or hidden, and ``/storage/emulated/0`` is ``/sdcard``.
Errors are the built-in :class:`OSError` subclasses, so shell commands can print the
usual ``strerror`` text.

Both writable trees live on ``/data``, as on a phone (``/sdcard`` is ``/data/media/0``
behind a FUSE mount), and share its ``capacity``: a write that does not fit fills what is
left and fails with ENOSPC, "No space left on device", as a full disk does.
"""

from __future__ import annotations

import errno
import posixpath
import time
from collections.abc import Callable
from dataclasses import dataclass

_ALIASES = ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard")
_WRITABLE = ("/sdcard", "/data/local/tmp")
_INITIAL_DIRS = (
    "/",
    "/sdcard",
    "/sdcard/Download",
    "/sdcard/Pictures",
    "/sdcard/DCIM",
    "/sdcard/Documents",
    "/sdcard/Movies",
    "/sdcard/Music",
    "/sdcard/Android",
    "/data",
    "/data/local",
    "/data/local/tmp",
    "/system",
    "/system/bin",
    "/dev",
    "/proc",
    "/storage",
    "/storage/emulated",
    "/vendor",
    "/etc",
)
_SPECIAL = {"/dev/null", "/dev/zero", "/dev/tty"}
#: The storage of a phone unless told otherwise (the files are kept in the host's memory).
DEFAULT_CAPACITY = 256 * 2**20


@dataclass
class FileStat:
    """What ``stat`` reports of a path."""

    mode: int  # st_mode: file type and permission bits
    size: int
    mtime: int  # seconds since the epoch


class VirtualFileSystem:
    """Files as bytes keyed by absolute path, plus a set of directories.

    Args:
        clock: The phone's wall time, for the files' times.
        capacity: Bytes the files may hold together (the ``/data`` partition's size).

    Raises:
        ValueError: A capacity below one byte.
    """

    def __init__(self, clock: Callable[[], float] = time.time, capacity: int = DEFAULT_CAPACITY) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"storage capacity must be a positive number of bytes, got {capacity!r}")
        self._clock = clock  # the phone's wall time: files get its times, not the host's
        self.capacity = capacity
        self._files: dict[str, bytes] = {}
        self._mtimes: dict[str, int] = {}
        self._dirs: set[str] = set(_INITIAL_DIRS)
        self._used = 0

    def used_bytes(self) -> int:
        """How many bytes the files hold."""
        return self._used

    def free_bytes(self) -> int:
        """How many more bytes fit."""
        return max(0, self.capacity - self._used)

    def entries(self) -> int:
        """How many files and directories there are (the inodes ``df -i`` counts)."""
        return len(self._files) + len(self._dirs)

    @staticmethod
    def normalize(path: str, cwd: str = "/") -> str:
        """The absolute, normalised form of ``path`` (``/storage/emulated/0`` becomes ``/sdcard``)."""
        full = posixpath.normpath(posixpath.join(cwd, path)) if path else cwd
        if full.startswith("//"):
            full = "/" + full.lstrip("/")
        for alias in _ALIASES:
            if full == alias or full.startswith(alias + "/"):
                return "/sdcard" + full[len(alias) :]
        return full

    def exists(self, path: str) -> bool:
        """Whether ``path`` is a file or directory."""
        return path in self._files or path in self._dirs or path in _SPECIAL

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory."""
        return path in self._dirs

    def stat(self, path: str) -> FileStat:
        """Type, size and modification time of ``path``."""
        if path in self._dirs:
            return FileStat(0o040771, 4096, self._mtimes.get(path, 0))
        if path in self._files:
            return FileStat(0o100660, len(self._files[path]), self._mtimes.get(path, 0))
        if path in _SPECIAL:
            return FileStat(0o020666, 0, 0)
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)

    def read(self, path: str) -> bytes:
        """The contents of file ``path``."""
        if path in self._dirs:
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        if path in ("/dev/null", "/dev/tty"):
            return b""
        if path not in self._files:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        return self._files[path]

    def write(self, path: str, data: bytes, append: bool = False) -> None:
        """Create or replace (or append to) file ``path``; its directory must exist.

        Raises:
            OSError: ENOSPC when ``data`` does not fit: the file then holds what fitted, as
                after a write(2) that ran out of space.
        """
        if path in _SPECIAL:
            return
        if path in self._dirs:
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        parent = posixpath.dirname(path)
        if parent not in self._dirs:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        self._check_writable(path)
        old = self._files.get(path, b"")
        room = self.free_bytes() + (0 if append else len(old))  # (O_TRUNC gives the old bytes back first)
        fits = len(data) <= room
        data = bytes(data if fits else data[:room])
        content = old + data if append else data
        self._used += len(content) - len(old)
        self._files[path] = content
        self._mtimes[path] = int(self._clock())
        if not fits:
            raise OSError(errno.ENOSPC, "No space left on device", path)

    def mkdir(self, path: str, parents: bool = False) -> None:
        """Create directory ``path`` (and its parents with ``parents=True``, like ``mkdir -p``)."""
        if path in self._dirs:
            if parents:
                return
            raise FileExistsError(errno.EEXIST, "File exists", path)
        if path in self._files:
            raise FileExistsError(errno.EEXIST, "File exists", path)
        parent = posixpath.dirname(path)
        if parent not in self._dirs:
            if not parents:
                raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
            self.mkdir(parent, parents=True)
        self._check_writable(path)
        self._dirs.add(path)
        self._mtimes[path] = int(self._clock())

    def remove(self, path: str, recursive: bool = False) -> None:
        """Delete file ``path``, or directory ``path`` and everything in it when ``recursive``."""
        if path in self._files:
            self._check_writable(path)
            self._used -= len(self._files.pop(path))
            self._mtimes.pop(path, None)
        elif path in self._dirs:
            if not recursive:
                raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
            self._check_writable(path)
            if path in _WRITABLE:
                raise PermissionError(errno.EACCES, "Permission denied", path)
            prefix = path + "/"
            for name in [f for f in self._files if f.startswith(prefix)]:
                self._used -= len(self._files.pop(name))
            self._dirs = {d for d in self._dirs if d != path and not d.startswith(prefix)}
        else:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)

    def listdir(self, path: str) -> list[str]:
        """Sorted names in directory ``path``."""
        if path not in self._dirs:
            if path in self._files:
                raise NotADirectoryError(errno.ENOTDIR, "Not a directory", path)
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        prefix = path.rstrip("/") + "/"
        names = {
            p[len(prefix) :].split("/", 1)[0]
            for p in (*self._files, *self._dirs)
            if p.startswith(prefix) and p != prefix
        }
        return sorted(names)

    @staticmethod
    def _check_writable(path: str) -> None:
        if not any(path == root or path.startswith(root + "/") for root in _WRITABLE):
            code = errno.EROFS if path.startswith(("/system", "/vendor")) else errno.EACCES
            raise OSError(code, "Read-only file system" if code == errno.EROFS else "Permission denied", path)

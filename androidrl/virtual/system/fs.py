"""A small in-memory file system for the virtual phone (``/sdcard``, ``/data/local/tmp``...).

Paths behave as on Android for the shell user: ``/sdcard`` and ``/data/local/tmp`` are
writable, the rest is read-only or hidden, and ``/storage/emulated/0`` is ``/sdcard``.
Some directories show files made on demand from the phone's state (:meth:`VirtualFileSystem.mount`:
``/proc``, ``/system/bin``). Errors are the built-in :class:`OSError` subclasses, so shell
commands can print the usual ``strerror`` text.

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
#: A mounted directory's files: name -> (its contents when read, its mode).
MountedFiles = dict[str, tuple[Callable[[], bytes], int]]


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
        on_change: Runs after anything under ``/sdcard`` changes (a file app's list shows it at once).

    Raises:
        ValueError: A capacity below one byte.
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        capacity: int = DEFAULT_CAPACITY,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"storage capacity must be a positive number of bytes, got {capacity!r}")
        self._clock = clock  # the phone's wall time: files get its times, not the host's
        self._on_change = on_change
        self.capacity = capacity
        self._files: dict[str, bytes] = {}
        self._mtimes: dict[str, int] = {}
        self._modes: dict[str, int] = {}  # permission bits chmod set (files and dirs without one: the defaults)
        self._dirs: set[str] = set(_INITIAL_DIRS)
        self._mounts: dict[str, Callable[[], MountedFiles]] = {}
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

    def mount(self, path: str, files: Callable[[], MountedFiles]) -> None:
        """Show ``files()`` — read-only files made when read — in directory ``path`` (``/proc``, ``/system/bin``)."""
        self._dirs.add(path)
        self._mounts[path] = files

    def _mounted(self, path: str) -> tuple[Callable[[], bytes], int] | None:
        parent, name = posixpath.split(path)
        files = self._mounts.get(parent)
        return files().get(name) if files is not None else None

    def writable(self, path: str) -> bool:
        """Whether the shell user may write ``path`` (``/sdcard``, ``/data/local/tmp``)."""
        try:
            self._check_writable(path)
        except OSError:
            return False
        return not self._mounted(path)

    def chmod(self, path: str, mode: int) -> None:
        """Set the permission bits of ``path``.

        Kept on ``/data/local/tmp``; on ``/sdcard`` (FUSE over emulated storage) accepted and ignored, as Android does.
        """
        if not self.exists(path):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)
        self._check_writable(path)
        if not (path == "/sdcard" or path.startswith("/sdcard/")):
            self._modes[path] = mode & 0o7777

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
        return path in self._files or path in self._dirs or path in _SPECIAL or self._mounted(path) is not None

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory."""
        return path in self._dirs

    def stat(self, path: str) -> FileStat:
        """Type, size and modification time of ``path``."""
        if path in self._dirs:
            return FileStat(0o040000 | self._modes.get(path, 0o771), 4096, self._mtimes.get(path, 0))
        if path in self._files:
            return FileStat(0o100000 | self._modes.get(path, 0o660), len(self._files[path]), self._mtimes.get(path, 0))
        if path in _SPECIAL:
            return FileStat(0o020666, 0, 0)
        mounted = self._mounted(path)
        if mounted is not None:  # procfs reports size 0; its files' times are now
            return FileStat(
                0o100000 | mounted[1], 0 if path.startswith("/proc/") else len(mounted[0]()), int(self._clock())
            )
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)

    def read(self, path: str) -> bytes:
        """The contents of file ``path``."""
        if path in self._dirs:
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        if path in ("/dev/null", "/dev/tty"):
            return b""
        if path not in self._files:
            mounted = self._mounted(path)
            if mounted is not None:
                return mounted[0]()
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
        self._changed(path)
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
        self._changed(path)

    def remove(self, path: str, recursive: bool = False) -> None:
        """Delete file ``path``, or directory ``path`` and everything in it when ``recursive``."""
        if path in self._files:
            self._check_writable(path)
            self._used -= len(self._files.pop(path))
            self._mtimes.pop(path, None)
            self._modes.pop(path, None)
            self._changed(path)
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
            self._changed(path)
        else:
            if self._mounted(path) is not None:
                self._check_writable(path)
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", path)

    def rename(self, src: str, dst: str) -> None:
        """Move file or directory ``src`` to ``dst`` (``rename(2)``): a file replaces a file, a directory an empty one.

        Raises:
            FileNotFoundError: ``src`` or ``dst``'s directory is missing.
            IsADirectoryError: A file onto a directory.
            NotADirectoryError: A directory onto a file.
            OSError: ENOTEMPTY onto a directory that is not empty, EINVAL into itself, EACCES/EROFS outside the
                writable trees.
        """
        if src not in self._files and src not in self._dirs:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", src)
        if posixpath.dirname(dst) not in self._dirs:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", dst)
        self._check_writable(src)
        self._check_writable(dst)
        if src == dst:
            return
        if src in self._files:
            if dst in self._dirs:
                raise IsADirectoryError(errno.EISDIR, "Is a directory", dst)
            if dst in self._files:
                self._used -= len(self._files.pop(dst))
            self._files[dst] = self._files.pop(src)
            self._move_meta(src, dst)
        else:
            if src in _WRITABLE:
                raise PermissionError(errno.EACCES, "Permission denied", src)
            if dst.startswith(src + "/"):
                raise OSError(errno.EINVAL, "Invalid argument", dst)
            if dst in self._files:
                raise NotADirectoryError(errno.ENOTDIR, "Not a directory", dst)
            if dst in self._dirs:
                if self.listdir(dst):
                    raise OSError(errno.ENOTEMPTY, "Directory not empty", dst)
                self._dirs.discard(dst)
            prefix = src + "/"
            for name in [f for f in self._files if f.startswith(prefix)]:
                self._files[dst + name[len(src) :]] = self._files.pop(name)
                self._move_meta(name, dst + name[len(src) :])
            for name in [d for d in self._dirs if d == src or d.startswith(prefix)]:
                self._dirs.discard(name)
                self._dirs.add(dst + name[len(src) :])
                self._move_meta(name, dst + name[len(src) :])
        self._changed(src)
        self._changed(dst)

    def _move_meta(self, src: str, dst: str) -> None:
        for table in (self._mtimes, self._modes):
            if src in table:
                table[dst] = table.pop(src)

    def _changed(self, path: str) -> None:
        if self._on_change is not None and (path == "/sdcard" or path.startswith("/sdcard/")):
            self._on_change()

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
        if path in self._mounts:
            names.update(self._mounts[path]())
        return sorted(names)

    def _check_writable(self, path: str) -> None:
        if self._mounted(path) is not None or path in self._mounts:
            code = errno.EROFS if path.startswith(("/system", "/vendor")) else errno.EACCES
            raise OSError(code, "Read-only file system" if code == errno.EROFS else "Permission denied", path)
        if not any(path == root or path.startswith(root + "/") for root in _WRITABLE):
            code = errno.EROFS if path.startswith(("/system", "/vendor")) else errno.EACCES
            raise OSError(code, "Read-only file system" if code == errno.EROFS else "Permission denied", path)

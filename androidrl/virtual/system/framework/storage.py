"""Shared storage (``/sdcard``) as an app with "All files access" sees it (``java.io.File``).

The storage is ``Environment.getExternalStorageDirectory()``: a file manager, a camera and a
viewer list, read, write, create, rename, move, copy and delete the same files ``adb shell ls
/sdcard`` sees. On Android 11 and later every such change goes through MediaProvider's FUSE
daemon, which keeps MediaStore in step (packages/providers/MediaProvider ``FuseDaemon`` →
``MediaProvider.deleteFileForFuse``/``renameForFuse``): so here a deleted file's row goes with it
and a moved file's row follows it (copies of indexed files are indexed too). New files an app
writes get a row only when the app inserts one (as Camera does). Errors are the built-in
:class:`OSError` subclasses, with ``strerror`` as the kernel words it.
"""

from __future__ import annotations

import contextlib
import errno
import posixpath
from dataclasses import dataclass

from androidrl.virtual.system.framework.content import ContentResolver, ProviderError
from androidrl.virtual.system.fs import VirtualFileSystem

#: Where shared storage is, as apps spell it (``/sdcard`` is the same place).
EXTERNAL_STORAGE = "/storage/emulated/0"
#: Paths that need no normalising when they hold no ``.``/``..`` segment (see :meth:`SharedStorage.path`).
_PREFIXES = (EXTERNAL_STORAGE + "/", "/sdcard/")
#: MediaStore's table of every indexed file.
MEDIA_FILES = "content://media/external/file"


@dataclass(frozen=True)
class FileInfo:
    """One file or directory: what ``File.isDirectory()``, ``length()`` and ``lastModified()`` tell.

    Attributes:
        path: Its path, under ``/sdcard``.
        name: Its name (the last segment of ``path``).
        is_dir: Whether it is a directory.
        size: Its length in bytes (directories: 4096, as ``stat`` reports them).
        modified: When it last changed, in seconds since the epoch.
    """

    path: str
    name: str
    is_dir: bool
    size: int
    modified: int


class SharedStorage:
    """``/sdcard`` for apps, keeping MediaStore's rows in step with what they change.

    Args:
        files: The phone's file system.
        content: The phone's content resolver (MediaStore is reached through it, as the FUSE daemon does).
    """

    ROOT = "/sdcard"

    def __init__(self, files: VirtualFileSystem, content: ContentResolver) -> None:
        self._files = files
        self._content = content

    def path(self, path: str) -> str:
        """``path`` in ``/sdcard`` form (``/storage/emulated/0/x`` → ``/sdcard/x``).

        Raises:
            PermissionError: It is outside shared storage (an app sees no other files).
        """
        path = str(path)
        if path.startswith(_PREFIXES) and "/." not in path and "//" not in path and not path.endswith("/"):
            local = self.ROOT + path[len(EXTERNAL_STORAGE) :] if path.startswith(EXTERNAL_STORAGE) else path
        else:
            local = self._files.normalize(path)
        if local != self.ROOT and not local.startswith(self.ROOT + "/"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return local

    @staticmethod
    def media_path(path: str) -> str:
        """The ``_data`` MediaStore gives the file at ``/sdcard`` path ``path``."""
        return EXTERNAL_STORAGE + path[len(SharedStorage.ROOT) :]

    def exists(self, path: str) -> bool:
        """Whether a file or directory is there."""
        try:
            return self._files.exists(self.path(path))
        except PermissionError:
            return False

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory."""
        return self._files.is_dir(self.path(path))

    def info(self, path: str) -> FileInfo:
        """What is known of the file or directory at ``path``."""
        local = self.path(path)
        stat = self._files.stat(local)
        is_dir = self._files.is_dir(local)
        return FileInfo(local, posixpath.basename(local) or local, is_dir, stat.size, stat.mtime)

    def list(self, directory: str) -> list[FileInfo]:
        """What directory ``directory`` holds (``File.listFiles()``), in name order."""
        local = self.path(directory)
        files, found = self._files, []
        for name in files.listdir(local):
            child = f"{local}/{name}"
            stat = files.stat(child)
            found.append(FileInfo(child, name, files.is_dir(child), stat.size, stat.mtime))
        return found

    def read(self, path: str) -> bytes:
        """The bytes of a file."""
        return self._files.read(self.path(path))

    def write(self, path: str, data: bytes) -> None:
        """Create or replace a file (its directory must exist)."""
        self._files.write(self.path(path), bytes(data))

    def mkdir(self, path: str) -> None:
        """Create a directory (``File.mkdir()``; its parent must exist)."""
        self._files.mkdir(self.path(path))

    def free_bytes(self) -> int:
        """How many more bytes fit (``StatFs.getAvailableBytes()``)."""
        return self._files.free_bytes()

    def rename(self, src: str, dst: str) -> None:
        """Move a file or a directory to ``dst``, which must not exist; MediaStore rows under it follow.

        Raises:
            FileExistsError: Something is at ``dst`` already.
        """
        source, target = self.path(src), self.path(dst)
        if source == target:
            return
        if self._files.exists(target):
            raise FileExistsError(errno.EEXIST, "File exists", dst)
        self._files.rename(source, target)
        for row_id, data in self._indexed(source):
            moved = target + self._files.normalize(data)[len(source) :]
            relative = posixpath.dirname(moved)[len(self.ROOT) + 1 :]
            values = {"relative_path": relative + "/", "_display_name": posixpath.basename(moved)}
            self._content.update(f"{MEDIA_FILES}/{row_id}", values)

    def copy(self, src: str, dst: str) -> None:
        """Copy a file or a directory tree to ``dst``, which must not exist; copies of indexed files are indexed.

        Raises:
            FileExistsError: Something is at ``dst`` already.
        """
        source, target = self.path(src), self.path(dst)
        if self._files.exists(target):
            raise FileExistsError(errno.EEXIST, "File exists", dst)
        indexed = {self._files.normalize(data) for _, data in self._indexed(source)}
        self._copy(source, target, indexed)

    def _copy(self, source: str, target: str, indexed: set[str]) -> None:
        if self._files.is_dir(source):
            self._files.mkdir(target)
            for name in self._files.listdir(source):
                self._copy(posixpath.join(source, name), posixpath.join(target, name), indexed)
            return
        self._files.write(target, self._files.read(source))
        if source in indexed:
            relative = posixpath.dirname(target)[len(self.ROOT) + 1 :]
            self._insert_row(relative + "/", posixpath.basename(target))

    def delete(self, path: str) -> None:
        """Delete a file, or a directory with everything in it; their MediaStore rows go too."""
        local = self.path(path)
        if local == self.ROOT:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        self._files.remove(local, recursive=True)
        if self._indexed(local):
            data = self.media_path(local)
            where = "_data = ? OR _data LIKE ? ESCAPE '\\'"
            self._content.delete(MEDIA_FILES, where, [data, _like_prefix(data)])

    def _indexed(self, local: str) -> list[tuple[int, str]]:
        """(``_id``, ``_data``) of the MediaStore rows of ``local`` and of everything under it."""
        data = self.media_path(local)
        try:
            where = "_data = ? OR _data LIKE ? ESCAPE '\\'"
            rows = self._content.query(MEDIA_FILES, ["_id", "_data"], where, [data, _like_prefix(data)])
        except ProviderError:
            return []  # (no MediaStore on this phone)
        return [(int(row["_id"]), str(row["_data"])) for row in rows]

    def _insert_row(self, relative: str, name: str) -> None:
        with contextlib.suppress(ProviderError):  # (no MediaStore, or it refuses the type: the copy stays unindexed)
            self._content.insert(MEDIA_FILES, {"relative_path": relative, "_display_name": name})


def _like_prefix(path: str) -> str:
    """A LIKE pattern for everything under directory ``path`` (its ``%``, ``_`` and backslashes escaped)."""
    escaped = path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped + "/%"

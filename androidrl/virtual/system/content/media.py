"""MediaStore, ``content://media/external/images/media`` and ``content://media/external/file``.

As packages/providers/MediaProvider MediaProvider.java, in the columns a task reads: each row is
a file of shared storage (``_data`` ``/storage/emulated/0/DCIM/Camera/IMG_...jpg``,
``_display_name``, ``relative_path`` ``DCIM/Camera/``, ``mime_type``, ``_size``, ``date_added`` and
``date_modified`` in seconds, ``date_taken`` in ms, ``media_type`` 1 for images...); the images URI
shows the image rows. An insert names the file by ``_display_name`` and ``relative_path`` (images
default to ``Pictures/``), makes it (empty) if it is not there, and ``content write`` fills it;
deleting a row deletes its file, and an update of ``relative_path`` or ``_display_name`` moves it
(as MediaProvider.updateInternal does since Android 11). Files put on ``/sdcard`` by other means
are not scanned in.
"""

from __future__ import annotations

import mimetypes
import posixpath
from collections.abc import Mapping, Sequence
from typing import Any

from androidrl.virtual.system.framework.content import (
    FILE_NOT_FOUND,
    ILLEGAL_ARGUMENT,
    ILLEGAL_STATE,
    ProviderError,
    Uri,
)
from androidrl.virtual.system.framework.database import Match, Route, SQLiteProvider
from androidrl.virtual.ui.java import java_hash

AUTHORITY = "media"
IMAGES = f"content://{AUTHORITY}/external/images/media"
FILES = f"content://{AUTHORITY}/external/file"
STORAGE = "/storage/emulated/0"
#: ``FileColumns.MEDIA_TYPE_*`` by the MIME type's top level.
MEDIA_TYPES = {"image": 1, "audio": 2, "video": 3}

COLUMNS = (
    "_id", "_data", "_size", "_display_name", "mime_type", "title", "date_added", "date_modified", "date_taken",
    "media_type", "width", "height", "orientation", "relative_path", "volume_name", "bucket_id",
    "bucket_display_name", "is_pending", "owner_package_name",
)  # fmt: skip


def _routes() -> dict[str, Route]:
    routes = {}
    for volume in ("external", "external_primary"):
        images = Route("files", where="media_type=1", columns=COLUMNS, mime="image", values={"media_type": 1})
        routes[f"{volume}/images/media"] = images
        routes[f"{volume}/images/media/#"] = Route("files", item=True, where="media_type=1", columns=COLUMNS,
                                                   mime="image", insert=False)  # fmt: skip
        routes[f"{volume}/file"] = Route("files", columns=COLUMNS, mime="file")
        routes[f"{volume}/file/#"] = Route("files", item=True, columns=COLUMNS, mime="file", insert=False)
    return routes


class MediaProvider(SQLiteProvider):
    """The media and files of shared storage."""

    authority = AUTHORITY
    schema = """
        CREATE TABLE files (_id INTEGER PRIMARY KEY AUTOINCREMENT, _data TEXT UNIQUE, _size INTEGER,
            _display_name TEXT, mime_type TEXT, title TEXT, date_added INTEGER, date_modified INTEGER,
            date_taken INTEGER, media_type INTEGER DEFAULT 0, width INTEGER, height INTEGER, orientation INTEGER,
            relative_path TEXT, volume_name TEXT, bucket_id TEXT, bucket_display_name TEXT,
            is_pending INTEGER DEFAULT 0, owner_package_name TEXT DEFAULT NULL);
    """
    routes = _routes()

    def get_type(self, uri: Uri) -> str | None:
        """An image's MIME type (``image/jpeg``); ``vnd.android.cursor.dir/image`` for the collection."""
        match = self.match(uri)
        if match.route.item:
            row = self.run("SELECT mime_type FROM files WHERE _id = ?", [match.row_id]).fetchone()
            return row[0] if row else None
        return super().get_type(uri)

    def before_insert(self, match: Match, values: dict[str, Any]) -> None:
        now = self.host.now_ms() if self.host is not None else 0
        data = values.get("_data")
        if data:
            relative, name = posixpath.split(posixpath.relpath(str(data), STORAGE))
            values.setdefault("_display_name", name)
            values.setdefault("relative_path", relative + "/")
        name = str(values.get("_display_name") or f"{now}")
        mime = values.get("mime_type") or mimetypes.guess_type(name)[0] or "application/octet-stream"
        kind = MEDIA_TYPES.get(str(mime).split("/")[0], 0)
        if values.get("media_type", kind) != kind and values.get("media_type") == 1:
            raise ProviderError(ILLEGAL_ARGUMENT, f"MIME type {mime} cannot be inserted into {match.pattern}")
        relative = str(values.get("relative_path") or ("Pictures/" if kind == 1 else "Download/"))
        placed = _placed(relative, name)
        path = placed["_data"]
        files = self.host.files if self.host is not None else None
        if files is not None:
            local = files.normalize(path)
            files.mkdir(posixpath.dirname(local), parents=True)
            if not files.exists(local):
                files.write(local, b"")
            size = files.stat(local).size
        else:
            size = 0
        values.update(placed, mime_type=mime, media_type=kind, volume_name="external_primary",
                      title=values.get("title") or posixpath.splitext(name)[0])  # fmt: skip
        values.setdefault("_size", size)
        values.setdefault("date_added", now // 1000)
        values.setdefault("date_modified", now // 1000)

    def delete(self, uri: Uri, where: str | None, args: Sequence[Any]) -> int:
        """Delete rows and their files."""
        match = self.match(uri)
        rows = self.run(f"SELECT _data FROM files{self.selection(match, where)}", args).fetchall()
        count = super().delete(uri, where, args)
        files = self.host.files if self.host is not None else None
        for (path,) in rows:
            if files is not None and path and files.exists(files.normalize(path)):
                files.remove(files.normalize(path))
        return count

    def open_file(self, uri: Uri, mode: str) -> str:
        """The file of a row (``content read|write``)."""
        match = self.match(uri)
        row = self.run("SELECT _data FROM files WHERE _id = ?", [match.row_id]).fetchone() if match.route.item else None
        if row is None or not row[0]:
            raise ProviderError(FILE_NOT_FOUND, f"No item at {uri}")
        return self.host.files.normalize(row[0]) if self.host is not None else row[0]

    def file_closed(self, uri: Uri, mode: str) -> None:
        """After a ``content write``: the row's size and time follow the file (as MediaProvider's scan does)."""
        if "w" not in mode or self.host is None:
            return
        path = self.open_file(uri, mode)
        size = self.host.files.stat(path).size
        self.run("UPDATE files SET _size = ?, date_modified = ? WHERE _id = ?",
                 [size, self.host.now_ms() // 1000, self.match(uri).row_id])  # fmt: skip
        self.notify(uri)

    def update(self, uri: Uri, values: Mapping[str, Any], where: str | None, args: Sequence[Any]) -> int:
        """Update rows; a new ``relative_path`` or ``_display_name`` moves each row's file there."""
        values = {k: v for k, v in values.items() if k not in ("_id", "_data")}  # (a move renames, not rewrites)
        if not values:
            return 0
        if "relative_path" not in values and "_display_name" not in values:
            return super().update(uri, values, where, args)
        match = self.match(uri)
        if not match.route.update:
            raise self.refused(uri, "update")
        found = f"SELECT _id, _data, relative_path, _display_name FROM files{self.selection(match, where)}"
        with self.transaction():
            rows = self.run(found, args).fetchall()
            for row_id, data, relative, name in rows:
                name = str(values.get("_display_name", name))
                placed = _placed(str(values.get("relative_path", relative)), name)
                self._move_file(data, placed["_data"])
                changes = {"title": posixpath.splitext(name)[0], **values, **placed}
                sets = ", ".join(f"{column}=?" for column in changes)
                self.run(f"UPDATE files SET {sets} WHERE _id=?", [*changes.values(), row_id])
        if rows:
            self.notify(uri)
        return len(rows)

    def _move_file(self, old: str | None, new: str) -> None:
        """Move a row's file to its new path (a file already there, and not the row's own, refuses the move)."""
        files = self.host.files if self.host is not None else None
        if files is None or not old or old == new:
            return
        source, target = files.normalize(old), files.normalize(new)
        if not files.exists(source):
            return  # (already moved, by a file manager: the row follows it)
        if files.exists(target):
            raise ProviderError(ILLEGAL_STATE, f"Failed to move {old} to {new}: it exists")
        try:
            files.mkdir(posixpath.dirname(target), parents=True)
            files.rename(source, target)
        except OSError as err:
            raise ProviderError(ILLEGAL_STATE, f"Failed to move {old} to {new}: {err.strerror}") from None


def _placed(relative: str, name: str) -> dict[str, str]:
    """The columns that follow from where a file is: ``_data``, ``relative_path``, its bucket's id and name."""
    relative = relative.strip("/") + "/"
    path = f"{STORAGE}/{relative}{name}"
    return {
        "_data": path,
        "_display_name": name,
        "relative_path": relative,
        "bucket_display_name": posixpath.basename(relative.rstrip("/")),
        "bucket_id": str(java_hash(posixpath.dirname(path).lower())),
    }

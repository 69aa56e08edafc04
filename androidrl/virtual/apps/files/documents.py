"""What the Files app shows: its roots and the documents in them, read fresh from storage and MediaStore.

DocumentsUI lists documents from the providers behind its roots (packages/apps/DocumentsUI
``roots/ProvidersCache``): the phone's storage and Downloads are folders of ``/sdcard``
(ExternalStorageProvider, DownloadStorageProvider), Images, Videos and Audio are MediaStore's
files grouped into folders by bucket (MediaProvider's ``MediaDocumentsProvider``), Recent is the
newest indexed files. Nothing is cached: a file pushed over adb shows on the next frame.
"""

from __future__ import annotations

import mimetypes
import posixpath
from dataclasses import dataclass
from urllib.parse import quote, unquote

from androidrl.virtual.system.framework.content import ContentResolver, ProviderError
from androidrl.virtual.system.framework.storage import SharedStorage

RECENT, IMAGES, VIDEOS, AUDIO, DOWNLOADS, DEVICE = "recent", "images", "videos", "audio", "downloads", "device"
#: The roots in the drawer's order (RootsFragment: recents, media, downloads, then the device).
ROOTS = (RECENT, IMAGES, VIDEOS, AUDIO, DOWNLOADS, DEVICE)
#: The roots whose documents are MediaStore rows of one media type.
MEDIA_ROOTS = {IMAGES: 1, AUDIO: 2, VIDEOS: 3}
#: The roots DocumentsUI shows as a grid until told otherwise.
GRID_ROOTS = (RECENT, IMAGES, VIDEOS)
#: The roots whose folders take new folders, renames and moves (the ones of ``/sdcard``).
WRITABLE_ROOTS = (DOWNLOADS, DEVICE)
DIRECTORY = "vnd.android.document/directory"
MEDIA_FILES = "content://media/external/file"
EXTERNAL_AUTHORITY = "com.android.externalstorage.documents"
MEDIA_AUTHORITY = "com.android.providers.media.documents"
#: The sort orders of DocumentsUI's "Sort by" sheet, as (dimension, descending).
SORTS = {
    "name_asc": ("name", False),
    "name_desc": ("name", True),
    "date_asc": ("date", False),
    "date_desc": ("date", True),
    "size_asc": ("size", False),
    "size_desc": ("size", True),
}
_MIME_OVERRIDES = {".md": "text/markdown", ".txt": "text/plain", ".csv": "text/csv", ".log": "text/plain"}


@dataclass(frozen=True)
class Document:
    """A document in a root (DocumentsUI's ``DocumentInfo``).

    Attributes:
        doc_id: Its id: the ``/sdcard`` path of a file or folder, ``bucket:ROOT:ID`` for a media folder.
        name: Its display name.
        is_dir: Whether it is a folder.
        size: Its size in bytes (folders: 0).
        modified: When it last changed, in ms since the epoch.
        mime: Its MIME type (folders: ``vnd.android.document/directory``).
        path: Its file on ``/sdcard`` ("" for a media folder).
        media_id: Its MediaStore ``_id`` (0 when it has none).
    """

    doc_id: str
    name: str
    is_dir: bool
    size: int = 0
    modified: int = 0
    mime: str = DIRECTORY
    path: str = ""
    media_id: int = 0

    @property
    def uri(self) -> str:
        """Its document URI: MediaDocumentsProvider's for media rows, ExternalStorageProvider's otherwise."""
        if self.media_id and self.mime.split("/")[0] in ("image", "video", "audio"):
            return f"content://{MEDIA_AUTHORITY}/document/{self.mime.split('/')[0]}%3A{self.media_id}"
        return document_uri(self.path)


def document_uri(path: str) -> str:
    """ExternalStorageProvider's URI of a ``/sdcard`` path (document id ``primary:RELATIVE``)."""
    relative = path[len(SharedStorage.ROOT) :].lstrip("/")
    return f"content://{EXTERNAL_AUTHORITY}/document/" + quote(f"primary:{relative}", safe="")


def path_of_uri(uri: str) -> str | None:
    """The ``/sdcard`` path of a ``file:`` or ExternalStorageProvider URI, or None for any other."""
    if uri.startswith("file://"):
        return SharedStorage.ROOT + unquote(uri[len("file://") :])[len("/sdcard") :] if "/sdcard" in uri else None
    prefix = f"content://{EXTERNAL_AUTHORITY}/"
    if uri.startswith(prefix):
        doc_id = unquote(uri.rsplit("/", 1)[-1])
        if doc_id.startswith("primary:"):
            return posixpath.join(SharedStorage.ROOT, doc_id[len("primary:") :]).rstrip("/")
    return None


def mime_of(name: str) -> str:
    """A file's MIME type from its name (``MimeTypeMap``), ``application/octet-stream`` when unknown."""
    ext = posixpath.splitext(name)[1].lower()
    return _MIME_OVERRIDES.get(ext) or mimetypes.guess_type(name)[0] or "application/octet-stream"


def type_label(mime: str, string) -> str:
    """What kind of file it is, as ``ContentResolver.getTypeInfo(mime).getLabel()`` says (MimeIconUtils)."""
    if mime == DIRECTORY:
        return string("mime_type_folder")
    ext = (mimetypes.guess_extension(mime) or "").lstrip(".")
    ext = {"jpe": "jpg", "markdown": "md"}.get(ext, ext).upper()
    top = mime.split("/")[0]
    kind = {"text": "document", "image": "image", "video": "video", "audio": "audio"}.get(top, "generic")
    if mime == "application/pdf":
        kind = "document"
    return string(f"mime_type_{kind}_ext", ext) if ext else string("mime_type_generic")


def root_document(root: str, title: str) -> Document:
    """The top folder of ``root`` (``title``: the root's title)."""
    if root == DEVICE:
        return Document(SharedStorage.ROOT, title, True, path=SharedStorage.ROOT)
    if root == DOWNLOADS:
        return Document(SharedStorage.ROOT + "/Download", title, True, path=SharedStorage.ROOT + "/Download")
    return Document(f"root:{root}", title, True)


def children(
    storage: SharedStorage, content: ContentResolver, root: str, folder: Document, hidden: bool = False
) -> list[Document]:
    """The documents in ``folder`` of ``root`` (unsorted); ``hidden`` shows names that start with a dot."""
    if folder.path:
        if not storage.is_dir(folder.path):
            return []
        return [
            _file_document(info.path, info.name, info.is_dir, info.size, info.modified * 1000)
            for info in storage.list(folder.path)
            if hidden or not info.name.startswith(".")
        ]
    if root == RECENT:
        return _recent(storage, content)
    kind = MEDIA_ROOTS.get(root)
    if kind is None:
        return []
    if folder.doc_id.startswith("bucket:"):
        bucket = folder.doc_id.split(":", 2)[2]
        return [d for d in _media(storage, content, "media_type = ? AND bucket_id = ?", [kind, bucket])]
    return _buckets(storage, content, root, kind)


def _file_document(path: str, name: str, is_dir: bool, size: int, modified: int, media_id: int = 0) -> Document:
    mime = DIRECTORY if is_dir else mime_of(name)
    return Document(path, name, is_dir, 0 if is_dir else size, modified, mime, path, media_id)


def _rows(content: ContentResolver, where: str, args: list, sort: str = "_id") -> list[dict]:
    columns = [
        "_id",
        "_data",
        "_display_name",
        "_size",
        "date_modified",
        "mime_type",
        "bucket_id",
        "bucket_display_name",
    ]
    try:
        return content.query(MEDIA_FILES, columns, where, args, sort)
    except ProviderError:
        return []  # (a phone without MediaStore)


def _media(storage: SharedStorage, content: ContentResolver, where: str, args: list, limit: int = 0) -> list[Document]:
    found = []
    for row in _rows(content, where, args, "date_modified DESC, _id DESC"):
        path = _local(storage, row["_data"])
        if not path:
            continue  # (a row whose file went another way than through MediaStore)
        info = storage.info(path)
        name = str(row["_display_name"] or info.name)
        found.append(
            Document(
                path,
                name,
                False,
                info.size,
                info.modified * 1000,
                str(row["mime_type"] or mime_of(name)),
                path,
                int(row["_id"]),
            )
        )
        if limit and len(found) >= limit:
            break
    return found


def _recent(storage: SharedStorage, content: ContentResolver) -> list[Document]:
    """The newest indexed files (Recents: what MediaProvider and DownloadProvider call recent)."""
    return _media(storage, content, "media_type IN (1, 2, 3) OR relative_path LIKE 'Download/%'", [], limit=64)


def _buckets(storage: SharedStorage, content: ContentResolver, root: str, kind: int) -> list[Document]:
    """A media root's folders: one per bucket (the directory its files are in), newest first."""
    buckets: dict[str, Document] = {}
    for row in _rows(content, "media_type = ?", [kind], "date_modified DESC, _id DESC"):
        path = _local(storage, row["_data"])
        bucket = str(row["bucket_id"])
        if path and bucket not in buckets:
            name = str(row["bucket_display_name"] or posixpath.basename(posixpath.dirname(path)))
            buckets[bucket] = Document(
                f"bucket:{root}:{bucket}", name, True, modified=int(row["date_modified"] or 0) * 1000
            )
    return list(buckets.values())


def _local(storage: SharedStorage, data: object) -> str:
    """The ``/sdcard`` path of a row's ``_data`` if its file is there, else ""."""
    try:
        path = storage.path(str(data))
    except PermissionError:
        return ""
    return path if storage.exists(path) and not storage.is_dir(path) else ""


def sort_documents(docs: list[Document], order: str) -> list[Document]:
    """``docs`` in ``order`` (a key of :data:`SORTS`), folders first as DocumentsUI's SortingCursorWrapper has them."""
    dimension, descending = SORTS[order]
    if dimension == "name":
        key = lambda d: d.name.casefold()  # noqa: E731
    elif dimension == "date":
        key = lambda d: (d.modified, d.name.casefold())  # noqa: E731
    else:
        key = lambda d: (d.size, d.name.casefold())  # noqa: E731
    folders = sorted((d for d in docs if d.is_dir), key=key, reverse=descending)
    files = sorted((d for d in docs if not d.is_dir), key=key, reverse=descending)
    return folders + files


def unique_name(storage: SharedStorage, folder: str, name: str) -> str:
    """``name``, or ``name (1)``, ``name (2)``... the first free in ``folder`` (``FileUtils.buildUniqueFile``)."""
    base, ext = posixpath.splitext(name)
    if storage.is_dir(posixpath.join(folder, name)) or not ext:
        base, ext = name, ""
    candidate, n = name, 0
    while storage.exists(posixpath.join(folder, candidate)):
        n += 1
        candidate = f"{base} ({n}){ext}"
    return candidate

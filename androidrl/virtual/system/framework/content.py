"""Content providers as apps see them: URIs, cursors, the provider base class and the resolver.

Android's ``android.content`` and ``android.net.Uri`` in miniature. A package declares its
providers on its :class:`~androidrl.virtual.system.framework.app.App` (``providers=(NotesProvider,)``);
the system makes one instance of each per phone, keeps its data in snapshots, wipes it on
``pm clear`` of the owner, and answers ``content query|insert|update|delete`` from the shell with it.
Apps (and the shell) reach every provider through a :class:`ContentResolver` by URI::

    rows = context.content.query("content://com.android.contacts/data/phones", ["data1"], "display_name=?", ["Ann"])
    uri = context.content.insert("content://com.android.deskclock/alarms", {"hour": 7, "minutes": 30, ...})

A provider raises :class:`ProviderError` (a Java exception class and message, which the
``content`` command prints as Android prints it); a write calls :meth:`ProviderHost.notify_change`,
which redraws the screen, so an app that reads its data in ``build()`` shows a change at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar
from urllib.parse import parse_qsl

#: ``android.content.ContentResolver.CURSOR_DIR_BASE_TYPE`` and ``CURSOR_ITEM_BASE_TYPE``.
CURSOR_DIR = "vnd.android.cursor.dir"
CURSOR_ITEM = "vnd.android.cursor.item"
#: How many answers of one provider's queries the resolver keeps (then it starts over).
_KEPT_QUERIES = 64

T = TypeVar("T")

# The Java exceptions providers throw (the classes a binder call carries back to its caller).
ILLEGAL_ARGUMENT = "java.lang.IllegalArgumentException"
ILLEGAL_STATE = "java.lang.IllegalStateException"
UNSUPPORTED = "java.lang.UnsupportedOperationException"
SECURITY = "java.lang.SecurityException"
SQLITE = "android.database.sqlite.SQLiteException"
SQLITE_CONSTRAINT = "android.database.sqlite.SQLiteConstraintException"
SQL = "android.database.SQLException"
FILE_NOT_FOUND = "java.io.FileNotFoundException"


class ProviderError(Exception):
    """An exception a provider throws: its Java class and message (``java.lang.IllegalArgumentException: ...``).

    Args:
        java_class: The fully qualified Java class, e.g. :data:`ILLEGAL_ARGUMENT`.
        message: The exception's message.
    """

    def __init__(self, java_class: str, message: str) -> None:
        super().__init__(f"{java_class}: {message}")
        self.java_class = java_class
        self.message = message


def unknown_uri(uri: Uri | str) -> ProviderError:
    """``IllegalArgumentException: Unknown URI content://...``: what most providers throw for a path they lack."""
    return ProviderError(ILLEGAL_ARGUMENT, f"Unknown URI {uri}")


@dataclass(frozen=True)
class Uri:
    """A parsed URI (``android.net.Uri``): ``content://AUTHORITY/seg/seg?key=value#fragment``.

    Attributes:
        text: The URI as written.
        scheme: ``content``, ``file``, ``smsto``... ("" when it has none).
        authority: What follows ``//`` up to the path ("" when absent).
        segments: The path's non-empty segments (``getPathSegments``).
        query: The query parameters.
    """

    text: str
    scheme: str
    authority: str
    segments: tuple[str, ...]
    query: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Uri:
        """Parse leniently, as ``Uri.parse`` does (it never fails)."""
        match = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", text)
        scheme = match[1] if match else ""
        rest = text[match.end() :] if match else text
        rest = rest.split("#", 1)[0]
        rest, _, query = rest.partition("?")
        authority = ""
        if rest.startswith("//"):
            authority, slash, path = rest[2:].partition("/")
            rest = slash + path
        return cls(text, scheme, authority, tuple(s for s in rest.split("/") if s), dict(parse_qsl(query)))

    @property
    def last_segment(self) -> str | None:
        """The last path segment, or None."""
        return self.segments[-1] if self.segments else None

    @property
    def scheme_specific_part(self) -> str:
        """What follows ``scheme:`` up to the fragment (``getSchemeSpecificPart``)."""
        body = self.text[len(self.scheme) + 1 :] if self.scheme else self.text
        return body.split("#", 1)[0]

    def __str__(self) -> str:
        return self.text


def with_appended_id(uri: Uri | str, row_id: int) -> str:
    """``ContentUris.withAppendedId``: ``content://a/b`` + 5 -> ``content://a/b/5``."""
    base = str(uri).split("?", 1)[0].rstrip("/")
    return f"{base}/{row_id}"


@dataclass
class Cursor:
    """What a query returns: the columns, in order, and the rows as tuples of SQLite-typed values.

    Values are ``int``, ``float``, ``str``, ``bytes`` or ``None`` (SQLite's INTEGER, REAL,
    TEXT, BLOB and NULL), as ``Cursor.getType`` tells them apart.
    """

    columns: list[str]
    rows: list[tuple[Any, ...]]

    def dicts(self) -> list[dict[str, Any]]:
        """Each row as a column -> value dict, in column order."""
        return [dict(zip(self.columns, row)) for row in self.rows]


@dataclass(frozen=True)
class ProviderHost:
    """What the system gives a provider when it attaches it (a provider's view of its ``Context``).

    Attributes:
        package: The package that owns the provider.
        now_ms: The phone's wall time in milliseconds since the epoch.
        log: ``log(tag, message, priority)`` writes to the phone's log from the owner's process.
        notify_change: Tells observers (and the screen) that data under a URI changed.
        files: The phone's file system, for the system's providers that keep files (MediaStore).
        settings: The settings store, for the settings provider.
    """

    package: str
    now_ms: Callable[[], int]
    log: Callable[[str, str, str], None]
    notify_change: Callable[[str], None]
    files: Any = None
    settings: Any = None


class ContentProvider:
    """A content provider (``android.content.ContentProvider``): data that other apps and the shell reach by URI.

    Subclasses set :attr:`authority` and implement the operations they support; the default of
    each is what Android's base class does (``call`` returns None, ``open_file`` throws
    ``FileNotFoundException``, the rest throw ``UnsupportedOperationException``). The system
    makes an instance with no arguments and then calls :meth:`attach`.
    """

    #: The authority its URIs carry: ``content://AUTHORITY/...``.
    authority: ClassVar[str] = ""

    def __init__(self) -> None:
        self.host: ProviderHost | None = None

    def attach(self, host: ProviderHost) -> None:
        """Called once, before any other call: the provider's host (``onCreate``)."""
        self.host = host

    def query(
        self, uri: Uri, projection: Sequence[str] | None, where: str | None, args: Sequence[Any], sort: str | None
    ) -> Cursor | None:
        """Rows under ``uri``: the ``projection`` columns (all when None) of the rows ``where`` selects."""
        raise ProviderError(UNSUPPORTED, f"Query not supported for {uri}")

    def insert(self, uri: Uri, values: Mapping[str, Any]) -> str | None:
        """Insert a row; the new row's URI, or None."""
        raise ProviderError(UNSUPPORTED, f"Insert not supported for {uri}")

    def update(self, uri: Uri, values: Mapping[str, Any], where: str | None, args: Sequence[Any]) -> int:
        """Change the rows ``where`` selects; how many changed."""
        raise ProviderError(UNSUPPORTED, f"Update not supported for {uri}")

    def delete(self, uri: Uri, where: str | None, args: Sequence[Any]) -> int:
        """Delete the rows ``where`` selects; how many went."""
        raise ProviderError(UNSUPPORTED, f"Delete not supported for {uri}")

    def get_type(self, uri: Uri) -> str | None:
        """The MIME type of ``uri`` (``vnd.android.cursor.dir/...``), or None."""
        return None

    def call(self, uri: Uri, method: str, arg: str | None, extras: Mapping[str, Any]) -> dict[str, Any] | None:
        """A provider-defined method (``content call``); its result bundle, or None."""
        return None

    def open_file(self, uri: Uri, mode: str) -> str:
        """The path of the file behind ``uri`` for ``mode`` ``r`` or ``w`` (``content read|write``)."""
        raise ProviderError(FILE_NOT_FOUND, f"No files supported by provider at {uri}")

    def file_closed(self, uri: Uri, mode: str) -> None:
        """The file :meth:`open_file` gave was written and closed (a provider may update its row)."""

    def query_version(
        self, uri: Uri, projection: Sequence[str] | None, where: str | None, sort: str | None
    ) -> Hashable | None:
        """A token that stays equal while this query's answer cannot change, or None (no such promise).

        The system keeps a query's answer while the token stays the same (the ``content`` tool's
        output of a query it ran before), so a provider returns one only where its answer is a
        function of its own data and the query, and changes it on every write, wipe and restore.
        """
        return None

    def state(self) -> Any:
        """Everything the provider holds, for a snapshot (immutable, or copied by :meth:`restore`)."""
        return None

    def restore(self, state: Any) -> None:
        """Hold again what :meth:`state` returned."""

    def wipe(self) -> None:
        """Forget all data, as after ``pm clear`` of the owner (a fresh install's state)."""

    def notify(self, uri: Uri | str) -> None:
        """Tell the system that data under ``uri`` changed (``ContentResolver.notifyChange``)."""
        if self.host is not None:
            self.host.notify_change(str(uri))


class KeptAnswers:
    """Answers of queries, each kept while its provider's data stays the same (:meth:`ContentProvider.query_version`).

    An answer is returned again as it was, so it must not be mutated.

    Args:
        limit: How many answers of one provider are kept (then they start over).
    """

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._kept: dict[str | None, tuple[ContentProvider, Hashable, dict[Hashable, Any]]] = {}  # by authority

    def get(
        self,
        provider: ContentProvider,
        uri: Uri,
        query: tuple[Sequence[str] | None, str | None, str | None],
        key: Hashable,
        compute: Callable[[], T],
    ) -> T:
        """``compute()``'s answer to ``key``, a query of ``provider`` (``query``: projection, where, sort)."""
        version = provider.query_version(uri, *query)
        if version is None:
            return compute()
        kept = self._kept.get(uri.authority)
        if kept is not None and kept[0] is provider and kept[1] == version and key in kept[2]:
            return kept[2][key]
        result = compute()
        version = provider.query_version(uri, *query)  # (a first query opens the database)
        if kept is None or kept[0] is not provider or kept[1] != version or len(kept[2]) >= self._limit:
            kept = self._kept[uri.authority] = (provider, version, {})
        kept[2][key] = result
        return result


class ContentResolver:
    """The way to every provider of the phone (``android.content.ContentResolver``).

    Every call holds ``lock`` (the phone's), so the shell's threads and the apps' see one provider state.

    Args:
        acquire: The provider of an authority (raising :class:`ProviderError` when none is installed).
        lock: Held during each call.
    """

    def __init__(self, acquire: Callable[[str], ContentProvider], lock: AbstractContextManager | None = None) -> None:
        self._acquire = acquire
        self._lock = lock if lock is not None else nullcontext()
        #: Counts the changes of any provider's data (every ``notifyChange``, a snapshot load): an app may
        #: keep what it read while this stays the same, as a ``ContentObserver`` that heard nothing would.
        self.generation = 0
        # An app's screen queries its provider on every rebuild: the rows are the same while its data is.
        self._answers = KeptAnswers(_KEPT_QUERIES)

    def _provider(self, uri: str) -> tuple[ContentProvider, Uri]:
        parsed = Uri.parse(uri)
        if parsed.scheme != "content":
            raise ProviderError(ILLEGAL_ARGUMENT, f"Unknown URL {uri}")
        return self._acquire(parsed.authority), parsed

    def query(
        self,
        uri: str,
        projection: Sequence[str] | None = None,
        where: str | None = None,
        args: Sequence[Any] = (),
        sort: str | None = None,
    ) -> list[dict[str, Any]]:
        """The rows ``where`` (with ``?`` bound to ``args``) selects under ``uri``, each a column -> value dict.

        Raises:
            ProviderError: No provider has the URI's authority, or the provider refused the query.
        """
        with self._lock:
            provider, parsed = self._provider(uri)
            columns = list(projection) if projection else None

            def rows() -> list[dict[str, Any]]:
                cursor = provider.query(parsed, columns, where, list(args), sort)
                return cursor.dicts() if cursor is not None else []

            key = (uri, None if columns is None else tuple(columns), where, tuple(args), sort)
            return [dict(row) for row in self._answers.get(provider, parsed, (columns, where, sort), key, rows)]

    def insert(self, uri: str, values: Mapping[str, Any]) -> str | None:
        """Insert a row; the new row's URI (``content://.../alarms/3``), or None when the provider made none."""
        with self._lock:
            provider, parsed = self._provider(uri)
            return provider.insert(parsed, dict(values))

    def update(self, uri: str, values: Mapping[str, Any], where: str | None = None, args: Sequence[Any] = ()) -> int:
        """Change the rows ``where`` selects under ``uri``; how many changed."""
        with self._lock:
            provider, parsed = self._provider(uri)
            return provider.update(parsed, dict(values), where, list(args))

    def delete(self, uri: str, where: str | None = None, args: Sequence[Any] = ()) -> int:
        """Delete the rows ``where`` selects under ``uri``; how many went."""
        with self._lock:
            provider, parsed = self._provider(uri)
            return provider.delete(parsed, where, list(args))

    def get_type(self, uri: str) -> str | None:
        """The MIME type of ``uri``."""
        with self._lock:
            provider, parsed = self._provider(uri)
            return provider.get_type(parsed)

    def call(
        self, uri: str, method: str, arg: str | None = None, extras: Mapping[str, Any] | None = None
    ) -> dict[str, Any] | None:
        """Call a provider-defined method."""
        with self._lock:
            provider, parsed = self._provider(uri)
            return provider.call(parsed, method, arg, dict(extras or {}))

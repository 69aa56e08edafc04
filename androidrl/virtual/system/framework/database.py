r"""A content provider kept in SQLite, as most of Android's are (``SQLiteOpenHelper`` + ``UriMatcher``).

A subclass gives its schema (the ``CREATE`` statements of its database), the rows a new
database starts with, and its URIs as :class:`Route`\ s; queries, inserts, updates and deletes
then run as Android's providers run them — the caller's ``where`` and ``sort`` go into the SQL as
written, so SQL's semantics (``LIKE``, ``COALESCE``, ``ORDER BY x DESC``...) hold — and its
errors read as Android's (``android.database.sqlite.SQLiteException: no such column: x (code 1
SQLITE_ERROR[1]): , while compiling: SELECT x FROM ...``). Hooks let a provider add its own rules
(a raw contact's aggregate, an SMS's thread). Each provider has its own in-memory database, as each
of Android's has its own file; a snapshot keeps it as ``sqlite3``'s serialized image.

Example::

    class NotesProvider(SQLiteProvider):
        authority = "com.androidrl.notes"
        schema = "CREATE TABLE notes (_id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
        routes = {"notes": Route("notes"), "notes/#": Route("notes", item=True)}
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from androidrl.virtual.system.framework.content import (
    CURSOR_DIR,
    CURSOR_ITEM,
    ILLEGAL_ARGUMENT,
    SQL,
    SQLITE,
    SQLITE_CONSTRAINT,
    ContentProvider,
    Cursor,
    ProviderError,
    Uri,
    unknown_uri,
    with_appended_id,
)


@dataclass(frozen=True)
class Route:
    """One URI pattern of a provider (``UriMatcher.addURI``) and what it reads and writes.

    Attributes:
        table: The table or view queried (a view holds a join or a filter).
        item: The last path segment is the row's id (a ``.../#`` pattern).
        id_column: The column an item's id is matched against (``_id``; ``thread_id`` for a conversation).
        write_table: The table written; "" when the route is read-only (default: ``table``).
        where: A fixed selection ANDed with the caller's (``mimetype='...'`` for ``data/phones``).
        values: Column values every insert through this route gets (``type=1`` for ``sms/inbox``).
        columns: The columns a caller may ask for; None lets SQLite judge (no projection map).
        mime: The MIME subtype ``getType`` answers (``alarms`` -> ``vnd.android.cursor.dir/alarms``);
            None when the provider answers None.
        sort: The order when the caller gives none (``date DESC`` for SMS).
        insert: Whether inserts are allowed here.
        update: Whether updates are allowed here.
        delete: Whether deletes are allowed here.
    """

    table: str
    item: bool = False
    id_column: str = "_id"
    write_table: str | None = None
    where: str | None = None
    values: Mapping[str, Any] | None = None
    columns: tuple[str, ...] | None = None
    mime: str | None = None
    sort: str | None = None
    insert: bool = True
    update: bool = True
    delete: bool = True

    @property
    def target(self) -> str:
        """The table written."""
        return self.table if self.write_table is None else self.write_table


@dataclass(frozen=True)
class Match:
    """A URI matched to its route: the pattern, the route, the row id of an item route, the ``*`` segments."""

    pattern: str
    route: Route
    row_id: int | None
    wildcards: tuple[str, ...]


#: The image of a new database of each provider class, made once per process (a new phone copies it).
_FRESH_IMAGES: dict[type, bytes] = {}
# SQLite's functions whose value is not a function of their arguments (the clock's, random's, the connection's);
# a query calling one is never answered from a kept result. (Names only: a string that holds one merely
# turns the keeping off.)
_VOLATILE = re.compile(
    r"\b(date|time|datetime|julianday|strftime|unixepoch|timediff|random|randomblob|changes|total_changes"
    r"|last_insert_rowid)\s*\(|\bcurrent_(date|time|timestamp)\b",
    re.IGNORECASE,
)


def _segment_matches(pattern: str, segment: str) -> bool:
    if pattern == "#":
        return segment.isdigit()
    return pattern == "*" or pattern == segment


def sql_error(err: sqlite3.Error, sql: str | None = None) -> ProviderError:
    """A ``sqlite3`` error as Android's ``SQLiteConnection`` reports it (``... (code 1 SQLITE_ERROR[1])``)."""
    code = getattr(err, "sqlite_errorcode", 1)
    name = getattr(err, "sqlite_errorname", "SQLITE_ERROR")
    java = SQLITE_CONSTRAINT if name.startswith("SQLITE_CONSTRAINT") else SQLITE
    message = f"{err} (code {code} {name}[{code}])"
    if sql is not None and java == SQLITE:
        message += f": , while compiling: {sql}"
    return ProviderError(java, message)


def content_values(values: Mapping[str, Any]) -> str:
    """``ContentValues.toString()``: ``key=value key=value``."""
    return " ".join(f"{k}={'null' if v is None else v}" for k, v in values.items())


class SQLiteProvider(ContentProvider):
    """A provider over its own in-memory SQLite database, routed by URI pattern.

    Subclasses set :attr:`schema`, :attr:`routes` and optionally :attr:`initial`; they may override
    :meth:`before_insert`, :meth:`after_write` and the operations themselves where their Android
    counterpart has rules of its own.
    """

    #: The ``CREATE TABLE``/``CREATE VIEW``/``CREATE TRIGGER`` statements of a new database.
    schema: ClassVar[str] = ""
    #: Statements that put in the rows a new database starts with (DeskClock's two default alarms).
    initial: ClassVar[str] = ""
    #: URI pattern (``alarms``, ``alarms/#``, ``phone_lookup/*``) -> route, tried in order.
    routes: ClassVar[Mapping[str, Route]] = {}

    def __init__(self) -> None:
        super().__init__()
        self._db: sqlite3.Connection | None = None  # opened on first use, as Android opens a provider's database
        self._loads = 0  # database images loaded (opened, wiped, restored): with total_changes, the data's version
        self._restored: tuple[bytes | None, tuple[int, int]] | None = None  # the image last restored, the version then

    # ------------------------------------------------------------------ lifecycle

    @property
    def db(self) -> sqlite3.Connection:
        """The provider's database (a new one on first use)."""
        if self._db is None:
            self._db = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            self._db.deserialize(self.fresh_image())
            self._loads += 1
            self.opened(self._db)
        return self._db

    def opened(self, db: sqlite3.Connection) -> None:
        """Called once the database is open (a subclass registers its SQL functions here)."""

    def fresh_image(self) -> bytes:
        """The serialized image of a new database: the schema and the initial rows only (made once per class)."""
        image = _FRESH_IMAGES.get(type(self))
        if image is None:
            fresh = sqlite3.connect(":memory:", isolation_level=None)
            fresh.executescript(self.schema + self.initial)
            image = _FRESH_IMAGES[type(self)] = fresh.serialize()
            fresh.close()
        return image

    def wipe(self) -> None:
        """Back to a new database."""
        if self._db is not None:
            self._db.deserialize(self.fresh_image())
            self._loads += 1

    def state(self) -> bytes | None:
        """The database's serialized image (None while it was never opened: a new one)."""
        return None if self._db is None else self._db.serialize()

    def restore(self, state: bytes | None) -> None:
        """Load an image :meth:`state` made (nothing to do while the database is still that image, unwritten)."""
        if self._restored == (state, self._version()):
            return
        if state is None:
            self.wipe()
        else:
            self.db.deserialize(state)
            self._loads += 1
        self._restored = (state, self._version())

    def _version(self) -> tuple[int, int]:
        """Images loaded and rows changed since (every write counts, triggers' too)."""
        return self._loads, self._db.total_changes if self._db is not None else -1

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Run the block as one transaction (rolled back if it raises)."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def query_version(
        self, uri: Uri, projection: Sequence[str] | None, where: str | None, sort: str | None
    ) -> Hashable | None:
        """The data's version (images loaded, rows changed: every write counts, triggers' too), or None.

        None for a query that calls one of SQLite's volatile functions (``date('now')``,
        ``random()``...), whose answer changes without a write.
        """
        if any(_VOLATILE.search(text) for text in (*(projection or ()), where or "", sort or "")):
            return None
        return self._version()

    # ------------------------------------------------------------------ routing

    def match(self, uri: Uri) -> Match:
        """The route of ``uri`` (``UriMatcher.match``).

        Raises:
            ProviderError: No route matches (:meth:`unknown`).
        """
        segments = uri.segments
        for pattern, route in self.routes.items():
            parts = pattern.split("/")
            if len(parts) == len(segments) and all(_segment_matches(p, s) for p, s in zip(parts, segments)):
                row_id = int(segments[-1]) if route.item else None
                wildcards = tuple(s for p, s in zip(parts, segments) if p == "*")
                return Match(pattern, route, row_id, wildcards)
        raise self.unknown(uri)

    def unknown(self, uri: Uri) -> ProviderError:
        """The error for a URI no route matches (``Unknown URI ...``; a subclass may word it its way)."""
        return unknown_uri(uri)

    def refused(self, uri: Uri, operation: str) -> ProviderError:
        """The error for an operation a route does not allow."""
        verb = {"insert": "insert into", "update": "update", "delete": "delete from"}[operation]
        return ProviderError(ILLEGAL_ARGUMENT, f"Cannot {verb} URI: {uri}")

    # ------------------------------------------------------------------ SQL

    def run(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Execute one statement.

        Raises:
            ProviderError: SQLite refused it, worded as Android words it.
        """
        try:
            return self.db.execute(sql, [int(a) if isinstance(a, bool) else a for a in args])
        except (sqlite3.Error, OverflowError) as err:
            if isinstance(err, OverflowError):
                raise ProviderError(SQLITE, f"{err}") from None
            raise sql_error(err, sql) from None

    def selection(self, match: Match, where: str | None) -> str:
        """The WHERE clause of a matched URI: the route's, the item's id and the caller's, ANDed."""
        parts = []
        if match.route.where:
            parts.append(f"({match.route.where})")
        if match.row_id is not None:
            parts.append(f"{match.route.id_column}={match.row_id}")
        if where:
            parts.append(f"({where})")
        return " WHERE " + " AND ".join(parts) if parts else ""

    def columns_of(self, table: str) -> list[str]:
        """The columns of a table or view, in order."""
        return [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")]

    def select(self, match: Match, projection: Sequence[str] | None, where: str | None, args: Sequence[Any],
               sort: str | None) -> Cursor:  # fmt: skip
        """``SELECT`` the projection of the rows a matched URI and the caller's where select."""
        route = match.route
        if route.columns is not None and projection:
            for column in projection:  # SQLiteQueryBuilder.computeProjection with a strict projection map
                if column not in route.columns:
                    raise ProviderError(ILLEGAL_ARGUMENT, f"Invalid column {column}")
        if projection:
            columns = ", ".join(projection)
        else:
            columns = ", ".join(route.columns) if route.columns is not None else "*"
        order = sort or route.sort
        sql = f"SELECT {columns} FROM {route.table}{self.selection(match, where)}"
        if order:
            sql += f" ORDER BY {order}"
        cursor = self.run(sql, args)
        return Cursor([d[0] for d in cursor.description], cursor.fetchall())

    def insert_row(self, table: str, values: Mapping[str, Any]) -> int:
        """``SQLiteDatabase.insert``: the new row's id (an error is logged, then raised, see :meth:`insert`)."""
        if values:
            names = ", ".join(values)
            marks = ", ".join("?" for _ in values)
            sql = f"INSERT INTO {table}({names}) VALUES ({marks})"
        else:
            sql = f"INSERT INTO {table} DEFAULT VALUES"
        try:
            return self.run(sql, list(values.values())).lastrowid or 0
        except ProviderError as err:
            if self.host is not None:
                self.host.log("SQLiteDatabase", f"Error inserting {content_values(values)}\n{err}", "E")
            raise

    # ------------------------------------------------------------------ hooks

    def before_insert(self, match: Match, values: dict[str, Any]) -> None:
        """Check or complete a row before it is inserted (raise :class:`ProviderError` to refuse it)."""

    def after_write(self, match: Match, row_ids: Sequence[int]) -> None:
        """Keep derived rows right after an insert, update or delete (``row_ids``: the rows touched, when known)."""

    # ------------------------------------------------------------------ operations

    def query(
        self, uri: Uri, projection: Sequence[str] | None, where: str | None, args: Sequence[Any], sort: str | None
    ) -> Cursor:
        """Select through the matched route; its ``*`` segments bind to the ``?`` of its ``where`` first."""
        match = self.match(uri)
        return self.select(match, projection, where, [*match.wildcards, *args], sort)

    def insert(self, uri: Uri, values: Mapping[str, Any]) -> str | None:
        """Insert a row.

        A row SQLite refuses (a column the table lacks, a NOT NULL column left out) is logged as
        ``SQLiteDatabase`` logs it and reported as ``android.database.SQLException: Failed to insert
        row into URI`` (several of Android's providers then return null instead, which ``content
        insert`` does not show: here the error is told at once).
        """
        match = self.match(uri)
        route = match.route
        if route.item or not route.insert or not route.target:
            raise self.refused(uri, "insert")
        row = {**dict(values), **dict(route.values or {})}
        with self.transaction():
            self.before_insert(match, row)
            try:
                row_id = self.insert_row(route.target, row)
            except ProviderError:
                raise ProviderError(SQL, f"Failed to insert row into {uri}") from None
            self.after_write(match, [row_id])
        self.notify(uri)
        return with_appended_id(uri, row_id)

    def update(self, uri: Uri, values: Mapping[str, Any], where: str | None, args: Sequence[Any]) -> int:
        match = self.match(uri)
        route = match.route
        if not route.update or not route.target:
            raise self.refused(uri, "update")
        if not values:
            raise ProviderError(ILLEGAL_ARGUMENT, "Empty values")
        sets = ", ".join(f"{column}=?" for column in values)
        rows = f"SELECT _id FROM {route.table}{self.selection(match, where)}"
        with self.transaction():
            touched = [r[0] for r in self.run(rows, args)]
            sql = f"UPDATE {route.target} SET {sets} WHERE _id IN ({rows})"
            count = self.run(sql, [*values.values(), *args]).rowcount
            self.after_write(match, touched)
        if count:
            self.notify(uri)
        return count

    def delete(self, uri: Uri, where: str | None, args: Sequence[Any]) -> int:
        match = self.match(uri)
        route = match.route
        if not route.delete or not route.target:
            raise self.refused(uri, "delete")
        rows = f"SELECT _id FROM {route.table}{self.selection(match, where)}"
        with self.transaction():
            touched = [r[0] for r in self.run(rows, args)]
            count = self.run(f"DELETE FROM {route.target} WHERE _id IN ({rows})", args).rowcount
            self.after_write(match, touched)
        if count:
            self.notify(uri)
        return count

    def get_type(self, uri: Uri) -> str | None:
        route = self.match(uri).route
        if route.mime is None:
            return None
        return f"{CURSOR_ITEM if route.item else CURSOR_DIR}/{route.mime}"

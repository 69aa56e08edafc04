"""The settings provider (``content://settings/system|secure|global``) over the phone's settings store.

As frameworks/base packages/SettingsProvider/src/com/android/providers/settings/SettingsProvider.java:
a query, update or delete names one setting — by the URI (``content://settings/system/NAME``), by
``name='NAME'`` or by ``name=?`` with one argument — or, for a query, all of a table; any other
selection is refused with the provider's "Supported SQL" message. The columns are ``_id``, ``name``
and ``value``; a whole table comes in the order of its ``ArrayMap`` (by the names' Java hash codes),
and a sort order is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from androidrl.virtual.system.framework.content import (
    CURSOR_DIR,
    CURSOR_ITEM,
    ILLEGAL_ARGUMENT,
    ContentProvider,
    Cursor,
    ProviderError,
    Uri,
)
from androidrl.virtual.system.settings_provider import NAMESPACES, SettingsStore
from androidrl.virtual.ui.java import java_hash

AUTHORITY = "settings"
COLUMNS = ("_id", "name", "value")

# SettingsProvider.Arguments' four accepted selections.
_WITH_PARAM = (re.compile(r"\s*name\s*=\s*\?\s*"), re.compile(r"\s*\(\s*name\s*=\s*\?\s*\)\s*"))
_NO_PARAM = (re.compile(r"\s*\(\s*name\s*=\s*['\"].*['\"]\s*\)\s*"), re.compile(r"\s*name\s*=\s*['\"].*['\"]\s*"))


def _java_array(items: Sequence[Any] | None) -> str:
    """``Arrays.toString``: ``[a, b]``, or ``null``."""
    return "null" if items is None else "[" + ", ".join(map(str, items)) + "]"


def _value_text(value: Any) -> str | None:
    """``ContentValues.getAsString``."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class SettingsProvider(ContentProvider):
    """``content://settings/...``: the ``system``, ``secure`` and ``global`` tables of the settings store."""

    authority = AUTHORITY

    @property
    def store(self) -> SettingsStore:
        """The phone's settings store (the host's)."""
        assert self.host is not None and self.host.settings is not None, "the settings provider needs the store"
        return self.host.settings

    def arguments(self, uri: Uri, where: str | None, args: Sequence[Any] | None, support_all: bool):
        """``SettingsProvider.Arguments``: (table, name or None for the whole table).

        Raises:
            ProviderError: A selection it does not support, or a table that does not exist.
        """
        segments = uri.segments
        if len(segments) == 1:
            if where is not None and any(p.fullmatch(where) for p in _WITH_PARAM) and args and len(args) == 1:
                return self.table(uri), str(args[0])
            if where is not None and any(p.fullmatch(where) for p in _NO_PARAM):
                start = max(where.find("'"), where.find('"')) + 1
                end = max(where.rfind("'"), where.rfind('"'))
                return self.table(uri), where[start:end]
            if support_all and where is None and not args:
                return self.table(uri), None
        elif len(segments) == 2 and where is None and not args:
            return self.table(uri), segments[1]
        raise ProviderError(
            ILLEGAL_ARGUMENT,
            "Supported SQL:\n  uri content://some_table/some_property with null where and where args\n"
            "  uri content://some_table with query name=? and single name as arg\n"
            "  uri content://some_table with query name=some_name and null args\n"
            f"  but got - uri:{uri}, where:{where} whereArgs:{_java_array(args or None)}",
        )

    @staticmethod
    def table(uri: Uri) -> str:
        """``getValidTableOrThrow``."""
        if not uri.segments:
            raise ProviderError(ILLEGAL_ARGUMENT, f"Invalid URI:{uri}")
        if uri.segments[0] not in NAMESPACES:
            raise ProviderError(ILLEGAL_ARGUMENT, f"Bad root path: {uri.segments[0]}")
        return uri.segments[0]

    def query(
        self, uri: Uri, projection: Sequence[str] | None, where: str | None, args: Sequence[Any], sort: str | None
    ) -> Cursor:
        table, name = self.arguments(uri, where, args, True)
        columns = list(projection) if projection else list(COLUMNS)
        for column in columns:
            if column not in COLUMNS:
                raise ProviderError(ILLEGAL_ARGUMENT, f"Invalid column: {column}")
        names = [name] if name is not None else sorted((k for k, _ in self.store.items(table)), key=java_hash)
        rows = []
        for key in names:
            value = self.store.get(table, key)
            if value is None:
                continue
            fields = {"_id": str(self.store.setting_id(table, key)), "name": key, "value": value}
            rows.append(tuple(fields[c] for c in columns))
        return Cursor(columns, rows)

    def insert(self, uri: Uri, values: Mapping[str, Any]) -> str | None:
        table = self.table(uri)
        name = _value_text(values.get("name"))
        if not name:
            return None
        value = _value_text(values.get("value"))
        self.store.put(table, name, value) if value is not None else self.store.delete(table, name)
        return f"content://{AUTHORITY}/{table}/{name}"

    def update(self, uri: Uri, values: Mapping[str, Any], where: str | None, args: Sequence[Any]) -> int:
        table, name = self.arguments(uri, where, args, False)
        if not _value_text(values.get("name")) or name is None or self.store.get(table, name) is None:
            return 0  # (SettingsProvider.update checks the name among the values, then updates the selected one)
        self.store.put(table, name, _value_text(values.get("value")) or "")
        return 1

    def delete(self, uri: Uri, where: str | None, args: Sequence[Any]) -> int:
        table, name = self.arguments(uri, where, args, False)
        return self.store.delete(table, name) if name else 0

    def get_type(self, uri: Uri) -> str:
        table, name = self.arguments(uri, None, None, True)
        return f"{CURSOR_ITEM if name else CURSOR_DIR}/{table}"

    def call(self, uri: Uri, method: str, arg: str | None, extras: Mapping[str, Any]) -> dict[str, Any] | None:
        """``GET_system``/``PUT_secure``/``DELETE_global``...: ``Settings.CALL_METHOD_*``."""
        verb, _, table = method.partition("_")
        if table not in NAMESPACES or arg is None:
            return None
        if verb == "GET":
            return {"value": self.store.get(table, arg)}
        if verb == "PUT":
            value = _value_text(extras.get("value"))
            self.store.put(table, arg, value) if value is not None else self.store.delete(table, arg)
        elif verb == "DELETE":
            return {"_rows_deleted": self.store.delete(table, arg)}
        return None

"""``content``: query, insert, update, delete, call, read, write and gettype on any content provider.

As Android 14's frameworks/base cmds/content/src/com/android/commands/content/Content.java: options
are parsed first (a bad one prints the usage and ``[ERROR] ...`` on stdout), then the provider of
the URI's authority runs the operation. A query prints ``Row: N col=value, col=value`` per row
(``NULL`` for null, a REAL as Java's ``String.valueOf(float)``, ``BLOB`` for bytes) or ``No result
found.``; insert, update and delete print nothing; call and gettype print ``Result: ...``. A
provider's exception is printed as the tool prints it — ``Error while accessing provider:AUTHORITY``
and the stack trace on stderr — and the exit status is 0 whatever happened, as ``Content.main``
returns normally.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command
from androidrl.virtual.system.framework.content import ILLEGAL_STATE, ProviderError, Uri

USAGE = (
    "usage: adb shell content [subcommand] [options]\n\n"
    "usage: adb shell content insert --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...] "
    "[--extra <BINDING>...]\n"
    "  <URI> a content provider URI.\n"
    "  <BINDING> binds a typed value to a column and is formatted:\n"
    "  <COLUMN_NAME>:<TYPE>:<COLUMN_VALUE> where:\n"
    "  <TYPE> specifies data type such as:\n"
    "  b - boolean, s - string, i - integer, l - long, f - float, d - double, n - null\n"
    "  Note: Omit the value for passing an empty string, e.g column:s:\n"
    "  Example:\n"
    '  # Add "new_setting" secure setting with value "new_value".\n'
    "  adb shell content insert --uri content://settings/secure --bind name:s:new_setting --bind value:s:new_value\n\n"
    "usage: adb shell content update --uri <URI> [--user <USER_ID>] [--where <WHERE>] [--extra <BINDING>...]\n"
    "  <WHERE> is a SQL style where clause in quotes (You have to escape single quotes - see example below).\n"
    "  Example:\n"
    '  # Change "new_setting" secure setting to "newer_value".\n'
    "  adb shell content update --uri content://settings/secure --bind value:s:newer_value --where "
    "\"name='new_setting'\"\n\n"
    "usage: adb shell content delete --uri <URI> [--user <USER_ID>] --bind <BINDING> [--bind <BINDING>...] "
    "[--where <WHERE>] [--extra <BINDING>...]\n"
    "  Example:\n"
    '  # Remove "new_setting" secure setting.\n'
    "  adb shell content delete --uri content://settings/secure --where \"name='new_setting'\"\n\n"
    "usage: adb shell content query --uri <URI> [--user <USER_ID>] [--projection <PROJECTION>] [--where <WHERE>] "
    "[--sort <SORT_ORDER>] [--extra <BINDING>...]\n"
    "  <PROJECTION> is a list of colon separated column names and is formatted:\n"
    "  <COLUMN_NAME>[:<COLUMN_NAME>...]\n"
    "  <SORT_ORDER> is the order in which rows in the result should be sorted.\n"
    "  Example:\n"
    '  # Select "name" and "value" columns from secure settings where "name" is equal to "new_setting" and sort '
    "the result by name in ascending order.\n"
    "  adb shell content query --uri content://settings/secure --projection name:value --where "
    '"name=\'new_setting\'" --sort "name ASC"\n\n'
    "usage: adb shell content call --uri <URI> --method <METHOD> [--arg <ARG>]\n"
    "       [--extra <BINDING> ...]\n"
    "  <METHOD> is the name of a provider-defined method\n"
    "  <ARG> is an optional string argument\n"
    "  <BINDING> is like --bind above, typed data of the form <KEY>:{b,s,i,l,f,d}:<VAL>\n\n"
    "usage: adb shell content read --uri <URI> [--user <USER_ID>]\n"
    "  Example:\n"
    "  adb shell 'content read --uri content://settings/system/ringtone_cache' > host.ogg\n\n"
    "usage: adb shell content write --uri <URI> [--user <USER_ID>]\n"
    "  Example:\n"
    "  adb shell 'content write --uri content://settings/system/ringtone_cache' < host.ogg\n\n"
    "usage: adb shell content gettype --uri <URI> [--user <USER_ID>]\n"
    "  Example:\n"
    "  adb shell content gettype --uri content://media/internal/audio/media/\n\n"
)

# The options each operation takes (Content.Parser.parse*Command).
_OPTIONS = {
    "insert": {"--uri", "--user", "--bind", "--extra"},
    "delete": {"--uri", "--user", "--where", "--extra"},
    "update": {"--uri", "--user", "--where", "--bind", "--extra"},
    "query": {"--uri", "--user", "--where", "--sort", "--projection", "--extra"},
    "call": {"--uri", "--user", "--method", "--arg", "--extra"},
    "read": {"--uri", "--user"},
    "write": {"--uri", "--user"},
    "gettype": {"--uri", "--user"},
}
# Frames of the stack trace Content prints (Android 14's line numbers).
_MAIN = (
    "\tat com.android.commands.content.Content.main(Content.java:735)\n"
    "\tat com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)\n"
    "\tat com.android.internal.os.RuntimeInit.main(RuntimeInit.java:355)\n"
)
_PROXY = {"query": 479, "insert": 532, "update": 599, "delete": 566, "call": 744, "gettype": 506, "read": 819}
_ON_EXECUTE = {"query": ("Query", 661), "insert": ("Insert", 574), "update": ("Update", 711),
               "delete": ("Delete", 591), "call": ("Call", 614), "gettype": ("GetType", 627),
               "read": ("Read", 641), "write": ("Write", 652)}  # fmt: skip


_JAVA_FLOAT = re.compile(r"[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)")


class UsageError(Exception):
    """An ``IllegalArgumentException`` of Content's parser: the usage and ``[ERROR] message``."""


@dataclass
class ContentCommand:
    """One parsed ``content`` command line."""

    operation: str
    uri: Uri | None = None
    values: dict[str, Any] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    where: str | None = None
    sort: str | None = None
    projection: list[str] | None = None
    method: str | None = None
    arg: str | None = None


def parse(args: Sequence[str]) -> ContentCommand:
    """``Content.Parser.parseCommand``.

    Raises:
        UsageError: An unknown operation or option, a missing value or binding, a bad number.
    """
    tokens = list(args)
    operation = tokens.pop(0) if tokens else None
    if operation not in _OPTIONS:
        raise UsageError(f"Unsupported operation: {'null' if operation is None else operation}")
    parsed = ContentCommand(operation)
    while tokens:
        argument = tokens.pop(0)
        if argument not in _OPTIONS[operation]:
            raise UsageError(f"Unsupported argument: {argument}")
        if argument in ("--bind", "--extra"):
            column, value = _binding(tokens.pop(0) if tokens else None)
            (parsed.values if argument == "--bind" else parsed.extras)[column] = value
            continue
        if not tokens or not tokens[0] or tokens[0].startswith("--"):
            raise UsageError(f"No value for argument: {argument}")
        value = tokens.pop(0)
        if argument == "--uri":
            parsed.uri = Uri.parse(value)
        elif argument == "--user":
            _java_int(value)  # (one user: any number is user 0's)
        elif argument == "--projection":
            parsed.projection = re.split(r"\s*:\s*", value)
            while parsed.projection and not parsed.projection[-1]:  # (Java's split drops trailing empties)
                parsed.projection.pop()
        else:
            setattr(parsed, argument[2:], value)
    if parsed.uri is None:
        raise UsageError("Content provider URI not specified. Did you specify --uri argument?")
    if operation in ("insert", "update") and not parsed.values:
        raise UsageError("Bindings not specified. Did you specify --bind argument(s)?")
    if operation == "call" and parsed.method is None:
        raise UsageError("Content provider method not specified.")
    return parsed


def _split_escaped(text: str) -> list[str]:
    """``splitWithEscaping(argument, ':')``: a backslash keeps the next character as it is."""
    if "\\" not in text:
        return text.split(":")
    parts, current, chars = [], [], iter(text)
    for c in chars:
        if c == "\\":
            nxt = next(chars, None)
            if nxt is None:
                raise UsageError("Invalid escaping")
            current.append(nxt)
        elif c == ":":
            parts.append("".join(current))
            current = []
        else:
            current.append(c)
    parts.append("".join(current))
    return parts


def _binding(argument: str | None) -> tuple[str, Any]:
    """``parseBindValue``: ``column:type:value`` -> (column, typed value)."""
    if not argument:
        raise UsageError(f"Binding not well formed: {'null' if argument is None else argument}")
    parts = _split_escaped(argument)
    if len(parts) != 3:
        raise UsageError(f"Binding not well formed: {argument}")
    column, kind, value = parts
    if kind == "s":
        return column, value
    kind = kind.lower()
    if kind == "b":
        return column, value.lower() == "true"  # Boolean.parseBoolean
    if kind == "i":
        return column, _java_int(value, 32)
    if kind == "l":
        return column, _java_int(value, 64)
    if kind == "f":
        return column, float(np.float32(_java_float(value)))  # Float.parseFloat, stored as a double
    if kind == "d":
        return column, _java_float(value)
    if kind == "n":
        return column, None
    raise UsageError(f"Unsupported type: {parts[1]}")


def _java_int(text: str, bits: int = 32) -> int:
    """``Integer.parseInt``/``Long.parseLong``: decimal, an optional sign, within range."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit() or not -(2 ** (bits - 1)) <= int(text) < 2 ** (bits - 1):
        raise UsageError(f'For input string: "{text}"')
    return int(text)


def _java_float(text: str) -> float:
    """``Double.parseDouble``: blanks around, a sign, ``NaN``/``Infinity``, a trailing ``f``/``d`` allowed."""
    body = text.strip()
    if not body:
        raise UsageError("empty String")
    if not _JAVA_FLOAT.fullmatch(body):
        raise UsageError(f'For input string: "{text}"')
    return float(body.rstrip("fFdD").replace("Infinity", "inf"))


def java_float_string(value: float) -> str:
    """``String.valueOf(float)`` of a double read as a float (``Cursor.getFloat``): ``0.1``, ``1.0E10``."""
    f = np.float32(value)
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    if f == 0:
        return "-0.0" if struct.pack(">f", f)[0] & 0x80 else "0.0"
    if 1e-3 <= abs(f) < 1e7:
        text = np.format_float_positional(f, unique=True, trim="0")
        return text if "." in text and not text.endswith(".") else text.rstrip(".") + ".0"
    mantissa, exponent = np.format_float_scientific(f, unique=True, trim="0").split("e")
    mantissa = mantissa if "." in mantissa and not mantissa.endswith(".") else mantissa.rstrip(".") + ".0"
    return f"{mantissa}E{int(exponent)}"


def _value_text(value: Any) -> str:
    """A cell as Content's query prints it (by ``Cursor.getType``)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, float):
        return java_float_string(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "BLOB"
    return str(value)


def _bundle(values: dict[str, Any] | None) -> str:
    """``Bundle.toString()`` of an unparcelled bundle: ``Bundle[{key=value, ...}]``."""
    if values is None:
        return "null"
    text = ", ".join(f"{k}={'null' if v is None else str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in values.items())  # fmt: skip
    return f"Bundle[{{{text}}}]"


def _error(authority: str, operation: str, err: ProviderError) -> bytes:
    """``Error while accessing provider:AUTHORITY`` and ``e.printStackTrace()``."""
    trace = f"Error while accessing provider:{authority}\n{err.java_class}: {err.message}\n"
    if err.java_class == ILLEGAL_STATE and err.message.startswith("Could not find provider"):
        trace += "\tat com.android.commands.content.Content$Command.execute(Content.java:521)\n"
    else:  # thrown in the provider's process, rethrown here by the binder proxy
        name, line = _ON_EXECUTE[operation]
        trace += (
            "\tat android.database.DatabaseUtils.readExceptionFromParcel(DatabaseUtils.java:172)\n"
            "\tat android.database.DatabaseUtils.readExceptionFromParcel(DatabaseUtils.java:142)\n"
            f"\tat android.content.ContentProviderProxy.{operation if operation != 'gettype' else 'getType'}"
            f"(ContentProviderNative.java:{_PROXY.get(operation, 819)})\n"
            f"\tat com.android.commands.content.Content${name}Command.onExecute(Content.java:{line})\n"
            "\tat com.android.commands.content.Content$Command.execute(Content.java:523)\n"
        )
    return (trace + _MAIN).encode()


def _query_output(cursor: Any) -> str:
    if cursor is None or not cursor.rows:
        return "No result found.\n"
    lines = []
    for index, row in enumerate(cursor.rows):
        cells = ", ".join(f"{name}={_value_text(value)}" for name, value in zip(cursor.columns, row))
        lines.append(f"Row: {index} {cells}\n")
    return "".join(lines)


@command("content")
def _content(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    try:
        parsed = parse(argv[1:])
    except UsageError as err:
        return f"{USAGE}\n[ERROR] {err}\n".encode(), b"", 0
    uri = parsed.uri
    assert uri is not None
    authority = uri.authority or "null"
    with sh.phone.lock:
        try:
            provider = sh.phone.content.acquire(authority)
            out = _execute(sh, provider, parsed, stdin)
        except ProviderError as err:
            return b"", _error(authority, parsed.operation, err), 0
        except OSError as err:  # a file the provider keeps could not be read or written
            failure = ProviderError("java.io.IOException", err.strerror or str(err))
            return b"", _error(authority, parsed.operation, failure), 0
    return out, b"", 0


def _execute(sh: Shell, provider: Any, parsed: ContentCommand, stdin: bytes) -> bytes:
    uri = parsed.uri
    assert uri is not None
    operation = parsed.operation
    if operation == "query":  # the same query of unchanged data prints the same rows: kept by the content service
        return sh.phone.content.query_answer(
            uri.authority or "null", uri, parsed.projection, parsed.where, parsed.sort, "content query",
            lambda p: _query_output(p.query(uri, parsed.projection, parsed.where, [], parsed.sort)).encode(),
        )  # fmt: skip
    if operation == "insert":
        provider.insert(uri, parsed.values)
    elif operation == "update":
        provider.update(uri, parsed.values, parsed.where, [])
    elif operation == "delete":
        provider.delete(uri, parsed.where, [])
    elif operation == "call":
        return f"Result: {_bundle(provider.call(uri, parsed.method or '', parsed.arg, parsed.extras))}\n".encode()
    elif operation == "gettype":
        kind = provider.get_type(uri)
        return f"Result: {'null' if kind is None else kind}\n".encode()
    elif operation == "read":
        return sh.phone.fs.read(provider.open_file(uri, "r"))
    elif operation == "write":
        path = provider.open_file(uri, "w")
        sh.phone.fs.write(path, sh.read_stdin(stdin))
        provider.file_closed(uri, "w")
    return b""

"""Toybox's text tools: ``grep``, ``head``, ``tail``, ``wc`` and ``md5sum``, on files or stdin."""

from __future__ import annotations

import hashlib
import re

from androidrl.virtual.shell.commands.toybox.lib import file_error, flags_and_args
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail
from androidrl.virtual.shell.stdin import Stdin


def _input_lines(sh: Shell, files: list[str], stdin: bytes, tool: str) -> tuple[list[tuple[str, bytes]], list[str]]:
    if not files:
        return [("", sh.read_stdin(stdin))], []
    sources, errors = [], []
    for path in files:
        try:
            sources.append((path, sh.phone.fs.read(sh.path(path))))
        except OSError as exc:
            errors.append(file_error(tool, path, exc))
    return sources, errors


@command("grep")
def _grep(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags: set[str] = set()
    args = argv[1:]
    while args and args[0].startswith("-") and len(args[0]) > 1:
        if args[0] == "-e":
            break
        flags.update(args[0][1:])
        args = args[1:]
    if args and args[0] == "-e":
        args = args[1:]
    if not args:
        return fail("grep: no pattern\n", 2)
    pattern, files = args[0], args[1:]
    try:
        regex = re.compile(
            pattern if flags & {"E"} else pattern.replace(r"\|", "|"), re.IGNORECASE if "i" in flags else 0
        )
    except re.error as exc:
        return fail(f"grep: bad regex '{pattern}': {exc}\n", 2)
    sources, errors = _input_lines(sh, files, stdin, "grep")
    out, count = [], 0
    for name, data in sources:
        for line in data.decode("utf-8", "replace").splitlines():
            found = regex.search(line) is not None
            if found != ("v" in flags):
                count += 1
                prefix = f"{name}:" if len(files) > 1 else ""
                if "o" in flags and found:
                    out.extend(prefix + m.group() + "\n" for m in regex.finditer(line))
                else:
                    out.append(prefix + line + "\n")
    if "q" in flags:
        return b"", "".join(errors).encode(), 0 if count else 1
    text = f"{count}\n" if "c" in flags else "".join(out)
    return text.encode(), "".join(errors).encode(), (2 if errors else 0) if count else (2 if errors else 1)


def _head_tail(sh: Shell, argv: list[str], stdin: bytes, tail: bool) -> Result:
    count, by_bytes, files, args = 10, False, [], argv[1:]
    while args:
        arg = args.pop(0)
        if arg in ("-n", "-c") and args and args[0].isdigit():
            count, by_bytes = int(args.pop(0)), arg == "-c"
        elif re.fullmatch(r"-[nc]?\d+", arg):
            count, by_bytes = int(arg.lstrip("-nc")), arg.startswith("-c")
        else:
            files.append(arg)
    if not files and not tail and isinstance(stdin, Stdin):  # head stops reading once it has its lines
        enough = (lambda came: len(came) >= count) if by_bytes else (lambda came: came.count(b"\n") >= count)
        stdin = sh.read_stdin_until(stdin, enough) if count else b""
    sources, errors = _input_lines(sh, files, stdin, argv[0])
    out = bytearray()
    for _, data in sources:
        units = data if by_bytes else data.splitlines(keepends=True)
        part = (units[-count:] if tail else units[:count]) if count else units[:0]
        out += part if by_bytes else b"".join(part)
    return bytes(out), "".join(errors).encode(), 1 if errors else 0


@command("head")
def _head(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return _head_tail(sh, argv, stdin, tail=False)


@command("tail")
def _tail(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return _head_tail(sh, argv, stdin, tail=True)


@command("wc")
def _wc(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, files = flags_and_args(argv, "lwc")
    sources, errors = _input_lines(sh, files, stdin, "wc")
    out = []
    for name, data in sources:
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        shown = [str(counts[f]) for f in "lwc" if not flags or f in flags]
        out.append(" ".join(shown) + (f" {name}" if name else "") + "\n")
    return "".join(out).encode(), "".join(errors).encode(), 1 if errors else 0


@command("md5sum")
def _md5sum(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    sources, errors = _input_lines(sh, argv[1:], stdin, "md5sum")
    out = "".join(f"{hashlib.md5(data).hexdigest()}  {name or '-'}\n" for name, data in sources)
    return out.encode(), "".join(errors).encode(), 1 if errors else 0

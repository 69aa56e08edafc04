"""Toybox's line filters: ``tr``, ``cut``, ``sort``, ``uniq``, ``seq`` and ``tee``, on files or stdin.

Options and messages follow toybox (``toys/posix/cut.c``, ``sort.c``, ``uniq.c``, ``tee.c``,
``toys/lsb/seq.c``, ``toys/pending/tr.c``).
"""

from __future__ import annotations

import re

from androidrl.virtual.shell.commands.toybox.lib import file_error
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok

_CLASSES = {
    "alpha": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "digit": "0123456789",
    "lower": "abcdefghijklmnopqrstuvwxyz", "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "space": " \t\n\r\f\v",
    "blank": " \t", "alnum": "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "punct": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", "xdigit": "0123456789ABCDEFabcdef",
}  # fmt: skip


def options(argv: list[str], with_value: str, flags: str) -> tuple[dict[str, str], set[str], list[str]] | str:
    """The options of ``argv`` as toybox's ``getopt`` reads them; or the error line for an unknown one.

    ``-d X``/``-dX`` for the letters in ``with_value``, ``-x`` for those of ``flags``: (values, flags, operands).
    """
    values: dict[str, str] = {}
    seen: set[str] = set()
    operands: list[str] = []
    args = argv[1:]
    while args:
        arg = args.pop(0)
        if arg == "--":
            operands += args
            break
        if not arg.startswith("-") or arg == "-" or (len(arg) > 1 and arg[1].isdigit() and "n" not in with_value):
            operands.append(arg)
            continue
        i = 1
        while i < len(arg):
            letter = arg[i]
            if letter in with_value:
                value = arg[i + 1 :] or (args.pop(0) if args else None)
                if value is None:
                    return f"{argv[0]}: Missing argument to -{letter}\n"
                values[letter] = value
                break
            if letter not in flags:
                return f"{argv[0]}: Unknown option '{letter}' (see \"{argv[0]} --help\")\n"
            seen.add(letter)
            i += 1
    return values, seen, operands


def read_inputs(sh: Shell, tool: str, files: list[str], stdin: bytes) -> tuple[bytes, list[str]]:
    """The concatenated contents of ``files`` (stdin for none or ``-``), and the error lines of those missing."""
    if not files:
        return sh.read_stdin(stdin), []
    chunks, errors = [], []
    for path in files:
        if path == "-":
            chunks.append(sh.read_stdin(stdin))
            continue
        try:
            chunks.append(sh.phone.fs.read(sh.path(path)))
        except OSError as exc:
            errors.append(file_error(tool, path, exc))
    return b"".join(chunks), errors


def _lines(data: bytes) -> list[str]:
    return data.decode("utf-8", "replace").splitlines()


def _expand_set(spec: str) -> str:
    r"""A ``tr`` set: ``a-z`` ranges, ``[:class:]``, ``\n``-style and octal escapes."""
    out, i = [], 0
    while i < len(spec):
        if spec.startswith("[:", i) and (end := spec.find(":]", i)) > 0 and spec[i + 2 : end] in _CLASSES:
            out.append(_CLASSES[spec[i + 2 : end]])
            i = end + 2
            continue
        c = spec[i]
        if c == "\\" and i + 1 < len(spec):
            octal = re.match(r"[0-7]{1,3}", spec[i + 1 :])
            if octal:
                c, i = chr(int(octal.group(), 8)), i + 1 + len(octal.group())
            else:
                c, i = (
                    {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}.get(
                        spec[i + 1], spec[i + 1]
                    ),
                    i + 2,
                )
        else:
            i += 1
        if spec.startswith("-", i) and i + 1 < len(spec):
            last = spec[i + 1]
            out.append("".join(chr(x) for x in range(ord(c), ord(last) + 1)))
            i += 2
        else:
            out.append(c)
    return "".join(out)


@command("tr")
def _tr(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``tr [-cds] SET1 [SET2]``: translate, delete (``-d``) or squeeze (``-s``) characters of stdin."""
    parsed = options(argv, "", "cdsC")
    if isinstance(parsed, str):
        return fail(parsed)
    _, flags, sets = parsed
    if not sets or len(sets) > 2 or (len(sets) == 1 and not flags & {"d", "s"}):
        return fail("tr: Needs 1-2 arguments\n" if not sets or len(sets) > 2 else "tr: missing SET2\n")
    text = sh.read_stdin(stdin).decode("latin-1")
    first = _expand_set(sets[0])
    second = _expand_set(sets[1]) if len(sets) > 1 else ""
    if flags & {"c", "C"}:
        first = "".join(chr(x) for x in range(256) if chr(x) not in first)
    if "d" in flags:
        text = text.translate({ord(c): None for c in first})
        squeeze = second
    elif second:
        second = (second + second[-1] * len(first))[: len(first)]
        text = text.translate({ord(a): b for a, b in zip(first, second)})
        squeeze = second
    else:
        squeeze = first
    if "s" in flags and squeeze:
        text = re.sub("([" + re.escape(squeeze) + "])\\1+", r"\1", text)
    return text.encode("latin-1"), b"", 0


def _ranges(spec: str) -> list[tuple[int, int]] | None:
    """A cut LIST (``1,3-5,7-``) as 1-based inclusive ranges; None if it is malformed."""
    ranges = []
    for part in spec.split(","):
        match = re.fullmatch(r"(\d*)-?(\d*)", part)
        if not part or not match or (part == "-"):
            return None
        low = int(match.group(1)) if match.group(1) else 1
        high = int(match.group(2)) if match.group(2) else (low if "-" not in part else 1 << 30)
        if low < 1:
            return None
        ranges.append((low, high))
    return ranges


@command("cut")
def _cut(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``cut -b|-c|-f LIST [-d DELIM] [-s] [FILE...]``."""
    parsed = options(argv, "bcfdO", "snD")
    if isinstance(parsed, str):
        return fail(parsed)
    values, flags, files = parsed
    mode = next((m for m in "bcf" if m in values), None)
    if mode is None:
        return fail("cut: no selections\n")
    if "d" in values and mode != "f":
        return fail("cut: -d needs -Ff\n")
    ranges = _ranges(values[mode])
    if ranges is None:
        return fail(f"cut: bad list '{values[mode]}'\n")
    delim = values.get("d", "\t")
    data, errors = read_inputs(sh, "cut", files, stdin)
    out = []
    for line in _lines(data):
        if mode == "f":
            if delim not in line:
                if "s" not in flags:
                    out.append(line)
                continue
            fields = line.split(delim)
            chosen = [f for i, f in enumerate(fields, 1) if any(lo <= i <= hi for lo, hi in ranges)]
            out.append(values.get("O", delim).join(chosen))
        else:
            unit = line.encode() if mode == "b" else line
            picked = [unit[i - 1 : i] for i in range(1, len(unit) + 1) if any(lo <= i <= hi for lo, hi in ranges)]
            joined = b"".join(picked).decode("utf-8", "replace") if mode == "b" else "".join(picked)
            out.append(joined)
    return "".join(line + "\n" for line in out).encode(), "".join(errors).encode(), 1 if errors else 0


def _sort_key(line: str, flags: set[str], key: tuple[int, int] | None, separator: str | None):
    text = line
    if key is not None:
        fields = line.split(separator) if separator is not None else re.findall(r"\s*\S+", line)
        text = (separator or "").join(fields[key[0] - 1 : key[1]]) if key[1] else (separator or "").join(
            fields[key[0] - 1 :]
        )  # fmt: skip
    if "b" in flags:
        text = text.lstrip()
    if "f" in flags:
        text = text.upper()
    if "n" in flags or "g" in flags:
        match = re.match(r"\s*(-?\d+(?:\.\d*)?|-?\.\d+)", text)
        return (float(match.group(1)) if match else 0.0, line)
    if "h" in flags:
        match = re.match(r"\s*(-?\d+(?:\.\d*)?)([KMGTPE]?)", text)
        scale = 1024 ** ("KMGTPE".index(match.group(2)) + 1) if match and match.group(2) else 1
        return (float(match.group(1)) * scale if match else 0.0, line)
    return (text, line)


@command("sort")
def _sort(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``sort [-bfghnruV] [-k N[,M]] [-t SEP] [-o FILE] [FILE...]``."""
    parsed = options(argv, "kto", "bfghnrsu")
    if isinstance(parsed, str):
        return fail(parsed)
    values, flags, files = parsed
    key = None
    if "k" in values:
        match = re.fullmatch(r"(\d+)(?:\.\d+)?[a-zA-Z]*(?:,(\d+)(?:\.\d+)?[a-zA-Z]*)?", values["k"])
        if not match:
            return fail("sort: Unknown key option.\n")
        key = (int(match.group(1)), int(match.group(2)) if match.group(2) else 0)
    data, errors = read_inputs(sh, "sort", files, stdin)
    lines = _lines(data)
    ordered = sorted(lines, key=lambda line: _sort_key(line, flags, key, values.get("t")), reverse="r" in flags)
    if "u" in flags:
        unique, seen = [], set()
        for line in ordered:
            token = _sort_key(line, flags, key, values.get("t"))[0]
            if token not in seen:
                seen.add(token)
                unique.append(line)
        ordered = unique
    text = "".join(line + "\n" for line in ordered).encode()
    if "o" in values:
        try:
            sh.phone.fs.write(sh.path(values["o"]), text)
        except OSError as exc:
            return fail(file_error("sort", values["o"], exc))
        text = b""
    return text, "".join(errors).encode(), 2 if errors else 0


@command("uniq")
def _uniq(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``uniq [-cdiu] [-f N] [-s N] [INPUT [OUTPUT]]``: adjacent repeated lines once (``-c`` counted ``%7d ``)."""
    parsed = options(argv, "fs", "cdiu")
    if isinstance(parsed, str):
        return fail(parsed)
    values, flags, files = parsed
    data, errors = read_inputs(sh, "uniq", files[:1], stdin)
    skip_fields, skip_chars = int(values.get("f", 0)), int(values.get("s", 0))

    def key(line: str) -> str:
        text = re.sub(rf"^(\s*\S+){{{skip_fields}}}", "", line) if skip_fields else line
        text = text[skip_chars:]
        return text.lower() if "i" in flags else text

    groups: list[list[str]] = []
    for line in _lines(data):
        if groups and key(groups[-1][0]) == key(line):
            groups[-1].append(line)
        else:
            groups.append([line])
    out = []
    for group in groups:
        if ("d" in flags and len(group) < 2) or ("u" in flags and len(group) > 1):
            continue
        out.append((f"{len(group):7d} " if "c" in flags else "") + group[0] + "\n")
    text = "".join(out).encode()
    if len(files) > 1:
        sh.phone.fs.write(sh.path(files[1]), text)
        text = b""
    return text, "".join(errors).encode(), 1 if errors else 0


@command("seq")
def _seq(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``seq [-w] [-s SEP] [-f FMT] [FIRST [INC]] LAST``.

    Whole numbers are printed as they are; others (or with an option) in toybox's ``%0{width}.{decimals}f``.
    """
    parsed = options(argv, "fs", "w")
    if isinstance(parsed, str):
        return fail(parsed)
    values, flags, numbers = parsed
    if not 1 <= len(numbers) <= 3:
        return fail("seq: Needs 1-3 arguments\n")
    bad = next((n for n in numbers if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)", n)), None)
    if bad is not None:
        return fail(f"seq: not a number: '{bad}'\n")
    parsed_numbers = [float(n) for n in numbers]
    last = parsed_numbers[-1]
    first = parsed_numbers[0] if len(numbers) >= 2 else 1.0
    step = parsed_numbers[1] if len(numbers) == 3 else 1.0
    precision = max(len(n.partition(".")[2]) for n in numbers)
    if not step:
        return ok()
    whole = all(float(x).is_integer() for x in (first, step, last + step))
    if whole and not flags and not values:
        out, value = [], int(first)
        while (step > 0 and value <= last) or (step < 0 and value >= last):
            out.append(str(value))
            value += int(step)
        return "".join(f"{n}\n" for n in out).encode(), b"", 0
    width = max(len(f"{abs(x):.{precision}f}") for x in (first, step, last))
    form = values.get("f", f"%0{width}.{precision}f")
    out, index = [], 0
    while True:
        value = first + index * step
        if (step < 0 and value < last) or (step > 0 and value > last):
            break
        out.append(form % value)
        index += 1
    return (values.get("s", "\n").join(out) + "\n").encode() if out else b"", b"", 0


@command("tee")
def _tee(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``tee [-a] [FILE...]``: stdin to stdout and to each file."""
    parsed = options(argv, "", "ai")
    if isinstance(parsed, str):
        return fail(parsed)
    _, flags, files = parsed
    data = sh.read_stdin(stdin)
    errors = []
    for path in files:
        try:
            sh.phone.fs.write(sh.path(path), data, append="a" in flags)
        except OSError as exc:
            errors.append(file_error("tee", path, exc))
    return data, "".join(errors).encode(), 1 if errors else 0

r"""Toybox's ``sed`` (``toys/posix/sed.c``): the stream editor, on files, stdin or in place (``-i``).

Addresses (``N``, ``$``, ``/RE/``, ``\cREc``, ``A,B``, ``A,+N``, ``first~step``, ``!``),
``{ }`` blocks and the commands ``s`` (flags ``g``, ``p``, ``N``, ``i``/``I``), ``y``, ``p``,
``P``, ``d``, ``D``, ``q``, ``Q``, ``=``, ``a``, ``i``, ``c``, ``n``, ``N``, ``h``, ``H``,
``g``, ``G``, ``x``, ``l``, ``b``, ``t``, ``T`` and ``:label``. Regular expressions are
POSIX basic ones (extended with ``-E``/``-r``), turned into Python's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from androidrl.virtual.shell.commands.toybox.lib import file_error
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail

_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
            "space": r"\s", "blank": r" \t", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9A-Fa-f"}  # fmt: skip


class SedError(Exception):
    """A script toybox's sed refuses: its message."""


def to_python(regex: str, extended: bool) -> str:
    """A POSIX basic (or, ``extended``, extended) regular expression as Python's."""
    out, i, n = [], 0, len(regex)
    while i < n:
        c = regex[i]
        if c == "[":
            end = i + 1
            if end < n and regex[end] in "^!":
                end += 1
            if end < n and regex[end] == "]":
                end += 1
            while end < n and regex[end] != "]":
                end = regex.index(":]", end) + 2 if regex.startswith("[:", end) and ":]" in regex[end:] else end + 1
            body = regex[i + 1 : end]
            body = re.sub(r"\[:(\w+):\]", lambda m: _CLASSES.get(m.group(1), ""), body)
            body = "^" + body[1:] if body.startswith("!") else body
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
            continue
        if c == "\\" and i + 1 < n:
            nxt = regex[i + 1]
            i += 2
            if not extended and nxt in "(){}+?|":
                out.append(nxt)
            elif nxt in "<>":
                out.append(r"\b")
            elif nxt == "n":
                out.append("\n")
            elif nxt == "t":
                out.append("\t")
            else:
                out.append("\\" + nxt)
            continue
        if not extended and c in "(){}+?|":
            out.append("\\" + c)
        elif c == "*" and (not out or out[-1] in ("(", "^", "|")) and not extended:
            out.append(r"\*")
        else:
            out.append(c)
        i += 1
    return "".join(out)


@dataclass
class _Command:
    name: str
    first: object = None  # an address: int, "$", a compiled regex, ("step", a, b)
    last: object = None
    negate: bool = False
    arg: object = None
    active: bool = False  # inside its range
    end_line: int = 0  # for A,+N ranges
    target: int = 0  # where a block's `{` jumps when its address does not match, or a branch goes


@dataclass
class _Program:
    commands: list[_Command] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)


class _Parser:
    def __init__(self, script: str, extended: bool, ignore_case: bool = False) -> None:
        self.s, self.i, self.extended = script, 0, extended

    def fail(self) -> SedError:
        at = min(self.i, len(self.s) - 1)
        return SedError(f"bad pattern '{self.s}'@{self.i + 1} ({self.s[at] if self.s else ''})")

    def skip(self, chars: str = " \t") -> None:
        while self.i < len(self.s) and self.s[self.i] in chars:
            self.i += 1

    def delimited(self, delim: str) -> str:
        out = []
        while self.i < len(self.s) and self.s[self.i] != delim:
            c = self.s[self.i]
            if c == "\\" and self.i + 1 < len(self.s):
                nxt = self.s[self.i + 1]
                out.append(nxt if nxt == delim and delim != "\\" else "\\" + nxt)
                self.i += 2
                continue
            out.append(c)
            self.i += 1
        if self.i >= len(self.s):
            raise self.fail()
        self.i += 1
        return "".join(out)

    def regex(self, delim: str, flags: int = 0) -> re.Pattern:
        text = self.delimited(delim)
        try:
            return re.compile(to_python(text, self.extended), flags)
        except (re.error, ValueError):
            raise SedError(f"bad regex '{text}'") from None

    def address(self) -> object:
        s = self.s
        if self.i < len(s) and s[self.i].isdigit():
            match = re.match(r"(\d+)(?:~(\d+))?", s[self.i :])
            self.i += match.end()
            return ("step", int(match.group(1)), int(match.group(2))) if match.group(2) else int(match.group(1))
        if s.startswith("$", self.i):
            self.i += 1
            return "$"
        if s.startswith("/", self.i) or s.startswith("\\", self.i):
            delim = "/" if s[self.i] == "/" else s[self.i + 1]
            self.i += 1 if delim == "/" else 2
            pattern = self.regex(delim)
            if s.startswith("I", self.i):
                self.i += 1
                pattern = re.compile(pattern.pattern, re.I)
            return pattern
        return None

    def parse(self, program: _Program) -> None:
        blocks: list[int] = []
        s = self.s
        while True:
            self.skip(" \t\n;")
            if self.i >= len(s):
                break
            cmd = _Command("")
            cmd.first = self.address()
            if cmd.first is not None and s.startswith(",", self.i):
                self.i += 1
                if s.startswith("+", self.i):
                    match = re.match(r"\+(\d+)", s[self.i :])
                    self.i += match.end()
                    cmd.last = ("plus", int(match.group(1)))
                else:
                    cmd.last = self.address()
                    if cmd.last is None:
                        raise self.fail()
            self.skip()
            while s.startswith("!", self.i):
                cmd.negate = not cmd.negate
                self.i += 1
                self.skip()
            if self.i >= len(s):
                raise self.fail()
            cmd.name = s[self.i]
            self.i += 1
            self.argument(cmd, program, blocks)
            program.commands.append(cmd)
        if blocks:
            raise SedError("no }")

    def argument(self, cmd: _Command, program: _Program, blocks: list[int]) -> None:
        s, name = self.s, cmd.name
        if name == "{":
            blocks.append(len(program.commands))
        elif name == "}":
            if not blocks:
                raise self.fail()
            program.commands[blocks.pop()].target = len(program.commands) + 1
        elif name == "s":
            if self.i >= len(s):
                raise self.fail()
            delim = s[self.i]
            self.i += 1
            pattern_text = self.delimited(delim)
            replacement = self.delimited(delim)
            flags = re.match(r"[gpiI0-9]*", s[self.i :]).group()
            self.i += len(flags)
            try:
                pattern = re.compile(to_python(pattern_text, self.extended), re.I if set(flags) & {"i", "I"} else 0)
            except (re.error, ValueError):
                raise SedError(f"bad regex '{pattern_text}'") from None
            count = int(re.sub(r"\D", "", flags) or 0)
            cmd.arg = (pattern, _replacement(replacement), "g" in flags, "p" in flags, count)
        elif name == "y":
            delim = s[self.i]
            self.i += 1
            source, target = self.delimited(delim), self.delimited(delim)
            source, target = _unescape(source), _unescape(target)
            if len(source) != len(target):
                raise SedError("y: strings differ in length")
            cmd.arg = str.maketrans(source, target)
        elif name in "aic":
            self.skip()
            if s.startswith("\\", self.i):
                self.i += 1
                self.skip("\n")
            end = s.find("\n", self.i)
            end = len(s) if end < 0 else end
            cmd.arg = _unescape(s[self.i : end])
            self.i = end
        elif name in "btT:":
            self.skip()
            match = re.match(r"[^;\n}]*", s[self.i :])
            label = match.group().strip()
            self.i += match.end()
            if name == ":":
                if not label:
                    raise SedError("no label")
                program.labels[label] = len(program.commands)
            cmd.arg = label
        elif name in "qQ":
            self.skip()
            match = re.match(r"\d*", s[self.i :])
            self.i += match.end()
            cmd.arg = int(match.group() or 0)
        elif name not in "pPdDnN=hHgGxlz":
            self.i -= 1
            raise self.fail()


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _replacement(text: str) -> list[str | int]:
    """A replacement as pieces: text, or a group number (0 for ``&``)."""
    pieces: list[str | int] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            pieces.append(int(nxt) if nxt.isdigit() else {"n": "\n", "t": "\t"}.get(nxt, nxt))
            i += 2
        elif c == "&":
            pieces.append(0)
            i += 1
        else:
            pieces.append(c)
            i += 1
    return pieces


def _expand(pieces: list[str | int], match: re.Match) -> str:
    return "".join(p if isinstance(p, str) else (match.group(p) or "") for p in pieces)


class _Run:
    """One run of a program over lines."""

    def __init__(self, program: _Program, quiet: bool) -> None:
        self.program, self.quiet = program, quiet
        self.out: list[str] = []
        self.hold = ""
        self.quit = False
        self.appended: list[str] = []  # what `a` adds after this cycle's line

    def matches(self, address: object, line: str, number: int, last: bool) -> bool:
        if isinstance(address, int):
            return number == address
        if address == "$":
            return last
        if isinstance(address, tuple):
            return (
                number >= address[1] and (number - address[1]) % address[2] == 0 if address[2] else number == address[1]
            )
        return address.search(line) is not None

    def selected(self, cmd: _Command, line: str, number: int, last: bool) -> bool:
        if cmd.first is None:
            hit = True
        elif cmd.last is None:
            hit = self.matches(cmd.first, line, number, last)
        elif cmd.active:
            end = cmd.last
            if isinstance(end, tuple) and end[0] == "plus":
                done = number >= cmd.end_line
            elif isinstance(end, int):
                done = number >= end
            else:
                done = self.matches(end, line, number, last)
            cmd.active = not done
            hit = True
        elif self.matches(cmd.first, line, number, last):
            end = cmd.last
            if isinstance(end, tuple) and end[0] == "plus":
                cmd.end_line = number + end[1]
                cmd.active = end[1] > 0
            else:
                cmd.active = not (isinstance(end, int) and end <= number)
            hit = True
        else:
            hit = False
        return hit != cmd.negate

    def run(self, lines: list[str]) -> None:
        queue = list(lines)
        number = 0
        while queue and not self.quit:
            space = queue.pop(0)
            number += 1
            self.appended = []
            space, printed = self.cycle(space, queue, number)
            if printed and not self.quiet:
                self.out.append(space + "\n")
            self.out.extend(self.appended)  # `a` text comes after the line

    def cycle(self, space: str, queue: list[str], number: int) -> tuple[str, bool]:
        commands, pc, replaced, appended = self.program.commands, 0, False, self.appended
        while pc < len(commands):
            cmd = commands[pc]
            pc += 1
            last = not queue
            if cmd.name == "}" or cmd.name == ":":
                continue
            if not self.selected(cmd, space, number, last):
                if cmd.name == "{":
                    pc = cmd.target
                continue
            name = cmd.name
            if name == "s":
                pattern, pieces, every, show, nth = cmd.arg
                count, result, position = 0, [], 0
                for match in pattern.finditer(space):
                    count += 1
                    if (nth and count < nth) or (not every and count > max(nth, 1)):
                        continue
                    result.append(space[position : match.start()] + _expand(pieces, match))
                    position = match.end()
                    replaced = True
                    if not every:
                        break
                if result:
                    space = "".join(result) + space[position:]
                    if show:
                        self.out.append(space + "\n")
            elif name == "y":
                space = space.translate(cmd.arg)
            elif name == "p":
                self.out.append(space + "\n")
            elif name == "P":
                self.out.append(space.split("\n")[0] + "\n")
            elif name in "dD":
                if name == "D" and "\n" in space:
                    queue.insert(0, space.split("\n", 1)[1])
                return space, False
            elif name in "qQ":
                self.quit = True
                if name == "Q":
                    return space, False
                break
            elif name == "=":
                self.out.append(f"{number}\n")
            elif name == "a":
                appended.append(cmd.arg + "\n")
            elif name == "i":
                self.out.append(cmd.arg + "\n")
            elif name == "c":
                if cmd.last is None or not cmd.active:
                    self.out.append(cmd.arg + "\n")
                return space, False
            elif name in "nN":
                if not queue:
                    if name == "N":
                        break
                    break
                if name == "n" and not self.quiet:
                    self.out.append(space + "\n")
                nxt = queue.pop(0)
                number += 1
                space = space + "\n" + nxt if name == "N" else nxt
            elif name == "h":
                self.hold = space
            elif name == "H":
                self.hold += "\n" + space
            elif name == "g":
                space = self.hold
            elif name == "G":
                space += "\n" + self.hold
            elif name == "x":
                space, self.hold = self.hold, space
            elif name == "z":
                space = ""
            elif name == "l":
                self.out.append(space.encode("unicode_escape").decode() + "$\n")
            elif name in "btT":
                jump = name == "b" or (name == "t" and replaced) or (name == "T" and not replaced)
                if name in "tT":
                    replaced = False
                if jump:
                    if cmd.arg and cmd.arg not in self.program.labels:
                        raise SedError(f"can't find label for jump to '{cmd.arg}'")
                    pc = self.program.labels[cmd.arg] if cmd.arg else len(commands)
        return space, True


@command("sed")
def _sed(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``sed [-inrE] [-e SCRIPT]... [-f FILE] [SCRIPT] [FILE...]``."""
    args, scripts, quiet, in_place, extended, files = argv[1:], [], False, None, False, []
    while args:
        arg = args.pop(0)
        if arg == "--":
            files += args
            break
        if arg in ("-e", "-f", "--expression", "--file"):
            if not args:
                return fail(f"sed: Missing argument to {arg}\n")
            value = args.pop(0)
            if arg in ("-f", "--file"):
                try:
                    value = sh.phone.fs.read(sh.path(value)).decode("utf-8", "replace")
                except OSError as exc:
                    return fail(file_error("sed", value, exc))
            scripts.append(value)
        elif arg.startswith("-i") or arg.startswith("--in-place"):
            in_place = arg[2:] if arg.startswith("-i") else arg.partition("=")[2]
        elif arg.startswith("-") and len(arg) > 1 and all(c in "nrEsuz" for c in arg[1:]):
            quiet = quiet or "n" in arg
            extended = extended or bool(set(arg[1:]) & {"r", "E"})
        elif arg.startswith("-") and len(arg) > 1:
            return fail(f"sed: Unknown option '{arg[1:2]}' (see \"sed --help\")\n")
        else:
            files.append(arg)
    if not scripts:
        if not files:
            return fail("sed: no pattern\n")
        scripts.append(files.pop(0))
    try:
        program = _Program()
        _Parser("\n".join(scripts), extended).parse(program)
    except SedError as error:
        return fail(f"sed: {error}\n")
    if in_place is not None:
        if not files:
            return fail("sed: -i on stdin\n")
        errors = []
        for path in files:
            full = sh.path(path)
            try:
                text = sh.phone.fs.read(full).decode("utf-8", "replace")
                output = _apply(program, text, quiet)
                if in_place:
                    sh.phone.fs.write(full + in_place, text.encode())
                sh.phone.fs.write(full, output.encode())
            except OSError as exc:
                errors.append(file_error("sed", path, exc))
            except SedError as error:
                return fail(f"sed: {error}\n")
        return b"", "".join(errors).encode(), 1 if errors else 0
    chunks, errors = [], []
    for path in files or ["-"]:
        if path == "-":
            chunks.append(sh.read_stdin(stdin))
            continue
        try:
            chunks.append(sh.phone.fs.read(sh.path(path)))
        except OSError as exc:
            errors.append(file_error("sed", path, exc))
    try:
        output = _apply(program, b"".join(chunks).decode("utf-8", "replace"), quiet)
    except SedError as error:
        return fail(f"sed: {error}\n")
    return output.encode(), "".join(errors).encode(), 1 if errors else 0


def _apply(program: _Program, text: str, quiet: bool) -> str:
    for cmd in program.commands:
        cmd.active = False
    run = _Run(program, quiet)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    run.run(lines)
    return "".join(run.out)

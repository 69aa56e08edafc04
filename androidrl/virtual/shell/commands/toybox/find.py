"""Toybox's ``find`` and ``xargs`` (``toys/posix/find.c``, ``xargs.c``).

``find`` walks the phone's file system (a directory before what it holds, names sorted) and
tests each path with ``-name``/``-iname``, ``-path``, ``-type``, ``-maxdepth``/``-mindepth``,
``-newer``, ``-mtime``/``-mmin``, ``-size``, ``-empty``, ``-perm``, combined with ``!``,
``-a``, ``-o`` and parentheses; it acts with ``-print``, ``-print0``, ``-delete``, ``-prune``
and ``-exec CMD {} ;``/``+``. The commands ``-exec`` and ``xargs`` run are the shell's, and
their output goes out in order with the paths ``find`` prints.
"""

from __future__ import annotations

import posixpath
import re
import shlex

from androidrl.virtual.shell import patterns
from androidrl.virtual.shell.commands.toybox.lib import owner
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail

_TESTS_WITH_ARG = {"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-type", "-newer", "-mtime",
                   "-mmin", "-size", "-perm", "-maxdepth", "-mindepth", "-user", "-group", "-regex"}  # fmt: skip
_ACTIONS = {"-print", "-print0", "-delete", "-exec", "-execdir", "-ok"}


class _Bad(Exception):
    """A find expression toybox would refuse: its message."""


def _parse(tokens: list[str]) -> tuple:
    """The expression as a tree: ("or", a, b), ("and", a, b), ("not", a), or (primary, argument)."""
    position = [0]

    def peek() -> str | None:
        return tokens[position[0]] if position[0] < len(tokens) else None

    def take() -> str:
        position[0] += 1
        return tokens[position[0] - 1]

    def or_expr():
        left = and_expr()
        while peek() in ("-o", "-or"):
            take()
            left = ("or", left, and_expr())
        return left

    def and_expr():
        left = not_expr()
        while peek() is not None and peek() not in ("-o", "-or", ")"):
            if peek() in ("-a", "-and"):
                take()
            left = ("and", left, not_expr())
        return left

    def not_expr():
        if peek() in ("!", "-not"):
            take()
            return ("not", not_expr())
        return primary()

    def primary():
        token = peek()
        if token is None:
            raise _Bad("missing argument")
        take()
        if token == "(":
            inner = or_expr()
            if peek() != ")":
                raise _Bad("bad arg '('")
            take()
            return inner
        if token in ("-exec", "-execdir", "-ok"):
            words = []
            while peek() is not None and peek() not in (";", "+"):
                words.append(take())
            if peek() is None:
                raise _Bad(f"'{token}' needs 1 arg")
            end = take()
            if end == "+" and (not words or words[-1] != "{}"):
                raise _Bad("-exec without {} +")
            return (token, (words, end))
        if token in _TESTS_WITH_ARG:
            if peek() is None:
                raise _Bad(f"'{token}' needs 1 arg")
            return (token, take())
        if token in ("-print", "-print0", "-delete", "-prune", "-empty", "-true", "-false", "-depth", "-xdev",
                     "-follow", "-quit"):  # fmt: skip
            return (token, None)
        raise _Bad(f"bad arg '{token}'")

    tree = or_expr() if tokens else ("-true", None)
    if peek() is not None:
        raise _Bad(f"bad arg '{peek()}'")
    return tree


def _has_action(tree: tuple) -> bool:
    if tree[0] in ("or", "and"):
        return _has_action(tree[1]) or _has_action(tree[2])
    if tree[0] == "not":
        return _has_action(tree[1])
    return tree[0] in _ACTIONS


def _number_test(spec: str, value: float) -> bool:
    """``+N`` (more than N), ``-N`` (less), ``N`` (exactly)."""
    match = re.fullmatch(r"([-+]?)(\d+)", spec)
    if not match:
        raise _Bad(f"{spec} not [+-]N")
    n = int(match.group(2))
    return value > n if match.group(1) == "+" else value < n if match.group(1) == "-" else value == n


class _Finder:
    def __init__(self, sh: Shell, tree: tuple) -> None:
        self.sh, self.fs, self.tree = sh, sh.phone.fs, tree
        self.batches: dict[int, tuple[list[str], list[str]]] = {}
        self.status = 0
        self.pruned = False

    def out(self, text: str) -> None:
        self.sh.io.out.append(text.encode())

    def test(self, node: tuple, path: str, shown: str, depth: int) -> bool:
        kind, arg = node[0], node[1] if len(node) > 1 else None
        if kind == "or":
            return self.test(node[1], path, shown, depth) or self.test(node[2], path, shown, depth)
        if kind == "and":
            return self.test(node[1], path, shown, depth) and self.test(node[2], path, shown, depth)
        if kind == "not":
            return not self.test(arg, path, shown, depth)
        fs = self.fs
        st = fs.stat(path)
        name = posixpath.basename(shown.rstrip("/")) or shown
        if kind in ("-name", "-iname"):
            pattern = arg.lower() if kind == "-iname" else arg
            return patterns.matches(pattern, name.lower() if kind == "-iname" else name)
        if kind in ("-path", "-wholename", "-ipath", "-iwholename"):
            lower = kind.startswith("-i")
            return patterns.matches(arg.lower() if lower else arg, shown.lower() if lower else shown)
        if kind == "-regex":
            return re.fullmatch(arg, shown) is not None
        if kind == "-type":
            letters = {"d": 0o040000, "f": 0o100000, "c": 0o020000, "b": 0o060000, "l": 0o120000, "p": 0o010000,
                       "s": 0o140000}  # fmt: skip
            if any(t not in letters for t in arg.split(",")):
                raise _Bad(f"bad -type '{arg}'")
            return any(st.mode & 0o170000 == letters[t] for t in arg.split(","))
        if kind in ("-mtime", "-mmin"):
            age = self.sh.phone.clock.now() - st.mtime
            return _number_test(arg, int(age // (86400 if kind == "-mtime" else 60)))
        if kind == "-newer":
            other = self.sh.path(arg)
            if not fs.exists(other):
                raise _Bad(f"'{arg}': No such file or directory")
            return st.mtime > fs.stat(other).mtime
        if kind == "-size":
            match = re.fullmatch(r"([-+]?\d+)([bckwMG]?)", arg)
            if not match:
                raise _Bad(f"bad -size '{arg}'")
            unit = {"": 512, "b": 512, "c": 1, "k": 1024, "w": 2, "M": 1 << 20, "G": 1 << 30}[match.group(2)]
            return _number_test(match.group(1), -(-st.size // unit))
        if kind == "-empty":
            return not fs.listdir(path) if fs.is_dir(path) else st.size == 0
        if kind == "-perm":
            mode = int(arg.lstrip("-/"), 8)
            bits = st.mode & 0o7777
            return bits & mode == mode if arg[0] == "-" else bool(bits & mode) if arg[0] == "/" else bits == mode
        if kind in ("-user", "-group"):
            uid, user, gid, group = owner(path)
            return arg in ((user, str(uid)) if kind == "-user" else (group, str(gid)))
        if kind in ("-maxdepth", "-mindepth", "-depth", "-xdev", "-follow", "-true"):
            return True
        if kind == "-false":
            return False
        if kind == "-prune":
            self.pruned = True
            return True
        if kind == "-print":
            self.out(shown + "\n")
            return True
        if kind == "-print0":
            self.out(shown + "\0")
            return True
        if kind == "-delete":
            try:
                fs.remove(path, recursive=False) if not fs.is_dir(path) or not fs.listdir(path) else None
            except OSError as exc:
                self.sh.io.err.append(f"find: '{shown}': {exc.strerror}\n".encode())
                self.status = 1
            return True
        if kind in ("-exec", "-execdir", "-ok"):
            words, end = arg
            if end == "+":
                self.batches.setdefault(id(node), (words, []))[1].append(shown)
                return True
            argv = [w.replace("{}", shown) for w in words]
            return self.sh.run_utility(argv) == 0
        raise _Bad(f"bad arg '{kind}'")

    def flush(self) -> None:
        for words, paths in self.batches.values():
            if paths:
                self.sh.run_utility([*words[:-1], *paths])
        self.batches.clear()


def _limit(tokens: list[str], name: str) -> int | None:
    if name in tokens:
        value = tokens[tokens.index(name) + 1]
        if not value.isdigit():
            raise _Bad(f"bad {name} '{value}'")
        return int(value)
    return None


def _post_order(fs, path: str, shown: str, depth: int, max_depth: int | None):
    """(path, shown, depth) of ``path`` and what it holds, children first (``-depth``)."""
    if fs.is_dir(path) and (max_depth is None or depth < max_depth):
        for child in fs.listdir(path):
            yield from _post_order(fs, posixpath.join(path, child), posixpath.join(shown, child), depth + 1, max_depth)
    yield path, shown, depth


@command("find")
def _find(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``find [-HL] [DIR...] [EXPRESSION]`` (see the module docstring)."""
    args = [a for a in argv[1:] if a not in ("-H", "-L")]
    starts = []
    while args and not args[0].startswith("-") and args[0] not in ("!", "("):
        starts.append(args.pop(0))
    try:
        tree = _parse(args)
        max_depth, min_depth = _limit(args, "-maxdepth"), _limit(args, "-mindepth") or 0
    except _Bad as bad:
        return fail(f"find: {bad}\n")
    if not _has_action(tree):
        tree = ("and", tree, ("-print", None))
    finder = _Finder(sh, tree)
    fs = sh.phone.fs
    try:
        for start in starts or ["."]:
            full = sh.path(start)
            if not fs.exists(full):
                sh.io.err.append(f"find: '{start}': No such file or directory\n".encode())
                finder.status = 1
                continue
            if "-depth" in args:  # each directory after what it holds (-prune then does nothing)
                for path, shown, depth in _post_order(fs, full, start, 0, max_depth):
                    if depth >= min_depth:
                        finder.test(finder.tree, path, shown, depth)
                continue
            stack = [(full, start, 0)]
            while stack:
                path, shown, depth = stack.pop()
                finder.pruned = False
                if depth >= min_depth:
                    finder.test(finder.tree, path, shown, depth)
                if (
                    fs.exists(path)
                    and fs.is_dir(path)
                    and not finder.pruned
                    and (max_depth is None or depth < max_depth)
                ):
                    children = fs.listdir(path)
                    stack += [
                        (posixpath.join(path, c), posixpath.join(shown, c), depth + 1) for c in reversed(children)
                    ]
        finder.flush()
    except _Bad as bad:
        return fail(f"find: {bad}\n")
    return b"", b"", finder.status


@command("xargs")
def _xargs(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``xargs [-0rt] [-n N] [-I REPL] [-E EOF] [COMMAND...]`` (``echo`` by default)."""
    args, null, no_empty, trace, per, replace, eof = argv[1:], False, False, False, None, None, None
    while args and args[0].startswith("-") and len(args[0]) > 1:
        flag = args.pop(0)
        if flag == "--":
            break
        letter, value = flag[1], flag[2:]
        if letter in "nIEs" and not value:
            if not args:
                return fail(f"xargs: Missing argument to -{letter}\n")
            value = args.pop(0)
        if letter == "0":
            null = True
        elif letter == "r":
            no_empty = True
        elif letter == "t":
            trace = True
        elif letter == "n":
            per = int(value) if value.isdigit() and int(value) > 0 else None
            if per is None:
                return fail(f"xargs: -n {value}: bad number\n")
        elif letter == "I":
            replace = value
        elif letter == "E":
            eof = value
        elif letter != "s":
            return fail(f"xargs: Unknown option '{letter}' (see \"xargs --help\")\n")
    command_words = args or ["echo"]
    text = sh.read_stdin(stdin).decode("utf-8", "replace")
    if replace is not None:
        items = [line for line in text.split("\n") if line.strip()]
    elif null:
        items = [item for item in text.split("\0") if item]
    else:
        try:
            items = shlex.split(text, posix=True)
        except ValueError:
            return fail("xargs: unterminated quote\n")
    if eof is not None and eof in items:
        items = items[: items.index(eof)]
    if not items and (no_empty or replace is not None):
        return b"", b"", 0
    if replace is not None:
        runs = [[w.replace(replace, item) for w in command_words] for item in items]
    else:
        size = per or max(1, len(items))
        runs = [command_words + items[i : i + size] for i in range(0, max(1, len(items)), size)]
    status = 0
    for run in runs:
        if trace:
            sh.io.err.append((" ".join(run) + "\n").encode())
        code = sh.run_utility(run)
        if code == 255:
            return b"", f"xargs: {run[0]}: exited with status 255; aborting\n".encode(), 124
        if code in (126, 127):
            return b"", b"", code
        if code:
            status = 123
    return b"", b"", status

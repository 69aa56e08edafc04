"""Toybox's file tools: ``cat``, ``ls``, ``rm``, ``mkdir``, ``touch``, ``cp`` and ``mv``.

They print ``tool: path: strerror`` and exit 1, as toybox does.
"""

from __future__ import annotations

import posixpath
import time

from androidrl.virtual.shell.commands.toybox.lib import file_error, flags_and_args
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.shell.stdin import Stdin


@command("cat")
def _cat(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    paths = [a for a in argv[1:] if a != "-"] if len(argv) > 1 else []
    if not paths:
        return _cat_stdin(sh, stdin)
    if len(paths) == 1:  # the stored bytes themselves: a raw screenshot (10 MB) is never copied
        try:
            return sh.phone.fs.read(sh.path(paths[0])), b"", 0
        except OSError as exc:
            return fail(file_error("cat", paths[0], exc))
    out: list[bytes] = []
    err, code = [], 0
    for path in paths:
        try:
            out.append(sh.phone.fs.read(sh.path(path)))
        except OSError as exc:
            err.append(file_error("cat", path, exc))
            code = 1
    return b"".join(out), "".join(err).encode(), code


def _cat_stdin(sh: Shell, stdin: bytes | Stdin) -> Result:
    """``cat`` of its input: each chunk passed on as it arrives when the output goes straight to the client."""
    kept = [chunk for chunk in sh.stdin_chunks(stdin) if not sh.stream(chunk)]
    return b"".join(kept), b"", 0


@command("ls")
def _ls(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, paths = flags_and_args(argv, "laR1dhs")
    fs = sh.phone.fs
    out, err, code = [], [], 0
    for path in paths or ["."]:
        full = sh.path(path)
        if not fs.exists(full):
            err.append(f"ls: {path}: No such file or directory\n")
            code = 1
            continue
        if fs.is_dir(full) and "d" not in flags:
            names = fs.listdir(full)
            if "a" in flags:
                names = [".", "..", *names]
            if len(paths) > 1:
                out.append(f"{path}:\n")
            for name in names:
                out.append(_ls_line(fs, posixpath.join(full, name), name, "l" in flags))
        else:
            out.append(_ls_line(fs, full, path, "l" in flags))
    return "".join(out).encode(), "".join(err).encode(), code


def _ls_line(fs, full: str, name: str, long: bool) -> str:
    if not long:
        return name + "\n"
    st = fs.stat(fs.normalize(full))
    kind = "d" if fs.is_dir(fs.normalize(full)) else "-"
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(st.mtime))
    return f"{kind}rw-rw---- 1 shell shell {st.size:>8} {stamp} {name}\n"


@command("rm")
def _rm(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, paths = flags_and_args(argv, "rRfv")
    if not paths:
        return fail("rm: Needs 1 argument\n") if "f" not in flags else ok()
    err, code = [], 0
    for path in paths:
        try:
            sh.phone.fs.remove(sh.path(path), recursive=bool(flags & {"r", "R"}))
        except FileNotFoundError as exc:
            if "f" not in flags:
                err.append(file_error("rm", path, exc))
                code = 1
        except OSError as exc:
            err.append(file_error("rm", path, exc))
            code = 1
    return b"", "".join(err).encode(), code


@command("mkdir")
def _mkdir(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags, paths = flags_and_args(argv, "pv")
    if not paths:
        return fail("mkdir: Needs 1 argument\n")
    err, code = [], 0
    for path in paths:
        try:
            sh.phone.fs.mkdir(sh.path(path), parents="p" in flags)
        except OSError as exc:
            err.append(f"mkdir: '{path}': {exc.strerror}\n")
            code = 1
    return b"", "".join(err).encode(), code


@command("touch")
def _touch(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    err, code = [], 0
    for path in [a for a in argv[1:] if not a.startswith("-")]:
        full = sh.path(path)
        try:
            if not sh.phone.fs.exists(full):
                sh.phone.fs.write(full, b"")
        except OSError as exc:
            err.append(f"touch: '{path}': {exc.strerror}\n")
            code = 1
    return b"", "".join(err).encode(), code


@command("cp", "mv")
def _cp(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    tool = argv[0]
    _, args = flags_and_args(argv, "rRfp")
    if len(args) != 2:
        return fail(f"{tool}: Needs 2 arguments\n")
    fs = sh.phone.fs
    src, dst = sh.path(args[0]), sh.path(args[1])
    if fs.is_dir(dst):
        dst = posixpath.join(dst, posixpath.basename(src))
    try:
        fs.write(dst, fs.read(src))
        if tool == "mv":
            fs.remove(src)
    except OSError as exc:
        return fail(file_error(tool, args[0], exc))
    return ok()

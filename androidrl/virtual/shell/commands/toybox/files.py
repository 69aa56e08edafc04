"""Toybox's file tools: ``cat``, ``ls``, ``chmod``, ``rm``, ``mkdir``, ``touch``, ``cp`` and ``mv``.

They print ``tool: path: strerror`` and exit 1, as toybox does.
"""

from __future__ import annotations

import posixpath

from androidrl.virtual.shell.commands.toybox.lib import file_error, flags_and_args, mode_string, owner, parse_mode, walk
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
    """Toybox ``ls [-1aAdlnpRs] [FILE...]``: files first, then each directory (``DIR:`` headers when several).

    ``-l`` is toybox's long format (``--time-style=long-iso``, in the phone's time zone); ``-R``
    lists each directory's subdirectories after it; ``-p`` marks directories with ``/``.
    """
    flags, paths = flags_and_args(argv, "laAR1dsnp")
    fs = sh.phone.fs
    out, err, code = [], [], 0
    files, dirs = [], []
    for path in paths or ["."]:
        full = sh.path(path)
        if not fs.exists(full):
            err.append(f"ls: {path}: No such file or directory\n")
            code = 1
        elif fs.is_dir(full) and "d" not in flags:
            dirs.append((path, full))
        else:
            files.append((path, full))
    if files:
        out.append(_listing(sh, files, flags, total=False))
    index = 0
    while dirs:
        path, full = dirs.pop(0)
        names = fs.listdir(full)
        if "a" in flags or "A" in flags:
            names = ([".", ".."] if "a" in flags else []) + names
        elif any(n.startswith(".") for n in names):
            names = [n for n in names if not n.startswith(".")]
        if len(paths) > 1 or files or "R" in flags:
            out.append(("\n" if files or index else "") + f"{path}:\n")
        entries = [(name, fs.normalize(posixpath.join(full, name))) for name in names]
        out.append(_listing(sh, entries, flags, total=True))
        if "R" in flags:  # depth first: this directory's subdirectories next
            below = [(posixpath.join(path, n), e) for n, e in entries if n not in (".", "..") and fs.is_dir(e)]
            dirs[:0] = below
        index += 1
    return "".join(out).encode(), "".join(err).encode(), code


def _listing(sh: Shell, entries: list[tuple[str, str]], flags: set[str], total: bool) -> str:
    fs = sh.phone.fs
    if "p" in flags:
        entries = [(name + ("/" if fs.is_dir(full) and not name.endswith("/") else ""), full) for name, full in entries]
    if not flags & {"l", "n", "s"}:
        return "".join(name + "\n" for name, _ in entries)
    zone = sh.phone.getprop("persist.sys.timezone")
    rows = []
    blocks = 0
    for name, full in entries:
        st = fs.stat(full)
        kblocks = 4 if st.mode & 0o040000 else (st.size + 4095) // 4096 * 4
        blocks += kblocks
        uid, user, gid, group = owner(full)
        if "n" in flags:
            user, group = str(uid), str(gid)
        stamp = sh.phone.clock.local(st.mtime, timezone=zone).strftime("%Y-%m-%d %H:%M")
        links = 2 if st.mode & 0o040000 else 1
        rows.append((kblocks, mode_string(st.mode), str(links), user, group, str(st.size), stamp, name))
    if not flags & {"l", "n"}:
        width = max((len(str(r[0])) for r in rows), default=0)
        head = f"total {blocks}\n" if total else ""
        return head + "".join(f"{r[0]:>{width}} {r[7]}\n" for r in rows)
    widths = [max((len(str(r[i])) for r in rows), default=0) for i in range(8)]
    head = f"total {blocks}\n" if total else ""
    return head + "".join(
        f"{r[1]} {r[2]:>{widths[2]}} {r[3]:<{widths[3]}} {r[4]:<{widths[4]}} {r[5]:>{widths[5]}} {r[6]} {r[7]}\n"
        for r in rows
    )


@command("chmod")
def _chmod(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``chmod [-R] MODE FILE...``: octal or symbolic modes (``u+x,go-w``)."""
    flags, args = flags_and_args(argv, "Rf")
    if len(args) < 2:
        return fail("chmod: Needs 2 arguments\n")
    spec, paths = args[0], args[1:]
    fs = sh.phone.fs
    err, code = [], 0
    for path in paths:
        full = sh.path(path)
        targets = [full]
        if "R" in flags and fs.is_dir(full):
            targets += walk(fs, full)
        for target in targets:
            if not fs.exists(target):
                err.append(f"chmod: {path}: No such file or directory\n")
                code = 1
                continue
            mode = parse_mode(spec, fs.stat(target).mode, fs.is_dir(target))
            if mode is None:
                return fail(f"chmod: bad mode '{spec}'\n")
            try:
                fs.chmod(target, mode)
            except OSError as exc:
                err.append(f"chmod: chmod '{target}' to {mode:04o}: {exc.strerror}\n")
                code = 1
    return b"", "".join(err).encode(), code


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
        if tool == "mv":
            fs.rename(src, dst)  # (a directory moves whole)
        else:
            fs.write(dst, fs.read(src))
    except OSError as exc:
        return fail(file_error(tool, args[0], exc))
    return ok()

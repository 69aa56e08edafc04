"""Toybox's ``du`` and ``stat``: what a file takes and what it is (``toys/posix/du.c``, ``toys/other/stat.c``).

Files take whole 4 KiB blocks, as on f2fs/ext4; owners and modes are those ``ls -l`` shows.
"""

from __future__ import annotations

import posixpath
import re
import zlib

from androidrl.virtual.shell.commands.toybox.disk import human_readable, mount_of
from androidrl.virtual.shell.commands.toybox.lib import flags_and_args, mode_string, owner
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail

BLOCK = 4096


def _blocks(fs, path: str) -> int:
    """Bytes of disk a file or directory itself takes (whole 4 KiB blocks)."""
    if fs.is_dir(path):
        return BLOCK
    return -(-fs.stat(path).size // BLOCK) * BLOCK


@command("du")
def _du(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``du [-abchkms] [-d N] [FILE...]``: each directory's total (children first), in KiB by default."""
    args, depth_limit = list(argv), None
    if "-d" in args:
        at = args.index("-d")
        if at + 1 >= len(args) or not args[at + 1].isdigit():
            return fail("du: -d needs a number\n")
        depth_limit = int(args[at + 1])
        del args[at : at + 2]
    flags, paths = flags_and_args(args, "abchkKmsxlLH")
    if "s" in flags:
        depth_limit = 0
    fs = sh.phone.fs
    out, err, grand = [], [], 0

    def show(size: int, name: str) -> None:
        if "h" in flags:
            text = human_readable(size)
        elif "b" in flags:
            text = str(size)
        else:
            bits = 9 if "K" in flags else 20 if "m" in flags else 10
            text = str((size >> bits) + bool(size & ((1 << bits) - 1)))
        out.append(f"{text}\t{name}\n")

    def visit(path: str, name: str, depth: int) -> int:
        size = fs.stat(path).size if "b" in flags and not fs.is_dir(path) else _blocks(fs, path)
        if fs.is_dir(path):
            for child in fs.listdir(path):
                size += visit(posixpath.join(path, child), posixpath.join(name, child), depth + 1)
            if depth_limit is None or depth <= depth_limit:
                show(size, name)
        elif ("a" in flags and (depth_limit is None or depth <= depth_limit)) or depth == 0:
            show(size, name)
        return size

    for path in paths or ["."]:
        full = sh.path(path)
        if not fs.exists(full):
            err.append(f"du: {path}: No such file or directory\n")
            continue
        grand += visit(full, path, 0)
    if "c" in flags:
        show(grand, "total")
    return "".join(out).encode(), "".join(err).encode(), 1 if err else 0


_DEFAULT_STAT = (
    "  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t %F\n"
    "Device: %Dh/%dd\t Inode: %i\t Links: %h\t Device type: %t,%T\n"
    "Access: (%04a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\n"
    "Access: %x\nModify: %y\nChange: %z"
)
_TERSE_STAT = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %o"


@command("stat")
def _stat(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``stat [-tL] [-c FORMAT] FILE...`` (``-f``, file systems, is not supported here)."""
    args, form = list(argv[1:]), None
    if "-c" in args:
        at = args.index("-c")
        if at + 1 >= len(args):
            return fail("stat: -c needs an argument\n")
        form = args[at + 1]
        del args[at : at + 2]
    flags = {c for a in args if a.startswith("-") and len(a) > 1 for c in a[1:]}
    files = [a for a in args if not (a.startswith("-") and len(a) > 1)]
    if "f" in flags:
        return fail("stat: -f (file system status) is not supported on this phone\n")
    if not files:
        return fail("stat: Needs 1 argument\n")
    form = form or (_TERSE_STAT if "t" in flags else _DEFAULT_STAT)
    out, err = [], []
    for name in files:
        full = sh.path(name)
        if not sh.phone.fs.exists(full):
            err.append(f"stat: '{name}': No such file or directory\n")
            continue
        out.append(_format_stat(sh, form, name, full) + "\n")
    return "".join(out).encode(), "".join(err).encode(), 1 if err else 0


def _format_stat(sh: Shell, form: str, name: str, full: str) -> str:
    fs = sh.phone.fs
    st = fs.stat(full)
    uid, user, gid, group = owner(full)
    blocks = _blocks(fs, full) // 512 if st.size or fs.is_dir(full) else 0
    inode = 1000 + (zlib.crc32(full.encode()) & 0xFFFFF)
    zone = sh.phone.getprop("persist.sys.timezone")
    stamp = sh.phone.clock.local(st.mtime, timezone=zone).strftime("%Y-%m-%d %H:%M:%S.000000000 %z")
    kind = {0o040000: "directory", 0o020000: "character device", 0o100000: "regular file"}.get(st.mode & 0o170000, "?")
    if kind == "regular file" and not st.size:
        kind = "regular empty file"
    device = 0xFD05 if full.startswith(("/data", "/sdcard")) else 0xFD00
    values = {
        "a": ("o", st.mode & 0o7777), "A": ("s", mode_string(st.mode)), "b": ("d", blocks), "B": ("d", 512),
        "d": ("d", device), "D": ("x", device), "f": ("x", st.mode), "F": ("s", kind), "g": ("d", gid),
        "G": ("s", group), "h": ("d", 2 if fs.is_dir(full) else 1), "i": ("d", inode), "n": ("s", name),
        "N": ("s", name), "o": ("d", BLOCK), "s": ("d", st.size), "t": ("x", 0), "T": ("x", 0), "u": ("d", uid),
        "U": ("s", user), "x": ("s", stamp), "X": ("d", st.mtime), "y": ("s", stamp), "Y": ("d", st.mtime),
        "z": ("s", stamp), "Z": ("d", st.mtime), "C": ("s", "u:object_r:media_rw_data_file:s0"),
        "m": ("s", mount_of(full)),
    }  # fmt: skip

    def field(match: re.Match) -> str:
        if match.group(0) == "%%":
            return "%"
        spec, letter = match.group(1), match.group(2)
        if letter not in values:
            return "?"
        kind_, value = values[letter]
        return ("%" + spec + kind_) % value

    return re.sub(r"%%|%([-#0 +]*[0-9]*)([a-zA-Z])", field, form)

"""Toybox's ``df``: the phone's file systems with their size, use and free space.

``/data`` (and ``/storage/emulated``, the FUSE view of ``/data/media`` that ``/sdcard`` is)
report the phone's storage (:attr:`~androidrl.virtual.system.fs.VirtualFileSystem.capacity`);
the read-only system image and ``/dev`` are fixed. Output as toybox ``toys/posix/df.c``:
columns as wide as their widest cell, 1K blocks (``-P``: 512-byte ones; ``-h``/``-H``:
``human_readable`` sizes), the use percentage rounded up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command

_BLOCK = 4096  # f_frsize
_GIB = 2**30


@dataclass(frozen=True)
class _Mount:
    device: str
    kind: str
    directory: str
    size: int  # bytes
    used: int
    inodes_used: int


def _mounts(sh: Shell) -> list[_Mount]:
    fs = sh.phone.fs
    data = (fs.capacity, fs.used_bytes(), fs.entries())
    return [
        _Mount("/dev/block/dm-0", "ext4", "/", 2 * _GIB, 2 * _GIB, 2 * _GIB // 16384),  # the system image: full
        _Mount("tmpfs", "tmpfs", "/dev", _GIB, 1024 * 1024, 700),
        _Mount("/dev/block/dm-5", "ext4", "/data", *data),
        _Mount("/dev/fuse", "fuse", "/storage/emulated", *data),
    ]


def mount_of(path: str) -> str:
    """The mount point a (normalised) path lies on; ``/sdcard`` is ``/storage/emulated/0``."""
    if path == "/sdcard" or path.startswith(("/sdcard/", "/storage/emulated")):
        return "/storage/emulated"
    for top in ("/data", "/dev"):
        if path == top or path.startswith(top + "/"):
            return top
    return "/"


def human_readable(num: int, si: bool = False) -> str:
    """Toybox ``human_readable_long`` with 3 digits: ``999``, ``1.5K``, ``256M`` (``si``: powers of 1000, ``k``)."""
    divisor, unit, snap = (1000 if si else 1024), 0, 0
    while len(str(num)) > 3:
        snap, num, unit = num, (num + divisor // 2) // divisor, unit + 1
    text = str(num)
    if unit and len(text) == 1:  # one decimal for 1.2M, from the value before the last rounding
        whole = snap // divisor
        tenths = ((snap - whole * divisor) * 100 + 50) // divisor // 10
        text = f"{whole}.{tenths}"
    if unit:
        letter = " kMGTPEZY"[unit]
        text += letter if si else letter.upper()
    return text


@command("df")
def _df(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    flags: set[str] = set()
    types: list[str] = []
    operands: list[str] = []
    args = iter(argv[1:])
    for arg in args:
        if arg.startswith("-") and len(arg) > 1 and not operands:
            for at, letter in enumerate(arg[1:]):
                if letter == "t":
                    rest = arg[2 + at :] or next(args, None)
                    if rest is None:
                        return b"", b'df: Missing argument to -t (see "df --help")\n', 1
                    types.append(rest)
                    break
                if letter not in "HPkhia":
                    return b"", f"df: Unknown option '{arg[1 + at :]}' (see \"df --help\")\n".encode(), 1
                flags.add(letter)
        else:
            operands.append(arg)
    human = "h" in flags or "H" in flags
    units = 1 if human or "i" in flags else (512 if "P" in flags and "k" not in flags else 1024)
    mounts = _mounts(sh)
    err, status = [], 0
    if operands:
        shown = []
        for operand in operands:
            path = sh.path(operand)
            if not sh.phone.fs.exists(path):
                err.append(f"df: '{operand}': No such file or directory\n")
                status = 1
                continue
            shown += [m for m in mounts if m.directory == mount_of(path)]
    else:
        shown = [m for m in mounts if not types or m.kind in types]
    rows = [_row(m, flags, units) for m in shown]
    header = ["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted on"]
    if "i" in flags:
        header[1:5] = ["Inodes", "IUsed", "IFree", "IUse%"]
    elif not human:
        header[1] = "512-blocks" if units == 512 else "1024-blocks" if "P" in flags else "1K-blocks"
        header[3] = "Available"
        if "P" in flags:
            header[4] = "Capacity"
    widths = [max(len(cells[i]) for cells in [header, *rows]) for i in range(5)]
    widths[0] = max(widths[0], 14 + human)  # the filesystem column is always at least this wide
    lines = [
        cells[0].ljust(widths[0]) + "".join(" " + cells[i].rjust(widths[i]) for i in range(1, 5)) + " " + cells[5]
        for cells in [header, *rows]
    ]
    return "".join(line + "\n" for line in lines).encode(), "".join(err).encode(), status


def _row(mount: _Mount, flags: set[str], units: int) -> list[str]:
    if "i" in flags:  # ext4's default of one inode per 16 KiB
        total = mount.size // 16384
        used = min(total, mount.inodes_used)
        values = [total, used, total - used]
    else:
        blocks = mount.size // _BLOCK
        used = min(blocks, math.ceil(mount.used / _BLOCK))
        values = [blocks * _BLOCK // units, used * _BLOCK // units, (blocks - used) * _BLOCK // units]
    if "h" in flags or "H" in flags:
        cells = [human_readable(v, si="H" in flags) for v in values]
    else:
        cells = [str(v) for v in values]
    both = values[1] + values[2]
    percent = -(-values[1] * 100 // both) if both else 0  # rounded up
    return [mount.device, *cells, f"{percent}%", mount.directory]

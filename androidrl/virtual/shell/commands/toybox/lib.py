"""What toybox's tools share (toybox's ``lib/``): flags, error lines, modes and owners of files, walks."""

from __future__ import annotations

import posixpath


def flags_and_args(argv: list[str], allowed: str) -> tuple[set[str], list[str]]:
    """(flags, operands) of ``argv``: single-letter flags among ``allowed`` until the first operand."""
    flags: set[str] = set()
    args: list[str] = []
    for arg in argv[1:]:
        if arg.startswith("-") and len(arg) > 1 and not args and all(ch in allowed for ch in arg[1:]):
            flags.update(arg[1:])
        else:
            args.append(arg)
    return flags, args


def file_error(tool: str, path: str, exc: OSError) -> str:
    """``tool: path: strerror``, the line a toybox tool prints for a file it cannot use."""
    return f"{tool}: {path}: {exc.strerror}\n"


def mode_string(mode: int) -> str:
    """``drwxrwx--x``: toybox's ``mode_to_string`` (type letter, then rwx with s/t for setuid/setgid/sticky)."""
    kind = {0o040000: "d", 0o100000: "-", 0o020000: "c", 0o060000: "b", 0o120000: "l", 0o010000: "p", 0o140000: "s"}
    out = [kind.get(mode & 0o170000, "?")]
    for shift, special, letter in ((6, 0o4000, "s"), (3, 0o2000, "s"), (0, 0o1000, "t")):
        bits = (mode >> shift) & 7
        out.append("r" if bits & 4 else "-")
        out.append("w" if bits & 2 else "-")
        x = bits & 1
        out.append((letter if x else letter.upper()) if mode & special else ("x" if x else "-"))
    return "".join(out)


def parse_mode(spec: str, old: int, is_dir: bool) -> int | None:
    """Toybox's ``string_to_mode``: octal (``755``) or symbolic (``u+x,go-w``, ``a=r``, ``+X``); None if bad."""
    if spec and all(c in "01234567" for c in spec):
        return int(spec, 8) & 0o7777
    mode = old & 0o7777
    for clause in spec.split(","):
        who_end = 0
        while who_end < len(clause) and clause[who_end] in "ugoa":
            who_end += 1
        who = clause[:who_end] or "a"
        rest = clause[who_end:]
        if not rest or rest[0] not in "+-=":
            return None
        while rest:
            op, rest = rest[0], rest[1:]
            perms_end = 0
            while perms_end < len(rest) and rest[perms_end] in "rwxXst":
                perms_end += 1
            perms, rest = rest[:perms_end], rest[perms_end:]
            if rest and rest[0] not in "+-=":
                return None
            bits = 0
            for target in ("u", "g", "o"):
                if "a" not in who and target not in who:
                    continue
                shift = {"u": 6, "g": 3, "o": 0}[target]
                for perm in perms:
                    if perm in "rwx" or (perm == "X" and (is_dir or old & 0o111)):
                        bits |= {"r": 4, "w": 2, "x": 1, "X": 1}[perm] << shift
                    elif perm == "s" and target in "ug":
                        bits |= 0o4000 if target == "u" else 0o2000
                    elif perm == "t" and target == "o":
                        bits |= 0o1000
            if op == "+":
                mode |= bits
            elif op == "-":
                mode &= ~bits
            else:
                mask = sum(7 << {"u": 6, "g": 3, "o": 0}[t] for t in "ugo" if "a" in who or t in who)
                mode = (mode & ~mask) | bits
    return mode


def owner(path: str) -> tuple[int, str, int, str]:
    """(uid, user, gid, group) of a file of the phone.

    Storage is root's (group ``sdcard_rw``), the shell's temporary directory the shell's, the rest root's.
    """
    if path == "/sdcard" or path.startswith("/sdcard/"):
        return 0, "root", 1015, "sdcard_rw"
    if path.startswith("/data/local/tmp"):
        return 2000, "shell", 2000, "shell"
    if path.startswith("/system/bin/"):
        return 0, "root", 2000, "shell"
    return 0, "root", 0, "root"


def walk(fs, top: str) -> list[str]:
    """Every path under directory ``top`` of the phone's file system, parents before children, sorted."""
    found = []
    for name in fs.listdir(top):
        path = posixpath.join(top, name)
        found.append(path)
        if fs.is_dir(path):
            found += walk(fs, path)
    return found

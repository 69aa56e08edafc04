"""``getprop`` and ``setprop``: the system properties (a read-only ``ro.`` property cannot be set again)."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok


@command("getprop")
def _getprop(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    props = sh.phone.props
    if len(argv) == 1:
        return ok("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
    default = argv[2] if len(argv) > 2 else ""
    return ok(props.get(argv[1], default) + "\n")


@command("setprop")
def _setprop(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) != 3:
        return fail("setprop: Need 2 arguments\n")
    if not sh.phone.setprop(argv[1], argv[2]):
        return fail(f"Failed to set property '{argv[1]}' to '{argv[2]}'.\nSee dmesg for error reason.\n")
    return ok()

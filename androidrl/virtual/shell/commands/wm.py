"""``wm size``, ``wm density`` and ``wm dismiss-keyguard``, as WindowManagerShellCommand answers them."""

from __future__ import annotations

import re

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok


@command("wm")
def _wm(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    args = argv[1:]
    if len(args) >= 2 and args[0] == "-d":
        args = args[2:]
    if not args:
        return ok(
            "Window manager (window) commands:\n  help\n      Print this help text.\n"
            "  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n  density [reset|DENSITY] [-d DISPLAY_ID]\n"
            "  dismiss-keyguard\n    Dismiss the keyguard, prompting user for auth if necessary.\n"
        )
    sub, rest = args[0], args[1:]
    if sub == "dismiss-keyguard":  # WindowManagerService.dismissKeyguard: an insecure lock goes, a PIN asks
        phone.keyguard.dismiss()
        return ok()
    if sub == "size":
        if not rest:
            w, h = phone.physical_size
            text = f"Physical size: {w}x{h}\n"
            if phone.override_size:
                text += f"Override size: {phone.override_size[0]}x{phone.override_size[1]}\n"
            return ok(text)
        if rest[0] == "reset":
            phone.set_override_size(None)
            return ok()
        match = re.fullmatch(r"(\d+)(px|dp)?x(\d+)(px|dp)?", rest[0])
        if not match:
            return fail(f"Error: bad size {rest[0]}\n", 255)
        w, h = int(match.group(1)), int(match.group(3))
        if match.group(2) == "dp":
            w = round(w * phone.physical_density / 160)
        if match.group(4) == "dp":
            h = round(h * phone.physical_density / 160)
        if (w, h) == phone.physical_size:  # DisplayContent.setForcedSize: the physical size clears the override
            phone.set_override_size(None)
            return ok()
        most = 3 * max(phone.physical_size)  # and bounds the rest: 200 px up to 3x the larger side
        phone.set_override_size((min(max(w, 200), most), min(max(h, 200), most)))
        return ok()
    if sub == "density":
        if not rest:
            text = f"Physical density: {phone.physical_density}\n"
            if phone.override_density:
                text += f"Override density: {phone.override_density}\n"
            return ok(text)
        if rest[0] == "reset":
            phone.set_override_density(None)
            return ok()
        if not rest[0].isdigit():
            return fail(f'Error: bad number java.lang.NumberFormatException: For input string: "{rest[0]}"\n', 255)
        if int(rest[0]) < 72:
            return fail("Error: density must be >= 72\n", 255)
        phone.set_override_density(int(rest[0]))
        return ok()
    return f"Unknown command: {sub}\n".encode(), b"", 255

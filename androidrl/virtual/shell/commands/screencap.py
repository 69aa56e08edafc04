"""``screencap``: the screen as PNG or raw RGBA (with the header of the phone's Android release)."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.window.display import DISPLAY_UNIQUE_ID

SCREENCAP_USAGE = (
    "usage: screencap [-hp] [-d display-id] [FILENAME]\n"
    "   -h: this message\n"
    "   -p: save the file as a png.\n"
    "   -d: specify the physical display ID to capture (default: " + DISPLAY_UNIQUE_ID + ")\n"
    '       see "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n'
    "If FILENAME ends with .png it will be saved as a png.\n"
    "If FILENAME is not given, the results will be printed to stdout.\n"
)


@command("screencap")
def _screencap(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    png, args = False, argv[1:]
    target = None
    while args:
        arg = args.pop(0)
        if arg == "-p":
            png = True
        elif arg == "-d" and args:
            args.pop(0)
        elif arg.startswith("-"):
            return fail(SCREENCAP_USAGE)
        else:
            target = arg
    if target is not None:
        png = png or target.endswith(".png")
        data = sh.phone.screencap(png=png)
        try:
            sh.phone.fs.write(sh.path(target), data)
        except OSError as exc:
            return fail(f"Error opening file: {target} ({exc.strerror})\n")
        return ok()
    if png:
        return sh.phone.screencap(png=True), b"", 0
    header, pixels = sh.phone.display.screencap_parts()
    if sh.stream(header):  # to a client as it is written: the frame's own memory, not joined into a copy
        sh.stream(pixels)
        return ok()
    return header + pixels, b"", 0

"""``uiautomator dump``: the window in front as XML, to a file or ``/dev/tty``."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok

UIAUTOMATOR_USAGE = (
    "Usage: uiautomator <subcommand> [options]\n\n"
    "Available subcommands:\n\n"
    "help: displays help message\n\n"
    "runtest: executes UI automation tests\n"
    "    runtest <class spec> [options]\n\n"
    "dump: creates an XML dump of current UI hierarchy\n"
    "    dump [--verbose][file]\n"
    "      [--compressed]: dumps compressed layout information.\n"
    "      [file]: the location where the dumped XML should be stored, default is\n"
    "      /sdcard/window_dump.xml\n\n"
    "events: prints out accessibility events until terminated\n"
)


@command("uiautomator")
def _uiautomator(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) < 2 or argv[1] != "dump":
        return ok(UIAUTOMATOR_USAGE)
    files = [a for a in argv[2:] if not a.startswith("-")]
    target = sh.path(files[0]) if files else "/sdcard/window_dump.xml"
    if not sh.phone.idle:
        return fail("ERROR: could not get idle state.\n", 0)
    xml = sh.phone.dump_ui()
    message = f"UI hierchary dumped to: {target}\n"
    if target == "/dev/tty":
        return (xml + message).encode(), b"", 0
    try:
        sh.phone.fs.write(target, xml.encode())
    except OSError as exc:
        return fail(f"java.io.FileNotFoundException: {target}: open failed: {exc.strerror}\n", 0)
    return ok(message)

"""``monkey -p PACKAGE``: launches the package's main activity, as one monkey event does."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.framework.intent import Intent


@command("monkey")
def _monkey(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = argv[1:]
    package = args[args.index("-p") + 1] if "-p" in args and args.index("-p") + 1 < len(args) else None
    app = sh.phone.packages.get(package) if package else None
    if app is None or not app.main:
        return fail("** No activities found to run, monkey aborted.\n", 252)
    sh.phone.start_activity(
        Intent(
            action="android.intent.action.MAIN",
            categories=("android.intent.category.LAUNCHER",),
            component=(app.package, app.main),
        )
    )
    return ok("Events injected: 1\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n")

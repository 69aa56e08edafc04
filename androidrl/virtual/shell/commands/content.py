"""``content query|insert`` on the settings provider, in the format of AOSP's ``ContentShellCommand``."""

from __future__ import annotations

import shlex

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.settings_provider import NAMESPACES


@command("content")
def _content(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``content query --uri content://settings/NAMESPACE [--where "name='KEY'"]`` (and ``insert``)."""
    args = argv[1:]
    if not args:
        return ok("usage: adb shell content [subcommand] [options]\n")
    uri = args[args.index("--uri") + 1] if "--uri" in args and args.index("--uri") + 1 < len(args) else ""
    if not uri.startswith("content://settings/") or uri.split("/")[3] not in NAMESPACES:
        return fail(f"Error while accessing provider:{uri.split('/')[2] if uri.count('/') >= 2 else uri}\n"
                    "java.lang.IllegalArgumentException: Unknown URI " + uri + "\n", 1)  # fmt: skip
    namespace = uri.split("/")[3]
    store = sh.phone.settings
    if args[0] == "query":
        rows = list(store.items(namespace))
        if "--where" in args and args.index("--where") + 1 < len(args):
            where = args[args.index("--where") + 1]
            key = where.split("=", 1)[1].strip().strip("'\"") if "=" in where else ""
            rows = [(k, v) for k, v in rows if k == key]
        if not rows:
            return ok("No result found.\n")
        return ok("".join(f"Row: {i} _id={i + 1}, name={k}, value={v}\n" for i, (k, v) in enumerate(rows)))
    if args[0] == "insert":
        binds = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--bind"]
        values = dict(b.split(":", 2)[0::2] for b in binds if b.count(":") >= 2)
        if "name" in values and "value" in values:
            store.put(namespace, values["name"], values["value"])
            return ok()
    return fail(f"Unsupported content command: {shlex.join(args)}\n", 1)

"""``settings get|put|delete|list``: the ``system``, ``secure`` and ``global`` tables of the settings provider."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.settings_provider import NAMESPACES


@command("settings")
def _settings(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args = argv[1:]
    if len(args) >= 2 and args[0] == "--user":
        args = args[2:]
    if not args:
        return (
            b"Settings provider (settings) commands:\n  help\n      Print this help text.\n"
            b"  get [--user <USER_ID> | current] NAMESPACE KEY\n"
            b"  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n"
            b"  delete [--user <USER_ID> | current] NAMESPACE KEY\n"
            b"  list [--user <USER_ID> | current] NAMESPACE\n",
            b"",
            255,
        )
    verb, rest = args[0], args[1:]
    if len(rest) >= 2 and rest[0] == "--user":
        rest = rest[2:]
    if verb not in ("get", "put", "delete", "list"):
        return fail(f"Invalid command: {verb}\n", 255)
    if not rest:
        return fail("Bad arguments\n", 255)
    namespace = rest[0].lower()
    if namespace not in NAMESPACES:
        return fail(f"Invalid namespace '{rest[0]}'\n", 255)
    store = sh.phone.settings
    if verb == "list":
        return ok("".join(f"{k}={v}\n" for k, v in store.items(namespace)))
    if len(rest) < 2 or (verb == "put" and len(rest) < 3):
        return fail("Bad arguments\n", 255)
    key = rest[1]
    if verb == "get":
        value = store.get(namespace, key)
        return ok(f"{'null' if value is None else value}\n")
    if verb == "delete":
        return ok(f"Deleted {store.delete(namespace, key)} rows\n")
    store.put(namespace, key, rest[2])
    return ok()

"""``settings get|put|delete|list|reset``: the settings provider's tables, as SettingsService answers.

The arguments are read as packages/SettingsProvider SettingsService.MyShellCommand reads them
(``--user``, ``put ... [TAG] [default]``, ``reset NAMESPACE {PACKAGE [TAG] | MODE}``); its
messages go to stderr with exit status 255. Writes are made as ``com.android.shell`` (``root``
after ``adb root``); ``reset`` takes only the ``global`` and ``secure`` tables.
"""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.settings_provider import RESET_MODES

HELP = (
    "Settings provider (settings) commands:\n  help\n      Print this help text.\n"
    "  get [--user <USER_ID> | current] NAMESPACE KEY\n      Retrieve the current value of KEY.\n"
    "  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default]\n"
    "      Change the contents of KEY to VALUE.\n      TAG to associate with the setting.\n"
    "      {default} to set as the default, case-insensitive only for global/secure namespace\n"
    "  delete NAMESPACE KEY\n      Delete the entry for KEY.\n"
    "  reset [--user <USER_ID> | current] NAMESPACE {PACKAGE_NAME | RESET_MODE}\n"
    "      Reset the global/secure table for a package with mode.\n"
    "      RESET_MODE is one of {untrusted_defaults, untrusted_clear, trusted_defaults}, case-insensitive\n"
    "  list NAMESPACE\n      Print all defined keys.\n"
    "      NAMESPACE is one of {system, secure, global}, case-insensitive\n"
)
_VERBS = ("get", "put", "delete", "list", "reset")


class _Refused(Exception):
    """What SettingsService prints on stderr before it returns -1."""


def _parse(args: list[str]) -> dict:
    """MyShellCommand.onCommand's argument loop: the verb, the table, then the verb's own arguments."""
    found: dict = {"verb": None, "table": None, "key": None, "value": None, "reset": None, "user": False,
                   "default": False}  # fmt: skip
    args = list(args)
    valid = False
    while args:
        arg = args.pop(0)
        if arg == "--user":
            if found["user"]:
                break  # (twice: invalid)
            if not args:
                raise _Refused('Argument expected after "--user"')
            found["user"] = args.pop(0)
        elif found["verb"] is None:
            if arg.lower() not in _VERBS:
                raise _Refused(f"Invalid command: {arg}")
            found["verb"] = arg.lower()
        elif found["table"] is None:
            if arg.lower() not in ("system", "secure", "global"):
                raise _Refused(f"Invalid namespace '{arg}'")
            found["table"] = arg.lower()
            if found["verb"] == "list":
                valid = True
                break
        elif found["verb"] == "reset":
            found["reset"] = arg.lower() if arg.lower() in RESET_MODES else arg
            if arg.lower() not in RESET_MODES and args:
                args.pop(0)  # a package's TAG (the rows' tags are not kept here)
            if args:
                raise _Refused("Too many arguments")
            valid = True
            break
        elif found["verb"] in ("get", "delete"):
            found["key"] = arg
            if args:
                raise _Refused("Too many arguments")
            valid = True
            break
        elif found["key"] is None:
            found["key"] = arg
        elif found["value"] is None:
            found["value"] = arg
            valid = True
        else:  # put's TAG, then "default"
            if arg.lower() == "default":
                found["default"] = True
            elif args and args[0].lower() == "default":
                found["default"] = True
                args.pop(0)
            elif args:
                raise _Refused("Argument expected to be 'default'")
            if args:
                raise _Refused("Too many arguments")
            break
    if not valid:
        raise _Refused("Bad arguments")
    if found["user"] not in (False, "0", "current", "cur"):
        raise _Refused(f"Invalid user: {found['user']}")
    if found["user"] is not False and found["verb"] in ("delete", "list"):
        raise _Refused("--user not supported for delete and list.")
    return found


@command("settings")
def _settings(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) < 2 or argv[1] in ("help", "-h"):
        return HELP.encode(), b"", 255  # (handleDefaultCommands: the help, then -1)
    try:
        request = _parse(argv[1:])
    except _Refused as refused:
        return fail(f"{refused}\n", 255)
    store, table, key = sh.phone.settings, request["table"], request["key"]
    verb = request["verb"]
    if verb == "list":
        return ok("".join(f"{k}={'null' if v is None else v}\n" for k, v in store.items(table)))
    if verb == "get":
        value = store.get(table, key)
        return ok(f"{'null' if value is None else value}\n")
    if verb == "delete":
        return ok(f"Deleted {store.delete(table, key)} rows\n")
    if verb == "reset":
        if table == "system":
            return fail("Invalid table; no reset performed\n", 0)
        store.reset(table, request["reset"])
        return ok()
    package = "root" if sh.phone.root else "com.android.shell"  # SettingsService.resolveCallingPackage
    note = ""
    if request["default"] and table == "system":
        note, request["default"] = "Ignored makeDefault - doesn't apply to system settings", False
    store.put(table, key, request["value"], package=package, make_default=request["default"])
    return ok(note)

"""``locksettings`` (and ``cmd lock_settings``): the lock screen credential, as LockSettingsShellCommand.

frameworks/base services/core/java/com/android/server/locksettings/LockSettingsShellCommand.java
(Android 14): ``set-pin``, ``clear``, ``verify`` and ``set-disabled`` first check ``--old`` against a
secure lock (``Old password 'X' didn't match``, exit -1); ``get-disabled`` and ``help`` do not. The
virtual phone's credentials are PINs: ``set-password`` and ``set-pattern`` are refused.
"""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, ok
from androidrl.virtual.system.lock_settings import MIN_PIN_LENGTH

HELP = (
    "lockSettings service commands:\n\nNOTE: when a secure lock screen is set, most commands require the\n"
    "--old <CREDENTIAL> option.\n\n  help\n    Prints this help text.\n\n  get-disabled [--user USER_ID]\n"
    "    Prints true if the lock screen is completely disabled, i.e. set to None.\n    Otherwise prints false.\n\n"
    "  set-disabled [--user USER_ID] <true|false>\n"
    "    Sets whether the lock screen is disabled. If the lock screen is secure, this\n"
    "    has no immediate effect. I.e. this can only change between Swipe and None.\n\n"
    "  set-pin [--old <CREDENTIAL>] [--user USER_ID] <PIN>\n    Sets a secure lock screen that uses the given PIN.\n\n"
    "  clear [--old <CREDENTIAL>] [--user USER_ID]\n    Clears the lock credential.\n\n"
    "  verify [--old <CREDENTIAL>] [--user USER_ID]\n    Verifies the lock credential.\n\n"
)
FAILED = 255  # onCommand's -1


@command("locksettings")
def _locksettings(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return lock_settings(sh, argv[1:])


def lock_settings(sh: Shell, args: list[str]) -> Result:
    """LockSettingsShellCommand.onCommand for ``args`` (the subcommand first)."""
    settings = sh.phone.lock_settings
    if not args or args[0] in ("help", "-h"):
        return ok(HELP)
    sub, rest = args[0], args[1:]
    if sub == "get-disabled":
        return ok(f"{str(settings.disabled).lower()}\n")
    old, new = "", ""
    while rest and rest[0].startswith("--"):  # parseArgs: options, then one argument
        option = rest.pop(0)
        if option not in ("--old", "--user"):
            return b"", f"Unknown option: {option}\n".encode(), FAILED
        if not rest:
            return b"", f'Error: Argument expected after "{option}"\n'.encode(), FAILED
        value = rest.pop(0)
        if option == "--old":
            old = value
    new = rest[0] if rest else ""
    if settings.secure and not (old and settings.check(old)):  # checkCredential
        return f"Old password '{old}' didn't match\n".encode(), b"", FAILED
    if not settings.secure and old:
        return b"Old password provided but user has no password\n", b"", FAILED
    if sub == "set-pin":
        if not (new.isdigit() and new.isascii()) or len(new) < MIN_PIN_LENGTH:
            problem = "Password too short" if len(new) < MIN_PIN_LENGTH else "Not a PIN"
            text = f"New credential doesn't satisfy admin policies: {problem}; required: {MIN_PIN_LENGTH}\n"
            return text.encode(), b"", FAILED
        settings.set_pin(new)
        return ok(f"Pin set to '{new}'\n")
    if sub == "clear":
        settings.clear()
        return ok("Lock credential cleared\n")
    if sub == "set-disabled":
        disabled = new.lower() == "true"  # Boolean.parseBoolean
        settings.set_disabled(disabled)
        return ok(f"Lock screen disabled set to {str(disabled).lower()}\n")
    if sub == "verify":
        return ok("Lock credential verified successfully\n")
    if sub in ("set-password", "set-pattern"):
        return b"", f"{sub}: the virtual phone's lock screen takes a PIN (set-pin)\n".encode(), FAILED
    return b"", f"Unknown command: {sub}\n".encode(), 0

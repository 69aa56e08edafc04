"""``cmd SERVICE ...``: a binder shell command; the services with a tool of their own answer as that tool.

``cmd statusbar`` (StatusBarShellCommand) pulls the shade down or closes it; ``cmd
notification`` (NotificationShellCmd) posts, lists and gets notifications; ``cmd connectivity
airplane-mode``, ``cmd wifi`` and ``cmd bluetooth_manager`` switch the radios; ``cmd uimode
night`` sets the dark theme; ``cmd location`` (LocationShellCommand) turns location on or off;
``cmd lock_settings`` is ``locksettings``.
"""

from __future__ import annotations

from androidrl.virtual.shell.commands.am import parse_intent
from androidrl.virtual.shell.commands.dumpsys import SERVICES
from androidrl.virtual.shell.commands.dumpsys.services import NIGHT_MODES, NOTIFICATION_STRING
from androidrl.virtual.shell.commands.java import JavaException
from androidrl.virtual.shell.commands.locksettings import lock_settings
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.notifications import Notification

SHELL_UID = 2000
#: ``cmd notification post`` posts as the shell, always with this id (NotificationShellCmd.NOTIFICATION_ID).
NOTIFICATION_ID = 2020
NOTIFY_USAGE = (
    "usage: cmd notification post [flags] <tag> <text>\n\nflags:\n  -h|--help\n  -v|--verbose\n"
    "  -t|--title <text>\n  -i|--icon <iconspec>\n  -I|--large-icon <iconspec>\n  -S|--style <style> [styleargs]\n"
    "  -c|--content-intent <intentspec>\n\nstyles: (default none)\n  bigtext\n  bigpicture --picture <iconspec>\n"
    "  inbox --line <text> --line <text> ...\n  messaging --conversation <title> --message <who>:<text> ...\n"
    "  media\n\nan <iconspec> is one of\n  file:///data/local/tmp/<img.png>\n  content://<provider>/<path>\n"
    "  @[<package>:]drawable/<img>\n  data:base64,<B64DATA==>\n\n"
    "an <intentspec> is (broadcast|service|activity) <args>\n  <args> are as described in `am start`\n"
)


@command("cmd")
def _cmd(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if len(argv) < 2:
        return fail(
            "cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n",
            20,
        )
    service, rest = argv[1], argv[2:]
    phone = sh.phone
    if service == "-l":
        return ok("Currently running services:\n" + "".join(f"  {name}\n" for name in SERVICES))
    routes = {"activity": "am", "package": "pm", "settings": "settings", "input": "input", "window": "wm"}
    if service in routes:
        name = routes[service]
        return sh.commands[name](sh, [name, *rest], stdin)
    if service == "statusbar":
        return _statusbar(phone, rest)
    if service == "notification":
        return _notification(phone, rest)
    if service == "connectivity" and rest[:1] == ["airplane-mode"]:
        if len(rest) == 1:
            return ok("enabled\n" if phone.radios.airplane_enabled else "disabled\n")
        if rest[1] in ("enable", "disable"):
            phone.radios.set_airplane(rest[1] == "enable")
            return ok()
    if service == "wifi" and rest[:1] == ["set-wifi-enabled"] and len(rest) == 2:
        phone.radios.set_wifi(rest[1] == "enabled")
        return ok()
    if service == "wifi" and rest[:1] == ["status"]:
        return ok("Wifi is enabled\n" if phone.radios.wifi_enabled else "Wifi is disabled\n")
    if service == "bluetooth_manager" and rest[:1] in (["enable"], ["disable"]):
        phone.radios.set_bluetooth(rest[0] == "enable")
        return ok()
    if service == "uimode":
        return _uimode(phone, rest)
    if service == "location":
        return _location(phone, rest)
    if service == "lock_settings":
        return lock_settings(sh, rest)
    if service in SERVICES:
        return f"Unknown command: {' '.join(rest)}\n".encode(), b"", 255
    return fail(f"cmd: Can't find service: {service}\n", 20)


def _statusbar(phone: PhoneCore, rest: list[str]) -> Result:
    """StatusBarShellCommand: ``expand-notifications``, ``expand-settings``, ``collapse``."""
    if not rest:
        return b"", b"", 1  # (onHelp, then 1)
    actions = {
        "expand-notifications": phone.status_bar.expand_notifications,
        "expand-settings": phone.status_bar.expand_settings,
        "collapse": phone.status_bar.collapse,
    }
    action = actions.get(rest[0])
    if action is None:
        return b"", f"Unknown command: {rest[0]}\n".encode(), 255
    if phone.keyguard.showing and rest[0] != "collapse":
        return ok()  # the lock screen keeps the shade closed
    action()
    return ok()


def _notification(phone: PhoneCore, rest: list[str]) -> Result:
    """NotificationShellCmd: ``post``/``notify``, ``list``, ``get KEY``, ``set_dnd MODE``.

    An exception inside (a missing argument, an unknown style) is caught by its ``onCommand``
    and printed on stdout, exit 0.
    """
    if not rest:
        return b"", b"", 255
    sub = rest[0].replace("-", "_")
    try:
        if sub in ("post", "notify"):
            return _post(phone, rest[1:])
        if sub == "list":
            return ok("".join(f"{n.key}\n" for n in phone.notifications.active()))
        if sub in ("set_dnd", "setdnd"):
            return _set_dnd(phone, _required(rest[1:], rest[0]))
        if sub == "get":
            found = phone.notifications.get(_required(rest[1:], rest[0]))
            if found is None:
                return f"error: no active notification matching key: {rest[1]}\n".encode(), b"", 1
            record = f"NotificationRecord(0x{found.record_hash}: pkg={found.package} key={found.key}"
            return ok(f"{record}: {NOTIFICATION_STRING})\n")
    except JavaException as exc:
        return ok(f"Error occurred. Check logcat for details. {exc.message}\n")
    return b"", f"Unknown command: {rest[0]}\n".encode(), 255


def _post(phone: PhoneCore, args: list[str]) -> Result:
    """``post [-t TITLE] [-S STYLE] [-c KIND INTENT...] [-v] TAG TEXT`` (NotificationShellCmd.doNotify)."""
    title, style, opens = "", "", ""
    args = list(args)
    while args and args[0].startswith("-") and args[0] != "--":
        option = args.pop(0)
        if option in ("-t", "--title", "title"):
            title = _required(args, option)
        elif option in ("-S", "--style"):
            style = _required(args, option).lower()
            if style not in ("bigtext", "bigpicture", "inbox", "messaging", "media"):
                raise JavaException(
                    "java.lang.IllegalArgumentException", f"unrecognized notification style: {style}", ""
                )
        elif option in ("-i", "--icon", "-I", "--large-icon"):
            _required(args, option)
        elif option in ("-c", "--content-intent", "--intent"):
            if args and args[0] in ("broadcast", "service", "activity"):
                args.pop(0)
            left: list[str] = []  # Intent.parseCommandArgs: its options, then one operand, and no more
            intent, _ = parse_intent(args, rest=left)
            args = left
            opens = "/".join(intent.component) if intent.component else ""
        elif option in ("-v", "--verbose"):
            continue
        else:
            return ok(NOTIFY_USAGE)  # -h, --help and anything it does not know
    if args[:1] == ["--"]:
        args.pop(0)
    if len(args) < 2:
        return NOTIFY_USAGE.encode(), b"", 255
    tag, text = args[0], args[1]
    phone.notifications.post(
        Notification("com.android.shell", SHELL_UID, NOTIFICATION_ID, tag, title, text, style, phone.clock.now(), opens)
    )
    return ok(f"posting:\n  {NOTIFICATION_STRING}\n")


#: set_dnd's modes -> the zen mode of their interruption filter (NotificationManager.zenModeFromInterruptionFilter):
#: none/on: NO_INTERRUPTIONS, priority: IMPORTANT_INTERRUPTIONS, alarms: ALARMS, all/off: OFF.
DND_MODES = {"none": "2", "on": "2", "priority": "1", "alarms": "3", "all": "0", "off": "0"}


def _set_dnd(phone: PhoneCore, mode: str) -> Result:
    """``set_dnd on|none|priority|alarms|all|off``: NotificationManager.setInterruptionFilter (``global zen_mode``)."""
    zen = DND_MODES.get(mode)
    if zen is None:  # INTERRUPTION_FILTER_UNKNOWN: setInterruptionFilter refuses it
        raise JavaException("java.lang.IllegalArgumentException", "Invalid filter: 0", "")
    phone.settings.put("global", "zen_mode", zen)
    return ok()


def _required(args: list[str], option: str) -> str:
    if not args:
        raise JavaException("java.lang.IllegalArgumentException", f'Argument expected after "{option}"', "")
    return args.pop(0)


def _uimode(phone: PhoneCore, rest: list[str]) -> Result:
    """``cmd uimode night [yes|no|auto]`` (UiModeManagerService.Shell): sets and prints the night mode."""
    if not rest or rest[0] in ("help", "-h"):
        return ok(
            "UiModeManager service (uimode) commands:\n  help\n    Print this help text.\n"
            "  night [yes|no|auto|custom_schedule|custom_bedtime]\n    Set or read night mode.\n"
        )
    if rest[0] != "night":
        return fail(f"Unknown command: {rest[0]}\n", 255)
    if len(rest) > 1:
        mode = NIGHT_MODES.get(rest[1])
        if mode is None:
            return fail("Error: mode must be 'yes', 'no', or 'auto', or 'custom_schedule', or 'custom_bedtime'\n", 255)
        phone.settings.put("secure", "ui_night_mode", mode)
    current = phone.settings.get("secure", "ui_night_mode") or "1"
    name = {value: key for key, value in NIGHT_MODES.items()}.get(current, "no")
    return ok(f"Night mode: {name}\n")


LOCATION_HELP = (
    "Location service commands:\n  help or -h\n    Print this help text.\n"
    "  is-location-enabled [--user <USER_ID>]\n    Gets the master location switch enabled state.\n"
    "  set-location-enabled [--user <USER_ID>] true|false\n    Sets the master location switch enabled state.\n"
)


def _location(phone: PhoneCore, rest: list[str]) -> Result:
    """LocationShellCommand: ``is-location-enabled`` and ``set-location-enabled [--user N] true|false``.

    The switch is ``secure location_mode`` (3 on, 0 off), as LocationManagerService.setLocationEnabledForUser
    writes it; the value is read with ``Boolean.parseBoolean`` (anything but ``true`` is false). A bad
    argument is the exception ShellCommand.exec prints on stderr, exit 255.
    """
    if not rest or rest[0] in ("help", "-h"):
        return ok(LOCATION_HELP)
    command, args = rest[0], rest[1:]
    if command not in ("is-location-enabled", "set-location-enabled"):
        return f"Unknown command: {command}\n".encode(), b"", 255
    if args[:1] == ["--user"]:
        args = args[2:]
    elif args[:1] and args[0].startswith("-"):
        return _exception(command, f'Expected "--user" option, but got "{args[0]}" instead')
    if command == "is-location-enabled":
        return ok("false\n" if (phone.settings.get("secure", "location_mode") or "0") == "0" else "true\n")
    if not args:
        return _exception(command, f'Argument expected after "{rest[-1]}"')
    phone.settings.put("secure", "location_mode", "3" if args[0].lower() == "true" else "0")
    return ok()


def _exception(command: str, message: str) -> Result:
    """What ShellCommand.exec prints for an IllegalArgumentException thrown by the command."""
    error = f"\nException occurred while executing '{command}':\njava.lang.IllegalArgumentException: {message}\n"
    return b"", error.encode(), 255

"""``cmd SERVICE ...``: a binder shell command; the services with a tool of their own answer as that tool."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok


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
        return ok(
            "Currently running services:\n  activity\n  bluetooth_manager\n  connectivity\n  input\n"
            "  package\n  settings\n  uimode\n  wifi\n  window\n"
        )
    routes = {"activity": "am", "package": "pm", "settings": "settings", "input": "input", "window": "wm"}
    if service in routes:
        name = routes[service]
        return sh.commands[name](sh, [name, *rest], stdin)
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
    if service in ("connectivity", "wifi", "bluetooth_manager"):
        return f"Unknown command: {' '.join(rest)}\n".encode(), b"", 255
    return fail(f"cmd: Can't find service: {service}\n", 20)


#: UiModeManager's night modes (MODE_NIGHT_AUTO/NO/YES) as ``secure ui_night_mode`` stores them.
_NIGHT_MODES = {"auto": "0", "no": "1", "yes": "2"}


def _uimode(phone, rest: list[str]) -> Result:
    """``cmd uimode night [yes|no|auto]`` (UiModeManagerService.Shell): sets and prints the night mode."""
    if not rest or rest[0] in ("help", "-h"):
        return ok(
            "UiModeManager service (uimode) commands:\n  help\n    Print this help text.\n"
            "  night [yes|no|auto|custom_schedule|custom_bedtime]\n    Set or read night mode.\n"
        )
    if rest[0] != "night":
        return fail(f"Unknown command: {rest[0]}\n", 255)
    if len(rest) > 1:
        mode = _NIGHT_MODES.get(rest[1])
        if mode is None:
            return fail("Error: mode must be 'yes', 'no', or 'auto', or 'custom_schedule', or 'custom_bedtime'\n", 255)
        phone.settings.put("secure", "ui_night_mode", mode)
    current = phone.settings.get("secure", "ui_night_mode") or "1"
    name = {value: key for key, value in _NIGHT_MODES.items()}.get(current, "no")
    return ok(f"Night mode: {name}\n")

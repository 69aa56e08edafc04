"""``svc wifi|bluetooth enable|disable``: the radio switches (``svc data|power|usb|nfc`` change nothing)."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, ok


@command("svc")
def _svc(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    if len(argv) == 3 and argv[1] in ("wifi", "bluetooth") and argv[2] in ("enable", "disable"):
        setter = phone.radios.set_wifi if argv[1] == "wifi" else phone.radios.set_bluetooth
        setter(argv[2] == "enable")
        return ok()
    if len(argv) >= 2 and argv[1] in ("data", "power", "usb", "nfc"):
        return ok()
    if len(argv) >= 2 and argv[1] == "wifi":
        return (
            b"Control the Wi-Fi manager\n\nusage: svc wifi [enable|disable]\n         Turn Wi-Fi on or off.\n\n",
            b"",
            1,
        )
    return ok(
        "Available commands:\n    help     Show information about the subcommands\n"
        "    power    Control the power manager\n    data     Control mobile data connectivity\n"
        "    wifi     Control the Wi-Fi manager\n    bluetooth Control Bluetooth service\n"
    )

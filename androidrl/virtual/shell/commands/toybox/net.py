"""Toybox's ``ifconfig`` and iproute2's ``ip``: the loopback, and one Wi-Fi interface, up while Wi-Fi is on."""

from __future__ import annotations

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok

WIFI_IP = "10.0.2.16"  # the address an emulator's Wi-Fi gets


WIFI_MAC = "02:00:00:44:55:66"


def _interfaces(sh: Shell) -> list[tuple[str, str | None, str, bool]]:
    """(name, IPv4, MAC, up) of each interface: loopback, and wlan0 while Wi-Fi is on."""
    wifi = sh.phone.radios.wifi_enabled
    return [("lo", "127.0.0.1", "00:00:00:00:00:00", True), ("wlan0", WIFI_IP if wifi else None, WIFI_MAC, wifi)]


@command("ifconfig")
def _ifconfig(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``ifconfig [IFACE]``."""
    interfaces = _interfaces(sh)
    if len(argv) > 1:
        interfaces = [i for i in interfaces if i[0] == argv[1]]
        if not interfaces:
            return fail(f"ifconfig: {argv[1]}: No such device\n")
    blocks = []
    for name, ip, mac, up in interfaces:
        kind = "Local Loopback" if name == "lo" else f"UNSPEC  HWaddr {mac}"
        lines = [f"{name:<10}Link encap:{kind}"]
        if ip:
            mask = "255.0.0.0" if name == "lo" else "255.255.255.0"
            bcast = "" if name == "lo" else "  Bcast:10.0.2.255"
            lines.append(f"          inet addr:{ip}{bcast}  Mask:{mask}")
        flags = (
            "UP LOOPBACK RUNNING"
            if name == "lo"
            else ("UP BROADCAST RUNNING MULTICAST" if up else "BROADCAST MULTICAST")
        )
        lines.append(f"          {flags}  MTU:{65536 if name == 'lo' else 1500}  Metric:1")
        blocks.append("\n".join(lines) + "\n")
    return ok("\n".join(blocks) + "\n")


@command("ip")
def _ip(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``ip addr|address|a [show] [dev IFACE]`` and ``ip link``, in iproute2's layout."""
    args = argv[1:]
    if not args or args[0] not in ("addr", "address", "a", "link", "l", "route", "r"):
        return fail(
            "Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\nwhere  OBJECT := { link | address | route }\n", 255
        )
    if args[0] in ("route", "r"):
        wifi = sh.phone.radios.wifi_enabled
        return ok(f"10.0.2.0/24 dev wlan0 proto kernel scope link src {WIFI_IP}\n" if wifi else "")
    interfaces = list(enumerate(_interfaces(sh), 1))
    if "dev" in args and args.index("dev") + 1 < len(args):
        name = args[args.index("dev") + 1]
        interfaces = [i for i in interfaces if i[1][0] == name]
        if not interfaces:
            return fail(f'Device "{name}" does not exist.\n', 1)
    out = []
    for index, (name, ip, mac, up) in interfaces:
        state = "UNKNOWN" if name == "lo" else ("UP" if up else "DOWN")
        flags = (
            "LOOPBACK,UP,LOWER_UP"
            if name == "lo"
            else ("BROADCAST,MULTICAST,UP,LOWER_UP" if up else "BROADCAST,MULTICAST")
        )
        mtu = 65536 if name == "lo" else 1500
        out.append(f"{index}: {name}: <{flags}> mtu {mtu} qdisc noqueue state {state} group default qlen 1000")
        kind = "loopback" if name == "lo" else "ether"
        out.append(f"    link/{kind} {mac} brd {'00:00:00:00:00:00' if name == 'lo' else 'ff:ff:ff:ff:ff:ff'}")
        if ip and args[0] not in ("link", "l"):
            prefix = 8 if name == "lo" else 24
            scope = "host" if name == "lo" else "global"
            extra = "" if name == "lo" else " brd 10.0.2.255"
            out.append(f"    inet {ip}/{prefix}{extra} scope {scope} {name}")
            out.append("       valid_lft forever preferred_lft forever")
    return ok("\n".join(out) + "\n")

"""More of the phone's shell: the log, processes, network, content and shell builtins.

``logcat`` (:mod:`androidrl.virtual.logcat`), ``ps``/``pidof`` (the process table),
``ip``/``ifconfig`` (one Wi-Fi interface, up while Wi-Fi is on), ``content query`` on the
settings provider, ``which``, and the builtins ``adb logcat`` and scripts use: ``export``
and ``unset`` (``exec`` is the shell's own). Formats follow toybox (``ps``, ``pidof``, ``ifconfig``, ``which``),
iproute2 (``ip``) and AOSP's ``ContentShellCommand``.
"""

from __future__ import annotations

import shlex

from androidrl.virtual.commands import Result, fail, ok
from androidrl.virtual.logcat import logcat
from androidrl.virtual.shell import Command, Shell
from androidrl.virtual.system.settings_provider import NAMESPACES

#: The commands this module adds to the phone's shell.
TOOLS: dict[str, Command] = {}
WIFI_IP = "10.0.2.16"  # the address an emulator's Wi-Fi gets
WIFI_MAC = "02:00:00:44:55:66"
BIN_DIRS = ("/system/bin", "/system/xbin", "/vendor/bin")


def tool(*names: str):
    """Register a command under ``names``."""

    def register(fn):
        for name in names:
            TOOLS[name] = fn
        return fn

    return register


@tool("logcat")
def _logcat(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return logcat(sh, argv, sh.phone.log)


@tool("export")
def _export(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    for arg in argv[1:]:
        name, sep, value = arg.partition("=")
        if sep:
            sh.variables[name] = value
    return ok()


@tool("unset")
def _unset(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    for name in argv[1:]:
        sh.variables.pop(name, None)
    return ok()


@tool("which")
def _which(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    found, code = [], 0
    for name in (a for a in argv[1:] if not a.startswith("-")):
        if name in sh.commands and name not in ("export", "unset", "cd", "exit"):
            found.append(f"/system/bin/{name}\n")
        else:
            code = 1
    return "".join(found).encode(), b"", code


@tool("ps")
def _ps(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``ps``: ``-A`` all, ``-o`` columns, ``-p PID``; default: the shell's own processes."""
    args = argv[1:]
    rows = sh.phone.processes.table()
    if "-p" in args and args.index("-p") + 1 < len(args):
        wanted = {int(p) for p in args[args.index("-p") + 1].split(",") if p.isdigit()}
        rows = [r for r in rows if r.pid in wanted]
    elif not any(a in ("-A", "-e", "-ef") for a in args):
        rows = [r for r in rows if r.user == "shell"]
    if "-o" in args and args.index("-o") + 1 < len(args):
        columns = [c.split("=")[0].upper() for c in args[args.index("-o") + 1].split(",")]
        values = {"PID": "pid", "PPID": "ppid", "USER": "user", "NAME": "name", "CMD": "name", "ARGS": "name"}
        lines = [" ".join(f"{c:>5}" if c in ("PID", "PPID") else c for c in columns)]
        for r in rows:
            fields = [str(getattr(r, values.get(c, "name"))) for c in columns]
            lines.append(" ".join(f"{f:>5}" if c in ("PID", "PPID") else f for c, f in zip(columns, fields)))
        return ok("\n".join(lines) + "\n")
    lines = [f"{'USER':<10} {'PID':>5} {'PPID':>5} {'VSZ':>10} {'RSS':>6} {'WCHAN':<16} {'ADDR':>4} S NAME"]
    for r in rows:
        vsz, rss = (14_820_216, 98_304) if r.ppid == 340 else (10_902_888, 3_200)
        lines.append(f"{r.user:<10} {r.pid:>5} {r.ppid:>5} {vsz:>10} {rss:>6} {'0':<16} {'0':>4} S {r.name}")
    return ok("\n".join(lines) + "\n")


@tool("pidof")
def _pidof(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    pids = [sh.phone.processes.pid(name) for name in argv[1:] if not name.startswith("-")]
    found = [str(p) for p in pids if p is not None]
    return (" ".join(found) + "\n").encode() if found else b"", b"", 0 if found else 1


def _interfaces(sh: Shell) -> list[tuple[str, str | None, str, bool]]:
    """(name, IPv4, MAC, up) of each interface: loopback, and wlan0 while Wi-Fi is on."""
    wifi = sh.phone.radios.wifi_enabled
    return [("lo", "127.0.0.1", "00:00:00:00:00:00", True), ("wlan0", WIFI_IP if wifi else None, WIFI_MAC, wifi)]


@tool("ifconfig")
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


@tool("ip")
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


@tool("content")
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

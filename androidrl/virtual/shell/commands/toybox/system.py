"""Toybox's tools for the system, in toybox's formats.

``id``, ``whoami``, ``uname``, ``date``, ``uptime``, ``sleep``, ``env``, ``which``, ``ps``, ``pidof`` and
``reboot``.
"""

from __future__ import annotations

import shlex

from androidrl.virtual.shell.interpreter import Shell, is_builtin
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.power import PhoneOfflineError


@command("id")
def _id(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if sh.phone.root:
        return ok(
            "uid=0(root) gid=0(root) groups=0(root),1004(input),1007(log),1011(adb),1015(sdcard_rw) context=u:r:su:s0\n"
        )
    return ok(
        "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),"
        "1015(sdcard_rw),1028(sdcard_r),3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats)"
        " context=u:r:shell:s0\n"
    )


@command("whoami")
def _whoami(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    return ok("root\n" if sh.phone.root else "shell\n")


@command("uname")
def _uname(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    if "-a" in argv:
        return ok("Linux localhost 6.1.23-android14 #1 SMP PREEMPT x86_64 Toybox\n")
    if "-m" in argv:
        return ok("x86_64\n")
    if "-r" in argv:
        return ok("6.1.23-android14\n")
    return ok("Linux\n")


@command("date")
def _date(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``date [-u] [+FORMAT]``: the phone's time (its own clock, in ``persist.sys.timezone``), as toybox prints it.

    The format is ``%a %b %e %H:%M:%S %Z %Y`` by default. Setting the time (``date SET``) needs root.
    """
    args = argv[1:]
    utc = "-u" in args
    args = [a for a in args if a != "-u"]
    if args and not args[0].startswith("+"):
        if args[0] in ("-d", "-r", "-s", "-D", "-I"):
            return fail(f"date: {args[0]} is not supported on this phone\n")
        return fail("date: cannot set date: Operation not permitted\n") if not sh.phone.root else fail(
            "date: setting the date is not supported on this phone\n"
        )  # fmt: skip
    now = sh.phone.clock.local(timezone="" if utc else sh.phone.getprop("persist.sys.timezone"))
    spec = args[0][1:] if args else "%a %b %e %H:%M:%S %Z %Y"
    spec = spec.replace("%N", f"{now.microsecond * 1000:09d}").replace("%s", str(int(now.timestamp())))
    return ok(now.strftime(spec) + "\n")


@command("uptime")
def _uptime(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``uptime [-ps]``: `` 09:00:00 up 0 min,  0 users,  load average: ...`` (Android keeps no utmp)."""
    clock = sh.phone.clock
    now = clock.local(timezone=sh.phone.getprop("persist.sys.timezone"))
    up = int(clock.uptime())
    if "-s" in argv:
        return ok(clock.local(clock.now() - up, sh.phone.getprop("persist.sys.timezone")).strftime("%F %T") + "\n")
    minutes, hours, days = up // 60 % 60, up // 3600 % 24, up // 86400
    loads = "load average: 0.52, 0.48, 0.41"
    if "-p" in argv:
        weeks, days = days // 7, days % 7
        plural = lambda n: "" if n == 1 else "s"  # noqa: E731
        return ok(
            f"up {weeks} week{plural(weeks)}, {days} day{plural(days)}, {hours} hour{plural(hours)}, "
            f"{minutes} minute{plural(minutes)},  {loads}\n"
        )
    text = f" {now:%H:%M:%S} up "
    if days:
        text += f"{days} day{'' if days == 1 else 's'}, "
    text += f"{hours:2d}:{minutes:02d}, " if hours else f"{minutes} min, "
    return ok(text + f" 0 users,  {loads}\n")


@command("env")
def _env(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """Toybox ``env [-i] [-u NAME] [NAME=VALUE...] [COMMAND...]``: the environment, or a command run in another."""
    args, clear, unset = argv[1:], False, []
    while args and args[0].startswith("-"):
        flag = args.pop(0)
        if flag in ("-i", "-"):
            clear = True
        elif flag == "-u" and args:
            unset.append(args.pop(0))
        elif flag == "--":
            break
        else:
            return fail(f"env: Unknown option '{flag.lstrip('-')[:1]}' (see \"env --help\")\n", 125)
    environment = {} if clear else {k: v for k, v in sh.variables.items() if k in sh.exported}
    for name in unset:
        environment.pop(name, None)
    while args and "=" in args[0]:
        name, _, value = args.pop(0).partition("=")
        environment[name] = value
    if not args:
        return ok("".join(f"{k}={v}\n" for k, v in environment.items()))
    saved = (sh.variables, sh.exported)
    sh.variables = {**{k: v for k, v in sh.variables.items() if k not in sh.exported}, **environment}
    sh.exported = set(environment)
    try:
        if (args[0] not in sh.commands or is_builtin(sh.commands[args[0]])) and "/" not in args[0]:
            return fail(f"env: exec {args[0]}: No such file or directory\n", 127)
        return b"", b"", sh.run_utility(args)
    finally:
        sh.variables, sh.exported = saved


@command("sleep")
def _sleep(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``sleep SECONDS``: waits, and moves a stepped clock on by as much (it moves by nothing else but steps)."""
    try:
        seconds = float(argv[1])
    except (IndexError, ValueError):
        return fail("sleep: Needs 1 argument\n" if len(argv) < 2 else f"sleep: invalid number '{argv[1]}'\n")
    seconds = max(0.0, seconds)
    if sh.phone.clock.stepped:
        sh.phone.clock.advance(seconds)
    if sh.wait(seconds):
        return b"", b"", sh.killed_status  # a signal (or the client going away) ends it
    return ok()


@command("which")
def _which(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    found, code = [], 0
    for name in (a for a in argv[1:] if not a.startswith("-")):
        if name in sh.commands and not is_builtin(sh.commands[name]):
            found.append(f"/system/bin/{name}\n")
        else:
            code = 1
    return "".join(found).encode(), b"", code


@command("ps")
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


@command("pidof")
def _pidof(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    pids = [sh.phone.processes.pid(name) for name in argv[1:] if not name.startswith("-")]
    found = [str(p) for p in pids if p is not None]
    return (" ".join(found) + "\n").encode() if found else b"", b"", 0 if found else 1


@command("reboot")
def _reboot(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    """``reboot [-p]``: the phone goes down under the command, which never answers.

    AOSP's reboot (system/core/reboot/reboot.c) sets ``sys.powerctl`` and then waits in ``pause()``
    for init to take the phone down, so that ``adb shell reboot && adb wait-for-device`` works: it
    never exits, and whoever ran it sees the phone go (over adb, the connection drops).

    Raises:
        PhoneOfflineError: Always: the phone went down under the command.
    """
    power_off = "-p" in argv[1:]
    sh.phone.reboot(power_off=power_off)
    raise PhoneOfflineError(f"`{shlex.join(argv)}`: the phone {'powered off' if power_off else 'went down to reboot'}")

"""``androidrl virtual``: serve virtual phones over TCP as adb devices (and emulators, on emulator ports).

The server itself: the phones, their adbd (and consoles), an optional fault plan, until
Ctrl-C or SIGTERM. The virtual phone lives in :mod:`androidrl.virtual`; this module only
serves it.
"""

from __future__ import annotations

import argparse
import sys

from androidrl.arguments import USAGE, add_screen, seed_arg
from androidrl.virtual.adbd.keys import DEFAULT_KEYS_DIR, KeysDir, TrustedKeys, load_keys, shown
from androidrl.virtual.system.fs import DEFAULT_CAPACITY

DEFAULT_STORAGE_MB = DEFAULT_CAPACITY // 2**20


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``androidrl virtual``."""
    virtual = sub.add_parser(
        "virtual",
        help="serve virtual phones as adb devices over TCP",
        description="Serve virtual phones through a virtual adbd (and, on emulator ports, an emulator "
        "console) until Ctrl-C or SIGTERM: `adb connect 127.0.0.1:PORT` and drive them as devices.",
    )
    virtual.add_argument("--count", type=int, default=1, help="number of phones (default 1)")
    virtual.add_argument("--port", type=int, default=6101, help="first TCP port (default 6101)")
    virtual.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; others need --public)"
    )
    virtual.add_argument(
        "--public", action="store_true", help="allow --host beyond this machine (anyone reaching it gets a shell)"
    )
    virtual.add_argument(
        "--auth",
        nargs="*",
        metavar="KEYS",
        help="require adb's RSA authentication: only hosts that sign with one of these public keys get in "
        "(adbkey.pub or adb_keys files, read again when they change; default ~/.android/adbkey.pub)",
    )
    virtual.add_argument(
        "--auth-prompt",
        action="store_true",
        help="with authentication, let a host whose key is not trusted ask to be allowed: its request waits in "
        "--keys-dir until you run `androidrl virtual-keys --allow FINGERPRINT` (it must then still sign)",
    )
    virtual.add_argument(
        "--keys-dir",
        default=DEFAULT_KEYS_DIR,
        help=f"where --auth-prompt keeps requests and allowed keys (default {DEFAULT_KEYS_DIR})",
    )
    virtual.add_argument(
        "--storage",
        type=int,
        default=DEFAULT_STORAGE_MB,
        metavar="MB",
        help=f"each phone's storage in MiB (/data and /sdcard; `df` shows it; default {DEFAULT_STORAGE_MB})",
    )
    virtual.add_argument("--seed", type=seed_arg, default=0, help="seed of the first phone; the next ones count up")
    add_screen(virtual)
    virtual.add_argument("--no-announce", action="store_true", help="on emulator ports, do not announce to adb")
    virtual.add_argument(
        "--emulator",
        action="store_true",
        help="serve each phone as an emulator on a port pair: console on PORT-1, adbd on PORT (odd) "
        "(automatic on 5555-5585)",
    )
    virtual.add_argument(
        "--sdk",
        type=int,
        default=34,
        choices=[29, 30, 31, 32, 33, 34],
        help="Android SDK level to behave as (default 34)",
    )
    virtual.add_argument(
        "--faults",
        metavar="PLAN",
        help="inject faults: seed=S,every=SECONDS,duration=SECONDS,kinds=drop+hang+garbage+slow+blackhole+reboot "
        "or a JSON file of faults; each is logged as a JSON line on stderr",
    )
    virtual.set_defaults(func=serve)
    keys = sub.add_parser(
        "virtual-keys",
        help="allow or deny hosts asking to connect to `androidrl virtual --auth-prompt`",
        description="List the hosts whose keys wait to be allowed by `androidrl virtual --auth-prompt` (and the "
        "keys allowed so far), or answer one: --allow adds its key to the trusted ones (the waiting host then "
        "signs in with it), --deny drops the request. FINGERPRINT is the one the server printed (colons and "
        "case do not matter; a unique prefix will do).",
    )
    keys.add_argument("--keys-dir", default=DEFAULT_KEYS_DIR, help=f"the keys directory (default {DEFAULT_KEYS_DIR})")
    answer = keys.add_mutually_exclusive_group()
    answer.add_argument("--allow", metavar="FINGERPRINT", help="trust the key of this pending request")
    answer.add_argument("--deny", metavar="FINGERPRINT", help="drop this pending request")
    keys.set_defaults(func=answer_keys)


def _ports(args: argparse.Namespace, emulator: bool) -> list[int]:
    """The adbd port of each phone.

    Raises:
        ValueError: A port beyond 1..65535 (naming the flags).
    """
    step = 2 if emulator else 1
    ports = [args.port + i * step for i in range(args.count)]
    low = 2 if emulator else 1  # (an emulator's console takes the port below)
    if not low <= args.port <= 65535:
        raise ValueError(f"--port {args.port}: expected a TCP port in {low}..65535")
    if ports[-1] > 65535:
        raise ValueError(
            f"--port {args.port} --count {args.count}: the phones need ports {ports[0]}..{ports[-1]}"
            f"{' (every other one)' if emulator else ''}, beyond 65535; choose a lower --port or fewer phones"
        )
    return ports


def serve(args: argparse.Namespace) -> int:
    """Serve virtual phones over TCP as adb devices until SIGINT/SIGTERM."""
    from androidrl.device.adb_client import AdbClient
    from androidrl.screen import check_screen
    from androidrl.virtual.adbd.server import LOOPBACK, AdbdServer, run_forever
    from androidrl.virtual.console import ConsoleServer
    from androidrl.virtual.faults import FaultPlan, FaultyLink, run_plan
    from androidrl.virtual.phone import VirtualPhone

    # On an emulator's adb port (odd, 5555-5585; or any odd port with --emulator) phones take
    # port pairs, as emulators do: the console on the even port, adbd on the odd one; each
    # announces itself to the adb server, which lists it as emulator-<console port>.
    emulator = (args.emulator or 5555 <= args.port <= 5585) and args.port % 2 == 1
    if args.emulator and args.port % 2 == 0:
        print("androidrl virtual: --emulator takes the odd adb port of the pair (console: port - 1)", file=sys.stderr)
        return USAGE
    if emulator and args.faults:
        print("androidrl virtual: --faults serves host:port serials; use a port outside 5555-5585", file=sys.stderr)
        return USAGE
    try:
        ports = _ports(args, emulator)
        check_screen(args.width, args.height, args.density)  # before any port is taken
        if args.storage < 1:
            raise ValueError(f"--storage: expected a positive number of MiB, got {args.storage}")
        plan = FaultPlan.parse(args.faults, args.count) if args.faults else None
        keys = _trusted_keys(args)
    except ValueError as err:
        print(f"androidrl virtual: {err}", file=sys.stderr)
        return USAGE
    if args.host not in LOOPBACK:
        if not args.public:
            print(
                f"androidrl virtual: --host {args.host} serves the phones beyond this machine, where anyone who "
                "reaches the port gets a shell; add --public to do it anyway (and --auth to let in only your keys)",
                file=sys.stderr,
            )
            return USAGE
        print(
            f"androidrl virtual: warning: listening on {args.host}: "
            + ("only hosts with the --auth keys get in" if keys else "anyone who reaches the ports gets a shell"),
            file=sys.stderr,
        )
    announce = AdbClient().port if emulator and not args.no_announce else None
    servers, links = [], []
    for i, port in enumerate(ports):
        phone = VirtualPhone(
            args.width,
            args.height,
            args.density,
            seed=args.seed + i,
            serial=f"emulator-{port - 1}" if emulator else f"virtual-{port}",
            sdk=args.sdk,
            storage=args.storage * 1024 * 1024,
        )
        if emulator:  # `adb emu ...` talks to it; `kill` powers the phone off, as the emulator exits
            servers.append(ConsoleServer(phone, port - 1))
        if plan is None:
            servers.append(
                AdbdServer(phone, port, args.host, announce_port=announce, auth_keys=keys, allow_public=args.public)
            )
        else:  # the phone's adbd on a port of its own, behind a link that plays the faults
            server = AdbdServer(phone, 0, "127.0.0.1", auth_keys=keys)
            servers.append(server)
            links.append(FaultyLink(server, port, args.host, reboot=phone.reboot))
    public = links or servers

    def ready() -> None:
        for server in public:
            if not isinstance(server, ConsoleServer):
                print(server.serial, flush=True)
        if emulator:
            names = ", ".join(f"emulator-{s.port}" for s in servers if isinstance(s, ConsoleServer))
            print(f"(adb lists them as {names})", file=sys.stderr, flush=True)

    background = (lambda: run_plan(plan, links, [link.serial for link in links])) if plan else None
    try:
        run_forever([*servers, *links], on_ready=ready, background=background)
    except OSError as err:
        print(f"androidrl virtual: cannot listen on {args.host}:{args.port}..: {err}", file=sys.stderr)
        return 1
    return 0


def _trusted_keys(args: argparse.Namespace) -> TrustedKeys | None:
    """The keys the phones trust (None: no authentication), checked before anything is served.

    Raises:
        ValueError: --auth-prompt without --auth, or a key file that is missing or holds no key.
    """
    if args.auth is None:
        if args.auth_prompt:
            raise ValueError("--auth-prompt asks hosts to sign in: add --auth (with or without key files)")
        return None
    files = args.auth or ([] if args.auth_prompt else ["~/.android/adbkey.pub"])
    if files:
        load_keys(files)  # every file readable and every line a key, now rather than at the first host
    return TrustedKeys(files=files, keys_dir=KeysDir(args.keys_dir) if args.auth_prompt else None)


def answer_keys(args: argparse.Namespace) -> int:
    """``androidrl virtual-keys``: list the pending requests and allowed keys, or allow or deny one."""
    keys_dir = KeysDir(args.keys_dir)
    try:
        if args.allow:
            key = keys_dir.allow(args.allow)
            print(f"allowed {key.fingerprint} ({shown(key.comment)}): added to {keys_dir.allowed_file}")
            return 0
        if args.deny:
            key = keys_dir.deny(args.deny)
            print(f"denied {key.fingerprint} ({shown(key.comment)}): the host stays unauthorized")
            return 0
    except ValueError as err:
        print(f"androidrl virtual-keys: {err}", file=sys.stderr)
        return USAGE
    except OSError as err:
        print(f"androidrl virtual-keys: cannot write {keys_dir.path}: {err.strerror or err}", file=sys.stderr)
        return 1
    pending, allowed = keys_dir.requests(), keys_dir.allowed()
    print(f"pending requests in {keys_dir.pending_dir} ({len(pending)}; answer with --allow/--deny FINGERPRINT):")
    for key in pending:
        print(f"  {key.fingerprint}  {shown(key.comment)}")
    print(f"allowed keys in {keys_dir.allowed_file} ({len(allowed)}):")
    for key in allowed:
        print(f"  {key.fingerprint}  {shown(key.comment)}")
    return 0

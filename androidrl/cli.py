"""The ``androidrl`` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from PIL import Image


def _rollout(args: argparse.Namespace) -> int:
    """A random agent on a virtual phone; saves a few screenshots."""
    from androidrl.registration import make_virtual_env
    from androidrl.spaces import EnvAction

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        env = make_virtual_env(args.width, args.height, args.density, seed=args.seed, dump_xml=False)
    except ValueError as err:  # a screen it cannot make
        print(f"androidrl rollout: {err}", file=sys.stderr)
        return 2
    try:
        env.reset(seed=args.seed)
        env.action_space.seed(args.seed)
        save_at = set(np.linspace(0, args.steps, num=min(args.save, args.steps + 1), dtype=int).tolist())
        saved = []
        for step in range(args.steps + 1):
            if step:
                action = EnvAction(**_typable_sample(env.action_space))
                _, _, terminated, truncated, info = env.step(action)
                note = info["action_error"] or info["device_error"]
                print(f"step {step:4d}/{args.steps}  {action.action_type.name:<15}" + (f"  ({note})" if note else ""))
                if terminated or truncated:
                    env.reset()
            if step in save_at:
                path = out / f"step_{step:04d}.png"
                Image.fromarray(env.frame).save(path)
                saved.append(path)
        package = env.device.shell("dumpsys window | grep mCurrentFocus").strip()
        print(f"done: {args.steps} random steps; {len(saved)} screenshots in {out}/; focus: {package}")
    finally:
        env.close()
    return 0


def _typable_sample(space) -> dict:
    """A random action whose text Android can type (the space holds any printable text, as MetaGPT's)."""
    from androidrl.device.base import TYPABLE

    action = {name: sub.sample() for name, sub in space.spaces.items() if name != "input_txt"}
    rng = space.np_random
    length = int(rng.integers(1, 13))
    chars = sorted(TYPABLE)  # drawn by index, as PrintableText does: a NumPy string array can swallow a Ctrl-C
    action["input_txt"] = "".join([chars[i] for i in rng.integers(0, len(chars), size=length).tolist()])
    return action


_STATE_HELP = {
    "offline": "not answering: reconnect it (`adb reconnect` / replug), or wait for the boot to finish",
    "unauthorized": "accept the 'Allow USB debugging' prompt on the phone's screen",
    "no permissions": "the USB device is not accessible: add a udev rule or run adb as root",
    "authorizing": "adb is still exchanging keys; retry in a moment",
    "connecting": "adb is still connecting; retry in a moment",
}


def _client(args: argparse.Namespace):
    from androidrl.device.adb_client import AdbClient

    return AdbClient(args.host, args.port)


def _devices(args: argparse.Namespace) -> int:
    """List the adb server's devices with state, model and screen size (or the Ray cluster's, with --cluster)."""
    from androidrl.device.adb import AdbDevice
    from androidrl.errors import DeviceError

    if args.cluster:
        from androidrl.node import list_cluster_devices

        return list_cluster_devices(args.address)

    client = _client(args)
    try:
        entries = client.devices()
    except DeviceError as err:
        print(f"androidrl: {err}", file=sys.stderr)
        return 1
    if not entries:
        print(
            "no devices: start an emulator, plug in a phone with USB debugging on, "
            "`adb connect HOST:PORT`, or serve virtual phones with `androidrl virtual`"
        )
        return 0
    rows = [("SERIAL", "STATE", "MODEL", "SCREEN")]
    notes = []
    for entry in entries:
        model, size = entry.properties.get("model", "-"), "-"
        if entry.state == "device":
            device = AdbDevice(entry.serial, host=args.host, port=args.port, timeout=5)
            try:
                model = device.shell("getprop ro.product.model").strip() or model
                size = "{}x{}".format(*device.screen_size)
            except DeviceError as err:
                notes.append(f"{entry.serial}: {err}")
        elif entry.state in _STATE_HELP:
            notes.append(f"{entry.serial} is {entry.state}: {_STATE_HELP[entry.state]}")
        rows.append((entry.serial, entry.state, model, size))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    for note in notes:
        print(note)
    return 0


def _doctor(args: argparse.Namespace) -> int:
    """Check adb, the adb server and each device; print what to fix."""
    import shutil
    import subprocess
    import time

    from androidrl.device.adb import AdbDevice
    from androidrl.errors import DeviceError

    failures = 0

    def report(ok: bool, what: str, detail: str) -> None:
        nonlocal failures
        failures += not ok
        print(f"[{'ok' if ok else 'FAIL'}] {what}: {detail}")

    adb = shutil.which("adb")
    if adb is None:
        report(False, "adb", "not installed; on Debian/Ubuntu: sudo apt-get install adb")
        return 1
    version = subprocess.run([adb, "version"], capture_output=True, text=True, timeout=10).stdout.splitlines()
    report(True, "adb", f"{adb} ({version[0] if version else 'unknown version'})")
    client = _client(args)
    try:
        report(True, "adb server", f"{client.host}:{client.port}, protocol {client.version()}")
        entries = client.devices()
    except DeviceError as err:
        report(False, "adb server", str(err))
        return 1
    if not entries:
        report(False, "devices", "none; start an emulator, plug in a phone, or run `androidrl virtual`")
    for entry in entries:
        if entry.state != "device":
            report(False, entry.serial, f"{entry.state}: {_STATE_HELP.get(entry.state, 'not usable')}")
            continue
        device = AdbDevice(entry.serial, host=args.host, port=args.port, timeout=10)
        try:
            start = time.perf_counter()
            device.shell("echo ok")
            echo_ms = (time.perf_counter() - start) * 1000
            start = time.perf_counter()
            frame = device.screenshot()
            shot_ms = (time.perf_counter() - start) * 1000
            start = time.perf_counter()
            device.dump_ui()
            xml_ms = (time.perf_counter() - start) * 1000
            report(
                True,
                entry.serial,
                f"screen {frame.shape[1]}x{frame.shape[0]}; shell {echo_ms:.1f} ms, "
                f"screenshot {shot_ms:.1f} ms, UI dump {xml_ms:.1f} ms",
            )
        except DeviceError as err:
            report(False, entry.serial, str(err))
    return 1 if failures else 0


def _virtual(args: argparse.Namespace) -> int:
    """Serve virtual phones over TCP as adb devices until SIGINT/SIGTERM."""
    from androidrl.device.adb_client import AdbClient
    from androidrl.virtual.adbd.auth import load_keys
    from androidrl.virtual.adbd.server import LOOPBACK, AdbdServer, run_forever
    from androidrl.virtual.console import ConsoleServer
    from androidrl.virtual.faults import FaultPlan, FaultyLink, run_plan
    from androidrl.virtual.phone import VirtualPhone
    from androidrl.virtual.system.framework.metrics import check_display

    # On an emulator's adb port (odd, 5555-5585; or any odd port with --emulator) phones take
    # port pairs, as emulators do: the console on the even port, adbd on the odd one; each
    # announces itself to the adb server, which lists it as emulator-<console port>.
    emulator = (args.emulator or 5555 <= args.port <= 5585) and args.port % 2 == 1
    if args.emulator and args.port % 2 == 0:
        print("androidrl virtual: --emulator takes the odd adb port of the pair (console: port - 1)", file=sys.stderr)
        return 2
    if emulator and args.faults:
        print("androidrl virtual: --faults serves host:port serials; use a port outside 5555-5585", file=sys.stderr)
        return 2
    try:
        check_display(args.width, args.height, args.density)  # before any port is taken
        plan = FaultPlan.parse(args.faults, args.count) if args.faults else None
        keys = load_keys(args.auth or ["~/.android/adbkey.pub"]) if args.auth is not None else None
    except ValueError as err:
        print(f"androidrl virtual: {err}", file=sys.stderr)
        return 2
    if args.host not in LOOPBACK:
        if not args.public:
            print(
                f"androidrl virtual: --host {args.host} serves the phones beyond this machine, where anyone who "
                "reaches the port gets a shell; add --public to do it anyway (and --auth to let in only your keys)",
                file=sys.stderr,
            )
            return 2
        print(
            f"androidrl virtual: warning: listening on {args.host}: "
            + ("only hosts with the --auth keys get in" if keys else "anyone who reaches the ports gets a shell"),
            file=sys.stderr,
        )
    step = 2 if emulator else 1
    announce = AdbClient().port if emulator and not args.no_announce else None
    servers, links = [], []
    for i in range(args.count):
        port = args.port + i * step
        phone = VirtualPhone(
            args.width,
            args.height,
            args.density,
            seed=args.seed + i,
            serial=f"emulator-{port - 1}" if emulator else f"virtual-{port}",
            sdk=args.sdk,
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


def _tasks(args: argparse.Namespace) -> int:
    """List the built-in tasks, or check a task file."""
    from androidrl.errors import TaskError
    from androidrl.tasks.registry import builtin_specs, gym_id
    from androidrl.tasks.spec import load_spec

    if args.action == "check":
        if not args.file:
            print("androidrl tasks check: give the task file to check", file=sys.stderr)
            return 2
        try:
            spec = load_spec(args.file)
        except TaskError as err:
            print(err, file=sys.stderr)
            return 1
        print(
            f"{args.file}: ok — task {spec.name!r}, max_steps {spec.max_steps}, "
            f"{len(spec.reset)} reset steps, params {sorted(spec.params) or 'none'}"
        )
        return 0
    rows = [("NAME", "GYM ID", "STEPS", "STOCK", "DESCRIPTION")]
    for name, spec in builtin_specs().items():
        rows.append((name, gym_id(name), str(spec.max_steps), "yes" if spec.stock_android else "no", spec.description))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths)) + "  " + row[4])
    print("STOCK: runs unchanged on an Android emulator (stock apps and settings only).")
    return 0


def _record(args: argparse.Namespace) -> int:
    """Record episodes of a random policy (as SB3 sees the env: images in, grid actions out)."""
    from androidrl.device.spec import DeviceSpec
    from androidrl.env import AndroidEnv
    from androidrl.errors import AndroidRLError
    from androidrl.recording import EpisodeRecorder
    from androidrl.registration import pixel_wrap

    try:
        spec = DeviceSpec.parse(args.device)
        env = AndroidEnv(spec.make_device(seed=args.seed), args.task, screen_size=spec.screen_size())
        env = EpisodeRecorder(pixel_wrap(env, shape=(args.height, args.width)), args.out, record_xml=args.xml)
        try:
            env.action_space.seed(args.seed)
            for episode in range(args.episodes):
                env.reset(seed=args.seed + episode)
                done = False
                while not done:
                    *_, terminated, truncated, _ = env.step(env.action_space.sample())
                    done = terminated or truncated
                print(f"episode {episode}: saved {env.saved[-1]}")
        finally:
            env.close()
    except (AndroidRLError, ValueError) as err:
        print(f"androidrl record: {err}", file=sys.stderr)
        return 1
    return 0


def _minari(args: argparse.Namespace) -> int:
    """Export a recording as a Minari dataset."""
    from androidrl.recording import export_minari

    try:
        path = export_minari(args.recording, args.dataset_id, args.description, args.author, args.overwrite)
    except (ValueError, ImportError, OSError) as err:
        print(f"androidrl minari: {err}", file=sys.stderr)
        return 1
    print(f"{args.dataset_id}: {path} (load it with minari.load_dataset({args.dataset_id!r}))")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="androidrl",
        description="Reinforcement learning on Android phones, emulators and a headless virtual phone.",
        epilog="androidrl --version prints the version; androidrl COMMAND --help explains a command.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    rollout = sub.add_parser(
        "rollout",
        help="random agent on a virtual phone, saving screenshots",
        description="Play random actions (taps, swipes, typeable text, keys) on a virtual phone and save "
        "a few screenshots: a first look at the environment.",
    )
    rollout.add_argument("--steps", type=int, default=30, help="number of random actions (default 30)")
    rollout.add_argument("--out", default="runs/rollout", help="directory for screenshots (default runs/rollout)")
    rollout.add_argument("--save", type=int, default=5, help="how many screenshots to save (default 5)")
    rollout.add_argument("--seed", type=int, default=0, help="seed of the phone and the agent (default 0)")
    rollout.add_argument("--width", type=int, default=1080, help="screen width in pixels (default 1080)")
    rollout.add_argument("--height", type=int, default=2400, help="screen height in pixels (default 2400)")
    rollout.add_argument("--density", type=int, default=420, help="screen density in dpi (default 420)")
    rollout.set_defaults(func=_rollout)

    tasks = sub.add_parser(
        "tasks",
        help="list the built-in tasks, or `tasks check FILE` to validate a task file",
        description="`androidrl tasks` lists the built-in tasks; `androidrl tasks check FILE` validates a "
        "task YAML file (every key, condition and step) without running it.",
    )
    tasks.add_argument("action", nargs="?", choices=["list", "check"], default="list", help="list (default) or check")
    tasks.add_argument("file", nargs="?", help="the task YAML file to check")
    tasks.set_defaults(func=_tasks)

    record = sub.add_parser(
        "record",
        help="record episodes of a random policy as a dataset",
        description="Record episodes of a random policy (observations, frames, actions, rewards, infos) as "
        ".npz + .json files that androidrl.recording.load_dataset reads back.",
    )
    record.add_argument("--task", default="tap-target", help="built-in task name or YAML file")
    record.add_argument("--episodes", type=int, default=3, help="number of episodes (default 3)")
    record.add_argument("--out", default="recordings", help="directory for the episodes (default recordings)")
    record.add_argument("--device", default="virtual:360x800@160", help="adb serial or virtual[:WxH[@DPI]]")
    record.add_argument("--height", type=int, default=84, help="observation height (default 84)")
    record.add_argument("--width", type=int, default=84, help="observation width (default 84)")
    record.add_argument("--xml", action="store_true", help="also record the UI XML of every step")
    record.add_argument("--seed", type=int, default=0, help="seed of the env and the policy (default 0)")
    record.set_defaults(func=_record)

    export = sub.add_parser(
        "minari",
        help="export a recording (androidrl record / evaluate) as a Minari dataset",
        description="Export a recording directory as a Minari dataset, which minari.load_dataset(ID) reads.",
    )
    export.add_argument("recording", help="the recording directory (its meta.json and episode_*.npz)")
    export.add_argument("dataset_id", help="the dataset's name, e.g. androidrl/tap-target/random-v0")
    export.add_argument("--description", help="what the dataset holds")
    export.add_argument("--author", help="who made it (Minari's metadata)")
    export.add_argument("--overwrite", action="store_true", help="replace a dataset of that name")
    export.set_defaults(func=_minari)

    # These hand their arguments to their own parsers (see main()): `androidrl train --help`.
    for name, (_, text) in DELEGATES.items():
        sub.add_parser(name, help=text, add_help=False)

    configs = sub.add_parser(
        "configs",
        help="list the shipped training configs, or copy them to start your own",
        description="The training configs shipped with androidrl: `androidrl configs` lists them, "
        "`androidrl configs copy NAME [DEST]` copies one (or `all`) to DEST (default: here).",
    )
    configs.add_argument("action", nargs="?", choices=["list", "copy"], default="list", help="list (default) or copy")
    configs.add_argument("name", nargs="?", help="the config to copy (e.g. quickstart), or all")
    configs.add_argument("dest", nargs="?", default=".", help="where to copy it (default: the current directory)")
    configs.set_defaults(func=_configs)

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
        help="require adb's RSA authentication, letting in only these public keys "
        "(adbkey.pub or adb_keys files; default ~/.android/adbkey.pub)",
    )
    virtual.add_argument("--seed", type=int, default=0, help="seed of the first phone; the next ones count up")
    virtual.add_argument("--width", type=int, default=1080, help="screen width in pixels (default 1080)")
    virtual.add_argument("--height", type=int, default=2400, help="screen height in pixels (default 2400)")
    virtual.add_argument("--density", type=int, default=420, help="screen density in dpi (default 420)")
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
    virtual.set_defaults(func=_virtual)

    for name, func, text, about in (
        (
            "devices",
            _devices,
            "list devices with state, model and screen size",
            "List the adb server's devices with their state, model and screen size, and explain "
            "offline or unauthorized ones (--cluster: the devices a Ray cluster advertises).",
        ),
        (
            "doctor",
            _doctor,
            "check adb, the adb server and every device",
            "Check the adb binary, the adb server and every device (shell, screenshot, UI dump), with timings.",
        ),
    ):
        cmd = sub.add_parser(name, help=text, description=about)
        cmd.add_argument("--host", default="127.0.0.1", help="adb server host (default 127.0.0.1)")
        cmd.add_argument(
            "--port", type=int, default=None, help="adb server port (default $ANDROID_ADB_SERVER_PORT or 5037)"
        )
        cmd.set_defaults(func=func)
        if name == "devices":
            cmd.add_argument("--cluster", action="store_true", help="list the devices the Ray cluster advertises")
            cmd.add_argument("--address", default="auto", help="the Ray cluster (default auto: the local one)")

    node = sub.add_parser(
        "node",
        help="make this host a Ray node advertising its devices (--head, or --address HEAD:PORT)",
        description="Start or join a Ray cluster, advertising this host's adb devices (and --virtual phones) "
        "so that env workers run next to them. Stops its own processes on Ctrl-C or SIGTERM.",
    )
    node.add_argument("--head", action="store_true", help="start a new cluster on this host")
    node.add_argument("--address", help="join the cluster whose head is at HOST:PORT")
    node.add_argument("--port", type=int, default=6379, help="the head's port (with --head; default 6379)")
    node.add_argument("--node-ip-address", help="this host's address as the cluster sees it (default: Ray's guess)")
    node.add_argument("--name", help="the node's name in device names <name>/<serial> (default: the host name)")
    node.add_argument("--virtual", type=int, default=0, help="also serve this many virtual phones and advertise them")
    node.add_argument(
        "--virtual-size", type=_virtual_size, default=(360, 800, 160), help="WxH@DPI of those phones (360x800@160)"
    )
    node.add_argument(
        "--adb-port",
        type=int,
        default=None,
        help="this host's adb server port (default $ANDROID_ADB_SERVER_PORT or 5037)",
    )
    node.add_argument("--num-cpus", type=int, default=None, help="CPUs the node offers (default: all)")
    node.add_argument("--temp-dir", help="the Ray node's temporary directory (default: Ray's, /tmp/ray)")
    node.set_defaults(func=_node)
    return parser


def _node(args: argparse.Namespace) -> int:
    from androidrl.node import node

    return node(args)


def _virtual_size(text: str) -> tuple[int, int, int]:
    """``WxH@DPI`` for argparse."""
    from androidrl.device.spec import DeviceSpec

    try:
        spec = DeviceSpec.parse(f"virtual:{text}")
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    return spec.width, spec.height, spec.density


#: Subcommands with parsers of their own: name -> ("module:function", help).
DELEGATES = {
    "train": ("androidrl.train.training:main", "train an agent from a YAML config (or resume a run)"),
    "evaluate": ("androidrl.train.evaluation:main", "evaluate a trained run: success rate, return, recordings"),
    "tune": ("androidrl.train.tuning:main", "tune a config's hyperparameters with Optuna (resumable study)"),
    "watch": ("androidrl.train.watch:main", "play a trained agent and write an MP4 with the actions drawn"),
    "results": ("androidrl.train.results:main", "train shipped configs and tabulate what they learn"),
    "bench": ("androidrl.bench:main", "run the benchmarks (same as scripts/benchmark.py)"),
}


def _configs(args: argparse.Namespace) -> int:
    """List the shipped configs, or copy one (or all) to a directory."""
    import shutil

    from androidrl.train.config import shipped_configs

    shipped = shipped_configs()
    if args.action == "list":
        for name, path in shipped.items():
            about = next((line[2:].strip() for line in path.read_text().splitlines() if line.startswith("# ")), "")
            print(f"{name:<18} {about}")
        print("copy one with: androidrl configs copy NAME [DEST]; train it with: androidrl train --config NAME")
        return 0
    names = list(shipped) if args.name == "all" else [args.name]
    unknown = [n for n in names if n not in shipped]
    if not args.name or unknown:
        print(f"androidrl configs copy: give a shipped config ({', '.join(shipped)}) or all", file=sys.stderr)
        return 2
    dest = Path(args.dest)
    as_file = len(names) == 1 and dest.suffix in (".yaml", ".yml") and not dest.is_dir()
    (dest.parent if as_file else dest).mkdir(parents=True, exist_ok=True)
    for name in names:
        target = dest / shipped[name].name if dest.is_dir() else dest
        if target.exists():
            print(f"androidrl configs copy: {target} exists; not overwritten", file=sys.stderr)
            return 1
        shutil.copyfile(shipped[name], target)
        print(target)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``androidrl`` console script (and ``python -m androidrl``)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["--version"], ["-V"]):
        from androidrl import __version__

        print(f"androidrl {__version__}")
        return 0
    try:
        if argv and argv[0] in DELEGATES:
            import importlib

            module, function = DELEGATES[argv[0]][0].split(":")
            return getattr(importlib.import_module(module), function)(argv[1:])
        parser = build_parser()
        args = parser.parse_args(argv)
        for name, low in (("steps", 0), ("count", 1), ("episodes", 1)):
            if getattr(args, name, low) < low:
                parser.error(f"--{name} must be >= {low}")
        return args.func(args)
    except KeyboardInterrupt:  # Ctrl-C ends any command quietly, with the shell's code for SIGINT
        print("androidrl: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

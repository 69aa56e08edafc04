"""Benchmarks of the hot paths, side by side with baselines in the same run, as ratios.

Every figure is measured for several contenders in interleaved rounds (A, B, C, A, B, C...),
so drift of the machine hits them alike; the table reports median and p90 per contender
and the ratio of the baseline's median to each contender's. Over adb, the virtual phone
runs in a separate process (``androidrl virtual``), as a device would, behind a private
adb server.

Contenders over adb:

* ``seed``: MetaGPT's way — one ``adb`` process per command through a shell,
  ``screencap -p`` to the phone's disk and ``adb pull``, ``uiautomator dump`` and pull.
* ``adbutils``: the popular client as a library user calls it (``screenshot()``,
  ``shell()``, ``dump_hierarchy()``).
* ``adbdevice``: :class:`~androidrl.device.adb.AdbDevice` (raw screencap over ``exec:``, no
  process per call).
* ``inprocess``: :class:`~androidrl.device.virtual.VirtualDevice`, the phone in this process.

Run ``python scripts/benchmark.py`` (or ``androidrl bench``); ``--quick`` for a short run,
``--json FILE`` to keep the numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from androidrl.device.adb import AdbDevice
from androidrl.device.adb_server import IsolatedAdbServer, adb_path, free_port
from androidrl.device.base import Device
from androidrl.device.virtual import VirtualDevice
from androidrl.registration import make_virtual_env, pixel_wrap
from androidrl.tasks.conditions import ui_elements


@dataclass
class Figure:
    """One measured quantity for several contenders; samples in ms (or the unit given)."""

    name: str
    baseline: str
    samples: dict[str, list[float]] = field(default_factory=dict)
    unit: str = "ms"
    higher_is_better: bool = False

    @classmethod
    def rate(cls, name: str, baseline: str, samples: dict[str, list[float]] | None = None) -> Figure:
        """A steps-per-second figure (higher is better)."""
        return cls(name, baseline, samples or {}, unit="steps/s", higher_is_better=True)

    def median(self, contender: str) -> float:
        """Median sample of ``contender``."""
        return statistics.median(self.samples[contender])

    def p90(self, contender: str) -> float:
        """90th-percentile sample of ``contender``."""
        values = sorted(self.samples[contender])
        return values[min(len(values) - 1, round(0.9 * (len(values) - 1)))]

    def ratio(self, contender: str) -> float:
        """How many times better ``contender`` is than the baseline (by medians)."""
        base, this = self.median(self.baseline), self.median(contender)
        return this / base if self.higher_is_better else base / this


def interleave(
    contenders: dict[str, Callable[[], None]], rounds: int, before: Callable[[str], None] | None = None, warmup: int = 2
) -> dict[str, list[float]]:
    """Time each contender once per round, in turn; ``before(name)`` runs untimed before each call."""
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for round_index in range(warmup + rounds):
        for name, fn in contenders.items():
            if before is not None:
                before(name)
            start = time.perf_counter()
            fn()
            elapsed = (time.perf_counter() - start) * 1000
            if round_index >= warmup:
                samples[name].append(elapsed)
    return samples


# ---------------------------------------------------------------------------- contenders


class SeedWay:
    """MetaGPT's ``AndroidExtEnv`` way: a shell and an ``adb`` process per command, files via the phone."""

    def __init__(self, serial: str, env: dict[str, str], workdir: Path) -> None:
        self.serial, self.env, self.workdir = serial, env, workdir

    def _adb(self, command: str) -> str:
        result = subprocess.run(  # shell=True on purpose: this is the baseline being measured
            f"{adb_path()} -s {self.serial} {command}",
            shell=True,
            capture_output=True,
            text=True,
            env=self.env,
            check=False,
        )
        if result.returncode:
            raise RuntimeError(f"seed way: `adb {command}` failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def screenshot(self) -> np.ndarray:
        self._adb("shell screencap -p /sdcard/bench_ss.png")
        self._adb(f"pull /sdcard/bench_ss.png {self.workdir / 'ss.png'}")
        return np.asarray(Image.open(self.workdir / "ss.png").convert("RGB"))

    def tap(self, x: int, y: int) -> None:
        self._adb(f"shell input tap {x} {y}")

    def dump_ui(self) -> str:
        self._adb("shell uiautomator dump /sdcard/bench_ui.xml")
        self._adb(f"pull /sdcard/bench_ui.xml {self.workdir / 'ui.xml'}")
        return (self.workdir / "ui.xml").read_text()


class VirtualPhoneProcess:
    """``androidrl virtual`` in a child process behind a private adb server (a stand-in device)."""

    def __init__(self, width: int, height: int, density: int) -> None:
        self.server = IsolatedAdbServer().start()
        port = free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "androidrl.cli",
                "virtual",
                "--port",
                str(port),
                "--width",
                str(width),
                "--height",
                str(height),
                "--density",
                str(density),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.serial = self.proc.stdout.readline().strip()
        self.server.adb("connect", self.serial)
        self.device = AdbDevice(self.serial, port=self.server.port, timeout=30)
        self.device.wait_ready(timeout=30)

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.server.stop()


def _adbutils_device(port: int, serial: str):
    """The adbutils device object for ``serial`` (adbutils is a dev dependency, for comparison only)."""
    import adbutils

    return adbutils.AdbClient(host="127.0.0.1", port=port).device(serial)


# ---------------------------------------------------------------------------- suites


def _wifi_row(device: Device) -> tuple[int, int]:
    """Centre of the Wi-Fi row: tapping it toggles Wi-Fi, so every step changes the screen."""
    device.shell("am start -a android.settings.WIFI_SETTINGS")
    return next(e.center for e in ui_elements(device.dump_ui()) if e.text == "Wi-Fi")


def adb_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Screenshot, tap, UI dump and a whole observed step: seed vs AdbDevice vs in process."""
    phone_proc = VirtualPhoneProcess(width, height, density)
    local = VirtualDevice(width=width, height=height, density=density)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            seed = SeedWay(phone_proc.serial, phone_proc.server.env, Path(tmp))
            lib = _adbutils_device(phone_proc.server.port, phone_proc.serial)
            adb = phone_proc.device
            devices = {"adbdevice": adb, "inprocess": local}
            points = {name: _wifi_row(dev) for name, dev in devices.items()}
            wifi = {"adb": False, "local": False}

            def change_screen(contender: str) -> None:  # untimed: every capture is of a new frame
                which = "local" if contender == "inprocess" else "adb"
                wifi[which] = not wifi[which]
                (local if which == "local" else adb).shell(f"svc wifi {'enable' if wifi[which] else 'disable'}")

            def step(dev_tap, dev_shot, dev_xml) -> Callable[[], None]:
                return lambda: (dev_tap(), dev_shot(), dev_xml())

            x, y = points["adbdevice"]
            lx, ly = points["inprocess"]
            lib_shot = lambda: np.asarray(lib.screenshot())  # noqa: E731  (decoded, like the others)
            lib_tap = lambda: lib.shell(f"input tap {x} {y}")  # noqa: E731
            figures = [
                Figure(
                    "screenshot (RGB array)",
                    "seed",
                    interleave(
                        {
                            "seed": seed.screenshot,
                            "adbutils": lib_shot,
                            "adbdevice": adb.screenshot,
                            "inprocess": local.screenshot,
                        },
                        rounds,
                        before=change_screen,
                    ),
                ),
                Figure(
                    "tap",
                    "seed",
                    interleave(
                        {
                            "seed": lambda: seed.tap(x, y),
                            "adbutils": lib_tap,
                            "adbdevice": lambda: adb.tap(x, y),
                            "inprocess": lambda: local.tap(lx, ly),
                        },
                        rounds,
                    ),
                ),
                Figure(
                    "UI XML",
                    "seed",
                    interleave(
                        {
                            "seed": seed.dump_ui,
                            "adbutils": lib.dump_hierarchy,
                            "adbdevice": adb.dump_ui,
                            "inprocess": local.dump_ui,
                        },
                        rounds,
                        before=change_screen,
                    ),
                ),
                Figure(
                    "observed step (tap + screenshot + XML)",
                    "seed",
                    interleave(
                        {
                            "seed": step(lambda: seed.tap(x, y), seed.screenshot, seed.dump_ui),
                            "adbutils": step(lib_tap, lib_shot, lib.dump_hierarchy),
                            "adbdevice": step(lambda: adb.tap(x, y), adb.screenshot, adb.dump_ui),
                            "inprocess": step(lambda: local.tap(lx, ly), local.screenshot, local.dump_ui),
                        },
                        rounds,
                    ),
                ),
            ]
    finally:
        phone_proc.close()
    return figures


def env_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Raw AndroidEnv steps per second on the in-process virtual phone, with and without XML."""
    from androidrl.spaces import EnvAction, EnvActionType

    envs = {
        "xml every step": make_virtual_env(width, height, density, dump_xml=True),
        "no XML": make_virtual_env(width, height, density, dump_xml=False),
    }
    steps = 50
    try:
        for env in envs.values():
            env.reset(seed=0)
        rng = np.random.default_rng(0)
        taps = [
            EnvAction(action_type=EnvActionType.SYSTEM_TAP, coord=(int(rng.integers(width)), int(rng.integers(height))))
            for _ in range(steps)
        ]

        def run(env) -> Callable[[], None]:
            def go() -> None:
                for action in taps:
                    _, _, terminated, truncated, _ = env.step(action)
                    if terminated or truncated:
                        env.reset()

            return go

        samples = interleave({name: run(env) for name, env in envs.items()}, max(3, rounds // 4), warmup=1)
        per_second = {name: [steps * 1000 / ms for ms in values] for name, values in samples.items()}
        return [Figure.rate(f"env steps/s, random taps, {width}x{height} in process", "xml every step", per_second)]
    finally:
        for env in envs.values():
            env.close()


def _vector_rate(devices: list[str], backend: str, steps: int) -> float:
    """Random-action steps per second (all envs together) of an SB3 vec env on ``devices``."""
    from androidrl.vec_sb3 import make_sb3_vec_env

    env = make_sb3_vec_env(devices, "tap-target", pixel_wrap, backend=backend, env_kwargs={"dump_xml": False})
    try:
        env.seed(0)
        env.reset()
        rng = np.random.default_rng(0)
        actions = rng.integers(0, env.action_space.n, size=(steps + 10, len(devices)))
        for a in actions[:10]:  # warm up
            env.step(a)
        start = time.perf_counter()
        for a in actions[10:]:
            env.step(a)
        return steps * len(devices) / (time.perf_counter() - start)
    finally:
        env.close()


def vector_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Wrapped (84x84, Discrete) vector steps/s on 1, 2, 4 virtual phones, and SB3's own vector envs."""
    device = f"virtual:{width}x{height}@{density}"
    steps = 50 if rounds < 8 else 100 if rounds < 20 else 300
    repeats = max(1, rounds // 8)
    scaling = Figure.rate("vector steps/s, tap-target 84x84 (async)", "1 device")
    backends = Figure.rate("vector steps/s, 2 devices, by backend", "subproc (SB3)")
    for _ in range(repeats):
        for n in (1, 2, 4):
            scaling.samples.setdefault(f"{n} device{'s' if n > 1 else ''}", []).append(
                _vector_rate([device] * n, "async", steps)
            )
        for backend, name in (("subproc", "subproc (SB3)"), ("dummy", "dummy (SB3)"), ("async", "async (androidrl)")):
            backends.samples.setdefault(name, []).append(_vector_rate([device] * 2, backend, steps))
    return [scaling, backends]


def wrapped_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """In-process steps/s: the raw env, the same env wrapped for pixels, and the idle phone wrapped.

    The first two show the transform's cost on tap-target (whose score line changes on
    every miss); the idle phone's launcher mostly does not change when tapped.
    """
    envs = {
        "raw AndroidEnv": make_virtual_env(
            width, height, density, task="tap-target", dump_xml=False, write_files=False
        ),
        "wrapped 84x84": pixel_wrap(make_virtual_env(width, height, density, task="tap-target", dump_xml=False)),
        "wrapped 84x84, idle": pixel_wrap(make_virtual_env(width, height, density, dump_xml=False, max_steps=50)),
    }
    rng = np.random.default_rng(0)
    grid = [int(a) for a in rng.integers(0, envs["wrapped 84x84"].action_space.n, size=200)]
    table = [envs["wrapped 84x84"].action(a) for a in grid]  # the same taps for the raw env
    try:
        for env in envs.values():
            env.reset(seed=0)

        def run(env, acts) -> Callable[[], None]:
            def go() -> None:
                for a in acts:
                    if any(env.step(a)[2:4]):
                        env.reset()

            return go

        samples = interleave(
            {name: run(env, table if name == "raw AndroidEnv" else grid) for name, env in envs.items()},
            max(3, rounds // 4),
            warmup=1,
        )
        per_second = {name: [len(grid) * 1000 / ms for ms in values] for name, values in samples.items()}
        return [Figure.rate(f"in-process steps/s, {width}x{height}", "raw AndroidEnv", per_second)]
    finally:
        for env in envs.values():
            env.close()


def _quickstart(backend: str = "async"):
    """The quickstart config (its own phones: two virtual 360x800), with the given vector backend."""
    from androidrl.config import load_config

    path = Path(__file__).resolve().parents[1] / "configs" / "quickstart.yaml"
    return load_config(path, [f"vector.backend={backend}"])


def ppo_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """PPO on the quickstart config: training steps/s and the share of wall time spent in the envs."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    from androidrl.training import Run, make_env, make_model, set_torch_threads

    class Timed(VecEnvWrapper):
        """Counts the seconds the learner waits on the envs."""

        def __init__(self, venv) -> None:
            super().__init__(venv)
            self.seconds = 0.0

        def reset(self):
            start = time.perf_counter()
            obs = self.venv.reset()
            self.seconds += time.perf_counter() - start
            return obs

        def step_wait(self):
            start = time.perf_counter()
            result = self.venv.step_wait()
            self.seconds += time.perf_counter() - start
            return result

    steps = 256 if rounds < 8 else 1024 if rounds < 20 else 4096
    rate = Figure.rate("PPO training steps/s, quickstart", "subproc (SB3)")
    share = Figure("PPO: share of wall time in the envs", "subproc (SB3)", unit="%")
    for _ in range(max(1, rounds // 10)):
        for backend, name in (("subproc", "subproc (SB3)"), ("async", "async (androidrl)")):
            config = _quickstart(backend)
            set_torch_threads(config)  # as training does
            with tempfile.TemporaryDirectory() as tmp:
                env = Timed(make_env(config, config.devices))
                try:
                    model = make_model(config, env, Run(Path(tmp), config))
                    start = time.perf_counter()
                    model.learn(steps)
                    wall = time.perf_counter() - start
                finally:
                    env.close()
            rate.samples.setdefault(name, []).append(model.num_timesteps / wall)
            share.samples.setdefault(name, []).append(100 * env.seconds / wall)
    return [rate, share]


def _rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of a process, in MB, from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def memory_suite(rounds: int, width: int, height: int, density: int) -> list[Figure]:
    """Resident memory of each vector-env worker at the start and after many steps (growth)."""
    from androidrl.training import make_env

    steps = 400 if rounds < 8 else 2000 if rounds < 20 else 10_000
    config = _quickstart()
    env = make_env(config, config.devices)
    try:
        env.seed(0)
        env.reset()
        rng = np.random.default_rng(0)
        for a in rng.integers(0, env.action_space.n, size=(200, env.num_envs)):  # warm up: caches fill
            env.step(a)
        pids = [p.pid for p in env.venv.processes]
        start = [_rss_mb(pid)[0] for pid in pids]
        for a in rng.integers(0, env.action_space.n, size=(steps, env.num_envs)):  # ``steps`` in each worker
            env.step(a)
        end = [_rss_mb(pid) for pid in pids]
    finally:
        env.close()
    figure = Figure(f"worker RSS MB, after warm-up vs {steps} more steps each", "after warm-up", unit="MB")
    figure.samples["after warm-up"] = start
    figure.samples[f"after {steps} steps"] = [current for current, _ in end]
    figure.samples["peak"] = [peak for _, peak in end]
    return [figure]


SUITES = {
    "adb": adb_suite,
    "env": env_suite,
    "wrapped": wrapped_suite,
    "vector": vector_suite,
    "ppo": ppo_suite,
    "memory": memory_suite,
}


# ---------------------------------------------------------------------------- report


def table(figures: list[Figure]) -> str:
    """A plain-text table of medians, p90s and ratios to the baseline."""
    lines = [f"{'figure':<44} {'contender':<16} {'median':>10} {'p90':>10} {'vs baseline':>12}"]
    for fig in figures:
        for name in fig.samples:
            ratio = "baseline" if name == fig.baseline else f"{fig.ratio(name):.1f}x"
            lines.append(
                f"{fig.name:<44} {name:<16} {fig.median(name):>8.2f}{fig.unit if fig.unit == 'ms' else '':>2} "
                f"{fig.p90(name):>8.2f}{'ms' if fig.unit == 'ms' else '':>2} {ratio:>12}"
            )
        if fig.unit != "ms":
            lines.append(f"{'':<44} (unit: {fig.unit})")
    return "\n".join(lines)


def as_json(figures: list[Figure], settings: dict) -> dict:
    """The figures and the machine they ran on, for ``--json``."""
    return {
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "settings": settings,
        "figures": [
            {
                "name": f.name,
                "unit": f.unit,
                "baseline": f.baseline,
                "contenders": {
                    n: {
                        "median": f.median(n),
                        "p90": f.p90(n),
                        "ratio_to_baseline": f.ratio(n),
                        "samples": f.samples[n],
                    }
                    for n in f.samples
                },
            }
            for f in figures
        ],
    }


def _screen(text: str) -> tuple[int, int]:
    """``WxH`` as (width, height), for argparse."""
    match = re.fullmatch(r"(\d+)x(\d+)", text.strip().lower())
    if match is None or 0 in (width := int(match[1]), height := int(match[2])):
        raise argparse.ArgumentTypeError(f"expected WxH such as 360x800, got {text!r}")
    return width, height


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Command line of ``scripts/benchmark.py`` and ``androidrl bench``."""
    parser = argparse.ArgumentParser(prog="androidrl bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short run (about 20 seconds)")
    parser.add_argument("--rounds", type=_positive, default=None, help="samples per contender (default 30, quick 4)")
    parser.add_argument("--suite", action="append", choices=sorted(SUITES), help="suites to run (default all)")
    parser.add_argument(
        "--size",
        type=_screen,
        default=None,
        help="virtual screen WxH of the adb, env, wrapped and vector suites (default 1080x2400, quick "
        "360x800; the ppo and memory suites run the quickstart config as it is)",
    )
    parser.add_argument("--density", type=_positive, default=None, help="screen density (default 420, quick 160)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    rounds = args.rounds or (4 if args.quick else 30)
    width, height = args.size or ((360, 800) if args.quick else (1080, 2400))
    args.density = args.density or (160 if args.quick else 420)
    figures: list[Figure] = []
    for name in args.suite or list(SUITES):
        print(f"running suite {name!r} ({rounds} rounds, {width}x{height})...", file=sys.stderr, flush=True)
        figures += SUITES[name](rounds, width, height, args.density)
    print(table(figures))
    if args.json:
        settings = {"rounds": rounds, "size": [width, height], "density": args.density}
        args.json.write_text(json.dumps(as_json(figures, settings), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

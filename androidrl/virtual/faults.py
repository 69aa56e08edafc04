"""Fault injection for virtual phones served over TCP: what a flaky USB cable, a hung adbd or a reboot does.

A :class:`FaultPlan` is a seeded list of faults — when, which phone, what, how long. A
:class:`FaultyLink` sits in front of one phone's adbd (it listens on the phone's public
port and forwards to the adbd's own) and plays the faults that reach it:

* ``drop``: every connection is cut at once (a cable pulled and plugged back).
* ``hang``: nothing moves either way for a while, then everything resumes (a stalled adbd).
* ``garbage``: random bytes reach the adb server as if the phone sent them, then the
  connection is cut (a corrupted transport).
* ``slow``: every chunk is delayed for a while (a congested link).
* ``blackhole``: nothing moves for a while, then the stalled connections are cut (a link
  that swallows packets until the peers give up).
* ``reboot``: the phone reboots (offline for its boot time; adbd goes off the network).

While the adbd behind it is off the network, the link is too: a connection to it is refused,
as a rebooting phone refuses it. (A link that accepted and closed at once would send adb 29's
server into a reconnect loop with no pause, which it does not survive for long.)

A fault strikes a phone in use (one its client asked something a moment ago), as faults
that matter do. ``androidrl virtual --count 4 --faults "seed=1,every=5"`` serves phones
this way and prints each fault as a JSON line on stderr when it happens, so a test can
match what the harness reported against what was done.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

KINDS = ("drop", "hang", "garbage", "slow", "blackhole", "reboot")
#: How long each kind lasts (seconds, drawn uniformly); the instant ones last 0.
DURATIONS = {"hang": (2.0, 6.0), "slow": (2.0, 6.0), "blackhole": (2.0, 6.0)}
SLOW_DELAY = 0.05  # seconds added to every chunk while a link is slow
CHUNK = 256 * 1024
IN_USE = 0.1  # a link asked something this recently is in use
MAX_WAIT = 30.0  # seconds a due fault waits for its link to be in use
WATCH_SECONDS = 0.02  # how often a link checks whether its adbd is on the network


@dataclass(frozen=True)
class Fault:
    """One fault: ``kind`` on phone number ``phone``, ``at`` seconds after the start, lasting ``seconds``."""

    at: float
    phone: int
    kind: str
    seconds: float = 0.0


@dataclass(frozen=True)
class FaultPlan:
    """A list of faults, in time order."""

    faults: tuple[Fault, ...]

    @classmethod
    def random(
        cls,
        seed: int,
        phones: int,
        duration: float = 600.0,
        every: float = 5.0,
        kinds: Sequence[str] = KINDS,
        start: float = 3.0,
    ) -> FaultPlan:
        """Faults about every ``every`` seconds (jittered) from ``start`` to ``duration``, each on a random phone.

        Raises:
            ValueError: An unknown kind, or a non-positive interval or count.
        """
        unknown = sorted(set(kinds) - set(KINDS))
        if unknown or not kinds:
            raise ValueError(f"fault kinds must be some of {', '.join(KINDS)}; got {list(kinds)}")
        if phones < 1 or every <= 0:
            raise ValueError(f"need phones >= 1 and every > 0, got phones={phones}, every={every}")
        rng = random.Random(seed)
        faults, at = [], start
        while at < duration:
            kind = rng.choice(list(kinds))
            low, high = DURATIONS.get(kind, (0.0, 0.0))
            faults.append(Fault(round(at, 3), rng.randrange(phones), kind, round(rng.uniform(low, high), 3)))
            at += every * rng.uniform(0.5, 1.5)
        return cls(tuple(faults))

    @classmethod
    def parse(cls, text: str, phones: int) -> FaultPlan:
        """A plan from ``--faults``: a JSON file (a list of faults), or ``seed=S,every=E,duration=D,kinds=a+b``.

        Raises:
            ValueError: The text is neither, or names unknown settings or kinds.
        """
        path = Path(text)
        if path.suffix == ".json" or path.is_file():
            try:
                items = json.loads(path.read_text())
                faults = tuple(sorted((Fault(**item) for item in items), key=lambda f: f.at))
            except (OSError, ValueError, TypeError) as err:
                raise ValueError(f"--faults {text}: not a JSON list of faults ({err})") from None
            for fault in faults:
                if fault.kind not in KINDS or not 0 <= fault.phone < phones:
                    raise ValueError(f"--faults {text}: bad fault {fault} (kinds: {', '.join(KINDS)})")
            return cls(faults)
        settings: dict[str, str] = {}
        for part in filter(None, text.split(",")):
            key, sep, value = part.partition("=")
            if not sep or key not in ("seed", "every", "duration", "kinds", "start"):
                raise ValueError(
                    f"--faults {text!r}: expected a JSON file or seed=S,every=SECONDS,duration=SECONDS,"
                    f"start=SECONDS,kinds=a+b (kinds: {', '.join(KINDS)})"
                )
            settings[key] = value
        try:
            return cls.random(
                int(settings.get("seed", 0)),
                phones,
                duration=float(settings.get("duration", 600)),
                every=float(settings.get("every", 5)),
                kinds=settings["kinds"].split("+") if "kinds" in settings else KINDS,
                start=float(settings.get("start", 3)),
            )
        except ValueError as err:
            raise ValueError(f"--faults {text!r}: {err}") from None

    def for_phone(self, phone: int) -> list[Fault]:
        """The faults of phone number ``phone``."""
        return [f for f in self.faults if f.phone == phone]


class FaultyLink:
    """A TCP relay in front of one adbd that plays faults on the traffic.

    Args:
        target: The adbd it relays to (its ``port``, on 127.0.0.1, is read at each connection;
            its ``listening`` says whether it is on the network).
        port: The public port to listen on (0: any free one).
        host: Address to listen on.
        reboot: Reboots the phone (for ``reboot`` faults).
    """

    def __init__(self, target: Any, port: int = 0, host: str = "127.0.0.1", reboot: Callable[[], None] | None = None):
        self.target, self.port, self.host = target, port, host
        self._reboot = reboot
        self._server: asyncio.Server | None = None
        self._watch: asyncio.Task[None] | None = None
        self._pipes: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._stalled_until = 0.0  # hang and blackhole: nothing moves before this time
        self._slow_until = 0.0
        self.last_request = 0.0  # when the adb server last sent the phone something
        self._rng = random.Random(port)

    @property
    def serial(self) -> str:
        """``host:port``: what ``adb connect`` takes."""
        return f"{self.host}:{self.port}"

    async def start(self) -> None:
        """Listen (the port is bound when this returns), and from then on only while the adbd does."""
        await self._listen()
        self._watch = asyncio.create_task(self._follow_target())

    async def stop(self) -> None:
        """Stop listening and cut every connection."""
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        self._unlisten()
        self._cut()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._on_connection, self.host, self.port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    def _unlisten(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None

    async def _follow_target(self) -> None:
        """Be off the network while the adbd is, and back when it is."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            if not self.target.listening:
                self._unlisten()
            elif self._server is None:
                with contextlib.suppress(OSError):  # (someone took the port meanwhile: try again)
                    await self._listen()

    async def play(self, fault: Fault) -> None:
        """Do ``fault`` now (returns once it is over)."""
        now = time.monotonic()
        if fault.kind == "drop":
            self._cut()
        elif fault.kind == "garbage":
            for client, _ in list(self._pipes):
                with contextlib.suppress(OSError):
                    client.write(self._rng.randbytes(64))
            await asyncio.sleep(0.05)
            self._cut()
        elif fault.kind == "reboot":
            if self._reboot is not None:
                await asyncio.get_running_loop().run_in_executor(None, self._reboot)
        elif fault.kind == "slow":
            self._slow_until = now + fault.seconds
            await asyncio.sleep(fault.seconds)
        else:  # hang, blackhole
            self._stalled_until = now + fault.seconds
            await asyncio.sleep(fault.seconds)
            if fault.kind == "blackhole":
                self._cut()

    def _cut(self) -> None:
        for client, upstream in list(self._pipes):
            for writer in (client, upstream):
                writer.transport.abort()
        self._pipes.clear()

    async def _on_connection(self, client_reader: asyncio.StreamReader, client: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream = await asyncio.open_connection("127.0.0.1", self.target.port)
        except OSError:
            client.transport.abort()
            return
        pair = (client, upstream)
        self._pipes.add(pair)
        try:
            await asyncio.gather(self._relay(client_reader, upstream, True), self._relay(upstream_reader, client))
        finally:
            self._pipes.discard(pair)
            for writer in pair:
                writer.transport.abort()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, requests: bool = False) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError, ConnectionError):
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    return
                if requests:
                    self.last_request = time.monotonic()
                while time.monotonic() < self._stalled_until:  # hang, blackhole: hold the bytes
                    await asyncio.sleep(0.05)
                if time.monotonic() < self._slow_until:
                    await asyncio.sleep(SLOW_DELAY)
                writer.write(data)
                await writer.drain()


async def run_plan(plan: FaultPlan, links: Sequence[FaultyLink], serials: Sequence[str], log=sys.stderr) -> None:
    """Play ``plan`` on the links (link i is phone i), logging each fault as a JSON line when it starts.

    A fault strikes a link in use: once due, it waits (up to ``MAX_WAIT`` seconds) until the
    phone was asked something in the last ``IN_USE`` seconds, so that it meets a client
    instead of an idle phone that nobody would notice.
    """
    start = time.monotonic()

    async def one_phone(index: int) -> None:
        link = links[index]
        for fault in plan.for_phone(index):
            due = start + fault.at
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            while time.monotonic() - link.last_request > IN_USE and time.monotonic() - due < MAX_WAIT:
                await asyncio.sleep(0.02)
            record = {**asdict(fault), "serial": serials[index], "time": time.time()}
            print(json.dumps(record), file=log, flush=True)
            await link.play(fault)

    await asyncio.gather(*(one_phone(i) for i in range(len(links))))

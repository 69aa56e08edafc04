"""The phone's clock: its wall time and its uptime, the only source of time anything on the phone shows.

A phone's date is not the host's: it starts at a fixed instant (:data:`DEFAULT_START`, 2026-06-15
09:00:00 UTC, a Monday), so a task that speaks of "tomorrow" or "next Friday" means the same day
every time it runs. From there it moves in one of two ways:

- **realtime** (a phone served over adb): with the host's monotonic clock, as a device's clock does;
- **stepped** (a phone inside an env): only when told — by each action an env performs, by what
  ``sleep`` waits and by :meth:`Clock.advance` — so an episode replayed under
  the same seed sees the same times on every screen, in every file and in every log line.

Snapshots keep the clock with the rest of the phone.
"""

from __future__ import annotations

import datetime as dt
import functools
import time
import zoneinfo

#: Where a new phone's wall clock starts: 2026-06-15 09:00:00 UTC (a Monday), in seconds since the epoch.
DEFAULT_START = dt.datetime(2026, 6, 15, 9, 0, tzinfo=dt.timezone.utc).timestamp()
#: The phone's time zone when ``persist.sys.timezone`` names none (an emulator's default).
DEFAULT_TIMEZONE = "UTC"


class Clock:
    """Wall time and uptime of one phone.

    Args:
        start: The wall time at boot, in seconds since the epoch.
        stepped: Move only when told (deterministic), instead of with the host's clock.

    Example:
        >>> clock = Clock(stepped=True)
        >>> clock.advance(90)
        >>> clock.local().strftime("%H:%M")
        '09:01'
    """

    def __init__(self, start: float = DEFAULT_START, stepped: bool = False) -> None:
        self.stepped = stepped
        self._wall = float(start)  # wall time at the anchor
        self._uptime = 0.0  # uptime at the anchor
        self._anchor = time.monotonic()  # the host's clock at the anchor (realtime only)

    def _elapsed(self) -> float:
        return 0.0 if self.stepped else time.monotonic() - self._anchor

    def now(self) -> float:
        """Wall time, in seconds since the epoch (``System.currentTimeMillis() / 1000``)."""
        return self._wall + self._elapsed()

    def now_ms(self) -> int:
        """Wall time in whole milliseconds, as Android stamps provider rows."""
        return int(self.now() * 1000)

    def uptime(self) -> float:
        """Seconds since boot (``SystemClock.elapsedRealtime() / 1000``)."""
        return self._uptime + self._elapsed()

    def advance(self, seconds: float) -> None:
        """Move both clocks forward by ``seconds`` (an input event's duration, a ``sleep``)."""
        if seconds < 0:
            raise ValueError(f"a clock only moves forward, got {seconds} s")
        self._wall += seconds
        self._uptime += seconds

    def set_wall(self, wall: float) -> None:
        """Set the wall time (``date -s``, a network time update); uptime goes on."""
        self._wall = float(wall) - self._elapsed()

    def boot(self) -> None:
        """A reboot: uptime starts again from zero, the wall time goes on."""
        self._wall, self._uptime, self._anchor = self.now(), 0.0, time.monotonic()

    def local(self, when: float | None = None, timezone: str = "") -> dt.datetime:
        """``when`` (default: now) as an aware local time in ``timezone`` (default: UTC)."""
        return dt.datetime.fromtimestamp(self.now() if when is None else when, zone(timezone))


@functools.cache
def zone(name: str) -> dt.tzinfo:
    """The time zone ``name`` (an Olson id such as ``Europe/Berlin``); UTC when empty or unknown."""
    if not name or name == DEFAULT_TIMEZONE:
        return dt.timezone.utc
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc

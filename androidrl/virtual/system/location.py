"""The location manager's last known fix (``dumpsys location``), as the emulator's ``geo fix`` gives it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A location fix: degrees, metres, and the phone's uptime when it came, in seconds."""

    latitude: float
    longitude: float
    altitude: float
    uptime: float

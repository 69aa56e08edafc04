"""Power: whether the phone is on and booted, rebooting it, and whether its screen is awake (wakefulness)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class PhoneOfflineError(RuntimeError):
    """The phone is rebooting or powered off and cannot answer."""


class Power:
    """The power state: online, rebooting (offline until a boot completes) or powered off.

    Args:
        props: System properties (``ro.serialno`` names the phone in errors).
        boot_seconds: How long ``reboot`` keeps the phone offline.
        on_boot: Resets running state as a boot does (the phone decides what that means).
        lock: The phone's lock, held while the power state changes.
    """

    def __init__(
        self,
        props: dict[str, str],
        *,
        boot_seconds: float,
        on_boot: Callable[[], None],
        lock: threading.RLock,
    ) -> None:
        self.boot_seconds = boot_seconds
        self._props = props
        self._on_boot = on_boot
        self._lock = lock
        self._powered_off = False
        self._online_at = 0.0  # monotonic time the current boot completes

    @property
    def online(self) -> bool:
        """Whether the phone is booted and answering (not rebooting, not powered off)."""
        return not self._powered_off and time.monotonic() >= self._online_at

    def check_online(self) -> None:
        """Raise :class:`PhoneOfflineError` unless the phone is online."""
        if not self.online:
            state = "powered off" if self._powered_off else "rebooting"
            raise PhoneOfflineError(f"phone {self._props.get('ro.serialno', '')} is {state}")

    def reboot(self, power_off: bool = False) -> None:
        """Go offline for ``boot_seconds`` (or until :meth:`power_on`), then boot to the launcher."""
        with self._lock:
            self._powered_off = power_off
            self._online_at = time.monotonic() + self.boot_seconds
            self._on_boot()

    def power_on(self) -> None:
        """Boot a powered-off phone at once."""
        with self._lock:
            self._powered_off = False
            self._online_at = time.monotonic()


class Wakefulness:
    """Whether the screen is on: PowerManagerService's wakefulness, ``Awake`` or ``Asleep``.

    ``input keyevent SLEEP|POWER`` puts the phone to sleep (the screen goes black), ``WAKEUP``
    or ``POWER`` wakes it. What changes with it (the keyguard locks, the screen is redrawn)
    is the phone's to wire: ``on_change(awake)`` runs after every change.

    Args:
        on_change: Runs with the new state after it changed.
    """

    def __init__(self, on_change: Callable[[bool], None] | None = None) -> None:
        self._awake = True
        self._on_change = on_change

    @property
    def awake(self) -> bool:
        """Whether the phone is awake (interactive, the screen on)."""
        return self._awake

    @property
    def name(self) -> str:
        """``Awake`` or ``Asleep``, as PowerManagerInternal.wakefulnessToString writes it."""
        return "Awake" if self._awake else "Asleep"

    def go_to_sleep(self) -> bool:
        """Turn the screen off; whether it was on."""
        return self._set(False)

    def wake_up(self) -> bool:
        """Turn the screen on; whether it was off."""
        return self._set(True)

    def _set(self, awake: bool) -> bool:
        if self._awake == awake:
            return False
        self._awake = awake
        if self._on_change is not None:
            self._on_change(awake)
        return True

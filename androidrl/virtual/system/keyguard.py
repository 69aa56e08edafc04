"""The keyguard: the lock screen SystemUI shows over everything when the phone locks.

The virtual phone's lock is Android's default, "Swipe" (no PIN, ``secure=false``): it shows
as soon as the screen goes off (KeyguardViewMediator.onStartedGoingToSleep locks at once when
the lock is not secure) and goes with a swipe up, the MENU key (KeyguardViewController's menu
key, enabled on emulators) or ``wm dismiss-keyguard``. The phone boots unlocked, as an
emulator whose lock screen was dismissed before it was saved.
"""

from __future__ import annotations

from collections.abc import Callable


class Keyguard:
    """Whether the keyguard is showing.

    Args:
        on_change: Runs after it shows or goes.
    """

    #: A swipe lock: anyone who wakes the phone can open it.
    secure = False

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self._showing = False
        self._on_change = on_change

    @property
    def showing(self) -> bool:
        """Whether the lock screen is up (the phone is locked)."""
        return self._showing

    def lock(self) -> bool:
        """Show the keyguard; whether it was hidden."""
        return self._set(True)

    def dismiss(self) -> bool:
        """Take the keyguard away (unlock: no credential to ask for); whether it was showing."""
        return self._set(False)

    def _set(self, showing: bool) -> bool:
        if self._showing == showing:
            return False
        self._showing = showing
        if self._on_change is not None:
            self._on_change()
        return True

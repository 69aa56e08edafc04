"""The lock screen credential (LockSettingsService): none, or a PIN, and whether the lock screen is off.

As frameworks/base services/core/java/com/android/server/locksettings/LockSettingsService.java keeps
it for user 0: a device starts with no credential and the "Swipe" lock; Settings' Screen lock
(ChooseLockGeneric, ChooseLockPassword) or ``locksettings set-pin`` sets a PIN, and then the keyguard
asks for it (:class:`~androidrl.virtual.system.keyguard.Keyguard` reads :attr:`LockSettings.secure`).
"None" disables the lock screen altogether (``locksettings set-disabled true``,
LockPatternUtils.setLockScreenDisabled). The credential is part of the phone's snapshots, so a reset
from a snapshot takes away a PIN an episode set.
"""

from __future__ import annotations

from collections.abc import Callable

#: LockscreenCredential's smallest PIN (LockPatternUtils.MIN_LOCK_PASSWORD_SIZE).
MIN_PIN_LENGTH = 4


class LockSettings:
    """The credential of user 0 and the lock screen's disabled flag.

    Args:
        on_change: Runs after the credential or the flag changes.
    """

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self._pin: str | None = None
        self._disabled = False
        self._on_change = on_change

    @property
    def secure(self) -> bool:
        """Whether a credential is set (``LockPatternUtils.isSecure``): the keyguard asks for it."""
        return self._pin is not None

    @property
    def disabled(self) -> bool:
        """Whether the lock screen is "None" (``isLockScreenDisabled``: no keyguard when insecure)."""
        return self._disabled and not self.secure

    @property
    def quality(self) -> str:
        """What Settings' Screen lock shows: ``PIN``, ``None`` or ``Swipe``."""
        return "PIN" if self.secure else ("None" if self._disabled else "Swipe")

    def check(self, pin: str) -> bool:
        """Whether ``pin`` is the credential (``checkCredential``); any entry passes when none is set."""
        return self._pin is None or pin == self._pin

    def set_pin(self, pin: str) -> None:
        """Make ``pin`` the credential (``setLockCredential`` with a PIN).

        Raises:
            ValueError: ``pin`` is not at least four digits.
        """
        if not (pin.isdigit() and pin.isascii() and len(pin) >= MIN_PIN_LENGTH):
            raise ValueError(f"a PIN is at least {MIN_PIN_LENGTH} digits, got {pin!r}")
        self._pin = pin
        self._disabled = False
        self._changed()

    def clear(self, disabled: bool = False) -> None:
        """Remove the credential: the Swipe lock, or "None" with ``disabled``."""
        self._pin = None
        self._disabled = disabled
        self._changed()

    def set_disabled(self, disabled: bool) -> None:
        """``set-disabled``: switch between Swipe and None (no effect on a PIN)."""
        self._disabled = disabled
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

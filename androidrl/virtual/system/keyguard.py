"""The keyguard: the lock screen SystemUI shows over everything when the phone locks.

The virtual phone starts with Android's default lock, "Swipe" (no credential): it shows as soon
as the screen goes off (KeyguardViewMediator.onStartedGoingToSleep locks at once when the lock is
not secure) and goes with a swipe up, the MENU key (KeyguardViewController's menu key, enabled on
emulators) or ``wm dismiss-keyguard``. With a PIN (:class:`~androidrl.virtual.system.lock_settings.LockSettings`,
set in Settings' Screen lock or by ``locksettings set-pin``) each of those shows the bouncer
instead — KeyguardPINView: "Enter your PIN" over a PIN pad — and only the PIN unlocks. With
"None" the keyguard never shows. The phone boots unlocked, as an emulator whose lock screen was
dismissed before it was saved, unless a PIN is set.
"""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.system.lock_settings import LockSettings


class Keyguard:
    """Whether the keyguard (and its bouncer) is showing, and the PIN being entered.

    Args:
        lock_settings: The credential; a secure one makes the keyguard ask for it.
        on_change: Runs after it shows or goes, or the entry changes.
    """

    def __init__(self, lock_settings: LockSettings | None = None, on_change: Callable[[], None] | None = None) -> None:
        self.lock_settings = lock_settings if lock_settings is not None else LockSettings()
        self._showing = False
        self._bouncer = False
        self.entry = ""  # the digits typed into the bouncer
        self.message = ""  # "" or "Wrong PIN" (KeyguardSecurityView's message area)
        self._on_change = on_change

    @property
    def secure(self) -> bool:
        """Whether unlocking asks for the credential (``KeyguardManager.isKeyguardSecure``)."""
        return self.lock_settings.secure

    @property
    def showing(self) -> bool:
        """Whether the lock screen is up (the phone is locked)."""
        return self._showing

    @property
    def bouncer(self) -> bool:
        """Whether the PIN bouncer shows (over the lock screen)."""
        return self._showing and self._bouncer

    def lock(self) -> bool:
        """Show the keyguard (unless the lock screen is "None"); whether it was hidden."""
        if self.lock_settings.disabled:
            return False
        self._bouncer, self.entry, self.message = False, "", ""
        return self._set(True)

    def dismiss(self) -> bool:
        """Unlock as a swipe up, MENU or ``wm dismiss-keyguard`` does; whether the keyguard went.

        An insecure lock goes; a secure one shows its bouncer (KeyguardViewMediator.dismiss).
        """
        if self._showing and self.secure:
            if not self._bouncer:
                self._bouncer = True
                self._changed()
            return False
        return self._set(False)

    def hide_bouncer(self) -> bool:
        """Back to the lock screen from the bouncer (BACK, a swipe down); whether it showed."""
        if not self.bouncer:
            return False
        self._bouncer, self.entry, self.message = False, "", ""
        self._changed()
        return True

    def unlocked_by_boot(self) -> None:
        """A boot: an insecure phone comes up unlocked, a secure one locked."""
        self._set(False)
        if self.secure:
            self.lock()

    def type(self, text: str) -> None:
        """Digits typed into the bouncer's PIN field (other characters are dropped, as the PIN pad's filter does)."""
        digits = "".join(c for c in text if c.isdigit() and c.isascii())
        if digits and self.bouncer:
            self.entry = (self.entry + digits)[:16]  # PasswordTextView's maximum
            self.message = ""
            self._changed()

    def delete(self) -> None:
        """The PIN pad's delete key."""
        if self.bouncer and self.entry:
            self.entry = self.entry[:-1]
            self._changed()

    def enter(self) -> bool:
        """The PIN pad's enter key: the right PIN unlocks, a wrong one says so. Whether it unlocked."""
        if not self.bouncer or not self.entry:
            return False
        if self.lock_settings.check(self.entry):
            self._bouncer, self.entry, self.message = False, "", ""
            return self._set(False)
        self.entry, self.message = "", "Wrong PIN"  # kg_wrong_pin
        self._changed()
        return False

    def _set(self, showing: bool) -> bool:
        if self._showing == showing:
            return False
        self._showing = showing
        if not showing:
            self._bouncer, self.entry, self.message = False, "", ""
        self._changed()
        return True

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

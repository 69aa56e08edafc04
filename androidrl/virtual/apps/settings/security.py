"""Security & privacy and Screen lock: None, Swipe or a PIN (the credential LockSettingsService keeps).

Screen lock asks for the current PIN first when there is one (``password.ConfirmLockPassword``),
then offers the locks (``password.ChooseLockGeneric``: None, Swipe, Pattern, PIN, Password — the
virtual phone's credentials are PINs); PIN is set by ``password.ChooseLockPassword``: "Set a PIN",
Next, "Re-enter your PIN", Confirm. Taking a PIN away asks "Remove device protection?". Once a PIN
is set the keyguard asks for it (system/keyguard.py), as on a device with a PIN.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.settings.base import RID, TAG, SettingsPage
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import PRIMARY, TEXT_SECONDARY, Button, LinearLayout, TextView, View
from androidrl.virtual.ui.widgets import app_bar, list_row

CHOOSE_LOCK = "com.android.settings.password.ChooseLockGeneric"
CHOOSE_PIN = "com.android.settings.password.ChooseLockPassword"
CONFIRM_PIN = "com.android.settings.password.ConfirmLockPassword$InternalActivity"
MIN_PIN_LENGTH = 4  # LockPatternUtils.MIN_LOCK_PASSWORD_SIZE


class SecurityActivity(SettingsPage):
    """Security & privacy: App security, Device unlock (Screen lock) and Privacy."""

    title_key = "security"

    def rows(self) -> list[View]:
        quality = self.context.lock_settings.quality
        summary = {"PIN": "pin", "None": "none", "Swipe": "swipe"}[quality]
        return [
            self.row("app_security"),
            self.category("device_unlock"),
            self.row("screen_lock", self.string(summary), on_click=self.screen_lock),
            self.row("privacy"),
        ]

    def screen_lock(self) -> None:
        self.open(CONFIRM_PIN if self.context.lock_settings.secure else CHOOSE_LOCK)


class ChooseLockActivity(SettingsPage):
    """Choose a screen lock: None, Swipe, Pattern, PIN, Password (Pattern and Password unavailable)."""

    title_key = "choose_lock"

    def rows(self) -> list[View]:
        s = self.string
        return [
            list_row(s("none"), on_click=partial(self.choose, "None")),
            list_row(s("swipe"), on_click=partial(self.choose, "Swipe")),
            list_row(s("pattern"), enabled=False),
            list_row(s("pin"), on_click=partial(self.choose, "PIN")),
            list_row(s("password"), enabled=False),
        ]

    def choose(self, quality: str) -> None:
        settings = self.context.lock_settings
        if quality == "PIN":
            self.open(CHOOSE_PIN)
            self.finish()
        elif settings.secure:
            s = self.string
            self.show(
                AlertDialog(
                    s("remove_protection"),
                    s("remove_protection_text"),
                    positive=(s("yes_remove"), partial(self.remove, quality == "None")),
                    negative=(s("cancel"), None),
                )
            )
        else:
            self.remove(quality == "None")

    def remove(self, disabled: bool) -> None:
        self.context.lock_settings.clear(disabled=disabled)
        self.log(TAG, f"screen lock {'none' if disabled else 'swipe'}")
        self.finish()


class _PinEntry(Activity):
    """A page with one PIN field (numeric, shown as dots), its header, a message and a button."""

    header_key = "set_pin"

    def on_create(self) -> None:
        self.pin = TextState()
        self.message = ""

    @property
    def title(self) -> str:  # type: ignore[override]
        return self.string("screen_lock")

    def button_key(self) -> str:
        return "next"

    def build(self) -> View:
        s = self.string
        return LinearLayout(
            [
                app_bar(s("screen_lock"), on_up=self.finish),
                TextView(s(self.header_key), resource_id=RID + "suc_layout_title", text_size=28, padding=24),
                edit_text(
                    self,
                    self.pin,
                    True,
                    self.focus,
                    resource_id=RID + "password_entry",
                    password=True,
                    numeric=True,
                    on_action=self.submit,
                ),
                TextView(
                    self.message or s("set_pin_hint"),
                    resource_id=RID + "message",
                    padding=16,
                    text_color=PRIMARY if self.message else TEXT_SECONDARY,
                ),
                Button(s(self.button_key()), resource_id=RID + "next_button", on_click=self.submit, width=140),
            ],  # fmt: skip
            height=-1,
        )

    def focus(self) -> None:
        """The field has the focus from the start."""

    def submit(self) -> None:
        raise NotImplementedError


class ChoosePinActivity(_PinEntry):
    """Set a PIN, then Re-enter your PIN; a match makes it the credential."""

    def on_create(self) -> None:
        super().on_create()
        self.first = ""

    @property
    def header_key(self) -> str:  # type: ignore[override]
        return "confirm_pin" if self.first else "set_pin"

    def button_key(self) -> str:
        return "confirm" if self.first else "next"

    def submit(self) -> None:
        entry = self.pin.text
        if not self.first:
            if len(entry) < MIN_PIN_LENGTH or not entry.isdigit():
                self.message = self.string("set_pin_hint")
                return
            self.first, self.message = entry, ""
            self.pin.set("")
            return
        if entry != self.first:
            self.message = self.string("pins_dont_match")
            self.pin.set("")
            return
        self.context.lock_settings.set_pin(entry)
        self.log(TAG, "screen lock pin")
        self.finish()


class ConfirmPinActivity(_PinEntry):
    """Enter your PIN: the current credential, before the lock can change."""

    header_key = "enter_pin"

    def submit(self) -> None:
        if self.context.lock_settings.check(self.pin.text) and self.pin.text:
            self.start(CHOOSE_LOCK)
            self.finish()
            return
        self.message = self.string("wrong_pin")
        self.pin.set("")

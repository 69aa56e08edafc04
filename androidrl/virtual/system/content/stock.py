"""The packages that own Android's stock providers, as installed on a phone.

On Android the contacts, call log, SMS, calendar, media and settings providers live in
packages with no launcher activity of their own (``com.android.providers.contacts``...); the
clock's provider belongs to the Clock app itself (``com.android.deskclock``), so the Clock app
declares :class:`~androidrl.virtual.system.content.deskclock.ClockProvider` among its providers.
"""

from __future__ import annotations

from androidrl.virtual.system.content.calendar import CalendarProvider
from androidrl.virtual.system.content.calllog import CallLogProvider
from androidrl.virtual.system.content.contacts import ContactsProvider
from androidrl.virtual.system.content.deskclock import ClockProvider
from androidrl.virtual.system.content.media import MediaProvider
from androidrl.virtual.system.content.settings import SettingsProvider
from androidrl.virtual.system.content.telephony import SmsProvider
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.content import ContentProvider

#: (package, label, its providers): the provider packages of an AOSP image.
PROVIDER_PACKAGES: tuple[tuple[str, str, tuple[type[ContentProvider], ...]], ...] = (
    ("com.android.providers.settings", "Settings Storage", (SettingsProvider,)),
    ("com.android.providers.contacts", "Contacts Storage", (ContactsProvider, CallLogProvider)),
    ("com.android.providers.telephony", "Phone and Messaging Storage", (SmsProvider,)),
    ("com.android.providers.calendar", "Calendar Storage", (CalendarProvider,)),
    ("com.android.providers.media.module", "Media Storage", (MediaProvider,)),
)
#: The package that owns DeskClock's provider, and the provider.
CLOCK_PACKAGE = "com.android.deskclock"
CLOCK_PROVIDERS: tuple[type[ContentProvider], ...] = (ClockProvider,)


def provider_packages() -> list[App]:
    """Fresh instances of the provider packages (no activities, no launcher icon)."""
    return [
        App(package, label, "", (120, 120, 120), {}, None, providers=providers)
        for package, label, providers in PROVIDER_PACKAGES
    ]

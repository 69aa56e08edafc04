"""``com.android.dialer``: the manifest of the Phone app (packages/apps/Dialer AndroidManifest.xml).

MainActivity's intent filters as the manifest declares them: ``MAIN``/``LAUNCHER``, ``DIAL``
(no data, ``tel:``, ``voicemail:``, a phone or person item), ``VIEW`` of ``tel:`` and of
``vnd.android.cursor.dir/calls``, ``CALL_BUTTON``. ``CALL`` of ``tel:`` belongs to Telecom on
Android (UserCallActivity places the call and Telecom starts InCallUI's InCallActivity, in
this package); here InCallActivity answers it directly, so the same intent ends on the same
screen. The call log is the contacts provider package's; the app only reads and adds to it.
"""

from __future__ import annotations

from androidrl.virtual.apps.dialer.incall import INCALL, InCallActivity
from androidrl.virtual.apps.dialer.main import ACTION_CALL, MAIN, MainActivity
from androidrl.virtual.apps.dialer.strings import STRINGS
from androidrl.virtual.apps.dialer.widgets import PACKAGE
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import (
    ACTION_DIAL,
    ACTION_MAIN,
    ACTION_VIEW,
    CATEGORY_BROWSABLE,
    CATEGORY_DEFAULT,
    CATEGORY_LAUNCHER,
    IntentFilter,
)

__all__ = ["INCALL", "MAIN", "PACKAGE", "dialer_app"]

_BROWSABLE = (CATEGORY_DEFAULT, CATEGORY_BROWSABLE)
FILTERS = (
    IntentFilter(MAIN, (ACTION_MAIN,), (CATEGORY_DEFAULT, CATEGORY_LAUNCHER, CATEGORY_BROWSABLE)),
    IntentFilter(
        MAIN, (ACTION_DIAL,), _BROWSABLE, mime_types=("vnd.android.cursor.item/phone", "vnd.android.cursor.item/person")
    ),
    IntentFilter(MAIN, (ACTION_DIAL,), _BROWSABLE, schemes=("voicemail",)),
    IntentFilter(MAIN, (ACTION_DIAL,)),
    IntentFilter(MAIN, (ACTION_VIEW, ACTION_DIAL), _BROWSABLE, schemes=("tel",)),
    IntentFilter(MAIN, (ACTION_VIEW,), _BROWSABLE, mime_types=("vnd.android.cursor.dir/calls",)),
    IntentFilter(MAIN, ("android.intent.action.CALL_BUTTON",), _BROWSABLE),
    IntentFilter(INCALL, (ACTION_CALL,), _BROWSABLE, schemes=("tel",)),
)


def dialer_app() -> App:
    """The Phone package."""
    return App(
        PACKAGE,
        "Phone",
        "D",
        (15, 157, 88),
        {MAIN: MainActivity, INCALL: InCallActivity},
        MAIN,
        filters=FILTERS,
        strings=STRINGS,
    )

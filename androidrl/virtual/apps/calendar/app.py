"""``com.android.calendar``: AOSP's Calendar (packages/apps/Calendar), its manifest.

Activities and intent filters as its AndroidManifest.xml declares them:

- ``AllInOneActivity`` (the launcher's): the day, week, month and agenda views; it also answers
  ``VIEW`` of ``content://com.android.calendar/time/MS`` (type ``time/epoch``), opening at that time;
- ``EventInfoActivity``: ``VIEW`` of ``content://com.android.calendar/events/ID``
  (``vnd.android.cursor.item/event``), an event's details with Edit and Delete;
- ``event.EditEventActivity`` (declared through the ``EditEventActivity`` alias): ``INSERT`` and
  ``EDIT`` of ``vnd.android.cursor.dir/event`` and ``vnd.android.cursor.item/event``, the editor,
  prefilled from CalendarContract's extras (``title``, ``beginTime``, ``endTime``, ``allDay``...).

Its data is the calendar provider's (``content://com.android.calendar/events``, owned by
``com.android.providers.calendar``); its own preferences (the last view) are the app's data, which
``pm clear com.android.calendar`` wipes. Strings in English and German (``strings.py``).
"""

from __future__ import annotations

from androidrl.virtual.apps.calendar.bar import PACKAGE
from androidrl.virtual.apps.calendar.edit import EditEventActivity
from androidrl.virtual.apps.calendar.info import EventInfoActivity
from androidrl.virtual.apps.calendar.main import EDIT, INFO, MAIN, AllInOneActivity
from androidrl.virtual.apps.calendar.strings import STRINGS
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import ACTION_EDIT, ACTION_INSERT, ACTION_VIEW, IntentFilter

EVENT_TYPES = ("vnd.android.cursor.item/event", "vnd.android.cursor.dir/event")


def calendar_app() -> App:
    """The Calendar package with AOSP's activities and intent filters."""
    filters = (
        IntentFilter(MAIN, (ACTION_VIEW,), schemes=("content",), mime_types=("time/epoch",)),
        IntentFilter(INFO, (ACTION_VIEW,)),
        IntentFilter(INFO, (ACTION_VIEW,), mime_types=("vnd.android.cursor.item/event",)),
        IntentFilter(EDIT, (ACTION_EDIT, ACTION_INSERT), mime_types=EVENT_TYPES),
    )
    return App(
        PACKAGE,
        "Calendar",
        "31",
        (66, 133, 244),
        {MAIN: AllInOneActivity, INFO: EventInfoActivity, EDIT: EditEventActivity},
        MAIN,
        filters=filters,
        strings=STRINGS,
    )

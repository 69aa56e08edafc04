"""``com.androidrl.notes``: a small notes app of ours, for typing tasks and for families that write notes.

Its activities: ``.MainActivity`` (:mod:`.notes_list`: a quick note field, the list, selection)
and ``.EditActivity`` (:mod:`.editor`: title and body). The notes live in its provider,
``content://com.androidrl.notes/notes`` (:mod:`.provider`), which the shell reads and writes with
``content``; they survive ``am force-stop`` and ``pm clear com.androidrl.notes`` wipes them.
Intents: ``SEND`` of ``text/plain`` (a new note from ``android.intent.extra.TEXT``; Messaging,
installed first, answers an implicit one: name the component), ``INSERT`` of
``vnd.android.cursor.dir/vnd.androidrl.note``, ``EDIT``/``VIEW`` of a note's URI. Changes are
logged under ``Notes``.
"""

from __future__ import annotations

from androidrl.virtual.apps.notes.editor import EditActivity
from androidrl.virtual.apps.notes.notes_list import EDITOR, PACKAGE, NotesActivity
from androidrl.virtual.apps.notes.provider import MIME, NotesProvider
from androidrl.virtual.apps.notes.strings import STRINGS
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import ACTION_EDIT, ACTION_INSERT, ACTION_SEND, ACTION_VIEW, IntentFilter

MAIN = f"{PACKAGE}.MainActivity"


def notes_app() -> App:
    """The notes package (not a system app: ``pm list packages -3`` shows it)."""
    return App(
        PACKAGE,
        "Notes",
        "N",
        (251, 188, 4),
        {MAIN: NotesActivity, EDITOR: EditActivity},
        MAIN,
        system=False,
        filters=(
            IntentFilter(EDITOR, (ACTION_SEND,), mime_types=("text/plain",)),
            IntentFilter(EDITOR, (ACTION_INSERT,), mime_types=(f"vnd.android.cursor.dir/{MIME}",)),
            IntentFilter(EDITOR, (ACTION_EDIT, ACTION_VIEW), mime_types=(f"vnd.android.cursor.item/{MIME}",)),
        ),
        providers=(NotesProvider,),
        strings=STRINGS,
    )

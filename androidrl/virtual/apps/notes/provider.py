"""``content://com.androidrl.notes/notes``: the notes, as the shell and other apps read and write them.

One table, ``notes`` (``_id``, ``title``, ``body``, ``created`` and ``modified`` in ms since the
epoch), newest change first. ``content insert --uri content://com.androidrl.notes/notes --bind
title:s:Milk --bind body:s:Buy two`` adds a note (its times are the phone's now when left out);
``notes/#`` is one note. The app owns it, so ``pm clear com.androidrl.notes`` wipes it.
"""

from __future__ import annotations

from typing import Any

from androidrl.virtual.system.framework.database import Match, Route, SQLiteProvider

AUTHORITY = "com.androidrl.notes"
NOTES = f"content://{AUTHORITY}/notes"
#: The MIME subtype of the notes (``vnd.android.cursor.dir/`` and ``item/`` ``vnd.androidrl.note``).
MIME = "vnd.androidrl.note"
#: The list's order: the note changed last first.
ORDER = "modified DESC, _id DESC"


class NotesProvider(SQLiteProvider):
    """The notes: ``notes`` and ``notes/#``."""

    authority = AUTHORITY
    schema = """
        CREATE TABLE notes (_id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL DEFAULT '',
            body TEXT NOT NULL DEFAULT '', created INTEGER, modified INTEGER);
    """
    routes = {
        "notes": Route("notes", mime=MIME, sort=ORDER),
        "notes/#": Route("notes", item=True, mime=MIME, insert=False),
    }

    def before_insert(self, match: Match, values: dict[str, Any]) -> None:
        now = self.host.now_ms() if self.host is not None else 0
        values.setdefault("created", now)
        values.setdefault("modified", values["created"])

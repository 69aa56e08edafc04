"""``com.androidrl.notes``: an EditText, a Save button and the list of saved notes.

Saved notes are the rows of the app's own provider, ``content://com.androidrl.notes/notes``
(``_id``, ``text``, ``created``: the phone's time in ms), so a task reads them with ``content
query`` and seeds them with ``content insert``; the list shows the provider's rows, oldest first.
They survive ``am force-stop`` and are wiped by ``pm clear com.androidrl.notes``. An ``--es
instruction TEXT`` extra shows a banner, which is how tasks put an instruction on screen.
"""

from __future__ import annotations

from androidrl.keycodes import KEYCODE_DEL, KEYCODE_ENTER
from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.system.framework.database import Route, SQLiteProvider
from androidrl.virtual.ui.views import SURFACE, LinearLayout, ScrollingList, TextView, View
from androidrl.virtual.ui.widgets import app_bar, primary_button, text_field

PACKAGE = "com.androidrl.notes"
MAIN = "com.androidrl.notes.MainActivity"
NOTES = f"content://{PACKAGE}/notes"


class NotesProvider(SQLiteProvider):
    """The saved notes: ``notes`` and ``notes/#``."""

    authority = PACKAGE
    schema = "CREATE TABLE notes (_id INTEGER PRIMARY KEY, text TEXT NOT NULL, created INTEGER);"
    routes = {
        "notes": Route("notes", mime="note", sort="_id"),
        "notes/#": Route("notes", item=True, mime="note"),
    }


class NotesActivity(Activity):
    """Write a note, save it, see it listed."""

    title = "Notes"

    def on_create(self) -> None:
        self.draft = ""
        self.focused = False
        self.scroll = 0
        self.instruction = str(self.intent.extras.get("instruction", ""))
        self.read: tuple[int, list[str]] = (-1, [])  # (the providers' generation, the notes read then)

    @property
    def notes(self) -> list[str]:
        """The saved notes' texts, oldest first: read from the provider again only after a change to it."""
        resolver = self.context.content
        if self.read[0] != resolver.generation:
            self.read = (resolver.generation, [str(row["text"]) for row in resolver.query(NOTES, ["text"], sort="_id")])
        return self.read[1]

    def build(self) -> View:
        rid = f"{PACKAGE}:id/"
        children: list[View] = [app_bar("Notes")]
        if self.instruction:
            children.append(
                TextView(self.instruction, resource_id=rid + "instruction", background=(232, 240, 254), padding=12)
            )
        children += [
            text_field(
                self.draft,
                self.focused,
                self._focus,
                self._type,
                self._key,
                hint="Write a note",
                resource_id=rid + "note_input",
            ),
            primary_button("Save", self.save, resource_id=rid + "save_button"),
            TextView(f"{len(self.notes)} saved", resource_id=rid + "count", padding=12, text_size=12),
            ScrollingList(
                [TextView(n, resource_id=rid + "note_item", padding=12, background=SURFACE) for n in self.notes],
                scroll_y=self.scroll,
                on_scroll=self._scroll,
                resource_id=rid + "notes",
                weight=1,
            ),
        ]
        return LinearLayout(children, height=-1)

    def save(self) -> None:
        """Save the draft (if not blank) and clear the field."""
        if self.draft.strip():
            self.context.content.insert(NOTES, {"text": self.draft, "created": self.context.current_time_millis()})
            self.log("Notes", f"saved note {len(self.notes)}: {self.draft}")
            self.draft = ""

    def _focus(self) -> None:
        self.focused = True

    def _type(self, text: str) -> None:
        self.draft += text

    def _key(self, code: int) -> bool:
        if code == KEYCODE_DEL:
            self.draft = self.draft[:-1]
            return True
        if code == KEYCODE_ENTER:  # the IME's "done" action saves
            self.save()
            return True
        return False

    def _scroll(self, offset: int) -> None:
        self.scroll = offset


def notes_app() -> App:
    """The notes package (not a system app: ``pm list packages -3`` shows it)."""
    return App(
        PACKAGE, "Notes", "N", (251, 188, 4), {MAIN: NotesActivity}, MAIN, system=False, providers=(NotesProvider,)
    )

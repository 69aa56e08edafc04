"""``com.androidrl.notes/.MainActivity``: a quick note field, the list of notes, a button for a new one.

The quick field (``note_input``, hint "Write a note") and ``save_button`` (or the keyboard's
ENTER) save its text as a note's body. The list (``notes``) shows the notes newest change
first, read from the app's provider each frame: a row (``note_row``) holds the title
(``note_item``; a note without one shows its body there) and, under a title, the body
(``note_body``). A tap opens the note in the editor; a long press selects it, as Keep does:
while notes are selected a tap toggles one, and the action bar (``action_mode_close_button``
"Done", ``action_bar_title`` "N selected") offers ``action_copy`` ("Copy": the notes' bodies to
the clipboard) and ``action_delete`` ("Delete", confirmed by a dialog). ``new_note`` ("New
note") opens an empty editor. An ``--es instruction TEXT`` extra shows a banner
(``instruction``), which is how tasks put an instruction on screen.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.notes.provider import NOTES, ORDER
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import ACTION_EDIT, Intent
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import (
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    BottomEnd,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)
from androidrl.virtual.ui.widgets import app_bar, floating_action_button, primary_button

PACKAGE = "com.androidrl.notes"
RID = f"{PACKAGE}:id/"
EDITOR = f"{PACKAGE}.EditActivity"
TAG = "Notes"
#: A selected row's tint.
SELECTED = (232, 240, 254)


def note_uri(note_id: int) -> str:
    """The URI of one note."""
    return f"{NOTES}/{note_id}"


def edit_intent(note_id: int | None = None) -> Intent:
    """The editor: of note ``note_id``, or of a new note."""
    if note_id is None:
        return Intent(component=(PACKAGE, EDITOR))
    return Intent(ACTION_EDIT, component=(PACKAGE, EDITOR), data=note_uri(note_id))


class NotesActivity(Activity):
    """The quick note field over the list of notes."""

    def on_create(self) -> None:
        self.quick = TextState()  # the quick note field
        self.focused = False
        self.scroll = ScrollState()
        self.selected: list[int] = []  # the ids of the selected notes, in the order they were picked
        self.instruction = str(self.intent.extras.get("instruction", ""))

    @property
    def title(self) -> str:  # (the window's, in the phone's locale)
        return self.string("app_name")

    @property
    def draft(self) -> str:
        """What the quick note field holds."""
        return self.quick.text

    def notes(self) -> list[dict]:
        """Every note, newest change first."""
        return self.context.content.query(NOTES, ["_id", "title", "body"], None, (), ORDER)

    def build(self) -> View:
        s = self.string
        notes = self.notes()
        ids = {n["_id"] for n in notes}
        self.selected = [i for i in self.selected if i in ids]
        children: list[View] = [self.action_mode() if self.selected else app_bar(s("app_name"))]
        if self.instruction:
            children.append(
                TextView(self.instruction, resource_id=RID + "instruction", background=(232, 240, 254), padding=12)
            )
        field = edit_text(
            self,
            self.quick,
            self.focused,
            self.focus,
            hint=s("quick_hint"),
            resource_id=RID + "note_input",
            on_action=self.save,
        )
        rows = [self.row(n) for n in notes] or [
            TextView(s("empty"), resource_id="android:id/empty", text_color=TEXT_SECONDARY, gravity="center", height=96)
        ]
        fab = floating_action_button("+", RID + "new_note", s("new_note"), self.new_note)
        listing = ScrollingList(rows, state=self.scroll, resource_id=RID + "notes", weight=1)
        children += [
            field,
            primary_button(s("save"), self.save, resource_id=RID + "save_button"),
            TextView(s("saved_count", len(notes)), resource_id=RID + "count", padding=12, text_size=12),
            BottomEnd([listing, fab], weight=1),
        ]
        return LinearLayout(children, height=-1)

    def row(self, note: dict) -> View:
        """A note's row: its title (or body) over its body."""
        title, body = str(note["title"] or ""), str(note["body"] or "")
        texts: list[View] = [TextView(title or body, resource_id=RID + "note_item", text_size=16, height=28)]
        if title and body:
            texts.append(TextView(body, resource_id=RID + "note_body", text_color=TEXT_SECONDARY, height=22))
        picked = note["_id"] in self.selected
        return LinearLayout(
            texts,
            resource_id=RID + "note_row",
            padding=12,
            clickable=True,
            long_clickable=True,
            focusable=True,
            selected=picked,
            background=SELECTED if picked else SURFACE,
            on_click=partial(self.tap, note["_id"]),
            on_long_click=partial(self.toggle, note["_id"]),
        )

    def action_mode(self) -> View:
        """The action bar while notes are selected."""
        s = self.string

        def icon(glyph: str, desc: str, rid: str, on_click) -> View:
            return ImageView(
                glyph=glyph,
                color=SELECTED,
                glyph_color=TEXT,
                content_desc=desc,
                resource_id=rid,
                clickable=True,
                focusable=True,
                width=48,
                height=48,
                on_click=on_click,
            )

        return LinearLayout(
            [
                icon("x", s("done"), "android:id/action_mode_close_button", self.clear_selection),
                TextView(
                    s("selected", len(self.selected)),
                    resource_id="android:id/action_bar_title",
                    text_size=20,
                    height=56,
                    padding=8,
                    weight=1,
                    width=0,
                ),
                icon("C", s("copy"), RID + "action_copy", self.copy_selected),
                icon("D", s("delete"), RID + "action_delete", self.confirm_delete),
            ],
            vertical=False,
            height=56,
            background=SELECTED,
        )

    # ------------------------------------------------------------------ what gestures do

    def focus(self) -> None:
        self.focused = True

    def save(self) -> None:
        """Save the quick field's text (if not blank) as a new note's body, and clear the field."""
        text = self.quick.text
        if text.strip():
            uri = self.context.content.insert(NOTES, {"body": text})
            self.log(TAG, f"saved note {uri.rsplit('/', 1)[-1] if uri else '?'}: {text}")
            self.quick.set("")

    def new_note(self) -> None:
        self.context.start_activity(edit_intent())

    def tap(self, note_id: int) -> None:
        """A tap: toggles the note while selecting, else opens it."""
        if self.selected:
            self.toggle(note_id)
        else:
            self.context.start_activity(edit_intent(note_id))

    def toggle(self, note_id: int) -> None:
        if note_id in self.selected:
            self.selected.remove(note_id)
        else:
            self.selected.append(note_id)

    def clear_selection(self) -> None:
        self.selected = []

    def on_back(self) -> bool:
        if self.selected:
            self.selected = []
            return True
        return False

    def copy_selected(self) -> None:
        """Copy: the selected notes' text (each one's body, or its title when it has none; a line each)."""
        picked = {n["_id"]: n for n in self.notes()}
        notes = [picked[i] for i in self.selected if i in picked]
        self.clipboard.set_text("\n".join(str(n["body"] or n["title"]) for n in notes))
        self.log(TAG, f"copied {len(self.selected)} notes")
        self.selected = []

    def confirm_delete(self) -> None:
        s, count = self.string, len(self.selected)
        message = s("delete_one") if count == 1 else s("delete_other", count)
        self.show(
            AlertDialog(message=message, positive=(s("delete"), self.delete_selected), negative=(s("cancel"), None))
        )

    def delete_selected(self) -> None:
        for note_id in self.selected:
            self.context.content.delete(note_uri(note_id))
            self.log(TAG, f"deleted note {note_id}")
        self.selected = []

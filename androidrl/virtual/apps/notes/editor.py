"""``com.androidrl.notes/.EditActivity``: a note's title and body, saved to the app's provider.

Two fields, ``title`` (hint "Title") and ``body`` (hint "Note"), under a bar with "Navigate up",
the screen's title ("New note" / "Edit note"), ``save`` ("Save"), ``delete`` ("Delete", for a
saved note: "Delete this note?" with Cancel and Delete) and "More options" with Copy (the focused
field's selection, or its whole text when nothing is selected, to the clipboard), Paste (the
clipboard into the focused field, over its selection) and Select all — what the text toolbar of
a long press also offers, here in the window ``uiautomator dump`` reads. Save, "Navigate up" and BACK all save
(as Keep and AOSP's NotePad sample do; a new note left empty is not kept) and close. A new note
starts with the title focused; a saved one with the body focused, the cursor at its end.

It opens a new note (``am start -n com.androidrl.notes/.EditActivity``), prefilled from
``android.intent.extra.TITLE`` (or ``SUBJECT``) and ``android.intent.extra.TEXT`` (what
``ACTION_SEND`` of ``text/plain`` carries), or a saved one (``-a android.intent.action.EDIT -d
content://com.androidrl.notes/notes/ID``; a note that is gone closes at once).
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.notes.notes_list import RID, TAG
from androidrl.virtual.apps.notes.provider import NOTES
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.dialogs import AlertDialog, overflow_menu
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import DIVIDER, SURFACE, TEXT, Button, ImageView, LinearLayout, TextView, View

EXTRA_TITLE, EXTRA_SUBJECT, EXTRA_TEXT = (f"android.intent.extra.{k}" for k in ("TITLE", "SUBJECT", "TEXT"))
MENU = ("copy", "paste", "select_all")


class EditActivity(Activity):
    """The note editor."""

    def on_create(self) -> None:
        self.note_id: int | None = None
        title = body = ""
        data = self.intent.data or ""
        if data.startswith(NOTES + "/"):
            tail = data.rsplit("/", 1)[-1]
            rows = self.context.content.query(data, ["_id", "title", "body"]) if tail.isdigit() else []
            if not rows:
                self.finish()  # (the note is gone)
                return
            self.note_id, title, body = int(rows[0]["_id"]), str(rows[0]["title"]), str(rows[0]["body"])
        self.original = (title, body)
        extras = self.intent.extras
        if self.note_id is None:
            title = str(extras.get(EXTRA_TITLE) or extras.get(EXTRA_SUBJECT) or "")
            body = str(extras.get(EXTRA_TEXT) or "")
        self.fields = {"title": TextState(title), "body": TextState(body)}
        self.focus = "body" if self.note_id is not None else "title"

    @property
    def title(self) -> str:  # (the window's, in the phone's locale)
        return self.string("edit_note" if self.note_id is not None else "new_note")

    def build(self) -> View:
        s = self.string
        bar: list[View] = [
            ImageView(
                glyph="<",
                color=SURFACE,
                glyph_color=TEXT,
                content_desc=framework_string("navigate_up"),
                clickable=True,
                focusable=True,
                width=48,
                height=48,
                on_click=self.save,
            ),
            TextView(self.title, text_size=20, height=56, padding=8, weight=1, width=0),
            Button(s("save"), resource_id=RID + "save", width=88, height=40, on_click=self.save),
        ]
        if self.note_id is not None:
            bar.append(
                ImageView(
                    glyph="D",
                    color=SURFACE,
                    glyph_color=TEXT,
                    resource_id=RID + "delete",
                    content_desc=s("delete"),
                    clickable=True,
                    focusable=True,
                    width=48,
                    height=48,
                    on_click=self.confirm_delete,
                )
            )
        bar.append(overflow_menu(self, [s(k) for k in MENU], self.on_menu))
        return LinearLayout(
            [
                LinearLayout(bar, vertical=False, height=56, background=SURFACE),
                self.field("title", s("title_hint"), 20),
                View(height=1, background=DIVIDER),
                self.field("body", s("body_hint"), 16),
            ],
            height=-1,
        )

    def field(self, key: str, hint: str, size: float) -> View:
        view = edit_text(
            self,
            self.fields[key],
            self.focus == key,
            partial(self.focus_on, key),
            hint=hint,
            resource_id=RID + key,
            on_action=self.next_field if key == "title" else self.save,
        )
        view.text_size = size
        return view

    # ------------------------------------------------------------------ editing

    def focus_on(self, key: str) -> None:
        self.focus = key

    def next_field(self) -> None:
        """The title's keyboard action (``actionNext``): on to the body, its cursor at the end."""
        self.focus = "body"
        self.fields["body"].move(len(self.fields["body"].text))

    def on_menu(self, index: int) -> None:
        state = self.fields.get(self.focus)
        if state is None:
            return
        if MENU[index] == "copy":
            self.clipboard.set_text(state.selected or state.text)
        elif MENU[index] == "select_all":
            state.start, state.end = 0, len(state.text)
        elif self.clipboard.has_text():
            state.insert(self.clipboard.get_text())

    # ------------------------------------------------------------------ saving

    def values(self) -> tuple[str, str]:
        return self.fields["title"].text, self.fields["body"].text

    def save(self) -> None:
        """Save (a new note only when it holds text) and close."""
        title, body = self.values()
        content = self.context.content
        if self.note_id is None and (title.strip() or body.strip()):
            uri = content.insert(NOTES, {"title": title, "body": body})
            self.note_id = int(uri.rsplit("/", 1)[-1]) if uri else None
            self.log(TAG, f"created note {self.note_id}: {title}")
        elif self.note_id is not None and (title, body) != self.original:
            now = self.context.current_time_millis()
            content.update(f"{NOTES}/{self.note_id}", {"title": title, "body": body, "modified": now})
            self.log(TAG, f"saved note {self.note_id}: {title}")
        self.finish()

    def on_back(self) -> bool:
        self.save()
        return True

    def confirm_delete(self) -> None:
        s = self.string
        self.show(
            AlertDialog(message=s("delete_one"), positive=(s("delete"), self.delete), negative=(s("cancel"), None))
        )

    def delete(self) -> None:
        if self.note_id is not None:
            self.context.content.delete(f"{NOTES}/{self.note_id}")
            self.log(TAG, f"deleted note {self.note_id}")
        self.finish()

"""The Files app's dialogs: New folder, Rename and the delete confirmation, and what their OK does.

As DocumentsUI's ``CreateDirectoryFragment`` (title ``menu_create_dir``, an EditText
``android:id/text1`` hinted ``input_hint_new_folder``, OK/Cancel; an empty name is refused with
``add_folder_name_error``; the folder made is opened, a taken name gets `` (1)`` as
``FileUtils.buildUniqueFile`` gives it), ``RenameDocumentFragment`` (the name prefilled with all
but its extension selected; an unchanged name closes it, an empty one is refused with
``missing_rename_error``, a taken one with ``name_conflict``) and ``DeleteDocumentFragment`` (the
message of ``Messages.generateDeleteMessage``, OK/Cancel). A refused name keeps the dialog up
with the error under the field (``TextInputLayout.setError``).
"""

from __future__ import annotations

import posixpath

from androidrl.virtual.apps.files import documents as docs
from androidrl.virtual.apps.files.browser import RID
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import LinearLayout, TextView, View

TAG = "DocumentsUI"
ERROR_RED = (179, 38, 30)


class FileDialogs(Activity):
    """The dialogs of the Files activity (a base class: it keeps their field, target and error)."""

    def init_dialogs(self) -> None:
        self.field = TextState()
        self.field_focused = False
        self.field_error = ""
        self.renaming = ""  # the path being renamed

    # ------------------------------------------------------------------ the name field

    def name_field(self) -> View:
        """The dialog's ``dialog_file_name.xml``: ``input_wrapper`` around ``android:id/text1``, the error under it."""
        hint = self.string("input_hint_rename" if self.renaming else "input_hint_new_folder")
        children: list[View] = [
            edit_text(
                self,
                self.field,
                self.field_focused,
                self.focus_field,
                hint=hint,
                resource_id="android:id/text1",
                on_action=self.submit_name,
            )
        ]
        if self.field_error:
            children.append(
                TextView(
                    self.field_error, resource_id=RID + "textinput_error", text_size=12, text_color=ERROR_RED, height=20
                )
            )
        return LinearLayout(children, resource_id=RID + "input_wrapper")

    def focus_field(self) -> None:
        self.field_focused = True

    def _ask(self, title: str) -> None:
        self.field_focused = True  # (the dialog's field has focus at once: typing goes there)
        self.show(
            AlertDialog(
                self.string(title),
                view=self.name_field,
                positive=(framework_string("ok"), self.submit_name),
                negative=(framework_string("cancel"), None),
                on_dismiss=self.close_name_dialog,
            )
        )

    def close_name_dialog(self) -> None:
        self.field_focused, self.field_error, self.renaming = False, "", ""

    def submit_name(self) -> None:
        """OK (or the keyboard's Done): make or rename; a refused name shows the dialog again with its error."""
        renaming = self.renaming
        error = self.rename_to(self.field.text) if renaming else self.make_folder(self.field.text)
        for window in list(self.windows):
            window.dismiss()
        self.close_name_dialog()
        if error:
            self.field_error, self.renaming = self.string(error), renaming
            self._ask("menu_rename" if renaming else "menu_create_dir")

    # ------------------------------------------------------------------ New folder

    def ask_folder_name(self) -> None:
        self.field.set("")
        self.field_error, self.renaming = "", ""
        self._ask("menu_create_dir")

    def make_folder(self, name: str) -> str:
        """Make folder ``name`` in the open folder and open it; the error's string key, or ""."""
        if not name:
            return "add_folder_name_error"
        folder = self.stack[-1].path
        try:
            path = posixpath.join(folder, docs.unique_name(self.context.storage, folder, name))
            self.context.storage.mkdir(path)
        except (OSError, ValueError):
            self.show_snackbar(self.string("create_error"), long=True)
            return ""
        self.log(TAG, f"created folder {path}")
        self.stack.append(docs.Document(path, posixpath.basename(path), True, path=path))
        return ""

    # ------------------------------------------------------------------ Rename

    def ask_new_name(self) -> None:
        picked = self.selection(self.documents())
        if len(picked) != 1 or not picked[0].path:
            return
        doc = picked[0]
        dot = doc.name.rfind(".")
        self.field.set(doc.name)
        self.field.start, self.field.end = 0, (len(doc.name) if dot <= 0 or doc.is_dir else dot)
        self.field_error, self.renaming = "", doc.path
        self._ask("menu_rename")

    def rename_to(self, name: str) -> str:
        """Rename the document being renamed to ``name``; the error's string key, or ""."""
        path = self.renaming
        folder, old = posixpath.split(path)
        if name == old:
            return ""
        if not name:
            return "missing_rename_error"
        if "/" in name or self.context.storage.exists(posixpath.join(folder, name)):
            return "name_conflict"
        target = posixpath.join(folder, name)
        try:
            self.context.storage.rename(path, target)
        except OSError:
            self.show_snackbar(self.string("rename_error"), long=True)
            return ""
        self.log(TAG, f"renamed {path} to {target}")
        self.selected = []
        return ""

    # ------------------------------------------------------------------ Delete

    def confirm_delete(self) -> None:
        picked = self.selection(self.documents())
        if not picked:
            return
        self.show(
            AlertDialog(
                message=self.delete_message(picked),
                positive=(framework_string("ok"), self.delete_selected),
                negative=(framework_string("cancel"), None),
            )
        )

    def delete_message(self, picked: list) -> str:
        """``Messages.generateDeleteMessage``: by name for one, else counted as files, folders or items."""
        count = len(picked)
        folders = sum(1 for d in picked if d.is_dir)
        if count == 1:
            key = "delete_foldername_confirmation_message" if folders else "delete_filename_confirmation_message"
            return self.string(key, picked[0].name)
        kind = "folders" if folders == count else "files" if folders == 0 else "items"
        return self.string(f"delete_{kind}_confirmation_message_other", count)

    def delete_selected(self) -> None:
        for doc in self.selection(self.documents()):
            try:
                if doc.path:
                    self.context.storage.delete(doc.path)
                elif doc.media_id:
                    self.context.content.delete(f"{docs.MEDIA_FILES}/{doc.media_id}")
            except OSError:
                continue
            self.log(TAG, f"deleted {doc.path or doc.uri}")
        self.selected = []

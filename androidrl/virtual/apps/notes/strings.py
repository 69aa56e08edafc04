"""The Notes app's strings, English and German (its ``res/values`` and ``res/values-de``)."""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "": {
        "app_name": "Notes",
        "quick_hint": "Write a note",
        "save": "Save",
        "saved_count": "{0} saved",
        "new_note": "New note",
        "edit_note": "Edit note",
        "title_hint": "Title",
        "body_hint": "Note",
        "delete": "Delete",
        "copy": "Copy",
        "paste": "Paste",
        "done": "Done",
        "selected": "{0} selected",
        "delete_one": "Delete this note?",
        "delete_other": "Delete {0} notes?",
        "cancel": "Cancel",
        "empty": "No notes yet",
    },
    "de": {
        "app_name": "Notizen",
        "quick_hint": "Notiz schreiben",
        "save": "Speichern",
        "saved_count": "{0} gespeichert",
        "new_note": "Neue Notiz",
        "edit_note": "Notiz bearbeiten",
        "title_hint": "Titel",
        "body_hint": "Notiz",
        "delete": "Löschen",
        "copy": "Kopieren",
        "paste": "Einfügen",
        "done": "Fertig",
        "selected": "{0} ausgewählt",
        "delete_one": "Diese Notiz löschen?",
        "delete_other": "{0} Notizen löschen?",
        "cancel": "Abbrechen",
        "empty": "Noch keine Notizen",
    },
}

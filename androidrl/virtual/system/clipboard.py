"""The clipboard service (``ClipboardManager``): the primary clip, as plain text.

Apps reach it through their ``Context`` (the text toolbar's Cut, Copy and Paste do). Android
14's ClipboardService has no ``dumpsys`` section and no shell command, so the shell cannot read
it either: a task sees a copy by pasting it somewhere it can read.
"""

from __future__ import annotations


class Clipboard:
    """The primary clip of the phone's one user."""

    def __init__(self) -> None:
        self.text = ""

    def get_text(self) -> str:
        """The primary clip's text ("" when empty)."""
        return self.text

    def set_text(self, text: str) -> None:
        """Replace the primary clip (``setPrimaryClip(ClipData.newPlainText(...))``)."""
        self.text = str(text)

    def has_text(self) -> bool:
        """Whether the clip holds text (``hasPrimaryClip``)."""
        return bool(self.text)

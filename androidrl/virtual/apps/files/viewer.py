"""``com.android.htmlviewer/.HTMLViewerActivity``: the stock viewer of text files (``VIEW`` of ``text/*``).

AOSP's HTMLViewer (packages/apps/HTMLViewer ``AndroidManifest.xml``: ``VIEW`` of ``file:`` and
``content:`` data typed ``text/*``) shows the file in a WebView titled with its name. Here the
WebView holds one text node per line of the file, so the UI dump reads it as a page's text. The
file is found from a ``file:///sdcard/...`` URI, an ExternalStorageProvider document URI or a
MediaStore row's URI; one it cannot read shows "Webpage not available".
"""

from __future__ import annotations

import posixpath

from androidrl.virtual.apps.files.documents import MEDIA_AUTHORITY, path_of_uri
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.content import ProviderError
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import TEXT_SECONDARY, LinearLayout, ScrollingList, TextView, View
from androidrl.virtual.ui.widgets import app_bar

PACKAGE = "com.android.htmlviewer"
VIEWER = f"{PACKAGE}.HTMLViewerActivity"
#: The most of a file the viewer reads, and of its lines it lays out (a WebView would page the rest in).
MAX_BYTES = 256 << 10
MAX_LINES = 500


def file_of(context, uri: str) -> str | None:
    """The ``/sdcard`` path a ``file:``, ExternalStorageProvider or MediaStore URI names, or None."""
    path = path_of_uri(uri)
    if path is not None:
        return path
    if uri.startswith(f"content://{MEDIA_AUTHORITY}/document/"):  # image%3A12 -> content://media/.../12
        uri = "content://media/external/file/" + uri.rsplit("%3A", 1)[-1].rsplit(":", 1)[-1]
    if uri.startswith("content://media/"):
        try:
            rows = context.content.query(uri, ["_data"])
        except ProviderError:
            return None
        if rows and rows[0]["_data"]:
            return context.storage.path(str(rows[0]["_data"]))
    return None


class HTMLViewerActivity(Activity):
    """The text of the file the intent's data names, a line a row."""

    def on_create(self) -> None:
        self.scroll = ScrollState()
        self.path = file_of(self.context, self.intent.data or "") or ""
        self.log("HTMLViewer", f"view {self.intent.data}")

    @property
    def title(self) -> str:
        return posixpath.basename(self.path) if self.path else self.string("htmlviewer_label")

    def build(self) -> View:
        storage = self.context.storage
        try:
            text = storage.read(self.path)[:MAX_BYTES].decode("utf-8", "replace") if self.path else None
        except OSError:
            text = None
        if text is None:
            rows: list[View] = [TextView("Webpage not available", text_color=TEXT_SECONDARY, padding=16, height=56)]
        else:
            rows = [TextView(line, text_size=14, padding=8, height=24) for line in text.splitlines()[:MAX_LINES]]
        page = ScrollingList(rows, state=self.scroll, cls="android.webkit.WebView", resource_id="", weight=1)
        return LinearLayout([app_bar(self.title, on_up=self.finish), page], height=-1)

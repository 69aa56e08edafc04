"""The manifests of ``com.android.documentsui`` (Files) and ``com.android.htmlviewer`` (its text viewer).

From packages/apps/DocumentsUI ``AndroidManifest.xml``: ``.files.FilesActivity`` (the launcher's
``.LauncherActivity`` trampolines to it, so it is what a tap on the icon shows; ``VIEW`` of a
``vnd.android.document/root`` or ``/directory`` opens a folder), the ``.ViewDownloadsActivity``
alias answering ``android.intent.action.VIEW_DOWNLOADS``, and ``.picker.PickActivity`` (here
only as Copy to…/Move to… open it). HTMLViewer answers ``VIEW`` of ``file:``/``content:`` data
typed ``text/*`` (packages/apps/HTMLViewer ``AndroidManifest.xml``).
"""

from __future__ import annotations

from androidrl.virtual.apps.files.activity import ACTION_VIEW_DOWNLOADS, FILES, PACKAGE, PICKER, FilesActivity
from androidrl.virtual.apps.files.picker import PickActivity
from androidrl.virtual.apps.files.strings import STRINGS
from androidrl.virtual.apps.files.viewer import PACKAGE as VIEWER_PACKAGE
from androidrl.virtual.apps.files.viewer import VIEWER, HTMLViewerActivity
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import ACTION_VIEW, IntentFilter

VIEW_DOWNLOADS = f"{PACKAGE}.ViewDownloadsActivity"
#: The launcher's alias (it only starts FilesActivity; ``am start -n`` of it shows the Files screen).
LAUNCHER = f"{PACKAGE}.LauncherActivity"


def files_app() -> App:
    """The Files app (DocumentsUI)."""
    return App(
        PACKAGE,
        "Files",
        "F",
        (26, 115, 232),
        {FILES: FilesActivity, VIEW_DOWNLOADS: FilesActivity, LAUNCHER: FilesActivity, PICKER: PickActivity},
        FILES,
        filters=(
            IntentFilter(VIEW_DOWNLOADS, (ACTION_VIEW_DOWNLOADS,)),
            IntentFilter(FILES, (ACTION_VIEW,), mime_types=("vnd.android.document/root",)),
            IntentFilter(FILES, (ACTION_VIEW,), mime_types=("vnd.android.document/directory",)),
        ),
        strings=STRINGS,
    )


def htmlviewer_app() -> App:
    """HTML Viewer: no launcher icon; it views the text files Files (or ``am start``) hands it."""
    view = IntentFilter(
        VIEWER,
        (ACTION_VIEW,),
        schemes=("file", "content"),
        mime_types=("text/*", "application/xhtml+xml", "application/vnd.wap.xhtml+xml"),
    )
    return App(
        VIEWER_PACKAGE,
        "HTML Viewer",
        "H",
        (95, 99, 104),
        {VIEWER: HTMLViewerActivity},
        None,
        filters=(view,),
        strings=STRINGS,
    )

"""``com.android.documentsui.files.FilesActivity``: browse the roots, select, delete, rename, move, copy, share.

As DocumentsUI's ``files/FilesActivity``, ``files/ActionHandler`` and ``files/MenuManager``: the
launcher opens the default root (Downloads, ``config.xml``'s ``default_root_uri``); the
navigation button opens the roots drawer; a tap opens a folder (or the file, through an
``ACTION_VIEW`` of its document URI and type, ``toast_no_application`` when nothing opens it);
a long press or a tap on an icon starts a selection, whose action mode offers Share, Delete
and, in its overflow, Select all, Copy to…, Move to… and Rename; the toolbar's overflow offers
New folder (which opens the folder made), Sort by..., Grid/List view and Select all. BACK closes
the drawer, then the selection, then goes up a folder. Every change is logged under
``DocumentsUI`` and made in ``/sdcard`` itself (:mod:`androidrl.virtual.system.framework.storage`).
"""

from __future__ import annotations

import posixpath
from functools import partial

from androidrl.virtual.apps.files import browser as ui
from androidrl.virtual.apps.files import documents as docs
from androidrl.virtual.apps.files.dialogs import FileDialogs
from androidrl.virtual.apps.files.documents import Document
from androidrl.virtual.system.framework.formatter import format_file_size, format_time
from androidrl.virtual.system.framework.intent import ACTION_SEND, ACTION_VIEW, Intent
from androidrl.virtual.ui.dialogs import AlertDialog, overflow_menu
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import FrameLayout, LinearLayout, ScrollingList, View

PACKAGE = ui.PACKAGE
FILES = f"{PACKAGE}.files.FilesActivity"
PICKER = f"{PACKAGE}.picker.PickActivity"
ACTION_VIEW_DOWNLOADS = "android.intent.action.VIEW_DOWNLOADS"
TAG = "DocumentsUI"
#: Each root's drawer glyph and tint (ic_root_* drawables).
ROOT_ICONS = {
    docs.RECENT: ("R", (95, 99, 104)),
    docs.IMAGES: ("I", (234, 67, 53)),
    docs.VIDEOS: ("V", (234, 67, 53)),
    docs.AUDIO: ("A", (251, 140, 0)),
    docs.DOWNLOADS: ("D", (26, 115, 232)),
    docs.DEVICE: ("P", (95, 99, 104)),
}
ROOT_TITLES = {
    docs.RECENT: "root_recent",
    docs.IMAGES: "root_images",
    docs.VIDEOS: "root_videos",
    docs.AUDIO: "root_audio",
    docs.DOWNLOADS: "downloads_label",
}
MAX_THUMB = 4 << 20  # (bigger images show their type's icon instead of being decoded)


class FilesActivity(FileDialogs):
    """The Files app's one screen, its state the root, the folders opened in it and the selection."""

    def on_create(self) -> None:
        self.drawer = False
        self.selected: list[str] = []  # document ids, in the order they were picked
        self.modes: dict[str, str] = {}  # root -> "grid" | "list", once the user chose
        self.sorts: dict[str, str] = {}  # root -> a key of documents.SORTS, once the user chose
        self.hidden = False
        self.scroll = ScrollState()
        self.init_dialogs()
        self.root, self.stack = docs.DOWNLOADS, []
        self.open_root(docs.DOWNLOADS)
        path = docs.path_of_uri(self.intent.data or "") if self.intent.action == ACTION_VIEW else None
        if self.intent.action != ACTION_VIEW_DOWNLOADS and path and self.storage.is_dir(path):
            self.open_path(path)

    # ------------------------------------------------------------------ state read fresh each frame

    @property
    def storage(self):
        return self.context.storage

    @property
    def title(self) -> str:  # (the window's)
        return self.root_title(self.root) if len(self.stack) <= 1 else self.stack[-1].name

    def root_title(self, root: str) -> str:
        if root == docs.DEVICE:  # as DocumentsUI's Shared.getDeviceName: the device's name
            rows = self.context.content.query("content://settings/global/device_name", ["value"])
            return str(rows[0]["value"]) if rows and rows[0]["value"] else self.context.getprop("ro.product.model")
        return self.string(ROOT_TITLES[root])

    @property
    def sort(self) -> str:
        return self.sorts.get(self.root, "date_desc" if self.root == docs.RECENT else "name_asc")

    @property
    def grid(self) -> bool:
        return self.modes.get(self.root, "grid" if self.root in docs.GRID_ROOTS else "list") == "grid"

    @property
    def writable(self) -> bool:
        """Whether the open folder takes new folders and moves (a folder of ``/sdcard``)."""
        return self.root in docs.WRITABLE_ROOTS and bool(self.stack[-1].path)

    def documents(self) -> list[Document]:
        """The open folder's documents, sorted (folders first)."""
        found = docs.children(self.storage, self.context.content, self.root, self.stack[-1], self.hidden)
        return docs.sort_documents(found, self.sort)

    def selection(self, shown: list[Document]) -> list[Document]:
        """The selected documents still in the folder, in the order they were picked."""
        by_id = {d.doc_id: d for d in shown}
        return [by_id[i] for i in self.selected if i in by_id]

    # ------------------------------------------------------------------ the screen

    def build(self) -> View:
        shown = self.documents()
        picked = self.selection(shown)
        bar = self.action_mode(picked, shown) if picked else self.toolbar()
        children: list[View] = [bar]
        if self.root != docs.RECENT:
            crumbs = [self.root_title(self.root)] + [d.name for d in self.stack[1:]]
            children.append(ui.breadcrumb(crumbs, self.go_to_crumb))
        children.append(ui.divider())
        children.append(self.dir_list(shown, {d.doc_id for d in picked}))
        main = LinearLayout(children, height=-1)
        if not self.drawer:
            return main
        return FrameLayout([main, *self.roots_drawer()], resource_id=ui.RID + "drawer_layout")

    def toolbar(self) -> View:
        s = self.string
        keys = (["menu_create_dir"] if self.writable else []) + [
            "menu_sort",
            "menu_list" if self.grid else "menu_grid",
            "menu_select_all",
        ]
        if self.root == docs.DEVICE:
            keys.append("menu_hide_hidden_files" if self.hidden else "menu_show_hidden_files")
        return ui.toolbar(
            [
                ui.icon_button("=", s("drawer_open"), self.open_drawer),
                ui.title_view(self.title),
                overflow_menu(self, [s(k) for k in keys], partial(self.on_menu, tuple(keys))),
            ]
        )

    def action_mode(self, picked: list[Document], shown: list[Document]) -> View:
        s = self.string
        count = len(picked)
        keys = ["menu_select_all"] if count < len(shown) else []
        if self.root in docs.WRITABLE_ROOTS or not any(d.is_dir for d in picked):
            keys += ["menu_copy", "menu_move"] if all(d.path for d in picked) else []
        if count == 1 and picked[0].path and self.root in docs.WRITABLE_ROOTS:
            keys.append("menu_rename")
        children = [
            ui.icon_button("x", s("action_mode_done"), self.clear_selection, "android:id/action_mode_close_button"),
            ui.title_view(s("elements_selected_" + ("one" if count == 1 else "other"), count), selection=True),
        ]
        if not any(d.is_dir for d in picked):
            children.append(ui.icon_button("S", s("menu_share"), self.share, ui.RID + "action_menu_share"))
        children.append(ui.icon_button("D", s("menu_delete"), self.confirm_delete, ui.RID + "action_menu_delete"))
        if keys:
            children.append(overflow_menu(self, [s(k) for k in keys], partial(self.on_menu, tuple(keys))))
        return ui.toolbar(children, selection=True)

    def dir_list(self, shown: list[Document], picked: set[str]) -> View:
        now = self.context.local_time()
        locale, is24 = self.context.locale(), self.context.is_24_hour()
        selecting, grid = bool(picked), self.grid
        labels: dict[str, str] = {}  # MIME type -> its label (each looked up once a frame)
        rows: list[View] = []
        cells: list[View] = []
        for doc in shown:
            selected = doc.doc_id in picked
            thumb = self.thumbnail(doc)
            tap = partial(self.toggle, doc.doc_id) if selecting else partial(self.open, doc)
            long_tap = partial(self.toggle, doc.doc_id) if doc.path or doc.media_id else None
            when = size = ""
            if not doc.is_dir:  # (a folder shows no details)
                when = format_time(self.context.local_time(doc.modified), now, locale, is24) if doc.modified else ""
                size = format_file_size(doc.size, locale)
            if grid:
                cells.append(ui.grid_cell(doc, size, when, selected, thumb, tap, long_tap))
                continue
            if doc.mime not in labels:
                labels[doc.mime] = docs.type_label(doc.mime, self.string)
            metadata = ", ".join(x for x in (when, size, labels[doc.mime]) if x)
            icon_tap = partial(self.toggle, doc.doc_id) if long_tap else tap
            rows.append(ui.list_item(doc, metadata, selected, thumb, tap, long_tap, icon_tap))
        if grid:
            folders = [c for c, d in zip(cells, shown) if d.is_dir]
            rows = ui.grid_rows(folders) + ui.grid_rows(cells[len(folders) :])
        if not shown:
            rows = [ui.empty_view(self.string("empty"))]
        return ScrollingList(rows, state=self.scroll, resource_id=ui.RID + "dir_list", weight=1)

    def thumbnail(self, doc: Document) -> bytes | None:
        if doc.is_dir or not doc.mime.startswith("image/") or not doc.path or doc.size > MAX_THUMB:
            return None
        return self.storage.read(doc.path)

    def roots_drawer(self) -> list[View]:
        items = []
        for root in docs.ROOTS:
            summary = ""
            if root == docs.DEVICE:
                free = format_file_size(self.storage.free_bytes(), self.context.locale())
                summary = self.string("root_available_bytes", free)
            glyph, color = ROOT_ICONS[root]
            items.append(
                ui.root_item(
                    self.root_title(root), summary, glyph, color, root == self.root, partial(self.pick_root, root)
                )
            )
        return ui.drawer(self.string("files_label"), items, self.close_drawer, self.string("drawer_close"))

    # ------------------------------------------------------------------ navigation

    def open_root(self, root: str) -> None:
        self.root = root
        self.stack = [docs.root_document(root, self.root_title(root))]
        self.selected = []
        self.scroll.scroll_to(0)

    def open_path(self, path: str) -> None:
        """Open folder ``path`` of ``/sdcard``: in Downloads if it is under it, else in the device root."""
        downloads = self.storage.ROOT + "/Download"
        root = docs.DOWNLOADS if path == downloads or path.startswith(downloads + "/") else docs.DEVICE
        self.open_root(root)
        top = self.stack[0].path
        for part in [p for p in path[len(top) :].split("/") if p]:
            folder = posixpath.join(self.stack[-1].path, part)
            self.stack.append(Document(folder, part, True, path=folder))

    def pick_root(self, root: str) -> None:
        self.open_root(root)
        self.drawer = False
        self.log(TAG, f"root {root}")

    def open(self, doc: Document) -> None:
        """A tap on a document: a folder opens, a file is viewed by the app that views its type."""
        if doc.is_dir:
            self.stack.append(doc)
            self.scroll.scroll_to(0)
            return
        intent = Intent(ACTION_VIEW, data=doc.uri, type=doc.mime, flags=0x10000001)  # NEW_TASK | GRANT_READ
        if self.context.start_activity(intent) == "not-found":
            self.toast(self.string("toast_no_application"))
            return
        self.log(TAG, f"view {doc.path or doc.uri} as {doc.mime}")

    def go_to_crumb(self, index: int) -> None:
        if index < len(self.stack) - 1:
            del self.stack[index + 1 :]
            self.selected = []
            self.scroll.scroll_to(0)

    def open_drawer(self) -> None:
        self.drawer = True

    def close_drawer(self) -> None:
        self.drawer = False

    def on_back(self) -> bool:
        if self.drawer:
            self.drawer = False
        elif self.selected:
            self.selected = []
        elif len(self.stack) > 1:
            self.stack.pop()
            self.scroll.scroll_to(0)
        else:
            return False
        return True

    # ------------------------------------------------------------------ selection and menus

    def toggle(self, doc_id: str) -> None:
        if doc_id in self.selected:
            self.selected.remove(doc_id)
        else:
            self.selected.append(doc_id)

    def clear_selection(self) -> None:
        self.selected = []

    def on_menu(self, keys: tuple[str, ...], index: int) -> None:
        key = keys[index]
        if key == "menu_create_dir":
            self.ask_folder_name()
        elif key == "menu_sort":
            self.ask_sort()
        elif key in ("menu_grid", "menu_list"):
            self.modes[self.root] = "grid" if key == "menu_grid" else "list"
        elif key == "menu_select_all":
            self.selected = [d.doc_id for d in self.documents() if d.path or d.media_id]
        elif key in ("menu_show_hidden_files", "menu_hide_hidden_files"):
            self.hidden = key == "menu_show_hidden_files"
        elif key in ("menu_copy", "menu_move"):
            self.pick_destination("copy" if key == "menu_copy" else "move")
        elif key == "menu_rename":
            self.ask_new_name()

    def ask_sort(self) -> None:
        orders = list(docs.SORTS)
        labels = [
            self.string(f"sort_dimension_{o.split('_')[0]}_{'ascending' if o.endswith('asc') else 'descending'}")
            for o in orders
        ]
        self.show(
            AlertDialog(
                self.string("sort_dimension_dialog_title"),
                items=labels,
                checked=orders.index(self.sort),
                on_item=self.set_sort,
            )
        )

    def set_sort(self, index: int) -> None:
        self.sorts[self.root] = list(docs.SORTS)[index]
        for window in self.windows:
            window.dismiss()  # (a tap on an option closes the sheet)
        self.log(TAG, f"sort {self.sorts[self.root]}")

    def share(self) -> None:
        picked = self.selection(self.documents())
        mimes = {d.mime for d in picked}
        mime = mimes.pop() if len(mimes) == 1 else "*/*"
        action = ACTION_SEND if len(picked) == 1 else "android.intent.action.SEND_MULTIPLE"
        uris = [d.uri for d in picked]
        extras = {"android.intent.extra.STREAM": uris[0] if len(uris) == 1 else uris}
        if self.context.start_activity(Intent(action, type=mime, extras=extras, flags=0x10000001)) == "not-found":
            self.toast(self.string("toast_no_application"))

    def pick_destination(self, operation: str) -> None:
        """Copy to…/Move to…: the picker opens at this folder, and does the copy or move itself."""
        picked = [d.path for d in self.selection(self.documents()) if d.path]
        start = self.stack[-1].path if self.writable else posixpath.dirname(picked[0])
        self.selected = []
        self.start(PICKER, operation=operation, sources=picked, start=start)

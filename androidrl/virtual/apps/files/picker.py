"""``com.android.documentsui.picker.PickActivity`` as "Copy to…"/"Move to…" opens it: pick a folder.

As DocumentsUI's picker in ``ACTION_PICK_COPY_DESTINATION`` mode (``picker/PickActivity``,
``PickFragment``, ``fragment_pick.xml``): it opens at the folder the files are in, shows the
folders (files greyed out) with the breadcrumb above them, and its bar holds Cancel
(``android:id/button2``) and Copy or Move (``android:id/button1``, ``button_copy``/``button_move``);
a folder cannot be moved or copied into itself. The copy or move is done here (DocumentsUI hands
it to its FileOperationService), a taken name getting `` (1)`` as ``FileUtils.buildUniqueFile``
gives it; then the picker closes. Logged under ``DocumentsUI``.
"""

from __future__ import annotations

import posixpath
from functools import partial

from androidrl.virtual.apps.files import browser as ui
from androidrl.virtual.apps.files import documents as docs
from androidrl.virtual.apps.files.documents import Document
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui.dialogs import text_button
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import LinearLayout, ScrollingList, View

TAG = "DocumentsUI"


class PickActivity(Activity):
    """Browse ``/sdcard``'s folders and copy or move the files the intent names into the one open."""

    def on_create(self) -> None:
        extras = self.intent.extras
        self.operation = "copy" if extras.get("operation") == "copy" else "move"
        sources = extras.get("sources") or []
        self.sources = [str(s) for s in (sources if isinstance(sources, list) else [sources])]
        self.scroll = ScrollState()
        storage = self.context.storage
        start = str(extras.get("start") or storage.ROOT)
        if not storage.exists(start) or not storage.is_dir(start):
            start = storage.ROOT
        self.stack = [Document(storage.ROOT, self.device_name(), True, path=storage.ROOT)]
        for part in [p for p in start[len(storage.ROOT) :].split("/") if p]:
            folder = posixpath.join(self.stack[-1].path, part)
            self.stack.append(Document(folder, part, True, path=folder))

    @property
    def title(self) -> str:
        return self.stack[-1].name

    def device_name(self) -> str:
        rows = self.context.content.query("content://settings/global/device_name", ["value"])
        return str(rows[0]["value"]) if rows and rows[0]["value"] else self.context.getprop("ro.product.model")

    def allowed(self) -> bool:
        """Whether the open folder may take the files (not one of the folders moved, nor inside one)."""
        here = self.stack[-1].path
        return not any(here == s or here.startswith(s + "/") for s in self.sources)

    def build(self) -> View:
        s = self.string
        folder = self.stack[-1]
        shown = docs.sort_documents(
            docs.children(self.context.storage, self.context.content, docs.DEVICE, folder), "name_asc"
        )
        rows: list[View] = []
        for doc in shown:
            enabled = doc.is_dir and doc.path not in self.sources
            rows.append(
                ui.list_item(
                    doc,
                    docs.type_label(doc.mime, s),
                    False,
                    None,
                    partial(self.open, doc),
                    None,
                    partial(self.open, doc),
                    enabled=enabled,
                )
            )
        if not shown:
            rows = [ui.empty_view(s("empty"))]
        label = s("button_copy" if self.operation == "copy" else "button_move")
        pick = text_button(label, "android:id/button1", self.pick)
        pick.enabled = self.allowed()
        bar = LinearLayout(
            [
                View(width=-1, height=0, weight=1),
                text_button(s("button_cancel"), "android:id/button2", self.finish),
                pick,
            ],
            resource_id=ui.RID + "container_save",
            vertical=False,
            height=64,
            padding=12,
        )
        crumbs = [d.name for d in self.stack]
        return LinearLayout(
            [
                ui.toolbar([ui.icon_button("<", s("button_back"), self.up), ui.title_view(self.title)]),
                ui.breadcrumb(crumbs, self.go_to_crumb),
                ui.divider(),
                ScrollingList(rows, state=self.scroll, resource_id=ui.RID + "dir_list", weight=1),
                ui.divider(),
                bar,
            ],
            height=-1,
        )

    def open(self, doc: Document) -> None:
        if doc.is_dir and doc.path not in self.sources:
            self.stack.append(doc)
            self.scroll.scroll_to(0)

    def go_to_crumb(self, index: int) -> None:
        del self.stack[index + 1 :]
        self.scroll.scroll_to(0)

    def up(self) -> None:
        if not self.on_back():
            self.finish()

    def on_back(self) -> bool:
        if len(self.stack) > 1:
            self.stack.pop()
            self.scroll.scroll_to(0)
            return True
        return False

    def pick(self) -> None:
        """Copy or move every source into the open folder, then close."""
        if not self.allowed():
            return
        storage, here = self.context.storage, self.stack[-1].path
        for source in self.sources:
            if not storage.exists(source):
                continue
            if self.operation == "move" and posixpath.dirname(source) == here:
                continue  # (already there)
            target = posixpath.join(here, docs.unique_name(storage, here, posixpath.basename(source)))
            try:
                if self.operation == "copy":
                    storage.copy(source, target)
                else:
                    storage.rename(source, target)
            except OSError as err:
                self.log(TAG, f"failed to {self.operation} {source} to {target}: {err.strerror}")
                continue
            self.log(TAG, f"{'copied' if self.operation == 'copy' else 'moved'} {source} to {target}")
        self.finish()

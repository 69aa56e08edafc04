"""The views DocumentsUI's screens are built of: toolbar, breadcrumb, document rows and grid cells, roots.

Layouts and ids from packages/apps/DocumentsUI res/layout: ``drawer_layout.xml`` (``toolbar``,
``drawer_roots``, ``roots_toolbar``), ``fragment_roots.xml`` and ``item_root.xml`` (``roots_list``;
``android:id/icon``, ``title``, ``summary``), ``directory_header.xml`` (``horizontal_breadcrumb``),
``navigation_breadcrumb_item.xml`` (``breadcrumb_text``, ``breadcrumb_arrow``),
``fragment_directory.xml`` (``dir_list``), ``item_doc_list.xml`` (``item_root``, ``icon``,
``icon_mime``, ``icon_thumb``, ``icon_check``, ``android:id/title``, ``metadata``),
``item_doc_grid.xml``/``item_dir_grid.xml`` (``thumbnail``, ``icon_mime_lg``, ``icon_mime_sm``,
``nameplate``, ``details``, ``date``) and the framework's action mode bar
(``action_mode_close_button``, ``action_bar_title``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from androidrl.virtual.apps.files.documents import Document
from androidrl.virtual.ui.image import BitmapView
from androidrl.virtual.ui.views import (
    DIVIDER,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    FrameLayout,
    ImageView,
    LinearLayout,
    TextView,
    View,
)

PACKAGE = "com.android.documentsui"
RID = f"{PACKAGE}:id/"
#: A selected item's tint (DocumentsUI's ``item_doc_background_selected``).
SELECTED = (232, 240, 254)
#: Icon colours by the MIME type's top level (the tint of MimeIconUtils' ``ic_doc_*``).
ICON_COLORS = {
    "dir": (95, 99, 104),
    "image": (234, 67, 53),
    "video": (234, 67, 53),
    "audio": (251, 140, 0),
    "text": (66, 133, 244),
}


def width_of(text: str, size: float = 14) -> float:
    """About how many dp ``text`` takes at ``size`` sp (a wrap_content width)."""
    return len(text) * size * 0.55 + 8


def icon_button(glyph: str, desc: str, on_click: Callable[[], None], resource_id: str = "") -> View:
    """A toolbar's action (an ``ImageButton`` with a content description)."""
    return ImageView(
        glyph=glyph,
        color=WHITE,
        glyph_color=TEXT,
        content_desc=desc,
        resource_id=resource_id,
        clickable=True,
        focusable=True,
        width=48,
        height=48,
        on_click=on_click,
    )


def toolbar(children: list[View], selection: bool = False) -> View:
    """``androidx.appcompat.widget.Toolbar`` (``toolbar``); in selection mode the action mode bar over it."""
    return LinearLayout(
        children,
        cls="android.view.ViewGroup",
        resource_id="" if selection else RID + "toolbar",
        vertical=False,
        height=56,
        background=SELECTED if selection else SURFACE,
    )


def title_view(text: str, selection: bool = False) -> View:
    """The toolbar's title (a TextView without an id), or the action mode's (``action_bar_title``)."""
    return TextView(
        text,
        resource_id="android:id/action_bar_title" if selection else "",
        text_size=20,
        height=56,
        padding=8,
        weight=1,
        width=0,
    )


def breadcrumb(crumbs: Sequence[str], on_crumb: Callable[[int], None]) -> View:
    """``horizontal_breadcrumb``: the folders from the root down, each tappable, ``>`` between them."""
    items: list[View] = []
    for i, name in enumerate(crumbs):
        last = i == len(crumbs) - 1
        children: list[View] = [
            TextView(
                name,
                resource_id=RID + "breadcrumb_text",
                text_color=PRIMARY if last else TEXT_SECONDARY,
                bold=last,
                width=width_of(name),
                height=40,
            )
        ]
        if not last:
            children.append(
                ImageView(
                    glyph=">",
                    color=WHITE,
                    glyph_color=TEXT_SECONDARY,
                    resource_id=RID + "breadcrumb_arrow",
                    width=20,
                    height=20,
                )
            )
        items.append(
            LinearLayout(
                children,
                vertical=False,
                clickable=True,
                focusable=True,
                width=width_of(name) + (0 if last else 20),
                height=40,
                on_click=lambda i=i: on_crumb(i),
            )
        )
    return LinearLayout(
        items,
        cls="androidx.recyclerview.widget.RecyclerView",
        resource_id=RID + "horizontal_breadcrumb",
        vertical=False,
        height=40,
        padding=4,
    )


def _glyph(doc: Document) -> tuple[str, tuple[int, int, int]]:
    if doc.is_dir:
        return "F", ICON_COLORS["dir"]
    top = doc.mime.split("/")[0]
    return (top[:1].upper() or "?"), ICON_COLORS.get(top, (117, 117, 117))


def mime_icon(doc: Document, resource_id: str, size: float, thumb: bytes | None) -> View:
    """A document's icon: its thumbnail (``icon_thumb``) for an image, else its type's icon."""
    if thumb is not None:
        return BitmapView(thumb, resource_id=RID + "icon_thumb", width=size, height=size)
    glyph, color = _glyph(doc)
    return ImageView(glyph=glyph, color=color, resource_id=resource_id, width=size, height=size)


def check_icon(size: float) -> View:
    """``icon_check``: the tick an item in the selection shows over its icon."""
    return ImageView(glyph="v", color=PRIMARY, resource_id=RID + "icon_check", width=size, height=size)


def list_item(
    doc: Document,
    metadata: str,
    selected: bool,
    thumb: bytes | None,
    on_click: Callable[[], None],
    on_long_click: Callable[[], None] | None,
    on_icon: Callable[[], None],
    enabled: bool = True,
) -> View:
    """``item_doc_list.xml``: icon, title over metadata (none for a folder)."""
    icon = check_icon(40) if selected else mime_icon(doc, RID + "icon_mime", 40, thumb)
    texts: list[View] = [TextView(doc.name, resource_id="android:id/title", text_size=16, height=24)]
    if not doc.is_dir:
        texts.append(
            TextView(metadata, resource_id=RID + "metadata", text_size=12, text_color=TEXT_SECONDARY, height=20)
        )
    return LinearLayout(
        [
            FrameLayout([icon], resource_id=RID + "icon", width=56, height=40, clickable=enabled, on_click=on_icon),
            LinearLayout(texts, weight=1, width=0),
        ],
        resource_id=RID + "item_root",
        vertical=False,
        height=64,
        padding=8,
        clickable=True,
        long_clickable=on_long_click is not None,
        focusable=True,
        selected=selected,
        enabled=enabled,
        background=SELECTED if selected else None,
        on_click=on_click,
        on_long_click=on_long_click,
    )


def grid_cell(
    doc: Document,
    details: str,
    date: str,
    selected: bool,
    thumb: bytes | None,
    on_click: Callable[[], None],
    on_long_click: Callable[[], None] | None,
) -> View:
    """``item_doc_grid.xml`` (a file: thumbnail over its nameplate) or ``item_dir_grid.xml`` (a folder)."""
    flags = dict(
        resource_id=RID + "item_root",
        clickable=True,
        long_clickable=on_long_click is not None,
        focusable=True,
        selected=selected,
        background=SELECTED if selected else SURFACE,
        corner=8,
        on_click=on_click,
        on_long_click=on_long_click,
        weight=1,
        width=0,
    )
    small = check_icon(24) if selected else mime_icon(doc, RID + "icon_mime_sm", 24, None)
    title = TextView(doc.name, resource_id="android:id/title", text_size=14, height=22)
    if doc.is_dir:
        title.weight, title.width = 1, 0
        return LinearLayout(
            [FrameLayout([small], resource_id=RID + "icon", width=40, height=40), title],
            vertical=False,
            height=56,
            padding=8,
            **flags,
        )
    picture = mime_icon(doc, RID + "icon_mime_lg", -1, thumb)
    texts = LinearLayout(
        [
            title,
            TextView(details, resource_id=RID + "details", text_size=12, text_color=TEXT_SECONDARY, height=18),
            TextView(date, resource_id=RID + "date", text_size=12, text_color=TEXT_SECONDARY, height=18),
        ],
        weight=1,
        width=0,
    )
    nameplate = LinearLayout(
        [FrameLayout([small], resource_id=RID + "icon", width=32, height=32), texts],
        resource_id=RID + "nameplate",
        vertical=False,
        height=64,
        padding=4,
    )
    thumbnail = FrameLayout([picture], resource_id=RID + "thumbnail", height=112, background=WHITE)
    return LinearLayout([thumbnail, nameplate], height=180, **flags)


def grid_rows(cells: list[View], columns: int = 2) -> list[View]:
    """Cells in rows of ``columns`` (a GridLayoutManager's spans); a short last row keeps its cells' width."""
    rows = []
    for i in range(0, len(cells), columns):
        part = cells[i : i + columns]
        part += [View(width=0, weight=1, height=0) for _ in range(columns - len(part))]
        height = max(c.height for c in part)
        rows.append(LinearLayout(part, vertical=False, height=height + 8, padding=4))
    return rows


def root_item(title: str, summary: str, glyph: str, color, selected: bool, on_click: Callable[[], None]) -> View:
    """``item_root.xml``: a root of the drawer (``RootItemView``), highlighted when it is the current one."""
    texts: list[View] = [TextView(title, resource_id="android:id/title", text_size=14, bold=selected, height=22)]
    if summary:
        texts.append(
            TextView(summary, resource_id="android:id/summary", text_size=12, text_color=TEXT_SECONDARY, height=18)
        )
    return LinearLayout(
        [
            ImageView(glyph=glyph, color=color, resource_id="android:id/icon", width=48, height=24),
            LinearLayout(texts, weight=1, width=0),
        ],
        vertical=False,
        height=52,
        padding=6,
        clickable=True,
        focusable=True,
        selected=selected,
        background=SELECTED if selected else None,
        corner=26,
        on_click=on_click,
    )


class Scrim(View):
    """The drawer's scrim: the content behind it dimmed; a tap there closes the drawer."""

    def paint(self, scale: float) -> list[tuple]:
        return [("dim", self.bounds, 100)]


def drawer(title: str, roots: list[View], on_close: Callable[[], None], close_desc: str) -> list[View]:
    """``drawer_roots`` (``roots_toolbar`` over ``roots_list``) and the scrim beside it."""
    panel = LinearLayout(
        [
            TextView(title, resource_id=RID + "roots_toolbar", text_size=20, text_color=PRIMARY, height=56, padding=16),
            LinearLayout(roots, cls="android.widget.ListView", resource_id=RID + "roots_list", padding=4),
        ],
        resource_id=RID + "drawer_roots",
        width=256,
        height=-1,
        background=WHITE,
    )
    scrim = Scrim(content_desc=close_desc, clickable=True, on_click=on_close, height=-1)
    return [scrim, panel]


def empty_view(text: str) -> View:
    """The message an empty folder shows (``item_doc_inflated_message.xml``'s ``message``)."""
    return TextView(text, resource_id=RID + "message", text_color=TEXT_SECONDARY, gravity="center", height=120)


def divider() -> View:
    """A 1dp line between the header and the list."""
    return View(height=1, background=DIVIDER)

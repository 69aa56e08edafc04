"""Gallery's pages — the albums, an album's grid, a photo — read fresh from MediaStore each frame.

See :mod:`androidrl.virtual.apps.gallery.app` for what follows Gallery2 and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from urllib.parse import unquote

from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.content import ProviderError
from androidrl.virtual.system.framework.formatter import format_clock, format_date, format_file_size
from androidrl.virtual.system.framework.intent import ACTION_SEND, ACTION_VIEW, Intent
from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.dialogs import AlertDialog, overflow_menu
from androidrl.virtual.ui.image import BitmapView
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import (
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    FrameLayout,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)

PACKAGE = "com.android.gallery3d"
RID = f"{PACKAGE}:id/"
IMAGES = "content://media/external/images/media"
TAG = "Gallery2"
BLACK, BAR = (0, 0, 0), (32, 33, 36)
COLUMNS = [
    "_id",
    "_data",
    "_display_name",
    "title",
    "date_taken",
    "date_modified",
    "width",
    "height",
    "_size",
    "mime_type",
    "bucket_id",
    "bucket_display_name",
    "relative_path",
]
#: Buckets Gallery2 names itself (LocalAlbum.getLocalizedName), by relative path.
KNOWN_BUCKETS = {
    "DCIM/Camera/": "folder_camera",
    "Download/": "folder_download",
    "Pictures/Screenshots/": "folder_screenshot",
    "DCIM/Screenshots/": "folder_screenshot",
}
CAMERA_PATH = "DCIM/Camera/"
MAX_BYTES = 8 << 20  # (a bigger file shows as "no thumbnail")


@dataclass(frozen=True)
class Photo:
    """An image of MediaStore (``media_id`` 0: a file viewed that MediaStore does not know)."""

    media_id: int
    path: str
    name: str
    title: str
    taken: int
    width: int
    height: int
    size: int
    mime: str
    bucket: str
    bucket_name: str
    relative: str


class GalleryActivity(Activity):
    """Gallery's one activity; ``page`` says which of its pages shows."""

    def on_create(self) -> None:
        self.page = "albums"
        self.bucket = ""
        self.photo_id = 0
        self.index = 0  # where the photo was in its album (kept when it goes)
        self.single = ""  # a viewed file MediaStore does not know
        self.from_view = False  # opened by ACTION_VIEW: BACK from the photo goes back to the caller
        self.albums_scroll, self.grid_scroll = ScrollState(), ScrollState()
        if self.intent.action in (ACTION_VIEW, "android.provider.action.REVIEW") and self.intent.data:
            self.open_uri(self.intent.data)

    # ------------------------------------------------------------------ MediaStore

    def photos(self, bucket: str | None = None) -> list[Photo]:
        """The images (of one bucket), newest first, whose files are there."""
        where, args = ("bucket_id = ?", [bucket]) if bucket is not None else (None, [])
        try:
            rows = self.context.content.query(
                IMAGES, COLUMNS, where, args, "COALESCE(date_taken, date_modified * 1000) DESC, _id DESC"
            )
        except ProviderError:
            return []
        storage, found = self.context.storage, []
        for row in rows:
            try:
                path = storage.path(str(row["_data"]))
            except PermissionError:
                continue
            if not storage.exists(path):
                continue
            taken = row["date_taken"] or (row["date_modified"] or 0) * 1000
            found.append(
                Photo(
                    int(row["_id"]),
                    path,
                    str(row["_display_name"]),
                    str(row["title"] or ""),
                    int(taken),
                    int(row["width"] or 0),
                    int(row["height"] or 0),
                    int(row["_size"] or 0),
                    str(row["mime_type"] or "image/jpeg"),
                    str(row["bucket_id"]),
                    str(row["bucket_display_name"] or ""),
                    str(row["relative_path"] or ""),
                )
            )
        return found

    def albums(self) -> list[tuple[str, str, list[Photo]]]:
        """(bucket id, name, photos) of each album: the camera's first, then by their newest photo."""
        grouped: dict[str, list[Photo]] = {}
        for photo in self.photos():
            grouped.setdefault(photo.bucket, []).append(photo)
        albums = [(bucket, self.album_name(photos[0]), photos) for bucket, photos in grouped.items()]
        return sorted(albums, key=lambda a: a[2][0].relative != CAMERA_PATH)  # (stable: newest first otherwise)

    def album_name(self, photo: Photo) -> str:
        key = KNOWN_BUCKETS.get(photo.relative)
        return self.string(key) if key else photo.bucket_name

    def read(self, photo: Photo) -> bytes:
        return self.context.storage.read(photo.path) if photo.size <= MAX_BYTES else b""

    # ------------------------------------------------------------------ opening things

    def open_uri(self, uri: str) -> None:
        """``ACTION_VIEW``: the photo a MediaStore, media document, ``file:`` or storage URI names."""
        self.from_view = True
        media_id = 0
        if uri.startswith("content://media/"):
            tail = uri.rstrip("/").rsplit("/", 1)[-1]
            media_id = int(tail) if tail.isdigit() else 0
            if not media_id:  # (the collection itself: the albums)
                self.from_view = False
                return
        elif uri.startswith("content://com.android.providers.media.documents/"):
            tail = unquote(uri.rsplit("/", 1)[-1]).rsplit(":", 1)[-1]
            media_id = int(tail) if tail.isdigit() else 0
        else:
            path = _path_of(uri)
            if path:
                media_id = self.id_of(path)
                self.single = "" if media_id else path
        photo = next((p for p in self.photos() if p.media_id == media_id), None) if media_id else None
        if photo is not None:
            self.page, self.bucket, self.photo_id = "photo", photo.bucket, photo.media_id
        elif self.single:
            self.page = "photo"
        self.log(TAG, f"view {uri}")

    def id_of(self, path: str) -> int:
        storage = self.context.storage
        try:
            rows = self.context.content.query(IMAGES, ["_id"], "_data = ?", [storage.media_path(storage.path(path))])
        except (ProviderError, PermissionError):
            return 0
        return int(rows[0]["_id"]) if rows else 0

    def open_album(self, bucket: str) -> None:
        self.page, self.bucket = "album", bucket
        self.grid_scroll.scroll_to(0)

    def open_photo(self, photo: Photo, index: int) -> None:
        self.page, self.photo_id, self.index = "photo", photo.media_id, index
        self.log(TAG, f"photo {photo.path}")

    def on_back(self) -> bool:
        if self.page == "photo" and not self.from_view:
            self.page = "album"
        elif self.page == "album" or (self.page == "photo" and not self.photos(self.bucket)):
            self.page = "albums"
        else:
            return False
        return True

    def up(self) -> None:
        if not self.on_back():
            self.finish()

    # ------------------------------------------------------------------ the pages

    @property
    def title(self) -> str:
        return self.string("app_name")

    def build(self) -> View:
        if self.page == "photo":
            photo, photos = self.current()
            if photo is not None:
                return self.photo_page(photo, photos)
        if self.page in ("album", "photo"):
            photos = self.photos(self.bucket)
            if photos:
                return self.album_page(photos)
        return self.album_set_page()  # (an album whose last photo went shows the albums, as Gallery2 closes it)

    def bar(self, title: str, children: list[View], up: bool, dark: bool = False) -> View:
        items: list[View] = []
        if up:
            items.append(_button("<", framework_string("navigate_up"), self.up, dark=dark))
        items.append(
            TextView(
                title,
                resource_id="android:id/action_bar_title",
                text_size=20,
                height=56,
                padding=12,
                weight=1,
                width=0,
                text_color=WHITE if dark else TEXT,
            )
        )
        items += children
        return LinearLayout(
            items, resource_id="android:id/action_bar", vertical=False, height=56, background=BAR if dark else SURFACE
        )

    def album_set_page(self) -> View:
        s = self.string
        camera = _button("C", s("switch_to_camera"), self.switch_to_camera, resource_id=RID + "action_camera")
        cells: list[View] = []
        for bucket, name, photos in self.albums():
            tile = LinearLayout(
                [
                    BitmapView(self.read(photos[0]), resource_id=RID + "album_set_item_image", height=150),
                    LinearLayout(
                        [
                            TextView(
                                name, resource_id=RID + "album_set_item_title", bold=True, height=24, weight=1, width=0
                            ),
                            TextView(
                                str(len(photos)),
                                resource_id=RID + "album_set_item_count",
                                text_color=TEXT_SECONDARY,
                                height=24,
                                width=40,
                            ),
                        ],
                        vertical=False,
                        height=32,
                        padding=4,
                    ),
                ],
                clickable=True,
                focusable=True,
                content_desc=name,
                height=190,
                weight=1,
                width=0,
                padding=4,
                on_click=partial(self.open_album, bucket),
            )
            cells.append(tile)
        rows = _rows(cells, 2, 190) or [
            TextView(
                s("no_albums_alert"),
                resource_id="android:id/empty",
                gravity="center",
                text_color=TEXT_SECONDARY,
                height=120,
            )
        ]
        grid = ScrollingList(
            rows, state=self.albums_scroll, cls="android.widget.GridView", resource_id="android:id/list", weight=1
        )
        return LinearLayout(
            [self.bar(s("albums"), [camera], up=False), grid], resource_id=RID + "gallery_root", height=-1
        )

    def album_page(self, photos: list[Photo]) -> View:
        cells = [
            BitmapView(
                self.read(p),
                resource_id=RID + "photo_thumbnail",
                content_desc=p.name,
                clickable=True,
                focusable=True,
                height=116,
                weight=1,
                width=0,
                padding=2,
                on_click=partial(self.open_photo, p, i),
            )
            for i, p in enumerate(photos)
        ]
        grid = ScrollingList(
            _rows(cells, 3, 118),
            state=self.grid_scroll,
            cls="android.widget.GridView",
            resource_id="android:id/list",
            weight=1,
        )
        return LinearLayout(
            [self.bar(self.album_name(photos[0]), [], up=True), grid], resource_id=RID + "gallery_root", height=-1
        )

    def current(self) -> tuple[Photo | None, list[Photo]]:
        """The photo shown and the album it is in (a viewed unknown file is an album of one)."""
        if self.single:
            storage = self.context.storage
            if not storage.exists(self.single):
                return None, []
            info = storage.info(self.single)
            photo = Photo(
                0,
                self.single,
                info.name,
                info.name.rsplit(".", 1)[0],
                info.modified * 1000,
                0,
                0,
                info.size,
                "image/jpeg",
                "",
                "",
                "",
            )
            return photo, [photo]
        photos = self.photos(self.bucket)
        for i, photo in enumerate(photos):
            if photo.media_id == self.photo_id:
                self.index = i
                return photo, photos
        if not photos:
            return None, []
        self.index = min(self.index, len(photos) - 1)  # (it went: the one now in its place)
        self.photo_id = photos[self.index].media_id
        return photos[self.index], photos

    def photo_page(self, photo: Photo, photos: list[Photo]) -> View:
        s = self.string
        image = BitmapView(
            self.read(photo),
            crop=False,
            resource_id=RID + "photo_view",
            content_desc=photo.name,
            focusable=True,
            scrollable=len(photos) > 1,  # (it pages sideways through the album, as a ViewPager reports itself)
            height=-1,
        )
        image.drag_axis, image.on_drag = "x", self.swipe
        actions = [_button("S", s("share"), self.share, resource_id=RID + "action_share", dark=True)]
        if photo.media_id:
            menu = overflow_menu(self, [s("delete"), s("details")], self.photo_menu)
            menu.color, menu.glyph_color = BAR, WHITE
            actions.append(menu)
        bar = self.bar(photo.title or photo.name, actions, up=True, dark=True)
        return FrameLayout([image, LinearLayout([bar], height=56)], resource_id=RID + "gallery_root", background=BLACK)

    # ------------------------------------------------------------------ what the photo page does

    def swipe(self, drag) -> None:
        """A horizontal swipe of 40 dp or more: left shows the next (older) photo, right the previous."""
        dx = drag.x2 - drag.x1
        if abs(dx) < 40 * drag.scale:
            return
        photo, photos = self.current()
        if photo is None:
            return
        index = self.index + (1 if dx < 0 else -1)
        if 0 <= index < len(photos):
            self.open_photo(photos[index], index)

    def photo_menu(self, index: int) -> None:
        (self.confirm_delete, self.show_details)[index]()

    def confirm_delete(self) -> None:
        s = self.string
        self.show(
            AlertDialog(
                message=s("delete_selection_one"), positive=(s("ok"), self.delete_photo), negative=(s("cancel"), None)
            )
        )

    def delete_photo(self) -> None:
        photo, _ = self.current()
        if photo is None or not photo.media_id:
            return
        self.context.content.delete(f"{IMAGES}/{photo.media_id}")  # (MediaProvider deletes the file with the row)
        self.log(TAG, f"deleted {photo.path}")
        if self.current()[0] is None:  # (the album's last photo: back to where it was opened from)
            if self.from_view:
                self.finish()
            else:
                self.page = "albums"

    def show_details(self) -> None:
        photo, photos = self.current()
        if photo is not None:
            title = self.string("details_title", self.index + 1, len(photos))
            self.show(AlertDialog(title, view=self.details_view, positive=(self.string("close"), None)))

    def details_view(self) -> View:
        s, photo = self.string, self.current()[0]
        if photo is None:
            return LinearLayout([])
        when = self.context.local_time(photo.taken)
        locale = self.context.locale()
        rows = [
            ("title", photo.title),
            ("time", f"{format_date(when, locale)} {format_clock(when, self.context.is_24_hour())}"),
            ("width", str(photo.width)),
            ("height", str(photo.height)),
            ("file_size", format_file_size(photo.size, locale)),
            ("mimetype", photo.mime),
            ("path", self.context.storage.media_path(photo.path)),
        ]
        return LinearLayout(
            [TextView(f"{s(k)}: {v}", resource_id="android:id/text1", height=28) for k, v in rows],
            cls="android.widget.ListView",
        )

    def share(self) -> None:
        photo = self.current()[0]
        if photo is not None:
            uri = f"{IMAGES}/{photo.media_id}" if photo.media_id else f"file://{photo.path}"
            self.context.start_activity(
                Intent(ACTION_SEND, type=photo.mime, extras={"android.intent.extra.STREAM": uri}, flags=0x10000001)
            )

    def switch_to_camera(self) -> None:
        self.context.start_activity(Intent("android.media.action.STILL_IMAGE_CAMERA"))


def _button(glyph: str, desc: str, on_click, resource_id: str = "", dark: bool = False) -> View:
    return ImageView(
        glyph=glyph,
        color=BAR if dark else WHITE,
        glyph_color=WHITE if dark else TEXT,
        content_desc=desc,
        resource_id=resource_id,
        clickable=True,
        focusable=True,
        width=48,
        height=48,
        on_click=on_click,
    )


def _rows(cells: list[View], columns: int, height: float) -> list[View]:
    rows = []
    for i in range(0, len(cells), columns):
        part = cells[i : i + columns]
        part += [View(width=0, weight=1, height=0) for _ in range(columns - len(part))]
        rows.append(LinearLayout(part, vertical=False, height=height))
    return rows


def _path_of(uri: str) -> str:
    """The ``/sdcard`` path of a ``file:`` or ExternalStorageProvider URI ("" for another)."""
    if uri.startswith("file://"):
        return unquote(uri[len("file://") :])
    if uri.startswith("content://com.android.externalstorage.documents/"):
        doc_id = unquote(uri.rsplit("/", 1)[-1])
        if doc_id.startswith("primary:"):
            return "/sdcard/" + doc_id[len("primary:") :]
    return ""

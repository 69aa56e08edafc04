"""``com.android.gallery3d``: albums from MediaStore's buckets, a photo grid, a full-screen photo.

From packages/apps/Gallery2: the manifest (``com.android.gallery3d.app.GalleryActivity``, the
launcher's, answering ``VIEW`` of ``image/*`` from ``content:``/``file:`` data and of MediaStore's
image collection), its strings (``folder_camera``, ``folder_download``, ``folder_screenshot``
for the well-known buckets, as ``LocalAlbum.getLocalizedName``; ``delete_selection``,
``details``, ``close``...) and its order (an album's newest photo first, ``datetaken DESC, _id
DESC``; the camera album first). Gallery2 draws its pages with OpenGL, which the UI dump cannot
see into; here they are views, with the ids of Gallery2's view-based album pages
(``com.android.photos``: ``album_set_item_image``/``_title``/``_count``, the grid
``android:id/list``) and, where Gallery2 has none, ids of its own: a grid photo is
``photo_thumbnail`` and the full-screen one ``photo_view``, each described by its file name.

A photo's page has Share (``action_share``) and, in "More options", Delete (confirmed with
"Delete selected item?"; the row goes from MediaStore and its file with it) and Details; a swipe
left shows the next (older) photo of the album, right the previous one. Changes are logged under
``Gallery2``.
"""

from __future__ import annotations

from androidrl.virtual.apps.gallery.pages import GalleryActivity
from androidrl.virtual.apps.gallery.strings import STRINGS
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.intent import ACTION_VIEW, IntentFilter

PACKAGE = "com.android.gallery3d"
GALLERY = "com.android.gallery3d.app.GalleryActivity"


def gallery_app() -> App:
    """The Gallery app (Gallery2)."""
    view_images = IntentFilter(
        GALLERY,
        (ACTION_VIEW, "android.provider.action.REVIEW"),
        categories=("android.intent.category.DEFAULT", "android.intent.category.BROWSABLE"),
        schemes=("", "http", "https", "content", "file"),
        mime_types=("image/*", "application/vnd.google.panorama360+jpg"),
    )
    view_collection = IntentFilter(
        GALLERY, (ACTION_VIEW,), mime_types=("vnd.android.cursor.dir/image", "vnd.android.cursor.dir/video")
    )
    return App(
        PACKAGE,
        "Gallery",
        "G",
        (234, 67, 53),
        {GALLERY: GalleryActivity},
        GALLERY,
        filters=(view_images, view_collection),
        strings=STRINGS,
    )

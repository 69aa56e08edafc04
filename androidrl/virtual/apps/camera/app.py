"""``com.android.camera2``: a viewfinder, the shutter, and the photo saved to ``DCIM/Camera`` and MediaStore.

From packages/apps/Camera2: the manifest (``com.android.camera.CameraActivity``, its launcher
alias ``CameraLauncher``, ``STILL_IMAGE_CAMERA``; ``CaptureActivity`` for ``IMAGE_CAPTURE``), the
layouts (``camera.xml``: ``camera_app_root``, ``preview_content``; ``sticky_bottom_capture_layout.xml``:
``rounded_thumbnail_view``, ``bottom_bar``; ``bottom_bar_contents.xml``: ``shutter_button``
"Shutter"; ``retake_done_cancel_layout.xml``: ``done_button``, ``retake_button``, ``cancel_button``;
``intent_review_imageview``), the file names (``image_file_name_format`` ``'IMG'_yyyyMMdd_HHmmss``
in the phone's local time, ``_1``, ``_2``... within one second, as ``CameraUtil.ImageFileNamer``)
and the folder (``Storage``: ``DCIM/Camera``). The viewfinder shows a scene drawn from the
phone's seeded RNG (:mod:`.scene`); the shutter saves it as a JPEG, inserts its MediaStore row
and shows it in the thumbnail, whose tap views it (``ACTION_VIEW`` of the row: Gallery).
``IMAGE_CAPTURE`` reviews the shot (Done writes it to the ``output`` extra's URI, when given).
Shots are logged under ``CAM_PhotoModule``.

As CameraActivity.checkPermissions, the camera needs CAMERA and RECORD_AUDIO (the system grants
them to it: DefaultPermissionGrantPolicy; ``pm revoke`` takes them): without them it hands over to
``PermissionsActivity``, which asks for what is missing (PermissionController's dialogs) and opens
the camera again once both are granted, or says "Camera error" (``error_permissions``) — at once,
without asking, once the dialogs were seen (``KEY_HAS_SEEN_PERMISSIONS_DIALOGS``). (Camera2's
first-run location prompt is left out: photos are not tagged with a place.)
"""

from __future__ import annotations

from androidrl.virtual.apps.camera.scene import scene_jpeg, scene_ops
from androidrl.virtual.system.framework.app import PERMISSION_GRANTED, Activity, App
from androidrl.virtual.system.framework.content import ProviderError
from androidrl.virtual.system.framework.intent import ACTION_VIEW, Intent, IntentFilter
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.image import BitmapView
from androidrl.virtual.ui.views import FrameLayout, ImageView, LinearLayout, View

PACKAGE = "com.android.camera2"
CAMERA = "com.android.camera.CameraActivity"
LAUNCHER = "com.android.camera.CameraLauncher"
CAPTURE = "com.android.camera.CaptureActivity"
PERMISSIONS = "com.android.camera.PermissionsActivity"
#: What the camera cannot run without (PermissionsActivity's CAMERA and RECORD_AUDIO).
CRITICAL = ("android.permission.CAMERA", "android.permission.RECORD_AUDIO")
RID = f"{PACKAGE}:id/"
IMAGES = "content://media/external/images/media"
FOLDER = "DCIM/Camera"
TAG = "CAM_PhotoModule"
#: The photo's size: the sensor's 4:3, held upright.
PHOTO_SIZE = (480, 640)
BLACK = (0, 0, 0)
BAR = (32, 33, 36)
STRINGS = {
    "": {
        "app_name": "Camera",
        "accessibility_shutter_button": "Shutter",
        "done_button_description": "Done",
        "retake_button_description": "Retake",
        "cancel_button_description": "Cancel",
        "camera_error_title": "Camera error",
        "error_permissions": "The app does not have critical permissions it needs to run. Please check your "
        "permissions settings.",
        "dialog_dismiss": "Dismiss",
    },
    "de": {
        "app_name": "Kamera",
        "accessibility_shutter_button": "Blende",
        "done_button_description": "Fertig",
        "retake_button_description": "Neu aufnehmen",
        "cancel_button_description": "Abbrechen",
        "camera_error_title": "Kamerafehler",
        "error_permissions": "Der App fehlen wichtige Berechtigungen. Bitte überprüfe die Berechtigungseinstellungen.",
        "dialog_dismiss": "Schließen",
    },
}


class Viewfinder(View):
    """``preview_content`` (a TextureView): the scene, 3:4, centred on black."""

    def __init__(self, seed: int, **kwargs) -> None:
        kwargs.setdefault("cls", "android.view.TextureView")
        super().__init__(**kwargs)
        self.seed = seed

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        width = min(right - left, (bottom - top) * 3 // 4)
        height = width * 4 // 3
        x, y = left + (right - left - width) // 2, top + (bottom - top - height) // 2
        return scene_ops(self.seed, (x, y, x + width, y + height))


def round_button(glyph: str, desc: str, resource_id: str, on_click, size: float = 56, color=(255, 255, 255)) -> View:
    """An ``ImageButton`` of the bottom bar."""
    return ImageView(
        glyph=glyph,
        color=color,
        glyph_color=BAR,
        content_desc=desc,
        resource_id=resource_id,
        clickable=True,
        focusable=True,
        width=size,
        height=size,
        on_click=on_click,
    )


class CameraActivity(Activity):
    """The photo module: viewfinder, shutter, thumbnail of the last shot."""

    title = "Camera"
    #: Whether the last shot shows beside the shutter (an IMAGE_CAPTURE caller gets its one shot back instead).
    thumbnail = True

    def on_create(self) -> None:
        self.seed = self.context.next_seed()
        self.last_name = ""  # (ImageFileNamer: the last name made and how many within its second)
        self.same_second = 0
        self.shots = 0
        if not all(self.check_self_permission(p) for p in CRITICAL):  # (checkPermissions)
            self.start(PERMISSIONS)
            self.finish()

    def build(self) -> View:
        return LinearLayout(
            [
                Viewfinder(self.seed, resource_id=RID + "preview_content", weight=1, height=0, background=BLACK),
                self.bottom_bar(),
            ],
            resource_id=RID + "camera_app_root",
            height=-1,
            background=BLACK,
        )

    def bottom_bar(self) -> View:
        latest = self.latest() if self.thumbnail else None
        thumb: View = View(width=56, height=56)
        if latest is not None:
            thumb = FrameLayout(
                [BitmapView(latest[1], width=56, height=56)],
                resource_id=RID + "rounded_thumbnail_view",
                width=56,
                height=56,
                clickable=True,
                on_click=self.view_latest,
            )
        shutter = round_button(
            "", self.string("accessibility_shutter_button"), RID + "shutter_button", self.shutter, size=72
        )
        return LinearLayout(
            [
                View(width=32, height=0),
                thumb,
                View(weight=1, width=0, height=0),
                shutter,
                View(weight=1, width=0, height=0),
                View(width=88, height=0),
            ],
            resource_id=RID + "bottom_bar",
            vertical=False,
            height=128,
            background=BAR,
        )

    def latest(self) -> tuple[int, bytes] | None:
        """The newest photo of ``DCIM/Camera`` (its MediaStore ``_id`` and bytes), if its file is there."""
        try:
            rows = self.context.content.query(
                IMAGES, ["_id", "_data"], "relative_path = ?", [FOLDER + "/"], "date_taken DESC, _id DESC"
            )
        except ProviderError:
            return None
        storage = self.context.storage
        for row in rows[:3]:
            path = storage.path(str(row["_data"]))
            if storage.exists(path):
                return int(row["_id"]), storage.read(path)
        return None

    def next_name(self) -> str:
        """``IMG_yyyyMMdd_HHmmss`` (local time), with ``_1``, ``_2``... within a second or past a taken name."""
        base = self.context.local_time().strftime("IMG_%Y%m%d_%H%M%S")
        count = self.same_second + 1 if base == self.last_name else 0
        storage = self.context.storage
        while storage.exists(f"{storage.ROOT}/{FOLDER}/{base}{f'_{count}' if count else ''}.jpg"):
            count += 1
        self.last_name, self.same_second = base, count
        return f"{base}{f'_{count}' if count else ''}.jpg"

    def shutter(self) -> None:
        """Take a photo: the JPEG into ``DCIM/Camera``, its row into MediaStore; the camera then looks elsewhere."""
        data = scene_jpeg(self.seed, *PHOTO_SIZE)
        self.save(data)
        self.seed = self.context.next_seed()

    def save(self, data: bytes) -> str:
        storage = self.context.storage
        name = self.next_name()
        folder = f"{storage.ROOT}/{FOLDER}"
        for path in (f"{storage.ROOT}/DCIM", folder):
            if not storage.exists(path):
                storage.mkdir(path)
        storage.write(f"{folder}/{name}", data)
        values = {
            "_display_name": name,
            "relative_path": FOLDER + "/",
            "mime_type": "image/jpeg",
            "date_taken": self.context.current_time_millis(),
            "width": PHOTO_SIZE[0],
            "height": PHOTO_SIZE[1],
            "orientation": 0,
            "owner_package_name": PACKAGE,
        }
        uri = self.context.content.insert(IMAGES, values) or ""
        self.shots += 1
        self.log(TAG, f"saved {folder}/{name} as {uri}")
        return uri

    def view_latest(self) -> None:
        latest = self.latest()
        if latest is not None:
            self.context.start_activity(
                Intent(ACTION_VIEW, data=f"{IMAGES}/{latest[0]}", type="image/jpeg", flags=0x10000001)
            )


class PermissionsActivity(Activity):
    """Camera2's PermissionsActivity: asks for the permissions the camera lacks, then opens it again."""

    def on_create(self) -> None:
        missing = [p for p in CRITICAL if not self.check_self_permission(p)]
        if not missing:
            self.success()
        elif self.app.data.get("has_seen_permissions_dialogs"):
            self.failure()  # (the dialogs were seen, and something is still missing)
        else:
            self.request_permissions(missing, 1)

    def build(self) -> View:
        return FrameLayout([], resource_id=RID + "permissions", height=-1, background=BLACK)

    def on_request_permissions_result(self, request_code: int, permissions: list[str], results: list[int]) -> None:
        self.app.data["has_seen_permissions_dialogs"] = True
        granted = {p for p, r in zip(permissions, results) if r == PERMISSION_GRANTED}
        if all(p in granted or self.check_self_permission(p) for p in CRITICAL):
            self.success()
        else:
            self.failure()

    def success(self) -> None:
        self.start(CAMERA)
        self.finish()

    def failure(self) -> None:
        s = self.string
        dismiss = (s("dialog_dismiss"), self.finish)
        dialog = AlertDialog(s("camera_error_title"), s("error_permissions"), positive=dismiss, cancelable=False)
        self.show(dialog)


class CaptureActivity(CameraActivity):
    """``IMAGE_CAPTURE``: one shot, reviewed; Done writes it to the ``output`` extra's URI and closes."""

    thumbnail = False

    def on_create(self) -> None:
        super().on_create()
        self.review: bytes | None = None

    def build(self) -> View:
        if self.review is None:
            return super().build()
        s = self.string
        bar = LinearLayout(
            [
                View(width=24, height=0),
                round_button("x", s("cancel_button_description"), RID + "cancel_button", self.finish),
                View(weight=1, width=0, height=0),
                round_button("v", s("done_button_description"), RID + "done_button", self.done, size=72),
                View(weight=1, width=0, height=0),
                round_button("o", s("retake_button_description"), RID + "retake_button", self.retake),
                View(width=24, height=0),
            ],
            resource_id=RID + "bottombar_intent_review",
            vertical=False,
            height=128,
            background=BAR,
        )
        review = BitmapView(
            self.review, crop=False, resource_id=RID + "intent_review_imageview", weight=1, height=0, background=BLACK
        )
        return LinearLayout([review, bar], resource_id=RID + "camera_app_root", height=-1, background=BLACK)

    def shutter(self) -> None:
        self.review = scene_jpeg(self.seed, *PHOTO_SIZE)

    def retake(self) -> None:
        self.review = None
        self.seed = self.context.next_seed()

    def done(self) -> None:
        """Write the shot where the caller asked (``MediaStore.EXTRA_OUTPUT``), then close."""
        output = str(self.intent.extras.get("output") or "")
        data = self.review or b""
        storage = self.context.storage
        try:
            if output.startswith("file://"):
                storage.write(output[len("file://") :], data)
            elif output.startswith("content://media/"):
                rows = self.context.content.query(output, ["_data"])
                if rows:
                    storage.write(str(rows[0]["_data"]), data)
                    self.context.content.update(
                        output, {"_size": len(data), "width": PHOTO_SIZE[0], "height": PHOTO_SIZE[1]}
                    )
        except (OSError, ProviderError) as err:
            self.log(TAG, f"cannot write {output}: {err}")
        else:
            self.log(TAG, f"captured {len(data)} bytes" + (f" to {output}" if output else ""))
        self.finish()


def camera_app() -> App:
    """The Camera app (Camera2)."""
    return App(
        PACKAGE,
        "Camera",
        "C",
        (52, 168, 83),
        {LAUNCHER: CameraActivity, CAMERA: CameraActivity, CAPTURE: CaptureActivity, PERMISSIONS: PermissionsActivity},
        LAUNCHER,
        filters=(
            IntentFilter(CAMERA, ("android.media.action.STILL_IMAGE_CAMERA",)),
            IntentFilter(CAPTURE, ("android.media.action.IMAGE_CAPTURE",)),
        ),
        strings=STRINGS,
        default_grants=CRITICAL,
    )

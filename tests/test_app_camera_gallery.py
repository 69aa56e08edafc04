"""Camera (``com.android.camera2``) and Gallery (``com.android.gallery3d``), driven as an agent drives them.

Flows go through ``input tap/swipe/keyevent`` on nodes found in the UI dump; checks read
``ls`` of ``/sdcard/DCIM/Camera``, ``content query`` of MediaStore, ``logcat`` and the dump.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import numpy as np
import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock

from conftest import DENSITY, HEIGHT, WIDTH, center

CAMERA = "am start -n com.android.camera2/com.android.camera.CameraLauncher"
GALLERY = "am start -n com.android.gallery3d/.app.GalleryActivity"
CAM = "com.android.camera2:id/"
GAL = "com.android.gallery3d:id/"
IMAGES = "content://media/external/images/media"


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=5, clock=Clock(stepped=True), content={"photos": 5})


@pytest.fixture
def device(phone: VirtualPhone) -> VirtualDevice:
    return VirtualDevice(phone)


def nodes(device, **attrs) -> list[SimpleNamespace]:
    found = []
    for node in ET.fromstring(device.dump_ui()).iter("node"):
        values = {k.replace("-", "_"): (v == "true" if v in ("true", "false") else v) for k, v in node.attrib.items()}
        values["bounds"] = tuple(int(n) for n in re.findall(r"\d+", values["bounds"]))
        if all(values.get(k) == v for k, v in attrs.items()):
            found.append(SimpleNamespace(**values))
    return found


def tap(device, **attrs) -> None:
    found = nodes(device, **attrs)
    assert found, f"no node with {attrs}"
    device.tap(*center(found[0].bounds))


def camera_rows(device) -> list[str]:
    """The display names of MediaStore's images in DCIM/Camera, newest first."""
    out = device.shell(f"content query --uri {IMAGES} --projection _display_name --sort 'date_taken DESC'")
    return re.findall(r"_display_name=(\S+)", out)


def shown_photo(device) -> str:
    return nodes(device, resource_id=GAL + "photo_view")[0].content_desc


# ---------------------------------------------------------------------------- Camera


def test_the_shutter_saves_a_jpeg_named_by_the_phones_clock_and_indexes_it(device, phone):
    tap(device, text="Camera")  # (the launcher's icon)
    assert phone.foreground() == ("com.android.camera2", "com.android.camera.CameraLauncher")
    assert nodes(device, resource_id=CAM + "preview_content")
    tap(device, resource_id=CAM + "shutter_button", content_desc="Shutter")
    tap(device, content_desc="Shutter")
    stamp = phone.local_time().strftime("%Y%m%d_%H%M%S")
    names = device.shell("ls -1 /sdcard/DCIM/Camera").splitlines()
    assert f"IMG_{stamp}.jpg" in names and f"IMG_{stamp}_1.jpg" in names  # (the same second: _1)
    assert int(device.shell(f"stat -c %s /sdcard/DCIM/Camera/IMG_{stamp}.jpg")) > 2000
    row = device.shell(
        f"content query --uri {IMAGES} --projection relative_path:mime_type:width:height:owner_package_name "
        f"--where \"_display_name='IMG_{stamp}.jpg'\""
    )
    assert "relative_path=DCIM/Camera/, mime_type=image/jpeg, width=480, height=640" in row
    assert "owner_package_name=com.android.camera2" in row
    assert f"saved /sdcard/DCIM/Camera/IMG_{stamp}.jpg" in device.shell("logcat -d -s CAM_PhotoModule")
    a, b = (device.shell(f"md5sum /sdcard/DCIM/Camera/IMG_{stamp}{s}.jpg").split()[0] for s in ("", "_1"))
    assert a != b  # (the camera looks elsewhere after each shot)


def test_the_thumbnail_opens_the_last_photo_in_gallery_and_back_returns(device, phone):
    device.shell(CAMERA)
    tap(device, content_desc="Shutter")
    newest = camera_rows(device)[0]
    tap(device, resource_id=CAM + "rounded_thumbnail_view")
    assert phone.foreground() == ("com.android.gallery3d", "com.android.gallery3d.app.GalleryActivity")
    assert shown_photo(device) == newest
    assert nodes(device, resource_id="android:id/action_bar_title", text=newest.removesuffix(".jpg"))
    device.shell("input keyevent BACK")
    assert phone.foreground()[0] == "com.android.camera2"


def test_image_capture_writes_to_the_output_uri_on_done(device, phone):
    device.shell("am start -a android.media.action.IMAGE_CAPTURE --eu output file:///sdcard/Download/shot.jpg")
    assert phone.foreground()[1] == "com.android.camera.CaptureActivity"
    tap(device, content_desc="Shutter")
    assert nodes(device, resource_id=CAM + "intent_review_imageview")
    assert "shot.jpg" not in device.shell("ls /sdcard/Download")
    tap(device, resource_id=CAM + "done_button", content_desc="Done")
    assert device.shell("ls /sdcard/Download").split() == ["shot.jpg"]
    assert phone.foreground()[0] != "com.android.camera2"
    before = device.shell("ls /sdcard/DCIM/Camera")
    device.shell("am start -a android.media.action.IMAGE_CAPTURE --eu output file:///sdcard/Download/two.jpg")
    tap(device, content_desc="Shutter")
    tap(device, resource_id=CAM + "cancel_button")
    assert "two.jpg" not in device.shell("ls /sdcard/Download") and device.shell("ls /sdcard/DCIM/Camera") == before


def test_still_image_camera_and_german(phone):
    german = VirtualPhone(WIDTH, HEIGHT, DENSITY, locale="de-DE", night=True)
    device = VirtualDevice(german)
    device.shell("am start -a android.media.action.STILL_IMAGE_CAMERA")
    assert german.foreground() == ("com.android.camera2", "com.android.camera.CameraActivity")
    assert nodes(device, resource_id=CAM + "shutter_button", content_desc="Blende")


# ---------------------------------------------------------------------------- Gallery


def test_albums_come_from_mediastore_buckets_and_show_at_once(device, phone):
    device.shell(GALLERY)
    assert [n.text for n in nodes(device, resource_id=GAL + "album_set_item_title")] == ["Camera"]
    assert nodes(device, resource_id=GAL + "album_set_item_count")[0].text == str(len(camera_rows(device)))
    device.shell("cp /sdcard/DCIM/Camera/$(ls /sdcard/DCIM/Camera | head -n 1) /sdcard/Download/saved.jpg")
    device.shell(f"content insert --uri {IMAGES} --bind _display_name:s:saved.jpg --bind relative_path:s:Download/")
    assert [n.text for n in nodes(device, resource_id=GAL + "album_set_item_title")] == ["Camera", "Download"]


def test_open_the_kth_photo_swipe_to_the_next_and_back(device, phone):
    device.shell(GALLERY)
    tap(device, resource_id=GAL + "album_set_item_title", text="Camera")
    grid = nodes(device, resource_id=GAL + "photo_thumbnail")
    names = camera_rows(device)
    assert [n.content_desc for n in grid] == names  # newest first
    device.tap(*center(grid[2].bounds))
    assert shown_photo(device) == names[2]
    assert nodes(device, resource_id=GAL + "photo_view")[0].scrollable  # (it pages through the album)
    device.shell("input swipe 300 400 60 400 200")  # to the left: the next, older photo
    assert shown_photo(device) == names[3]
    device.shell("input swipe 60 400 300 400 200")
    device.shell("input swipe 60 400 300 400 200")
    assert shown_photo(device) == names[1]
    device.shell("input swipe 200 400 190 400 200")  # (too short to be a swipe)
    assert shown_photo(device) == names[1]
    assert "photo /sdcard/DCIM/Camera/" + names[1] in device.shell("logcat -d -s Gallery2")
    device.shell("input keyevent BACK")
    assert nodes(device, resource_id=GAL + "photo_thumbnail")  # back in the album
    device.shell("input keyevent BACK")
    assert nodes(device, resource_id=GAL + "album_set_item_title")


def test_delete_asks_and_takes_the_file_and_the_row(device, phone):
    device.shell(GALLERY)
    tap(device, resource_id=GAL + "album_set_item_title", text="Camera")
    names = camera_rows(device)
    tap(device, resource_id=GAL + "photo_thumbnail", content_desc=names[0])
    tap(device, content_desc="More options")
    tap(device, resource_id="android:id/title", text="Delete")
    assert nodes(device, resource_id="android:id/message", text="Delete selected item?")
    tap(device, resource_id="android:id/button2")
    assert names[0] in device.shell("ls /sdcard/DCIM/Camera")
    tap(device, content_desc="More options")
    tap(device, resource_id="android:id/title", text="Delete")
    tap(device, resource_id="android:id/button1")
    assert names[0] not in device.shell("ls /sdcard/DCIM/Camera") and camera_rows(device) == names[1:]
    assert shown_photo(device) == names[1]  # the next one takes its place


def test_details_name_the_file(device, phone):
    device.shell(GALLERY)
    tap(device, resource_id=GAL + "album_set_item_title", text="Camera")
    first = camera_rows(device)[0]
    tap(device, resource_id=GAL + "photo_thumbnail", content_desc=first)
    tap(device, content_desc="More options")
    tap(device, resource_id="android:id/title", text="Details")
    assert nodes(device, resource_id="android:id/alertTitle", text=f"1 of {len(camera_rows(device))} items:")
    assert nodes(device, text=f"Path: /storage/emulated/0/DCIM/Camera/{first}")
    tap(device, resource_id="android:id/button1", text="Close")
    assert not nodes(device, resource_id="android:id/alertTitle")


def test_view_of_an_image_opens_it_and_back_leaves(device, phone):
    rows = device.shell(f"content query --uri {IMAGES} --projection _id:_display_name")
    media_id, name = re.search(r"_id=(\d+), _display_name=(\S+)", rows).groups()
    device.shell(f"am start -a android.intent.action.VIEW -d {IMAGES}/{media_id}")
    assert phone.foreground()[0] == "com.android.gallery3d" and shown_photo(device) == name
    device.shell("input keyevent BACK")
    assert phone.foreground()[0] == "com.android.launcher3"
    device.shell(f"am start -a android.intent.action.VIEW -d file:///sdcard/DCIM/Camera/{name} -t image/jpeg")
    assert shown_photo(device) == name
    device.shell("cp /sdcard/DCIM/Camera/" + name + " /sdcard/Download/alone.jpg")
    device.shell("am start -a android.intent.action.VIEW -d file:///sdcard/Download/alone.jpg -t image/jpeg")
    assert not nodes(device, resource_id=GAL + "photo_view")[0].scrollable  # a photo alone does not page


def test_gallery_in_german_and_dark(phone):
    german = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=5, locale="de-DE", night=True, content={"photos": 2})
    device = VirtualDevice(german)
    device.shell(GALLERY)
    assert nodes(device, resource_id="android:id/action_bar_title", text="Alben")
    assert nodes(device, resource_id=GAL + "album_set_item_title", text="Kamera")
    assert nodes(device, content_desc="Zu Kamera wechseln")
    light = VirtualDevice(phone)
    light.shell(GALLERY)
    assert np.asarray(device.screenshot())[:120].mean() < np.asarray(light.screenshot())[:120].mean()


def test_photo_then_gallery_over_adb(served, adb_server):
    from androidrl.device.adb import AdbDevice

    device = AdbDevice(served.serial, port=adb_server.port, timeout=5.0)
    device.shell(CAMERA)
    tap(device, content_desc="Shutter")
    newest = camera_rows(device)[0]
    assert newest.startswith("IMG_") and newest in device.shell("ls /sdcard/DCIM/Camera")
    tap(device, resource_id=CAM + "rounded_thumbnail_view")
    assert shown_photo(device) == newest


def test_decoded_pictures_are_kept_within_their_budget(monkeypatch):
    from androidrl.virtual.apps.camera.scene import scene_jpeg
    from androidrl.virtual.ui import image

    monkeypatch.setattr(image, "CACHE_BYTES", 200_000)
    photo = scene_jpeg(1, 480, 640)
    first = image.scaled(photo, 100, 100, True)
    assert first[1:] == (100, 100) and image.scaled(photo, 100, 100, True) is first  # decoded once
    for size in range(101, 121):
        image.scaled(photo, size, size, False)
    assert image._cache_bytes <= 200_000
    assert image.scaled(b"not an image", 10, 10, True) is None

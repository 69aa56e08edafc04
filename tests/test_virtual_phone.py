"""What the virtual phone does with input: apps, switches, text, navigation, screens."""

import io
import re
import struct
import time

import numpy as np
import pytest
from PIL import Image

from androidrl.virtual.phone import PhoneOfflineError, VirtualPhone

from conftest import center, node_bounds, tap_node


def checked(xml: str, title: str) -> str:
    """checked= of the switch in the settings row titled ``title``."""
    row = re.search(rf'text="{title}".*?resource-id="android:id/switch_widget"[^>]*checked="(\w+)"', xml)
    return row.group(1)


def open_network_settings(device):
    device.shell("am start -a android.settings.WIRELESS_SETTINGS")


def test_launcher_lists_apps_and_tapping_an_icon_opens_it(device, phone):
    xml = device.dump_ui()
    for label in ("Settings", "Notes", "Practice", "Clock"):
        assert f'text="{label}" resource-id="" class="android.widget.TextView" package="com.android.launcher3"' in xml
    tap_node(device, text="Settings")
    assert phone.foreground() == ("com.android.settings", "com.android.settings.Settings")


def test_wifi_switch_changes_the_setting_and_the_xml(device):
    device.shell("svc wifi disable")
    open_network_settings(device)
    assert checked(device.dump_ui(), "Wi-Fi") == "false"
    tap_node(device, text="Wi-Fi")
    assert device.shell("settings get global wifi_on") == "1\n"
    assert checked(device.dump_ui(), "Wi-Fi") == "true"
    tap_node(device, text="Wi-Fi")
    assert device.shell("settings get global wifi_on") == "0\n"
    assert checked(device.dump_ui(), "Wi-Fi") == "false"


def test_airplane_mode_switches_radios_like_android(device):
    open_network_settings(device)
    tap_node(device, text="Airplane mode")
    assert device.shell("settings get global airplane_mode_on") == "1\n"
    assert device.shell("settings get global wifi_on") == "3\n"  # disabled by airplane mode
    assert device.shell("settings get global bluetooth_on") == "2\n"
    xml = device.dump_ui()
    assert checked(xml, "Airplane mode") == "true" and checked(xml, "Wi-Fi") == "false"
    tap_node(device, text="Wi-Fi")  # Wi-Fi may be turned on during airplane mode
    assert device.shell("settings get global wifi_on") == "2\n"
    tap_node(device, text="Airplane mode")
    assert device.shell("settings get global wifi_on; settings get global bluetooth_on") == "1\n1\n"


def test_bluetooth_switch(device):
    device.shell("am start -a android.settings.BLUETOOTH_SETTINGS")
    tap_node(device, text="Bluetooth")
    assert device.shell("settings get global bluetooth_on") == "0\n"
    assert checked(device.dump_ui(), "Bluetooth") == "false"


def test_status_bar_shows_wifi_state(device):
    before = device.screenshot().copy()
    device.shell("svc wifi disable")
    assert not np.array_equal(before[:24], device.screenshot()[:24])  # the status bar changed
    assert np.array_equal(before[24:], device.screenshot()[24:])


@pytest.mark.parametrize("text", ["hello world", 'it\'s "quoted"', "a;b&c|d$(id)`id`<e>#f%g%sh\\i", "100%", "%s"])
def test_notes_type_literal_text_and_save(device, phone, text):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    tap_node(device, resource_id="com.androidrl.notes:id/note_input")
    device.text(text)
    xml_text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    assert f'text="{xml_text}" resource-id="com.androidrl.notes:id/note_input"' in device.dump_ui()
    tap_node(device, resource_id="com.androidrl.notes:id/save_button")
    xml = device.dump_ui()
    assert f'text="{xml_text}" resource-id="com.androidrl.notes:id/note_item"' in xml
    assert 'text="Write a note" resource-id="com.androidrl.notes:id/note_input"' in xml
    saved = phone.shell("content query --uri content://com.androidrl.notes/notes --projection body").stdout.decode()
    assert saved == f"Row: 0 body={text}\n"  # the app's provider holds the note
    assert not phone.fs.exists("/sdcard/pwned")


def test_notes_survive_force_stop_and_go_with_pm_clear(device, phone):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    tap_node(device, resource_id="com.androidrl.notes:id/note_input")
    device.text("keep me")
    device.key("enter")  # the IME action saves
    device.shell("am force-stop com.androidrl.notes; am start -n com.androidrl.notes/.MainActivity")
    assert 'text="keep me" resource-id="com.androidrl.notes:id/note_item"' in device.dump_ui()
    device.shell("pm clear com.androidrl.notes; am start -n com.androidrl.notes/.MainActivity")
    assert "note_item" not in device.dump_ui()
    assert device.shell("content query --uri content://com.androidrl.notes/notes") == "No result found.\n"
    device.shell("content insert --uri content://com.androidrl.notes/notes --bind body:s:seeded")
    assert 'text="seeded" resource-id="com.androidrl.notes:id/note_item"' in device.dump_ui()  # shown at once


def test_delete_key_and_unfocused_text(device):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    device.text("ignored")  # nothing has focus yet
    assert 'text="Write a note" resource-id="com.androidrl.notes:id/note_input"' in device.dump_ui()
    tap_node(device, resource_id="com.androidrl.notes:id/note_input")
    device.text("abc")
    device.key("del")
    assert 'text="ab" resource-id="com.androidrl.notes:id/note_input"' in device.dump_ui()


def test_back_pops_and_home_returns_to_launcher(device, phone):
    device.shell("am start -n com.android.settings/.Settings")
    tap_node(device, text="Network & internet")
    assert phone.foreground()[1].endswith("NetworkDashboardActivity")
    device.back()
    assert phone.foreground()[1] == "com.android.settings.Settings"
    device.home()
    assert phone.foreground()[0] == "com.android.launcher3"
    tap_node(device, text="Settings")  # the task resumes where it was
    assert phone.foreground()[1] == "com.android.settings.Settings"
    device.back()
    assert phone.foreground()[0] == "com.android.launcher3"
    device.back()  # BACK on home does nothing
    assert phone.foreground()[0] == "com.android.launcher3"


def test_navigation_bar_buttons_work(device, phone):
    device.shell("am start -n com.android.settings/.Settings")
    width, height = device.screen_size
    device.tap(width // 2, height - 10)  # the Home button
    assert phone.foreground()[0] == "com.android.launcher3"


def test_swipe_scrolls_settings_to_items_below(device):
    device.shell("am start -n com.android.settings/.Settings")
    assert 'text="About phone"' not in device.dump_ui()
    for _ in range(3):
        device.swipe(180, 700, 180, 200, 300)
    xml = device.dump_ui()
    assert 'text="About phone"' in xml
    assert 'scrollable="true"' in xml
    tap_node(device, text="About phone")
    assert 'text="androidrl Virtual Phone"' in device.dump_ui()


def test_small_moves_are_taps_and_long_holds_are_long_presses(device, phone):
    device.shell("am start -n com.android.settings/.Settings")
    x, y = center(node_bounds(device.dump_ui(), text="Network & internet"))
    device.swipe(x, y, x + 3, y + 3, 50)  # within the touch slop: a tap
    assert phone.foreground()[1].endswith("NetworkDashboardActivity")
    device.back()
    device.long_press(x, y, 600)  # a row that only clicks is clicked after a long press
    assert phone.foreground()[1].endswith("NetworkDashboardActivity")


def test_practice_target_is_seeded(device, phone):
    device.shell("am start -S -n com.androidrl.practice/.TargetActivity --ei seed 7")
    first = node_bounds(device.dump_ui(), resource_id="com.androidrl.practice:id/target")
    device.shell("am start -S -n com.androidrl.practice/.TargetActivity --ei seed 7")
    assert node_bounds(device.dump_ui(), resource_id="com.androidrl.practice:id/target") == first
    device.tap(*center(first))
    xml = device.dump_ui()
    assert 'text="Hits: 1  Misses: 0"' in xml
    assert node_bounds(xml, resource_id="com.androidrl.practice:id/target") != first  # it moved
    device.tap(2, 400)
    assert 'text="Hits: 1  Misses: 1"' in device.dump_ui()


def test_practice_grid_snaps_to_cells(device):
    device.shell("am start -S -n com.androidrl.practice/.TargetActivity --ei seed 3 --ei grid 2 --ei size 80")
    left, top, right, bottom = node_bounds(device.dump_ui(), resource_id="com.androidrl.practice:id/target")
    assert right - left == 80
    assert (left + right) // 2 in (90, 270)


def test_same_seed_same_phone_same_frames():
    frames = []
    for _ in range(2):
        phone = VirtualPhone(360, 800, 160, seed=11)
        phone.shell("am start -n com.androidrl.practice/.TargetActivity")
        frames.append(phone.screenshot().copy())
    assert np.array_equal(frames[0], frames[1])
    other = VirtualPhone(360, 800, 160, seed=12)
    other.shell("am start -n com.androidrl.practice/.TargetActivity")
    assert not np.array_equal(frames[0], other.screenshot())


def test_screenshot_dims_match_wm_size_at_any_resolution():
    for width, height, density in ((1080, 2400, 420), (720, 1280, 320), (200, 400, 80)):
        phone = VirtualPhone(width, height, density)
        assert phone.shell("wm size").stdout == f"Physical size: {width}x{height}\n".encode()
        frame = phone.screenshot()
        assert frame.shape == (height, width, 3) and frame.dtype == np.uint8


def test_screencap_raw_and_png(phone):
    raw = phone.shell("screencap").stdout
    width, height, fmt, space = struct.unpack("<IIII", raw[:16])
    assert (width, height, fmt) == (360, 800, 1) and len(raw) == 16 + width * height * 4
    pixels = np.frombuffer(raw[16:], np.uint8).reshape(height, width, 4)
    assert np.array_equal(pixels[..., :3], phone.screenshot()) and np.all(pixels[..., 3] == 255)
    png = phone.shell("screencap -p").stdout
    assert png.startswith(b"\x89PNG") and np.array_equal(
        np.asarray(Image.open(io.BytesIO(png)).convert("RGB")), phone.screenshot()
    )
    phone.shell("screencap /sdcard/shot.png")
    assert phone.fs.read("/sdcard/shot.png").startswith(b"\x89PNG")
    old = VirtualPhone(100, 200, 160, sdk=28)  # Android 9 has the 12-byte header
    assert len(old.shell("screencap").stdout) == 12 + 100 * 200 * 4


def test_uiautomator_xml_format(phone):
    xml = phone.dump_ui()
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\"><node ")
    assert xml.endswith("</hierarchy>") and "\n" not in xml
    node = re.search(r"<node [^>]*>", xml).group()
    names = re.findall(r' ([\w-]+)="', node)
    assert names == [
        "index",
        "text",
        "resource-id",
        "class",
        "package",
        "content-desc",
        "checkable",
        "checked",
        "clickable",
        "enabled",
        "focusable",
        "focused",
        "scrollable",
        "long-clickable",
        "password",
        "selected",
        "bounds",
    ]


def test_reboot_takes_the_phone_offline_then_back_home(phone):
    phone.shell("am start -n com.android.settings/.Settings")
    with pytest.raises(PhoneOfflineError, match="went down to reboot"):  # it never answers: the phone goes under it
        phone.shell("echo bye; reboot; echo never")
    assert not phone.online
    with pytest.raises(PhoneOfflineError):
        phone.shell("echo hi")
    time.sleep(0.3)
    assert phone.online and phone.foreground()[0] == "com.android.launcher3"


def test_unchanged_screens_are_not_redrawn(phone):
    frame = phone.screenshot()
    drawn = phone.frames_drawn
    phone.tap(5, 760)  # empty wallpaper
    assert phone.screenshot() is frame and phone.frames_drawn == drawn
    assert not frame.flags.writeable


def test_incremental_frames_equal_full_redraws():
    """The renderer redraws only what changed; the result must be the full redraw, pixel for pixel."""
    from androidrl.virtual.ui.render import _draw_ops

    rng = np.random.default_rng(0)
    for width, height, density in ((360, 800, 160), (1080, 2400, 420)):
        phone = VirtualPhone(width, height, density, seed=1)
        for _ in range(120):
            roll = rng.random()
            if roll < 0.5:
                phone.tap(rng.integers(width), rng.integers(height))
            elif roll < 0.7:
                phone.swipe(width / 2, height * 0.8, width / 2, height * 0.3, 300)
            elif roll < 0.8:
                phone.press_key(4)
            elif roll < 0.83:
                phone.shell("am start -n com.androidrl.practice/.TargetActivity")
            elif roll < 0.86:  # (its day view scrolls: a layer drawn in patches)
                phone.shell("am start -n com.android.calendar/.AllInOneActivity")
            elif roll < 0.9:
                phone.shell("am start -n com.androidrl.notes/.MainActivity")
                phone.tap(width / 2, 110 * density / 160)
                phone.type_text("abc")
            else:
                phone.shell(f"svc wifi {'enable' if rng.random() < 0.5 else 'disable'}")
            frame = phone.screenshot()  # brings the display list up to date
            full = Image.new("RGB", (width, height), (255, 255, 255))
            _draw_ops(full, phone.display._ops)
            assert np.array_equal(frame, np.asarray(full))
        assert phone.display._renderer.partial_frames > 10  # the incremental path was taken


def test_a_held_frame_stays_as_drawn_and_a_dropped_ones_memory_is_drawn_in_again(phone):
    phone.shell("am start -n com.androidrl.practice/.TargetActivity --ei seed 1")
    held = [phone.screenshot()]
    renderer = phone.display._renderer
    for x in range(5, 65, 10):  # misses: the score line changes each time
        phone.tap(x, 400)
        held.append(phone.screenshot())
    kept = [frame.copy() for frame in held]
    reused = renderer.reused_buffers
    for x in range(5, 65, 10):
        phone.tap(x, 400)
        phone.screenshot()  # (dropped at once)
    assert all(np.array_equal(frame, copy) for frame, copy in zip(held, kept))
    assert len({frame.tobytes() for frame in held}) == len(held)  # (each a frame of its own)
    assert renderer.reused_buffers >= reused + 4  # (not the first two: the frames before them are held)


def test_changed_region_follows_the_frames(phone):
    phone.shell("am start -n com.androidrl.practice/.TargetActivity --ei seed 1")
    first = phone.screenshot()
    phone.tap(5, 400)  # a miss: only the score line changes
    second = phone.screenshot()
    ((left, top, right, bottom),) = phone.changed_regions(first, second)
    changed = np.argwhere(np.any(first != second, axis=2))
    assert top <= changed[:, 0].min() and changed[:, 0].max() < bottom
    assert left <= changed[:, 1].min() and changed[:, 1].max() < right
    assert phone.changed_regions(second, second) == ()
    assert phone.changed_regions(second, first) is None  # not a later frame: unknown


def test_changed_regions_of_a_jump_are_boxes_not_the_screen_between(phone):
    """A target that moves from one place to another changed boxes there; every changed pixel is in one."""
    phone.shell("am start -n com.androidrl.practice/.TargetActivity --ei seed 1")
    before = phone.screenshot()
    left, top, right, bottom = node_bounds(phone.dump_ui(), resource_id="com.androidrl.practice:id/target")
    phone.tap((left + right) // 2, (top + bottom) // 2)  # a hit: the target moves
    phone.tap(5, 400)  # a miss: the score line
    after = phone.screenshot()
    regions = phone.changed_regions(before, after)
    assert regions is not None and len(regions) >= 2
    covered = np.zeros(before.shape[:2], dtype=bool)
    for left, top, right, bottom in regions:
        covered[top:bottom, left:right] = True
    changed = np.any(before != after, axis=2)
    assert changed.any() and not (changed & ~covered).any()
    rows, cols = np.nonzero(covered)
    assert covered.sum() < (np.ptp(rows) + 1) * (np.ptp(cols) + 1)  # less than the box around them all


def test_a_line_at_fractional_points_crossing_a_layers_edge_is_clipped_to_it():
    """A clock hand's points are fractions: where it leaves a scrolling layer, the part inside is drawn."""
    from androidrl.virtual.ui.render import _draw_ops

    image = Image.new("RGB", (120, 120), (255, 255, 255))
    hand = ("line", (40, 40, 160, 90), [(50.5, 50.25), (150.7, 80.3)], (255, 0, 0), 3)
    _draw_ops(image, [("layer", (0, 0, 100, 100), (hand,))])
    assert image.getpixel((60, 53)) == (255, 0, 0)  # on the hand, inside the layer
    assert image.getpixel((110, 68)) == (255, 255, 255)  # on its way, outside the layer: clipped
    _draw_ops(image, [hand])
    assert image.getpixel((110, 68)) == (255, 0, 0)  # (drawn there without the layer)

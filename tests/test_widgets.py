"""The toolkit's widgets and windows, driven as an agent drives them (input tap, swipe, text, keyevent).

Everything runs on the practice app's widget gallery (``com.androidrl.practice/.WidgetsActivity``),
whose ``state`` line and ``Widgets`` log lines say what a gesture did; checks read the UI dump,
the screen, ``dumpsys``, ``settings`` and ``logcat``, as a task would.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.clock import Clock
from androidrl.virtual.ui.dialogs import AlertDialog, ListPopup
from androidrl.virtual.ui.time_picker import TimePickerDialog

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds, tap_node

GALLERY = "am start -n com.androidrl.practice/.WidgetsActivity"
RID = "com.androidrl.practice:id/"


@pytest.fixture
def stepped() -> VirtualPhone:
    """A phone whose clock moves only when told (toasts, snackbars and flings wait for it)."""
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, clock=Clock(stepped=True))


@pytest.fixture
def gallery(stepped: VirtualPhone) -> VirtualDevice:
    device = VirtualDevice(stepped)
    device.shell(GALLERY)
    return device


def state(device) -> dict[str, str]:
    """The gallery's state line as a dict (remember, size, volume, time, rows...)."""
    line = next(e.text for e in ui_elements(device.dump_ui()) if e.resource_id == RID + "state")
    return dict(part.split("=", 1) for part in line.split())


def nodes(device, **attrs: str) -> list:
    return [e for e in ui_elements(device.dump_ui()) if all(getattr(e, k) == v for k, v in attrs.items())]


def attribute(xml: str, name: str, **match: str) -> str:
    """The attribute ``name`` of the first node whose attributes equal ``match`` (names with dashes as _)."""
    for node in re.findall(r"<node [^>]*>", xml):
        if all(f'{k.replace("_", "-")}="{v}"' in node for k, v in match.items()):
            return re.search(rf' {name}="([^"]*)"', node).group(1)
    raise AssertionError(f"no node with {match}")


def log(device) -> str:
    return device.shell("logcat -d -s Widgets")


def press_key(device, phone: VirtualPhone, desc: str) -> None:
    """Tap a key of the soft keyboard (found by its description in the keyboard's window)."""
    phone.display.refresh()
    keyboard, _ = phone.ime.window()
    bounds = next(v.bounds for v in keyboard.walk() if v.content_desc == desc)
    device.tap(*center(bounds))


# ---------------------------------------------------------------------------- dialogs and popups


def test_alert_dialog_is_the_dumped_window_and_its_buttons_work(gallery):
    tap_node(gallery, text="Alert")
    xml = gallery.dump_ui()
    assert 'text="Widgets"' not in xml  # the dump shows the window with focus: the dialog
    assert attribute(xml, "text", resource_id="android:id/alertTitle") == "Delete all?"
    assert attribute(xml, "text", resource_id="android:id/message") == "40 items"
    assert attribute(xml, "class", resource_id="android:id/button1") == "android.widget.Button"
    assert attribute(xml, "package", resource_id="android:id/button2") == "com.androidrl.practice"
    tap_node(gallery, resource_id="android:id/button2")  # Cancel
    assert state(gallery)["rows"] == "40" and "kept all" in log(gallery)
    tap_node(gallery, text="Alert")
    tap_node(gallery, resource_id="android:id/button1")  # Delete
    assert state(gallery)["rows"] == "0"
    assert "deleted all" in log(gallery)


def test_a_dialog_takes_touches_outside_it_and_back_cancels_it(gallery, stepped):
    remember = center(node_bounds(gallery.dump_ui(), text="Remember me"))
    tap_node(gallery, text="Alert")
    before = gallery.screenshot()
    gallery.tap(*remember)  # outside the dialog: it is cancelled, the checkbox under the dim is not touched
    assert state(gallery)["remember"] == "0"
    assert not nodes(gallery, resource_id="android:id/alertTitle")
    assert not np.array_equal(before, gallery.screenshot())  # the dim went with it
    tap_node(gallery, text="Alert")
    gallery.shell("input keyevent BACK")
    assert not nodes(gallery, resource_id="android:id/alertTitle")
    assert stepped.foreground()[1] == "com.androidrl.practice.WidgetsActivity"
    gallery.shell("input keyevent BACK")
    assert stepped.foreground()[0] == "com.android.launcher3"


def test_single_choice_dialog_checks_items_and_stays_until_ok(gallery):
    tap_node(gallery, text="Choose")
    xml = gallery.dump_ui()
    assert attribute(xml, "checked", text="Medium") == "true"
    assert attribute(xml, "class", text="Medium") == "android.widget.CheckedTextView"
    assert attribute(xml, "resource-id", text="Medium") == "android:id/text1"
    tap_node(gallery, text="Large")
    xml = gallery.dump_ui()
    assert attribute(xml, "checked", text="Large") == "true" and attribute(xml, "checked", text="Medium") == "false"
    tap_node(gallery, resource_id="android:id/button1")
    assert state(gallery)["size"] == "large"


def test_overflow_menu_opens_a_popup_and_an_item_shows_a_toast(gallery, stepped):
    plain = gallery.screenshot()
    tap_node(gallery, content_desc="More options")
    xml = gallery.dump_ui()
    assert attribute(xml, "class", text="Refresh") == "android.widget.TextView"
    assert attribute(xml, "resource-id", text="Refresh") == "android:id/title"
    assert 'class="android.widget.ListView"' in xml and 'text="Widgets"' not in xml
    tap_node(gallery, text="Refresh")
    shown = gallery.screenshot()
    assert not np.array_equal(plain, shown)  # the toast is on screen...
    assert "Refresh" not in gallery.dump_ui()  # ...but takes no focus: the dump never shows it
    stepped.clock.advance(1.0)
    assert np.array_equal(shown, gallery.screenshot())
    stepped.clock.advance(1.5)  # Toast.LENGTH_SHORT is 2 s
    assert np.array_equal(plain, gallery.screenshot())


def test_a_context_menu_shows_at_the_long_press(gallery):
    tap_node(gallery, text="List")
    x, y = center(node_bounds(gallery.dump_ui(), text="Item 3"))
    gallery.long_press(x, y)
    menu = node_bounds(gallery.dump_ui(), text="Delete")
    assert menu[1] >= y  # the menu drops down from where the finger was
    tap_node(gallery, text="Delete")
    assert [e.text for e in nodes(gallery, resource_id=RID + "row")][:3] == ["Item 1", "Item 2", "Item 4"]


def test_spinner_drops_down_its_items(gallery):
    tap_node(gallery, resource_id=RID + "color")
    xml = gallery.dump_ui()
    assert attribute(xml, "checked", text="Red") == "true"
    assert attribute(xml, "class", text="Blue") == "android.widget.CheckedTextView"
    tap_node(gallery, text="Blue")
    assert state(gallery)["color"] == "Blue"
    assert nodes(gallery, resource_id="android:id/text1", text="Blue")  # the spinner shows the choice


# ---------------------------------------------------------------------------- selection controls


def test_checkbox_radio_switch_tabs_and_bottom_navigation(gallery):
    tap_node(gallery, text="Remember me")
    tap_node(gallery, text="Small")
    tap_node(gallery, text="Wi-Fi")
    tap_node(gallery, content_desc="Third")
    xml = gallery.dump_ui()
    assert attribute(xml, "checked", text="Remember me") == "true"
    assert attribute(xml, "class", text="Remember me") == "android.widget.CheckBox"
    assert attribute(xml, "checked", resource_id=RID + "size_small") == "true"
    assert attribute(xml, "checked", resource_id=RID + "size_medium") == "false"
    assert attribute(xml, "class", resource_id=RID + "size") == "android.widget.RadioGroup"
    assert attribute(xml, "selected", content_desc="Third") == "true"
    assert attribute(xml, "clickable", content_desc="Third") == "false"  # a selected tab is not clickable
    assert attribute(xml, "class", resource_id=RID + "tabs") == "android.widget.HorizontalScrollView"
    assert state(gallery) | {} == state(gallery) and state(gallery)["tab"] == "2"
    assert {k: state(gallery)[k] for k in ("remember", "size", "wifi")} == {
        "remember": "1",
        "size": "small",
        "wifi": "1",
    }
    tap_node(gallery, content_desc="List")
    xml = gallery.dump_ui()
    assert attribute(xml, "selected", resource_id=RID + "page_list") == "true"
    assert 'text="Item 1"' in xml


def test_seekbar_jumps_to_a_tap_and_follows_a_drag(gallery):
    left, top, right, bottom = node_bounds(gallery.dump_ui(), resource_id=RID + "volume")
    assert attribute(gallery.dump_ui(), "class", resource_id=RID + "volume") == "android.widget.SeekBar"
    inset = (bottom - top) // 2  # the track is inset by half the bar's height
    y = (top + bottom) // 2
    gallery.tap(right - inset, y)
    assert state(gallery)["volume"] == "100"
    gallery.swipe(right - inset, y, left + inset + (right - left - 2 * inset) // 4, y, 300)
    assert state(gallery)["volume"] == "25"
    gallery.tap(left + 1, y)  # before the track's start: 0
    assert state(gallery)["volume"] == "0"


# ---------------------------------------------------------------------------- pickers


def test_time_picker_clock_face(gallery):
    tap_node(gallery, text="Time")
    xml = gallery.dump_ui()
    assert attribute(xml, "text", resource_id="android:id/hours") == "7"
    assert attribute(xml, "selected", content_desc="7") == "true"
    assert attribute(xml, "class", content_desc="7") == "android.widget.RadialTimePickerView$RadialPickerTouchHelper"
    tap_node(gallery, content_desc="9")  # an hour; the face moves on to the minutes
    xml = gallery.dump_ui()
    assert attribute(xml, "text", resource_id="android:id/hours") == "9"
    assert 'content-desc="55"' in xml and 'content-desc="11"' not in xml
    tap_node(gallery, content_desc="45")
    tap_node(gallery, resource_id="android:id/pm_label")
    tap_node(gallery, resource_id="android:id/button1")
    assert state(gallery)["time"] == "21:45"


def test_time_picker_keyboard_mode_validates_what_is_typed(gallery):
    tap_node(gallery, text="Time")
    toggle = {"resource_id": "android:id/toggle_mode"}
    assert nodes(gallery, content_desc="Switch to text input mode for the time input.", **toggle)
    tap_node(gallery, **toggle)
    assert attribute(gallery.dump_ui(), "text", resource_id="android:id/input_hour") == "7"
    tap_node(gallery, resource_id="android:id/input_hour")
    gallery.shell("input keyevent MOVE_END DEL DEL")
    gallery.text("13")  # not an hour of a 12-hour clock
    tap_node(gallery, resource_id="android:id/button1")
    assert attribute(gallery.dump_ui(), "text", resource_id="android:id/label_error") == "Enter a valid time"
    tap_node(gallery, resource_id="android:id/input_hour")
    gallery.shell("input keyevent DEL DEL")
    gallery.text("11")
    tap_node(gallery, resource_id="android:id/input_minute")
    gallery.shell("input keyevent DEL DEL")
    gallery.text("05")
    tap_node(gallery, resource_id="android:id/button1")
    assert state(gallery)["time"] == "11:05"


def test_date_picker_months_days_and_years(gallery):
    tap_node(gallery, text="Date")
    xml = gallery.dump_ui()
    assert attribute(xml, "text", resource_id="android:id/date_picker_header_year") == "2026"
    assert attribute(xml, "checked", content_desc="15 June 2026") == "true"
    assert attribute(xml, "text", content_desc="15 June 2026") == "15"
    assert attribute(xml, "clickable", content_desc="15 June 2026") == "true"  # (MonthViewTouchHelper's)
    assert 'text="S" ' not in xml and 'text="M" ' not in xml  # the day initials are drawn, not nodes
    tap_node(gallery, content_desc="Next month")
    tap_node(gallery, content_desc="04 July 2026")
    assert attribute(gallery.dump_ui(), "text", resource_id="android:id/date_picker_header_date") == "Sat, Jul 4"
    tap_node(gallery, resource_id="android:id/date_picker_header_year")
    tap_node(gallery, text="2027")
    tap_node(gallery, resource_id="android:id/button1")
    assert state(gallery)["date"] == "2027-07-04"


# ---------------------------------------------------------------------------- lists


def _first_row(device) -> int:
    return int(nodes(device, resource_id=RID + "row")[0].text.split()[1])


def test_a_fast_swipe_flings_further_than_a_slow_one_and_settles_on_the_clock(stepped):
    rows = {}
    for name, duration in (("slow", 2000), ("fast", 100)):
        device = VirtualDevice(VirtualPhone(WIDTH, HEIGHT, DENSITY, clock=Clock(stepped=True)))
        device.shell(GALLERY)
        tap_node(device, text="List")
        device.swipe(180, 600, 180, 400, duration)
        rows[name, "lift"] = _first_row(device)
        device.phone.clock.advance(0.1)
        rows[name, "moving"] = _first_row(device)
        device.phone.clock.advance(5)
        rows[name, "rest"] = _first_row(device)
    assert rows["slow", "lift"] == rows["fast", "lift"] == 4  # 200 px of 56 px rows: both followed the finger
    assert rows["slow", "rest"] == 4  # 100 px/s: a slow lift does not fling far
    assert rows["fast", "lift"] < rows["fast", "moving"] < rows["fast", "rest"]
    assert rows["fast", "rest"] > rows["slow", "rest"] + 3


def test_overscroll_glows_at_the_edge_and_fades(gallery, stepped):
    tap_node(gallery, text="List")
    rest = gallery.screenshot()
    gallery.swipe(180, 300, 180, 500, 300)  # pull down at the top: nothing to show, the edge glows
    glowing = gallery.screenshot()
    assert _first_row(gallery) == 1
    regions = stepped.changed_regions(rest, glowing)
    assert regions and min(top for _, top, _, _ in regions) < 200  # at the top edge of the list
    stepped.clock.advance(1.0)
    assert np.array_equal(rest, gallery.screenshot())


def test_swipe_to_dismiss_with_undo_on_the_snackbar(gallery, stepped):
    tap_node(gallery, text="List")
    _, top, _, bottom = node_bounds(gallery.dump_ui(), text="Item 2")
    gallery.swipe(40, (top + bottom) // 2, 330, (top + bottom) // 2, 300)
    xml = gallery.dump_ui()
    assert 'text="Item 2"' not in xml and state(gallery)["rows"] == "39"
    assert attribute(xml, "text", resource_id=RID + "snackbar_text") == "Item 2 deleted"
    tap_node(gallery, resource_id=RID + "snackbar_action")
    assert [e.text for e in nodes(gallery, resource_id=RID + "row")][:3] == ["Item 1", "Item 2", "Item 3"]
    assert "removed Item 2 (end)" in log(gallery) and "restored Item 2" in log(gallery)
    _, top, _, bottom = node_bounds(gallery.dump_ui(), text="Item 5")
    gallery.swipe(330, (top + bottom) // 2, 40, (top + bottom) // 2, 300)
    assert nodes(gallery, resource_id=RID + "snackbar_text")
    stepped.clock.advance(3.0)  # Snackbar.LENGTH_LONG is 2.75 s
    assert not nodes(gallery, resource_id=RID + "snackbar_text")
    assert state(gallery)["rows"] == "39"


# ---------------------------------------------------------------------------- text and the keyboard


def test_a_tapped_field_brings_up_the_keyboard_above_which_the_app_is_laid_out(gallery, stepped):
    tap_node(gallery, text="Text")
    nav_bottom = node_bounds(gallery.dump_ui(), resource_id=RID + "navigation")[3]
    assert "mInputShown=false" in gallery.shell("dumpsys input_method")
    tap_node(gallery, resource_id=RID + "name")
    assert "mInputShown=true" in gallery.shell("dumpsys input_method")
    assert "mCurMethodId=com.android.inputmethod.latin/.LatinIME" in gallery.shell("dumpsys input_method")
    assert node_bounds(gallery.dump_ui(), resource_id=RID + "navigation")[3] < nav_bottom - 200  # adjustResize
    press_key(gallery, stepped, "Shift")
    press_key(gallery, stepped, "H")
    press_key(gallery, stepped, "i")
    press_key(gallery, stepped, "Space")
    gallery.text("there")  # `input text` still types
    press_key(gallery, stepped, "Delete")
    assert attribute(gallery.dump_ui(), "text", resource_id=RID + "name") == "Hi ther"
    gallery.shell("input keyevent BACK")  # the first BACK closes the keyboard
    assert "mInputShown=false" in gallery.shell("dumpsys input_method")
    assert stepped.foreground()[1] == "com.androidrl.practice.WidgetsActivity"
    assert node_bounds(gallery.dump_ui(), resource_id=RID + "navigation")[3] == nav_bottom


def test_cursor_keys_and_the_enter_key(gallery):
    tap_node(gallery, text="Text")
    tap_node(gallery, resource_id=RID + "name")
    gallery.text("helo")
    gallery.shell("input keyevent DPAD_LEFT")
    gallery.text("l")
    gallery.shell("input keyevent MOVE_HOME")
    gallery.text("_")
    gallery.shell("input keyevent FORWARD_DEL")
    assert attribute(gallery.dump_ui(), "text", resource_id=RID + "name") == "_ello"
    gallery.shell("input keyevent ENTER")  # the field's IME action saves
    assert "name _ello" in log(gallery)


def test_long_press_selects_a_word_and_the_toolbar_copies_and_pastes(gallery, stepped):
    tap_node(gallery, text="Text")
    tap_node(gallery, resource_id=RID + "name")
    gallery.text("Hi there")
    left, top, _, bottom = node_bounds(gallery.dump_ui(), resource_id=RID + "name")
    gallery.long_press(left + 14, (top + bottom) // 2)  # on "Hi"
    assert "Copy" not in gallery.dump_ui()  # the floating toolbar takes no focus: not in the dump
    stepped.display.refresh()
    toolbar = next(w for w in stepped.display.windows() if any(v.text == "Copy" for v in w.walk()))
    gallery.tap(*center(next(v.bounds for v in toolbar.walk() if v.text == "Copy")))
    paste = node_bounds(gallery.dump_ui(), resource_id=RID + "paste")
    gallery.long_press(paste[0] + 20, (paste[1] + paste[3]) // 2)  # an empty field offers Paste
    stepped.display.refresh()
    toolbar = next(w for w in stepped.display.windows() if any(v.text == "Paste" for v in w.walk()))
    assert [v.text for v in toolbar.walk() if v.text] == ["Paste"]
    gallery.tap(*center(next(v.bounds for v in toolbar.walk() if v.text == "Paste")))
    assert attribute(gallery.dump_ui(), "text", resource_id=RID + "paste") == "Hi"


# ---------------------------------------------------------------------------- configuration


def test_dark_theme_changes_the_pixels_not_the_dump(gallery):
    light, xml = gallery.screenshot(), gallery.dump_ui()
    assert gallery.shell("cmd uimode night yes") == "Night mode: yes\n"
    assert gallery.shell("settings get secure ui_night_mode") == "2\n"
    dark = gallery.screenshot()
    assert dark[400:600].mean() < light[400:600].mean() - 100
    assert gallery.dump_ui() == xml
    assert gallery.shell("cmd uimode night") == "Night mode: yes\n"
    gallery.shell("settings put secure ui_night_mode 1")
    assert np.array_equal(gallery.screenshot(), light)


def test_font_scale_grows_text_and_the_dump_bounds(gallery):
    before = node_bounds(gallery.dump_ui(), resource_id=RID + "state")
    remember = node_bounds(gallery.dump_ui(), text="Remember me")
    gallery.shell("settings put system font_scale 1.5")
    after = node_bounds(gallery.dump_ui(), resource_id=RID + "state")
    assert after[3] - after[1] > before[3] - before[1]  # a line of text grows with its text
    assert node_bounds(gallery.dump_ui(), text="Remember me")[1] > remember[1]  # and what is below moves down


def test_a_locale_switches_app_and_framework_strings(gallery):
    gallery.shell("setprop persist.sys.locale de-DE")
    xml = gallery.dump_ui()
    assert 'text="Steuerelemente"' in xml and 'content-desc="Weitere Optionen"' in xml
    tap_node(gallery, text="Warnung")
    assert attribute(gallery.dump_ui(), "text", resource_id="android:id/button2") == "Abbrechen"
    gallery.shell("input keyevent BACK")
    tap_node(gallery, text="Uhrzeit")  # German clocks run 24 hours
    assert 'content-desc="23"' in gallery.dump_ui()


def test_a_phone_starts_in_its_configuration():
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, night=True, font_scale=1.3, locale="de-DE")
    out = phone.shell("cmd uimode night; settings get system font_scale; getprop persist.sys.locale").stdout
    assert out == b"Night mode: yes\n1.3\nde-DE\n"


# ---------------------------------------------------------------------------- snapshots, the renderer, bad input


def test_a_snapshot_keeps_an_open_dialog_and_its_callbacks_reach_the_restored_activity(gallery, stepped):
    tap_node(gallery, text="Time")
    tap_node(gallery, content_desc="9")
    stepped.save_snapshot("picking")
    tap_node(gallery, resource_id="android:id/button2")  # cancelled in this timeline
    stepped.load_snapshot("picking")
    assert attribute(gallery.dump_ui(), "text", resource_id="android:id/hours") == "9"
    tap_node(gallery, resource_id="android:id/button1")
    assert state(gallery)["time"] == "09:30"


def test_incremental_frames_of_windows_equal_full_redraws():
    """Dialogs (the dim), popups, the keyboard and the clock face redraw in part; the result is the full redraw."""
    from PIL import Image

    from androidrl.virtual.ui.render import _draw_ops

    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=2, clock=Clock(stepped=True))
    phone.shell(GALLERY)
    rng = np.random.default_rng(0)
    for _ in range(150):
        roll = rng.random()
        if roll < 0.6:
            phone.tap(rng.integers(WIDTH), rng.integers(HEIGHT))
        elif roll < 0.7:
            phone.swipe(WIDTH / 2, HEIGHT * 0.7, WIDTH / 2, HEIGHT * 0.3, int(rng.integers(50, 500)))
        elif roll < 0.75:
            phone.press_key(4)
        elif roll < 0.8:
            phone.type_text("ab")
        elif roll < 0.85:
            phone.clock.advance(0.3)
        else:
            phone.shell(GALLERY)
        frame = phone.screenshot()
        full = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
        _draw_ops(full, phone.display._ops)
        assert np.array_equal(frame, np.asarray(full))
    assert phone.display._renderer.partial_frames > 10


class _Host:
    def handler(self, *args) -> None:
        pass


def test_window_callbacks_must_survive_a_snapshot():
    host, outer = _Host(), 1
    with pytest.raises(TypeError, match=r"AlertDialog positive: expected a bound method .* closure"):
        AlertDialog("Title", positive=("OK", lambda: outer))
    AlertDialog("Title", positive=("OK", host.handler))
    AlertDialog("Title", positive=("OK", functools.partial(host.handler, 1)))
    with pytest.raises(TypeError, match="ListPopup on_select: expected a callable, got str"):
        ListPopup(["a"], on_select="delete")
    with pytest.raises(ValueError, match="expected 2 flags"):
        AlertDialog(items=["a", "b"], checked=[True])
    with pytest.raises(ValueError, match="hour 0-23 and minute 0-59, got 24:00"):
        TimePickerDialog(host, 24, 0, host.handler)


def test_bad_configuration_input(phone):
    out = phone.shell("cmd uimode night maybe")
    assert out.exit_code == 255 and b"Error: mode must be 'yes', 'no', or 'auto'" in out.stderr
    with pytest.raises(ValueError, match="font_scale: expected a number from 0.5 to 3.0"):
        VirtualPhone(WIDTH, HEIGHT, DENSITY, font_scale=9)
    with pytest.raises(ValueError, match="locale: expected a language tag"):
        VirtualPhone(WIDTH, HEIGHT, DENSITY, locale="German")
    phone.shell("settings put system font_scale big")  # a value Android would not parse: drawn at 1.0
    assert phone.screenshot().shape == (HEIGHT, WIDTH, 3)
    with pytest.raises(TypeError, match="Activity.show: expected a Window"):
        phone.top_activity.show("a dialog")


# ---------------------------------------------------------------------------- over the real adb


@pytest.mark.parametrize("device", ["inprocess", "adb"], indirect=True)
def test_dialog_keyboard_and_night_mode_over_adb(device, phone):
    device.shell(GALLERY)
    tap_node(device, text="Choose")
    tap_node(device, text="Small")
    tap_node(device, resource_id="android:id/button1")
    tap_node(device, text="Text")
    tap_node(device, resource_id=RID + "name")
    assert "mInputShown=true" in device.shell("dumpsys input_method")
    device.text("adb")
    device.shell("input keyevent ENTER")
    assert "name adb" in device.shell("logcat -d -s Widgets")
    assert device.shell("cmd uimode night yes") == "Night mode: yes\n"
    assert "size=small" in device.dump_ui()


def test_a_config_names_the_phone_configuration():
    from androidrl.train.config import ConfigError, load_config

    config = load_config(
        "quickstart",
        ["devices.virtual.night=true", "devices.virtual.font_scale=1.3", "devices.virtual.locale=de-DE"],
    )
    spec = config.devices.specs()[0]
    assert (spec.night, spec.font_scale, spec.locale) == (True, 1.3, "de-DE")
    device = spec.make_device()
    assert device.shell("cmd uimode night; getprop persist.sys.locale") == "Night mode: yes\nde-DE\n"
    with pytest.raises(ConfigError, match="devices.virtual.locale"):
        load_config("quickstart", ["devices.virtual.locale=German"])
    with pytest.raises(ConfigError, match="devices.virtual.font_scale"):
        load_config("quickstart", ["devices.virtual.font_scale=7"])


def test_multi_choice_dialog_toggles_items(gallery):
    tap_node(gallery, text="Repeat")
    xml = gallery.dump_ui()
    assert attribute(xml, "class", text="Mon") == "android.widget.CheckedTextView"
    assert attribute(xml, "checkable", text="Mon") == "true" and attribute(xml, "checked", text="Mon") == "false"
    tap_node(gallery, text="Mon")
    tap_node(gallery, text="Wed")
    tap_node(gallery, text="Mon")
    assert attribute(gallery.dump_ui(), "checked", text="Wed") == "true"
    tap_node(gallery, resource_id="android:id/button1")
    assert state(gallery)["days"] == "Wed"


def test_extras_set_the_size_color_and_checked_days_it_starts_with(gallery):
    gallery.shell(GALLERY + " -S --es size large --es color Blue --es days Tue,Sun,Xyz")
    assert (state(gallery)["size"], state(gallery)["color"], state(gallery)["days"]) == ("large", "Blue", "Tue,Sun")
    gallery.shell(GALLERY + " -S --es size huge --es color blue")
    assert (state(gallery)["size"], state(gallery)["color"], state(gallery)["days"]) == ("medium", "Red", "-")


def test_a_dialog_with_a_text_field_takes_the_keyboard_and_typed_text(gallery, stepped):
    tap_node(gallery, text="Label")
    xml = gallery.dump_ui()
    assert attribute(xml, "class", resource_id="android:id/custom") == "android.widget.FrameLayout"
    dialog_top = node_bounds(xml, resource_id="android:id/parentPanel")[1]
    tap_node(gallery, resource_id=RID + "label_input")
    assert "mInputShown=true" in gallery.shell("dumpsys input_method")
    assert node_bounds(gallery.dump_ui(), resource_id="android:id/parentPanel")[1] < dialog_top  # moved up
    gallery.text("Gym")
    tap_node(gallery, resource_id="android:id/button1")
    assert state(gallery)["label"] == "Gym"
    assert "mInputShown=false" in gallery.shell("dumpsys input_method")  # no field has focus any more


def test_a_popup_menu_drops_down_from_its_anchor(gallery):
    anchor = node_bounds(gallery.dump_ui(), resource_id=RID + "sort")
    tap_node(gallery, resource_id=RID + "sort")
    assert (
        node_bounds(gallery.dump_ui(), text="By date")[1] >= anchor[3]
        or node_bounds(gallery.dump_ui(), text="By name")[3] <= anchor[1]
    )  # below the button, or above it when there is no room below
    tap_node(gallery, text="By date")
    assert state(gallery)["sort"] == "date"


def test_a_number_field_brings_up_the_keyboard_with_digits(gallery, stepped):
    tap_node(gallery, text="Time")
    tap_node(gallery, resource_id="android:id/toggle_mode")
    tap_node(gallery, resource_id="android:id/input_minute")
    gallery.shell("input keyevent DEL DEL")
    press_key(gallery, stepped, "4")
    press_key(gallery, stepped, "2")
    assert attribute(gallery.dump_ui(), "text", resource_id="android:id/input_minute") == "42"


def test_toasts_queue_and_show_one_after_another(gallery, stepped):
    plain = gallery.screenshot()
    for item in ("Refresh", "About"):
        tap_node(gallery, content_desc="More options")
        tap_node(gallery, text=item)
    first = gallery.screenshot()
    stepped.clock.advance(2.1)  # the first toast's 2 s are up: the second shows
    second = gallery.screenshot()
    assert not np.array_equal(first, plain) and not np.array_equal(second, first)
    stepped.clock.advance(2.1)
    assert np.array_equal(gallery.screenshot(), plain)


def test_back_closes_the_keyboard_then_the_dialog_then_the_activity(gallery, stepped):
    tap_node(gallery, text="Label")
    tap_node(gallery, resource_id=RID + "label_input")
    gallery.shell("input keyevent BACK")
    assert "mInputShown=false" in gallery.shell("dumpsys input_method")
    assert nodes(gallery, resource_id=RID + "label_input")  # the dialog stays
    gallery.shell("input keyevent BACK")
    assert not nodes(gallery, resource_id=RID + "label_input") and nodes(gallery, resource_id=RID + "state")
    gallery.shell("input keyevent BACK")
    assert stepped.foreground()[0] == "com.android.launcher3"


def test_the_shade_covers_the_windows_takes_their_touches_and_back_closes_it_first(gallery, stepped):
    tap_node(gallery, text="Label")
    tap_node(gallery, resource_id=RID + "label_input")
    gallery.text("Gym")
    ok = center(node_bounds(gallery.dump_ui(), resource_id="android:id/button1"))
    gallery.shell("cmd statusbar expand-notifications")
    xml = gallery.dump_ui()  # the dump shows the focused window: SystemUI's NotificationShade
    assert 'package="com.android.systemui"' in xml and RID + "label_input" not in xml
    gallery.tap(*ok)  # the shade takes the touch: the dialog's OK under it is not pressed
    assert "mInputShown=true" in gallery.shell("dumpsys input_method")  # (under the shade)
    gallery.shell("input keyevent BACK")  # BACK: the shade, then the keyboard, the dialog, the activity
    assert nodes(gallery, resource_id=RID + "label_input")
    assert "mInputShown=true" in gallery.shell("dumpsys input_method")
    gallery.shell("input keyevent BACK")
    assert "mInputShown=false" in gallery.shell("dumpsys input_method")
    gallery.shell("input keyevent BACK")
    assert not nodes(gallery, resource_id=RID + "label_input") and state(gallery)["label"] == "-"  # never OK'd
    gallery.shell("input keyevent BACK")
    assert stepped.foreground()[0] == "com.android.launcher3"


def test_the_keyguard_is_drawn_over_every_window_and_a_sleeping_screen_is_black(gallery, stepped):
    tap_node(gallery, text="Alert")
    stepped.top_activity.toast("Refreshed")
    gallery.shell("input keyevent POWER")
    assert gallery.screenshot().max() == 0
    gallery.shell("input keyevent WAKEUP")
    xml = gallery.dump_ui()
    assert "com.android.systemui:id/keyguard_root_view" in xml and "android:id/alertTitle" not in xml
    locked = gallery.screenshot()
    stepped.clock.advance(2.5)  # the toast's time is up: the lock screen, over it, looks the same
    assert np.array_equal(gallery.screenshot(), locked)
    gallery.shell("input keyevent BACK")  # the lock screen keeps BACK from the dialog
    gallery.shell("wm dismiss-keyguard")
    assert attribute(gallery.dump_ui(), "text", resource_id="android:id/alertTitle") == "Delete all?"


def test_a_snapshot_keeps_the_windows_and_the_system_ui_together(gallery, stepped):
    tap_node(gallery, text="Label")
    tap_node(gallery, resource_id=RID + "label_input")
    gallery.shell("cmd notification post -t Hello tag World")
    gallery.shell("cmd statusbar expand-notifications")
    stepped.save_snapshot("both")
    gallery.shell("cmd statusbar collapse; input keyevent BACK; input keyevent BACK; cmd uimode night yes")
    stepped.load_snapshot("both")
    assert 'text="World"' in gallery.dump_ui() and "mInputShown=true" in gallery.shell("dumpsys input_method")
    gallery.shell("cmd statusbar collapse")
    assert nodes(gallery, resource_id=RID + "label_input")
    assert gallery.shell("cmd uimode night") == "Night mode: no\n"


def test_dumpsys_uimode_and_the_configuration_follow_the_night_mode(gallery):
    assert "mNightMode=1 (no)" in gallery.shell("dumpsys uimode")
    assert " port finger " in gallery.shell("dumpsys activity top")
    gallery.shell("cmd uimode night yes")
    assert "mNightMode=2 (yes)" in gallery.shell("dumpsys uimode") and "mCurUiMode=0x21" in gallery.shell(
        "dumpsys uimode"
    )
    assert " port night finger " in gallery.shell("dumpsys activity top")
    assert "\n  uimode\n" in gallery.shell("cmd -l")


def test_an_app_string_it_does_not_have_is_an_error(gallery, stepped):
    with pytest.raises(KeyError, match="com.androidrl.practice has no string 'nope'"):
        stepped.top_activity.string("nope")
    assert stepped.top_activity.string("deleted", "Item 7") == "Item 7 deleted"

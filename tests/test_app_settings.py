"""Settings (``com.android.settings``) driven as an agent drives it: ``input tap/swipe/text/keyevent`` on the
nodes of the UI dump, checked through what Android exposes (``settings get``, ``dumpsys``, ``pidof``,
``content query``, ``pm``, ``getprop``, ``locksettings``).
"""

from __future__ import annotations

import re

import pytest

from androidrl.device.adb import AdbDevice
from androidrl.device.virtual import VirtualDevice
from androidrl.ui import ui_elements
from androidrl.virtual.phone import VirtualPhone
from androidrl.virtual.system.framework.brightness import setting_from_slider

from conftest import DENSITY, HEIGHT, WIDTH, center, make_apk, node_bounds, tap_node

RID = "com.android.settings:id/"


@pytest.fixture
def device(phone: VirtualPhone) -> VirtualDevice:
    return VirtualDevice(phone, timeout=5.0)


def sh(device, command: str) -> str:
    return device.shell(command, check=False).strip()


def texts(device) -> list[str]:
    return [e.text for e in ui_elements(device.dump_ui()) if e.text]


def has(device, **attrs: str) -> bool:
    return any(all(getattr(e, k) == v for k, v in attrs.items()) for e in ui_elements(device.dump_ui()))


def tap_title(device, title: str) -> None:
    """Tap the preference titled ``title``, scrolling the list down until it shows."""
    for _ in range(6):
        if has(device, text=title):
            tap_node(device, text=title)
            return
        device.shell(f"input swipe {WIDTH // 2} {HEIGHT - 150} {WIDTH // 2} 200 400")
    raise AssertionError(f"no row {title!r} in {texts(device)}")


def open_page(device, *titles: str) -> None:
    device.shell("am start -a android.settings.SETTINGS")
    for title in titles:
        tap_title(device, title)


# ---------------------------------------------------------------------------- the main list and the pages


def test_the_main_list_keeps_its_rows_and_every_page_opens_and_goes_back(device):
    device.shell("am start -a android.settings.SETTINGS")
    assert texts(device)[:3] == ["Settings", "Network & internet", "Mobile, Wi-Fi, hotspot"]
    markers = {
        "Network & internet": "Airplane mode",
        "Connected devices": "Pair new device",
        "Apps": "Default apps",
        "Notifications": "App notifications",
        "Battery": "Battery Saver",
        "Sound & vibration": "Media volume",
        "Display": "Brightness level",
        "Security & privacy": "Screen lock",
        "Location": "Use location",
        "System": "Date & time",
        "About phone": "Android version",
    }
    for title, marker in markers.items():
        tap_title(device, title)
        assert marker in texts(device), title
        device.shell("input keyevent BACK")  # back-to-list: the main list again
        assert has(device, text="Settings") and has(device, text=title), title


def test_intents_open_the_pages_and_app_info_takes_a_package(device):
    device.shell("am start -a android.settings.DISPLAY_SETTINGS")
    assert "Screen timeout" in texts(device)
    device.shell("am start -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.androidrl.notes")
    assert has(device, resource_id=RID + "entity_header_title", text="Notes")
    assert "com.android.settings/.applications.InstalledAppDetails" in sh(device, "dumpsys activity activities")
    device.shell("am start -a android.settings.APP_NOTIFICATION_SETTINGS --es android.provider.extra.APP_PACKAGE "
                 "com.androidrl.notes")  # fmt: skip
    assert "All Notes notifications" in texts(device)


def test_long_press_on_a_launcher_icon_opens_app_info(device):
    device.shell("input keyevent HOME")
    x, y = center(node_bounds(device.dump_ui(), content_desc="Notes"))
    device.shell(f"input swipe {x} {y} {x} {y} 800")
    tap_node(device, text="App info")
    assert has(device, resource_id=RID + "entity_header_title", text="Notes")


# ---------------------------------------------------------------------------- Display


def test_brightness_slider_writes_screen_brightness_as_aosp_maps_it(device):
    open_page(device, "Display")
    assert "82%" in texts(device)  # 102 of 255, in gamma space
    tap_title(device, "Brightness level")
    left, top, right, bottom = node_bounds(device.dump_ui(), resource_id="com.android.systemui:id/slider")
    inset = (bottom - top) // 2
    y = (top + bottom) // 2
    device.shell(f"input swipe {left + inset} {y} {left + inset + (right - left - 2 * inset) // 2} {y} 300")
    assert sh(device, "settings get system screen_brightness") == str(setting_from_slider(65535 // 2 + 1))
    device.shell(f"input tap {right - inset} {y}")  # the end of the track: full brightness
    assert sh(device, "settings get system screen_brightness") == "255"
    device.shell("input keyevent BACK")
    assert "100%" in texts(device)


def test_screen_timeout_dialog_writes_the_timeout(device):
    open_page(device, "Display")
    tap_title(device, "Screen timeout")
    xml = device.dump_ui()
    assert 'text="Screen timeout"' in xml and re.search(r'text="1 minute"[^>]*checked="true"', xml)
    tap_node(device, text="30 seconds")
    assert sh(device, "settings get system screen_off_timeout") == "30000"
    assert not has(device, resource_id="android:id/alertTitle")
    assert "After 30 seconds of inactivity" in texts(device)


def test_dark_theme_and_auto_rotate_switches(device):
    open_page(device, "Display")
    tap_title(device, "Dark theme")
    assert sh(device, "settings get secure ui_night_mode") == "2"
    assert sh(device, "cmd uimode night") == "Night mode: yes"
    tap_title(device, "Auto-rotate screen")
    assert sh(device, "settings get system accelerometer_rotation") == "1"
    assert re.search(r'text="Auto-rotate screen"', device.dump_ui())


def test_font_size_steps_through_aosps_values(device):
    open_page(device, "Display", "Display size and text")
    tap_node(device, content_desc="Make larger")
    assert sh(device, "settings get system font_scale") == "1.15"
    left, top, right, bottom = node_bounds(device.dump_ui(), resource_id=RID + "seekbar")
    device.shell(f"input tap {right - (bottom - top) // 2} {(top + bottom) // 2}")
    assert sh(device, "settings get system font_scale") == "2.0"
    tap_node(device, content_desc="Make smaller")
    assert sh(device, "settings get system font_scale") == "1.8"


# ---------------------------------------------------------------------------- Sound, Battery, Location


def test_volume_sliders_and_do_not_disturb(device):
    open_page(device, "Sound & vibration")
    left, top, right, bottom = node_bounds(device.dump_ui(), content_desc="Media volume")
    device.shell(f"input tap {right - (bottom - top) // 2} {(top + bottom) // 2}")
    assert sh(device, "settings get system volume_music_speaker") == "15"
    left, top, right, bottom = node_bounds(device.dump_ui(), content_desc="Ring & notification volume")
    device.shell(f"input tap {left + (bottom - top) // 2} {(top + bottom) // 2}")
    assert sh(device, "settings get system volume_ring_speaker") == "0"
    assert sh(device, "settings get system volume_notification_speaker") == "0"  # aliased to the ring stream
    tap_title(device, "Do Not Disturb")
    tap_node(device, resource_id=RID + "zen_mode_settings_turn_on_button")
    assert sh(device, "settings get global zen_mode") == "1"
    tap_node(device, text="Turn off now")
    assert sh(device, "settings get global zen_mode") == "0"


def test_battery_saver_and_location_switches(device):
    open_page(device, "Battery", "Battery Saver")
    tap_node(device, text="Use Battery Saver")
    assert sh(device, "settings get global low_power") == "1"
    open_page(device, "Location")
    tap_node(device, text="Use location")
    assert sh(device, "settings get secure location_mode") == "0"
    device.shell("input keyevent BACK")
    assert "Off" in texts(device)  # the main list's Location summary


def test_cmd_notification_set_dnd_sets_the_zen_mode_of_its_interruption_filter(device):
    for mode, zen in (("on", "2"), ("priority", "1"), ("alarms", "3"), ("off", "0"), ("none", "2"), ("all", "0")):
        assert sh(device, f"cmd notification set_dnd {mode}") == ""
        assert sh(device, "settings get global zen_mode") == zen
    assert sh(device, "cmd notification set_dnd loud") == "Error occurred. Check logcat for details. Invalid filter: 0"
    assert sh(device, "settings get global zen_mode") == "0"


def test_cmd_location_switches_location_as_location_shell_command_does(device):
    assert sh(device, "cmd location is-location-enabled") == "true"
    assert sh(device, "cmd location set-location-enabled false") == ""
    assert sh(device, "settings get secure location_mode") == "0"
    assert sh(device, "cmd location is-location-enabled --user 0") == "false"
    device.shell("cmd location set-location-enabled --user 0 TRUE")
    assert sh(device, "settings get secure location_mode") == "3"
    bad = device.execute("cmd location set-location-enabled --uid 0 false")
    assert bad.exit_code == 255 and 'Expected "--user" option, but got "--uid"' in bad.stderr.decode()
    bad = device.execute("cmd location set-location-enabled")
    assert bad.exit_code == 255 and 'Argument expected after "set-location-enabled"' in bad.stderr.decode()
    assert sh(device, "settings get secure location_mode") == "3"  # (nothing changed)


# ---------------------------------------------------------------------------- Apps


def test_force_stop_kills_the_app(device):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    assert sh(device, "pidof com.androidrl.notes")
    device.shell("am start -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.androidrl.notes")
    tap_node(device, resource_id=RID + "button3")
    assert "Force stop?" in texts(device)
    tap_node(device, resource_id="android:id/button1")
    assert sh(device, "pidof com.androidrl.notes") == ""
    assert sh(device, "logcat -d -s Settings").endswith("force stop com.androidrl.notes")
    assert 'enabled="false"' in re.search(r'<node [^>]*resource-id="com.android.settings:id/button3"[^>]*>',
                                          device.dump_ui())[0]  # fmt: skip


def test_clear_storage_wipes_the_apps_provider_as_pm_clear(device):
    alarms = "content://com.android.deskclock/alarms"
    binds = "--bind hour:i:5 --bind minutes:i:45 --bind daysofweek:i:0 --bind enabled:i:1 --bind vibrate:i:1"
    device.shell(f"content insert --uri {alarms} {binds} --bind label:s:Gym")
    assert "label=Gym" in sh(device, f"content query --uri {alarms}")
    open_page(device, "Apps")
    tap_title(device, next(t for t in texts(device) if t.startswith("See all ")))
    tap_title(device, "Clock")
    tap_title(device, "Storage & cache")
    tap_node(device, text="Clear storage")
    assert "Clear app data?" in texts(device)
    tap_node(device, text="OK")
    rows = sh(device, f"content query --uri {alarms}")
    assert "Gym" not in rows and rows.count("Row:") == 2  # DeskClock's two default alarms again


def test_notifications_off_blocks_the_app_as_dumpsys_notification_shows(device):
    device.shell("am start -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.androidrl.notes")
    tap_title(device, "Notifications")
    tap_node(device, text="All Notes notifications")
    dump = sh(device, "dumpsys notification")
    assert re.search(r"AppSettings: com\.androidrl\.notes \(\d+\) importance=NONE userSet=true", dump)
    device.shell("input keyevent BACK")
    assert re.search(r'text="Notifications".*?text="Off"', device.dump_ui())
    device.shell("pm clear com.androidrl.notes")  # a clear resets the app's permissions
    assert "com.androidrl.notes" not in sh(device, "dumpsys notification")


def test_uninstall_removes_a_user_app(device, phone):
    phone.fs.write("/data/local/tmp/demo.apk", make_apk("com.example.demo"))
    assert sh(device, "pm install /data/local/tmp/demo.apk") == "Success"
    device.shell("am start -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.example.demo")
    tap_node(device, text="Uninstall")
    tap_node(device, text="OK")
    assert "com.example.demo" not in sh(device, "pm list packages")


# ---------------------------------------------------------------------------- Security: a PIN


def test_a_pin_set_in_settings_makes_the_keyguard_ask_for_it(device, phone):
    open_page(device, "Security & privacy", "Screen lock")
    tap_node(device, text="PIN")
    device.shell("input text 1234 && input keyevent ENTER")
    assert "Re-enter your PIN" in texts(device)
    device.shell("input text 1234")
    tap_node(device, text="Confirm")
    assert "PIN" in texts(device)  # Screen lock's summary
    assert sh(device, "locksettings verify --old 1234") == "Lock credential verified successfully"
    assert "secure=true" in sh(device, "dumpsys window policy")
    device.shell("input keyevent SLEEP && input keyevent WAKEUP && wm dismiss-keyguard")
    assert phone.keyguard.showing and "Enter your PIN" in texts(device)  # the bouncer, not unlocked
    device.shell("input text 9999 && input keyevent ENTER")
    assert "Wrong PIN" in texts(device) and phone.keyguard.showing
    for digit in "1234":
        tap_node(device, resource_id=f"com.android.systemui:id/key{digit}")
    tap_node(device, content_desc="Enter")
    assert not phone.keyguard.showing


def test_removing_a_pin_asks_for_it_first(device):
    assert sh(device, "locksettings set-pin 2468") == "Pin set to '2468'"
    open_page(device, "Security & privacy", "Screen lock")
    device.shell("input text 1111 && input keyevent ENTER")
    assert "Wrong PIN" in texts(device)
    device.shell("input text 2468 && input keyevent ENTER")
    tap_node(device, text="Swipe")
    assert "Remove device protection?" in texts(device)
    tap_node(device, text="Delete")
    assert sh(device, "locksettings get-disabled") == "false" and "Swipe" in texts(device)
    assert "secure=false" in sh(device, "dumpsys window policy")


def test_a_snapshot_reset_takes_a_pin_away_and_the_env_unlocks(phone):
    from androidrl import AndroidEnv

    phone.save_snapshot("clean")
    phone.shell("locksettings set-pin 1357; input keyevent SLEEP; input keyevent WAKEUP")
    phone.shell("wm dismiss-keyguard")
    assert phone.keyguard.showing  # a PIN: the env's unlock cannot open it
    phone.load_snapshot("clean")
    env = AndroidEnv(VirtualDevice(phone), dump_xml=False)
    try:
        env.reset(seed=0)
        assert not phone.keyguard.showing and phone.shell("locksettings verify").stdout.startswith(b"Lock")
    finally:
        env.close()


def test_locksettings_refuses_what_lockSettingsShellCommand_refuses(device):
    assert sh(device, "locksettings set-pin 12") == (
        "New credential doesn't satisfy admin policies: Password too short; required: 4"
    )
    assert sh(device, "locksettings clear --old 1") == "Old password provided but user has no password"
    sh(device, "locksettings set-pin 1111")
    assert sh(device, "cmd lock_settings clear --old 2222") == "Old password '2222' didn't match"
    assert sh(device, "locksettings clear --old 1111") == "Lock credential cleared"


# ---------------------------------------------------------------------------- System and About


def test_languages_switch_the_system_locale(device):
    open_page(device, "System", "Languages")
    tap_node(device, text="Deutsch (Deutschland)")
    assert sh(device, "getprop persist.sys.locale") == "de-DE"
    assert sh(device, "settings get system system_locales") == "de-DE"
    assert "Systemsprachen" in texts(device)
    device.shell("am start -a android.settings.SETTINGS")
    assert "Netzwerk & Internet" in texts(device)


def test_date_and_time_24_hour_format(device):
    open_page(device, "System", "Date & time")
    xml = device.dump_ui()
    assert 'text="Use 24-hour format"' in xml and "1:00 PM" in xml
    tap_node(device, text="Use 24-hour format")  # disabled while the locale decides
    assert sh(device, "settings get system time_12_24") == "null"
    tap_node(device, text="Use locale default")
    assert sh(device, "settings get system time_12_24") == "12"
    tap_node(device, text="Use 24-hour format")
    assert sh(device, "settings get system time_12_24") == "24" and "13:00" in texts(device)


def test_device_name_is_editable(device):
    open_page(device, "About phone")
    tap_node(device, text="Device name")
    device.shell("input keyevent DEL && input text 'Pixel Lab'")
    tap_node(device, text="OK")
    assert sh(device, "settings get global device_name") == "Pixel Lab"
    assert "Pixel Lab" in texts(device) and "14" in texts(device)


def test_german_and_dark_draw_the_pages_in_their_configuration():
    phone = VirtualPhone(WIDTH, HEIGHT, DENSITY, night=True, locale="de-DE")
    device = VirtualDevice(phone)
    device.shell("am start -a android.settings.DISPLAY_SETTINGS")
    assert {"Helligkeitsstufe", "Dunkles Design", "Display automatisch ausschalten"} <= set(texts(device))
    light = VirtualPhone(WIDTH, HEIGHT, DENSITY, locale="de-DE")
    light.shell("am start -a android.settings.DISPLAY_SETTINGS")
    assert phone.screenshot()[200:400].mean() < light.screenshot()[200:400].mean()


def test_a_settings_flow_over_the_real_adb(served, adb_server):
    device = AdbDevice(served.serial, port=adb_server.port, timeout=5.0)
    device.shell("am start -a android.settings.DISPLAY_SETTINGS")
    tap_node(device, text="Screen timeout")
    tap_node(device, text="10 minutes")
    assert device.shell("settings get system screen_off_timeout").strip() == "600000"


def test_a_snapshot_keeps_a_settings_page_and_its_dialog(device, phone):
    device.shell("am start -n com.androidrl.notes/.MainActivity")
    device.shell("am start -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.androidrl.notes")
    tap_node(device, resource_id=RID + "button3")
    phone.save_snapshot("dialog")
    tap_node(device, resource_id="android:id/button2")  # Cancel
    phone.load_snapshot("dialog")
    assert "Force stop?" in texts(device)
    tap_node(device, resource_id="android:id/button1")  # the restored dialog's OK acts on the restored page
    assert sh(device, "pidof com.androidrl.notes") == ""

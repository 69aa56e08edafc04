"""The screen's power, the keyguard, the shade, notifications, lock task mode and the tools that show them.

Each check drives the phone as a user or a tool does (keys, touches, ``am``, ``wm``, ``cmd``)
and reads the effect the way Android exposes it (``dumpsys``, ``uiautomator dump``, the
screen), in the formats of the AOSP sources named in the modules under test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from androidrl.virtual.phone import VirtualPhone

from conftest import DENSITY, HEIGHT, WIDTH, center, node_bounds


def run(phone: VirtualPhone, command: str) -> tuple[str, str, int]:
    result = phone.shell(command)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def dump(phone: VirtualPhone, command: str) -> str:
    out, err, code = run(phone, command)
    assert code == 0 and not err, (command, err)
    return out


@pytest.fixture
def phone28() -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=0, sdk=28)


# ---------------------------------------------------------------------------- screen and keyguard


def test_sleep_blacks_the_screen_and_locks_and_wakeup_shows_the_keyguard(phone):
    phone.shell("am start -n com.android.settings/.Settings")
    dump(phone, "input keyevent SLEEP")
    assert phone.screenshot().max() == 0 and not phone.wakefulness.awake and phone.keyguard.showing
    power = dump(phone, "dumpsys power")
    assert "mWakefulness=Asleep" in power and "Display Power: state=OFF" in power
    assert "mHoldingDisplaySuspendBlocker=false" in power
    dump(phone, "input tap 100 300")  # a sleeping screen takes no touch
    assert phone.foreground()[0] == "com.android.settings"
    dump(phone, "input keyevent WAKEUP")
    assert phone.screenshot().max() > 0 and phone.keyguard.showing
    xml = phone.dump_ui()
    assert 'package="com.android.systemui"' in xml and "Swipe up to open" in xml and "Settings" not in xml
    dump(phone, "input keyevent HOME")  # the lock screen keeps HOME and BACK
    dump(phone, "input keyevent BACK")
    assert phone.keyguard.showing and phone.foreground()[0] == "com.android.settings"
    dump(phone, "input keyevent 82")  # MENU unlocks an insecure keyguard
    assert not phone.keyguard.showing and "Settings" in phone.dump_ui()


def test_power_toggles_menu_wakes_first_and_a_swipe_up_unlocks(phone):
    dump(phone, "input keyevent POWER")
    assert not phone.wakefulness.awake
    dump(phone, "input keyevent MENU")  # a wake key: wakes, goes no further
    assert phone.wakefulness.awake and phone.keyguard.showing
    dump(phone, f"input swipe {WIDTH // 2} {HEIGHT - 100} {WIDTH // 2} {HEIGHT // 2} 200")
    assert not phone.keyguard.showing
    dump(phone, "input keyevent POWER")
    dump(phone, "input keyevent POWER")
    assert phone.wakefulness.awake and phone.keyguard.showing
    dump(phone, "input text abc")  # typing goes nowhere on the lock screen
    dump(phone, "wm dismiss-keyguard")
    assert not phone.keyguard.showing


def test_a_long_press_on_the_lock_icon_unlocks_and_a_tap_does_not(phone):
    dump(phone, "input keyevent SLEEP; input keyevent WAKEUP")
    icon = re.search(r'<node [^>]*resource-id="com.android.systemui:id/lock_icon_view"[^>]*>', phone.dump_ui())[0]
    assert 'content-desc="Unlocked"' in icon and 'long-clickable="true"' in icon
    x, y = center(node_bounds(phone.dump_ui(), resource_id="com.android.systemui:id/lock_icon_view"))
    dump(phone, f"input tap {x} {y}")  # (LockIconViewController acts on a long press only)
    assert phone.keyguard.showing
    dump(phone, f"input swipe {x} {y} {x} {y} 600")
    assert not phone.keyguard.showing
    dump(phone, "locksettings set-pin 1357; input keyevent SLEEP; input keyevent WAKEUP")
    icon = re.search(r'<node [^>]*resource-id="com.android.systemui:id/lock_icon_view"[^>]*>', phone.dump_ui())[0]
    assert 'content-desc="Device locked"' in icon
    dump(phone, f"input swipe {x} {y} {x} {y} 600")  # a PIN: the bouncer instead
    assert phone.keyguard.bouncer and "Enter your PIN" in phone.dump_ui()


def test_window_policy_and_displays_say_what_android_14_says(phone):
    policy = dump(phone, "dumpsys window policy")
    assert "      showing=false\n" in policy and "interactiveState=INTERACTIVE_STATE_AWAKE" in policy
    assert "mDreamingLockscreen" not in policy and "mShowingLockscreen" not in policy  # (DisplayPolicy's, since 10)
    dump(phone, "input keyevent SLEEP")
    policy = dump(phone, "dumpsys window policy")
    assert "      showing=true\n" in policy and "interactiveState=INTERACTIVE_STATE_SLEEP" in policy
    assert "screenState=SCREEN_STATE_OFF" in policy
    displays = dump(phone, "dumpsys window displays")
    assert "mAwake=false mScreenOnEarly=false mScreenOnFully=false" in displays
    assert "mShowingDream=false mDreamingLockscreen=true" in displays and "isKeyguardShowing=true" in displays
    assert re.search(r"(?m)^  mCurrentFocus=Window\{\w+ u0 NotificationShade\}$", displays)
    windows = dump(phone, "dumpsys window windows")
    assert "mCurrentFocus" not in windows  # Android 10 moved it to the display
    shade = windows.split("NotificationShade}:\n")[1].split("  Window #")[0]
    assert "    mViewVisibility=0x0 " in shade
    assert dump(phone, "dumpsys window").count("mCurrentFocus=") == 1


def test_android_9_prints_the_lock_and_focus_in_the_policy_and_windows(phone28):
    policy = dump(phone28, "dumpsys window policy")
    assert "mAwake=true mScreenOnEarly=true mScreenOnFully=true" in policy
    assert "mDreamingLockscreen=false" in policy and "isStatusBarKeyguard=false" in policy
    windows = dump(phone28, "dumpsys window windows")
    focus = re.search(r"(?m)^  mCurrentFocus=Window\{\w+ u0 (\S+)\}$", windows)
    assert focus and focus[1] == "com.android.launcher3/com.android.launcher3.Launcher"
    assert "NotificationShade" not in windows and "      content=[0,24][360,752] visible=[0,24][360,752]" in windows
    dump(phone28, "input keyevent SLEEP")
    assert "mDreamingLockscreen=true" in dump(phone28, "dumpsys window policy")


def test_a_reset_env_starts_awake_and_unlocked(phone):
    from androidrl import AndroidEnv, VirtualDevice

    env = AndroidEnv(VirtualDevice(phone), dump_xml=False)
    try:
        env.reset(seed=0)
        assert "wm dismiss-keyguard" not in " ".join(phone.command_log)  # (awake and unlocked: nothing to send)
        phone.shell("input keyevent SLEEP")
        assert phone.keyguard.showing
        env.reset(seed=1)
        assert phone.wakefulness.awake and not phone.keyguard.showing
        assert "input keyevent WAKEUP; wm dismiss-keyguard" in phone.command_log
    finally:
        env.close()


def test_a_snapshot_keeps_the_screen_lock_and_notifications(phone):
    phone.shell("cmd notification post -t T tag text")
    phone.save_snapshot("s")
    phone.shell("input keyevent SLEEP; cmd notification post other more")
    phone.load_snapshot("s")
    assert phone.wakefulness.awake and not phone.keyguard.showing
    assert [n.tag for n in phone.notifications.active()] == ["tag"]


def test_a_snapshot_puts_back_settings_properties_and_the_random_draws_and_loads_again(phone):
    phone.shell("settings put system screen_brightness 80; setprop persist.sys.test one")
    phone.save_snapshot("s")
    draws = [phone.next_seed() for _ in range(3)]
    for _ in range(2):  # (the snapshot is left as it was: a second load is the same)
        phone.shell(
            "settings put system screen_brightness 5; settings put global new_key 1; setprop persist.sys.test two"
        )
        phone.load_snapshot("s")
        assert phone.shell("settings get system screen_brightness; settings get global new_key").stdout == b"80\nnull\n"
        assert phone.shell("getprop persist.sys.test").stdout == b"one\n"
        assert [phone.next_seed() for _ in range(3)] == draws


# ---------------------------------------------------------------------------- the shade and notifications


def test_statusbar_and_notifications(phone):
    out = dump(phone, "cmd notification post -t Title -S bigtext mytag 'Body text'")
    assert out.startswith("posting:\n  Notification(channel=shell_cmd ")
    assert dump(phone, "cmd notification list") == "0|com.android.shell|2020|mytag|2000\n"
    listed = dump(phone, "dumpsys notification")
    assert "pkg=com.android.shell user=UserHandle{0} id=2020 tag=mytag" in listed
    assert "android.title=String (Title)" in listed and "android.text=String (Body text)" in listed
    dump(phone, "cmd statusbar expand-notifications")
    xml = phone.dump_ui()
    assert 'resource-id="android:id/title"' in xml and "Body text" in xml and phone.status_bar.panel == "notifications"
    dump(phone, "cmd statusbar expand-settings")
    xml = phone.dump_ui()  # the full Quick Settings: each tile a Switch, its label and state
    assert re.search(r'content-desc="Internet" checkable="true" checked="true"', xml) and 'text="AndroidWifi"' in xml
    dump(phone, "input keyevent BACK")  # BACK closes the shade, and only the shade
    assert not phone.status_bar.expanded and phone.foreground()[0] == "com.android.launcher3"
    dump(phone, f"input swipe {WIDTH // 2} 5 {WIDTH // 2} {HEIGHT // 2} 200")  # pull it down from the bar
    assert phone.status_bar.panel == "notifications"
    dump(phone, "cmd statusbar collapse")
    assert not phone.status_bar.expanded
    out, err, code = run(phone, "cmd notification post onlytag")
    assert code == 255 and out.startswith("usage: cmd notification post [flags] <tag> <text>")
    assert run(phone, "cmd notification post -S fancy t x")[0] == (
        "Error occurred. Check logcat for details. unrecognized notification style: fancy\n"
    )
    assert run(phone, "cmd notification get '0|nope'")[2] == 1
    assert run(phone, "cmd statusbar bogus") == ("", "Unknown command: bogus\n", 255)


def test_a_notify_step_posts_its_notification(phone):
    from androidrl import VirtualDevice
    from androidrl.tasks.steps import Notify, Step, run_step

    notify = Notify(tag="rate", title="Enjoying it?", text="Rate this app", opens="com.android.settings/.Settings")
    run_step(VirtualDevice(phone), Step(notify=notify))
    (posted,) = phone.notifications.active()
    assert (posted.tag, posted.title, posted.text, posted.style) == ("rate", "Enjoying it?", "Rate this app", "bigtext")
    assert posted.opens == "com.android.settings/com.android.settings.Settings"


def test_the_lock_screen_keeps_the_shade_closed(phone):
    phone.shell("input keyevent SLEEP; input keyevent WAKEUP; cmd statusbar expand-notifications")
    assert not phone.status_bar.expanded and "Swipe up to open" in phone.dump_ui()


# ---------------------------------------------------------------------------- am


def test_am_stack_list_and_task_lock(phone):
    phone.shell("am start -n com.android.settings/.Settings")
    stacks = dump(phone, "am stack list")
    tasks = re.findall(r"(?m)^  taskId=(\d+): (\S+) .* visible=(\w+) topActivity=ComponentInfo\{(\S+)\}$", stacks)
    assert [(name, visible) for _, name, visible, _ in tasks] == [
        ("com.android.settings/com.android.settings.Settings", "true"),
        ("com.android.launcher3/com.android.launcher3.Launcher", "false"),
    ]
    settings_task = tasks[0][0]
    assert re.search(rf"(?m)^RootTask id={settings_task} bounds=\[0,0\]\[{WIDTH},{HEIGHT}\] displayId=0 userId=0$",
                     stacks)  # fmt: skip
    assert dump(phone, f"am task lock {settings_task}") == "Activity manager is in lockTaskMode\n"
    dump(phone, "input keyevent HOME")
    assert phone.foreground()[0] == "com.android.settings"  # HOME does nothing to a pinned task
    out, err, code = run(phone, "am start -n com.androidrl.notes/.MainActivity")
    assert (err, code) == ("Error: Activity not started, unknown error code 101\n", 1)
    dump(phone, "input keyevent BACK")  # the pinned task's last activity cannot finish
    assert phone.foreground()[0] == "com.android.settings"
    assert dump(phone, "am task lock stop") == "Activity manager is not in lockTaskMode\n"
    assert dump(phone, "am task lock 999") == "Activity manager is not in lockTaskMode\n"  # no such task
    assert run(phone, "am task nope") == ("", "Error: unknown command 'nope'\n", 255)
    assert run(phone, "am stack nope")[1:] == ("Error: unknown command 'nope'\n", 255)
    assert "NumberFormatException" in run(phone, "am task lock x")[1]


def test_am_start_wait_reports_as_android(phone):
    out, err, code = run(phone, "am start -W -n com.android.settings/.Nope")
    assert (out, err, code) == (
        "Starting: Intent { cmp=com.android.settings/.Nope }\nError type 3\n"
        "Error: Activity class {com.android.settings/com.android.settings.Nope} does not exist.\n",
        "",
        1,
    )
    out, _, code = run(phone, "am start -W -a no.such.ACTION")
    assert (
        code == 1
        and "Error: Activity not started, unable to resolve Intent { act=no.such.ACTION flg=0x10000000 }" in out
    )
    out, _, code = run(phone, "am start -W -n com.android.settings/.Settings")
    assert code == 0 and "Status: ok\nLaunchState: COLD\nActivity: com.android.settings/.Settings\n" in out
    out, _, code = run(phone, "am start -W -n com.android.settings/.Settings")
    assert code == 0 and "Warning: Activity not started, its current task has been brought to the front\n" in out
    assert "LaunchState: HOT" in out


def test_android_11_lists_stacks(phone):
    eleven = VirtualPhone(WIDTH, HEIGHT, DENSITY, sdk=30)
    assert re.match(
        r"Stack id=1 bounds=\[0,0\]\[360,800\] displayId=0 userId=0\n configuration=\{", dump(eleven, "am stack list")
    )


# ---------------------------------------------------------------------------- dumpsys


def test_dumpsys_options(phone):
    listed = dump(phone, "dumpsys -l")
    assert listed.startswith("Currently running services:\n  activity\n") and "  window\n" in listed
    assert "Service host process PID: 612\n" in dump(phone, "dumpsys --pid --dump power")
    assert dump(phone, "dumpsys --pid power") == "612\n"
    assert dump(phone, "dumpsys -t 5 power").startswith("POWER MANAGER (dumpsys power)")
    everything = dump(phone, "dumpsys --skip window")
    assert "  window (skipped)\n" in everything and "DUMP OF SERVICE window:" not in everything
    assert "DUMP OF SERVICE power:\n" in everything and "was the duration of dumpsys power, ending at: " in everything
    assert dump(phone, "dumpsys --priority HIGH").startswith("Active default network: ")  # one service: no header
    assert run(phone, "dumpsys -t x") == ("", "Error: invalid timeout(seconds) number: 'x'\n", 255)
    assert run(phone, "dumpsys -T 0")[1] == "Error: invalid timeout(milliseconds) number: '0'\n"
    for bad in ("dumpsys --priority LOW", "dumpsys -l window", "dumpsys --skip", "dumpsys -x"):
        out, err, code = run(phone, bad)
        assert code == 255 and "usage: dumpsys" in err, bad
    assert run(phone, "dumpsys nope") == ("", "Can't find service: nope\n", 0)


def test_dumpsys_activity_top_and_by_name_show_the_view_hierarchy(phone):
    phone.shell("am start -n com.androidrl.notes/.MainActivity")
    top = dump(phone, "dumpsys activity top")
    blocks = re.findall(r"(?m)^  ACTIVITY (\S+) \w+ pid=(\d+)$", top)
    assert [name for name, _ in blocks] == ["com.android.launcher3/.Launcher", "com.androidrl.notes/.MainActivity"]
    assert blocks[-1][1] == str(phone.processes.pid("com.androidrl.notes"))
    assert re.search(r"(?m)^TASK \d+:com\.androidrl\.notes id=\d+ userId=0$", top)
    notes = top.split("ACTIVITY com.androidrl.notes")[1]
    assert "      mResumed=true mStopped=false mFinished=false" in notes and "    View Hierarchy:\n" in notes
    assert re.search(
        r"(?m)^      com\.android\.internal\.policy\.DecorView\{\w+ V\.ED\.{5} R\.{7} 0,0-360,800\}$", notes
    )
    assert re.search(r"(?m)^        android\.widget\.FrameLayout\{\w+ V\.E\.{6} \.{8} 0,24-360,752 #1020002 "
                     r"android:id/content\}$", notes)  # fmt: skip
    assert re.search(
        r"android\.widget\.EditText\{\w+ VFE\.\.\.CL\. \.{8} \d+,\d+-\d+,\d+ #7f\w+ app:id/note_input\}", notes
    )
    named = dump(phone, "dumpsys activity com.androidrl.notes")
    assert named.count("  ACTIVITY ") == 1 and "app:id/save_button" in named
    assert dump(phone, "dumpsys activity nothing.matches") == (
        "Bad activity command, or no activities match: nothing.matches\nUse -h for help.\n"
    )
    assert "ResumedActivity: ActivityRecord{" in dump(phone, "dumpsys activity activities")


def test_dumpsys_input_method_and_window_names(phone):
    ime = dump(phone, "dumpsys input_method")
    assert "  mInputShown=false\n" in ime and "mInteractive=true" in ime
    assert "mCurFocusedWindow=Window{" in ime and "com.android.launcher3/com.android.launcher3.Launcher}" in ime
    assert dump(phone, "dumpsys window StatusBar").count("  Window #") == 1
    assert dump(phone, "dumpsys window zzz") == "Bad window command, or no windows match: zzz\nUse -h for help.\n"


# ---------------------------------------------------------------------------- settings, pm, logcat


def test_settings_reset_puts_the_shells_writes_back(phone):
    dump(phone, "settings put global wifi_on 0; settings put global brand_new 1; settings put secure mine 2")
    dump(phone, "settings reset global untrusted_defaults")
    assert phone.radios.wifi_enabled and dump(phone, "settings get global brand_new") == "null\n"
    assert "brand_new=null\n" in dump(phone, "settings list global")
    dump(phone, "settings reset global untrusted_clear")
    assert "brand_new" not in dump(phone, "settings list global")
    dump(phone, "settings put secure made 5 default; settings put secure made 6")
    dump(phone, "settings reset secure com.android.shell")  # a package's rows go back to their defaults
    assert dump(phone, "settings get secure made") == "5\n" and dump(phone, "settings get secure mine") == "null\n"
    dump(phone, "settings reset secure trusted_defaults")  # and rows with no system default go
    assert "made=" not in dump(phone, "settings list secure")
    assert run(phone, "settings reset system untrusted_defaults") == ("", "Invalid table; no reset performed\n", 0)
    assert run(phone, "settings reset global") == ("", "Bad arguments\n", 255)
    assert run(phone, "settings reset global pkg tag extra") == ("", "Too many arguments\n", 255)
    assert run(phone, "settings put system font_scale 1.1 default")[0] == (
        "Ignored makeDefault - doesn't apply to system settings"
    )


def test_settings_reset_is_a_write_the_settings_provider_shows(phone):
    def row(key: str) -> str:
        return dump(phone, f"content query --uri content://settings/global/{key}")

    dump(phone, "settings put global wifi_on 0; settings put global brand_new 1")
    written = row("wifi_on")
    dump(phone, "settings reset global untrusted_defaults")
    reset = row("wifi_on")
    assert reset.endswith("name=wifi_on, value=1\n") and reset != written  # the value back, with a new _id
    dump(phone, "settings reset global untrusted_defaults")
    assert row("wifi_on") == reset  # (nothing changed: the same _id)
    dump(phone, "settings reset global untrusted_clear")
    assert row("brand_new") == "No result found.\n"


def test_pm_lists_features_libraries_and_resolves_activities(phone):
    features = dump(phone, "pm list features").splitlines()
    assert features[0] == "feature:reqGlEsVersion=0x30002" and "feature:android.hardware.wifi" in features
    assert "feature:android.hardware.vulkan.level=1" in features and features[1:] == sorted(features[1:])
    assert "library:org.apache.http.legacy" in dump(phone, "pm list libraries").splitlines()
    assert dump(phone, "cmd package resolve-activity --brief com.android.settings") == (
        "priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\ncom.android.settings/.Settings\n"
    )
    assert dump(phone, "pm resolve-activity --components -a android.settings.WIFI_SETTINGS").startswith(
        "com.android.settings/"
    )
    assert dump(phone, "pm resolve-activity com.no.such") == "No activity found\n"


def test_logcat_long_options_and_errors(phone):
    phone.shell("am start -n com.android.settings/.Settings")
    dump(phone, "log -p w -t Mine 'a line'")
    assert "W/Mine    (" in dump(phone, "logcat --dump 2>/dev/null; logcat -d --format=brief -s Mine")
    assert dump(phone, "logcat -d --buffer=events --max-count 1").startswith("--------- beginning of events\n")
    phone.shell("am start -n com.androidrl.notes/.MainActivity")  # system lines after main's
    both = dump(phone, "logcat -d -D -b main,system")
    assert "--------- beginning of main\n" in both and "--------- switch to system\n" in both
    assert dump(phone, "logcat -d --regex=nothing-like-this") == ""
    assert (
        dump(phone, "logcat -d --pid=612").count("   612   612 ")
        == len(dump(phone, "logcat -d --pid=612").splitlines()) - 1
    )
    dump(phone, "logcat --clear")
    assert dump(phone, "logcat -d") == ""
    assert run(phone, "logcat --dump") == ("", "logcat: Unknown option '--dump'.\n", 1)  # (-d has no long form)
    assert run(phone, "logcat -b nope")[1] == "logcat: Unknown -b buffer 'nope'.\n"
    assert run(phone, "logcat -v nope")[1] == "logcat: Invalid -v 'nope'.\n"
    assert run(phone, "logcat -m 0")[1] == "logcat: -m '0' isn't an integer greater than zero.\n"
    assert run(phone, "logcat -b")[1] == "logcat: Option '-b' needs an argument.\n"
    assert run(phone, "logcat -f /x")[2] == 1  # (no file output here: refused, never ignored)
    assert run(phone, "log") == ("", "log: Need 1 argument\n", 1)


def test_a_tap_on_the_launcher_still_opens_apps(phone):
    x, y = center(node_bounds(phone.dump_ui(), text="Settings"))
    phone.shell(f"input tap {x} {y}")
    assert phone.foreground()[0] == "com.android.settings"
    assert not np.array_equal(phone.screenshot(), np.zeros_like(phone.screenshot()))

"""The virtual phone's shell: POSIX quoting and operators, Android's messages and exit codes."""

import threading
import time

import pytest

from androidrl.virtual.shell.stdin import Stdin


def run(phone, line):
    result = phone.shell(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


@pytest.mark.parametrize(
    ("line", "stdout"),
    [
        ("echo hello world", "hello world\n"),
        ("echo 'a  b' \"c  d\"", "a  b c  d\n"),
        ("echo it\\'s", "it's\n"),
        ("echo 'it'\"'\"'s'", "it's\n"),
        ("echo \"$HOME\" '$HOME'", "/ $HOME\n"),
        ("echo a; echo b", "a\nb\n"),
        ("true && echo yes || echo no", "yes\n"),
        ("false && echo yes || echo no", "no\n"),
        ("false; echo $?", "1\n"),
        ("echo $(echo inner) `echo tick`", "inner tick\n"),
        ("echo \"$(echo 'a  b')\"", "a  b\n"),
        ("X=5; echo ${X}$X", "55\n"),
        ("echo one | grep one", "one\n"),
        ("echo -n no-newline", "no-newline"),
        ("echo a # comment", "a\n"),
        ("echo '#not a comment'", "#not a comment\n"),
        ("echo 'semi;colon' \"and&amp\" 'pipe|'", "semi;colon and&amp pipe|\n"),
    ],
)
def test_shell_language(phone, line, stdout):
    out, err, code = run(phone, line)
    assert (out, err, code) == (stdout, "", 0)


def test_unknown_command_is_androids_message_and_127(phone):
    assert run(phone, "frobnicate --now") == ("", "/system/bin/sh: frobnicate: inaccessible or not found\n", 127)


def test_syntax_errors_do_not_run_anything(phone):
    # mksh's lexer: "no closing quote", and errorf's status 1
    assert run(phone, "echo 'unterminated; touch /sdcard/x") == ("", "/system/bin/sh: no closing quote\n", 1)
    assert not phone.fs.exists("/sdcard/x")


def test_redirections_and_files(phone):
    assert run(phone, "echo hi > /sdcard/a.txt; echo there >> /sdcard/a.txt; cat /sdcard/a.txt") == (
        "hi\nthere\n",
        "",
        0,
    )
    assert run(phone, "cat /sdcard/missing") == ("", "cat: /sdcard/missing: No such file or directory\n", 1)
    assert run(phone, "cat /sdcard/missing 2>/dev/null; echo $?") == ("1\n", "", 0)
    assert run(phone, "cat /sdcard/missing 2>&1") == ("cat: /sdcard/missing: No such file or directory\n", "", 1)
    assert run(phone, "mkdir -p /sdcard/d/e && touch /sdcard/d/e/f.png /sdcard/d/g.png && ls /sdcard/d") == (
        "e\ng.png\n",
        "",
        0,
    )
    assert run(phone, "ls /sdcard/d/*.png") == ("/sdcard/d/g.png\n", "", 0)
    assert run(phone, "rm /sdcard/d") == ("", "rm: /sdcard/d: Is a directory\n", 1)
    assert run(phone, "rm -r /sdcard/d; ls /sdcard/d") == ("", "ls: /sdcard/d: No such file or directory\n", 1)
    assert run(phone, "rm -f /sdcard/nothing; echo $?") == ("0\n", "", 0)
    out, err, code = run(phone, "echo x > /system/x")
    assert code == 1 and "Read-only file system" in err
    assert run(phone, "cat /storage/emulated/0/a.txt") == ("hi\nthere\n", "", 0)


def test_command_substitution_really_runs_on_the_phone(phone):
    # The shell is a real shell: unquoted substitutions run. Clients must quote typed text.
    run(phone, "echo $(touch /sdcard/pwned)")
    assert phone.fs.exists("/sdcard/pwned")
    run(phone, "echo '$(touch /sdcard/safe)'")
    assert not phone.fs.exists("/sdcard/safe")


def test_getprop_and_settings(phone):
    assert run(phone, "getprop ro.build.version.sdk") == ("34\n", "", 0)
    assert run(phone, "getprop no.such.prop") == ("\n", "", 0)
    out, _, _ = run(phone, "getprop")
    assert "[ro.product.model]: [androidrl Virtual Phone]\n" in out
    assert run(phone, "settings get global no_such_key") == ("null\n", "", 0)
    assert run(phone, "settings put global my_key 42; settings get global my_key") == ("42\n", "", 0)
    assert run(phone, "settings get galaxy x") == ("", "Invalid namespace 'galaxy'\n", 255)
    assert run(phone, "settings get global") == ("", "Bad arguments\n", 255)
    out, _, _ = run(phone, "settings list secure")
    assert "long_press_timeout=400\n" in out


def test_wm_size_and_density(phone):
    assert run(phone, "wm size") == ("Physical size: 360x800\n", "", 0)
    assert run(phone, "wm density") == ("Physical density: 160\n", "", 0)
    assert run(phone, "wm size 300x600") == ("", "", 0)
    assert run(phone, "wm size") == ("Physical size: 360x800\nOverride size: 300x600\n", "", 0)
    assert phone.screenshot().shape == (600, 300, 3)
    assert run(phone, "wm size bogus") == ("", "Error: bad size bogus\n", 255)
    # as DisplayContent.setForcedSize: 200 px up to 3x the larger side; the physical size clears the override
    assert run(phone, "wm size 100000x10; wm size") == ("Physical size: 360x800\nOverride size: 2400x200\n", "", 0)
    assert run(phone, "wm size 360x800; wm size") == ("Physical size: 360x800\n", "", 0)
    assert run(phone, "wm size reset; wm size") == ("Physical size: 360x800\n", "", 0)
    assert run(phone, "wm density 40") == ("", "Error: density must be >= 72\n", 255)


def test_input_errors_match_android(phone):
    out, err, code = run(phone, "input tap 100")
    assert code == 255 and 'Argument expected after "100"' in err
    assert err.startswith("\nException occurred while executing 'tap':\njava.lang.IllegalArgumentException")
    out, err, code = run(phone, "input tap abc 5")
    assert code == 255 and "Invalid arguments for command: tap" in err
    assert run(phone, "input fly 1 2") == ("Unknown command: fly\n", "", 0)
    out, err, code = run(phone, "input text 'naïve'")
    assert code == 255 and "java.lang.NullPointerException: Attempt to get length of null array" in err
    out, _, code = run(phone, "input")
    assert code == 0 and out.startswith("Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]")


def test_am_pm_and_dumpsys(phone):
    assert run(phone, "am start -n com.android.settings/.Settings") == (
        "Starting: Intent { cmp=com.android.settings/.Settings }\n",
        "",
        0,
    )
    assert run(phone, "dumpsys window | grep mCurrentFocus | grep -o 'com.android.settings/[A-Za-z.$]*'") == (
        "com.android.settings/com.android.settings.Settings\n",
        "",
        0,
    )
    assert run(phone, "am start -n com.nope/.Main") == (
        "Starting: Intent { cmp=com.nope/.Main }\n",
        "Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n",
        0,
    )
    assert run(phone, "am start -a android.settings.BLUETOOTH_SETTINGS")[0] == (
        "Starting: Intent { act=android.settings.BLUETOOTH_SETTINGS }\n"
    )
    assert phone.foreground() == (
        "com.android.settings",
        "com.android.settings.Settings$ConnectedDeviceDashboardActivity",
    )
    assert run(phone, "am start -a android.intent.action.MAIN -c android.intent.category.HOME")[2] == 0
    assert phone.foreground()[0] == "com.android.launcher3"
    out, err, code = run(phone, "am start -n nonsense")
    assert code == 255 and "Bad component name: nonsense" in err
    assert run(phone, "am force-stop com.android.settings") == ("", "", 0)
    assert ["com.android.settings" not in task[0] for task in phone.activity_stack()]
    out, _, _ = run(phone, "pm list packages")
    assert "package:com.android.settings\n" in out and "package:com.androidrl.notes\n" in out
    assert run(phone, "pm list packages -3 notes") == ("package:com.androidrl.notes\n", "", 0)
    assert run(phone, "pm clear com.androidrl.notes") == ("Success\n", "", 0)
    assert run(phone, "pm clear com.nope") == ("", "Failed\n", 1)
    assert run(phone, "pm path com.nope") == ("", "", 1)


def test_svc_and_airplane_commands_move_the_same_settings(phone):
    run(phone, "svc wifi disable")
    assert run(phone, "settings get global wifi_on") == ("0\n", "", 0)
    run(phone, "svc wifi enable; cmd connectivity airplane-mode enable")
    assert run(phone, "settings get global airplane_mode_on; settings get global wifi_on") == ("1\n3\n", "", 0)
    assert run(phone, "cmd connectivity airplane-mode") == ("enabled\n", "", 0)
    run(phone, "cmd connectivity airplane-mode disable")
    assert run(phone, "settings get global wifi_on") == ("1\n", "", 0)
    assert run(phone, "cmd nosuchservice x") == ("", "cmd: Can't find service: nosuchservice\n", 20)


def test_uiautomator_dump_writes_the_file_and_androids_message(phone):
    assert run(phone, "uiautomator dump") == ("UI hierchary dumped to: /sdcard/window_dump.xml\n", "", 0)
    xml = phone.fs.read("/sdcard/window_dump.xml").decode()
    assert xml == phone.dump_ui()
    out, _, _ = run(phone, "uiautomator dump /dev/tty")
    assert out == xml + "UI hierchary dumped to: /dev/tty\n"
    run(phone, "am start -n com.androidrl.practice/.TargetActivity --ez animate true")
    assert run(phone, "uiautomator dump") == ("", "ERROR: could not get idle state.\n", 0)


def test_sleep_stops_at_the_deadline(phone):
    import time

    start = time.monotonic()
    result = phone.shell("sleep 5; echo after", deadline=time.monotonic() + 0.2)
    assert time.monotonic() - start < 2
    assert result.exit_code == 130 or b"after" not in result.stdout


def test_cat_of_one_file_hands_over_the_stored_bytes(phone):
    phone.shell("screencap /sdcard/raw")  # the benchmark's transport-limit contender: cat of a raw screenshot
    assert phone.shell("cat /sdcard/raw").stdout is phone.fs.read("/sdcard/raw")  # not a copy
    phone.fs.write("/sdcard/b", b"b")
    assert phone.shell("cat /sdcard/raw /sdcard/b").stdout == phone.fs.read("/sdcard/raw") + b"b"


def test_line_readers_take_stdin_as_it_arrives(phone):
    stdin = Stdin()
    stdin.feed(b"first\nsecond")
    assert phone.shell("head -n 1", stdin).stdout == b"first\n"  # without the client closing stdin
    streamed: list[bytes] = []
    done = threading.Event()
    echo = Stdin()
    worker = threading.Thread(
        target=lambda: (phone.shell("cat", echo, sink=lambda fd, data: streamed.append(data)), done.set())
    )
    worker.start()
    echo.feed(b"one\n")
    deadline = time.monotonic() + 10
    while streamed != [b"one\n"]:  # echoed while stdin is still open
        assert time.monotonic() < deadline and not done.is_set(), streamed
        time.sleep(0.01)
    echo.feed(b"two\n")
    echo.close()
    worker.join(timeout=10)
    assert streamed == [b"one\n", b"two\n"] and done.is_set()


def test_dumpsys_input_viewport_follows_wm_size(phone):
    phone.shell("wm size 200x400")  # a logical display of another shape: letterboxed on the panel
    line = phone.shell("dumpsys input | grep Viewport").stdout.decode()
    assert "logicalFrame=[0, 0, 200, 400], physicalFrame=[0, 40, 360, 760], deviceSize=[360, 800]" in line

"""The virtual phone's shell: POSIX quoting and operators, Android's messages and exit codes."""

import re
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
        # words read at once (plain and quoted runs) next to those that take the long way
        ("echo a'b  c'\"d\"e x\"\"y ''", "ab  cde xy \n"),
        ("echo a|cat; echo 2>/dev/null b; echo c>/dev/null; echo a*b", "a\nb\na*b\n"),
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
    assert run(phone, "am start -n com.nope/.Main") == (  # runStartActivity returns 1 on START_CLASS_NOT_FOUND
        "Starting: Intent { cmp=com.nope/.Main }\n",
        "Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n",
        1,
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


# --------------------------------------------------------------------------- mksh's language


@pytest.mark.parametrize(
    ("line", "stdout"),
    [
        ("if false; then echo a; elif true; then echo b; else echo c; fi", "b\n"),
        ("for i in 1 2 3; do echo $i; done", "1\n2\n3\n"),
        ("i=0; while [ $i -lt 3 ]; do i=$((i + 1)); done; echo $i", "3\n"),
        ("i=0; until [ $i -ge 2 ]; do i=$((i + 1)); echo $i; done", "1\n2\n"),
        ("for i in 1 2 3; do for j in a b; do [ $j = b ] && continue 2; echo $i$j; done; done", "1a\n2a\n3a\n"),
        ("for i in 1 2 3; do [ $i = 2 ] && break; echo $i; done", "1\n"),
        ("case x.png in *.txt) echo t;; *.png|*.jpg) echo image;; esac", "image\n"),
        ("case abc in a*c) echo one;& x) echo fell;; y) echo no;; esac", "one\nfell\n"),
        ('f() { local x=$1; echo "in $x $#"; return 4; }; x=out; f arg two; echo "$? $x"', "in arg 2\n4 out\n"),
        ("function g { echo ksh-style $1; }; g yes", "ksh-style yes\n"),
        ('f() { for a in "$@"; do echo "[$a]"; done; }; f "a b" c ""', "[a b]\n[c]\n[]\n"),
        ("set -- x 'y z'; echo $#; for a; do echo $a; done", "2\nx\ny z\n"),
        ("(cd /sdcard; x=1; pwd); echo ${x:-unset}; pwd", "/sdcard\nunset\n/\n"),
        ("{ echo a; echo b; } | grep b", "b\n"),
        ("echo x | read v; echo v=$v", "v=x\n"),  # mksh runs a pipeline's last command in the shell itself
        ("seq 3 | while read n; do echo got $n; done", "got 1\ngot 2\ngot 3\n"),
        ("echo $((1 + 2 * 3)) $((7 / 2)) $((-7 % 3)) $((1 << 4)) $((5 > 3 ? 7 : 9))", "7 3 -1 16 7\n"),
        ("echo $((2147483647 + 1)) $((0x10)) $((2#101)) $((010))", "-2147483648 16 5 10\n"),  # mksh: 32-bit
        ("x=3; echo $((x += 2, x * 2)) $x; i=5; ((i++)); let i+=10; echo $i", "10 5\n16\n"),
        (
            "v=/sdcard/a/b.tar.gz; echo ${#v} ${v#*/} ${v##*/} ${v%.*} ${v%%.*}",
            "18 sdcard/a/b.tar.gz b.tar.gz /sdcard/a/b.tar /sdcard/a/b\n",
        ),
        ("echo ${u:-default} ${u-unset} ${u:=set} $u ${u:+alt} ${e+e}", "default unset set set alt\n"),
        ("v=hello; echo ${v/l/L} ${v//l/L} ${v:1:3} ${v: -2}", "heLlo heLLo ell lo\n"),
        ("echo a{b,c}d x{1,{2,3}} '{q,r}' {s}", "abd acd x1 x2 x3 {q,r} {s}\n"),
        ("v='a b  c'; echo $v; echo \"$v\"; IFS=:; w=x:y; echo $w", "a b c\na b  c\nx y\n"),
        ("cat <<EOF\nhome $HOME $((1+1))\nEOF", "home / 2\n"),
        ("cat <<-'EOF'\n\tliteral $HOME\n\tEOF", "literal $HOME\n"),
        ("[[ abc == a* && -d /sdcard ]] && echo yes; [[ a < b ]] && echo less", "yes\nless\n"),
        ("(( 3 > 2 )) && echo bigger; (( 0 )) || echo zero", "bigger\nzero\n"),
        ("true | false; echo $?; set -o pipefail; false | true; echo $?", "1\n1\n"),
        ("set -e; if false; then :; fi; false || echo ok; ! true; echo survived", "ok\nsurvived\n"),
        ("trap 'echo bye' EXIT; echo hi", "hi\nbye\n"),
        ("exec echo replaced; echo never", "replaced\n"),
        ("eval 'x=5; echo $x'", "5\n"),
        ("echo 'echo sourced $1' > /sdcard/lib.sh; . /sdcard/lib.sh arg", "sourced arg\n"),
        ("sh -c 'echo \"$0 $1 $#\"; exit 7' name one; echo $?", "name one 1\n7\n"),
        ("echo 'echo $0 $1' | sh -s x", "sh x\n"),
        ("echo 'a\\tb'; echo -E 'a\\tb'", "a\tb\na\\tb\n"),  # mksh's echo does escapes (-e) by default
        (
            'set -- -a -b val -cfoo rest; while getopts ab:c: o; do echo "$o ${OPTARG-}"; done; shift $((OPTIND - 1)); '
            'echo "left: $*"',
            "a \nb val\nc foo\nleft: rest\n",
        ),
        ('set -- -b; getopts :b: o; echo "$o $OPTARG"', ": b\n"),  # silent: a missing argument is ':'
    ],
)
def test_mksh_language(phone, line, stdout):
    assert run(phone, line) == (stdout, "", 0)


@pytest.mark.parametrize(
    ("line", "stderr", "code"),
    [
        ("fi", "/system/bin/sh: syntax error: 'fi' unexpected\n", 1),
        ("if true; then echo x", "/system/bin/sh: syntax error: 'if' unmatched\n", 1),
        ("for i in 1; do echo", "/system/bin/sh: syntax error: 'for' unmatched\n", 1),
        ("echo a |", "/system/bin/sh: syntax error: unexpected EOF\n", 1),
        ("echo ;; x", "/system/bin/sh: syntax error: ';;' unexpected\n", 1),
        ('echo "open', "/system/bin/sh: no closing quote\n", 1),
        ("cat <<EOF\nnever closed", "/system/bin/sh: here document 'EOF' unclosed\n", 1),
        ("for 1x in a; do :; done", "/system/bin/sh: for: bad identifier\n", 1),
        ("nosuchtool -x", "/system/bin/sh: nosuchtool: inaccessible or not found\n", 127),
        ("echo ${a b}", "/system/bin/sh: ${a b}: bad substitution\n", 1),
        ("echo $((1 +))", "/system/bin/sh: 1 +: unexpected 'end of expression'\n", 1),
        ("echo $((1 / 0)); echo never", "/system/bin/sh: 1 / 0: zero divisor\n", 1),
        ("echo ${nope:?gone}; echo never", "/system/bin/sh: nope: gone\n", 1),
        ("set -u; echo $nope", "/system/bin/sh: nope: parameter not set\n", 1),
        ("echo x > /system/x", "/system/bin/sh: can't create /system/x: Read-only file system\n", 1),
        ("cat < /sdcard/none", "/system/bin/sh: can't open /sdcard/none: No such file or directory\n", 1),
        ("cd /nope", "/system/bin/sh: cd: /nope: No such file or directory\n", 2),
        ("[ 1 -eq ]", "/system/bin/sh: [: -eq: missing second argument\n", 2),
        ("[ 1 = 1", "/system/bin/sh: [: missing ]\n", 2),
        ("sh -c 'nosuch'", "sh: nosuch: inaccessible or not found\n", 127),
        ("sh /sdcard/none.sh", "sh: /sdcard/none.sh: No such file or directory\n", 127),
        (
            "echo x > /sdcard/x.sh; /sdcard/x.sh",
            "/system/bin/sh: /sdcard/x.sh: can't execute: Permission denied\n",
            126,
        ),
        ("kill 99999", "/system/bin/sh: kill: 99999: No such process\n", 1),
        ("kill 612", "/system/bin/sh: kill: 612: Operation not permitted\n", 1),  # system_server is not the shell's
        ("break", "/system/bin/sh: break: can't break\n", 0),
        ("read -p x", "/system/bin/sh: read: -p: unknown option (this phone's read takes -r)\n", 2),
        ("set -- -x; getopts ab o", "/system/bin/sh: /system/bin/sh: -x: unknown option\n", 0),
    ],
)
def test_what_the_shell_cannot_do_fails_as_mksh_says(phone, line, stderr, code):
    out, err, status = run(phone, line)
    assert (err, status) == (stderr, code)
    assert "never" not in out


def test_set_e_ends_the_shell_at_the_first_failure(phone):
    assert run(phone, "set -e; echo before; false; echo never") == ("before\n", "", 1)
    assert run(phone, "sh -e -c 'false; echo never'; echo $?") == ("1\n", "", 0)


def test_a_syntax_error_stops_the_program_after_the_lines_before_it_ran(phone):
    # mksh parses one complete command (a line) at a time
    assert run(phone, "echo first\nfi\necho never") == ("first\n", "/system/bin/sh: syntax error: 'fi' unexpected\n", 1)


def test_a_script_file_names_itself_and_the_line_in_its_messages(phone):
    phone.fs.write("/sdcard/s.sh", b"echo one\nnosuch\nif true; then\n")
    assert run(phone, "sh /sdcard/s.sh") == (
        "one\n",
        "/sdcard/s.sh[2]: nosuch: inaccessible or not found\n/sdcard/s.sh[3]: syntax error: 'if' unmatched\n",
        1,
    )


def test_scripts_run_by_path_need_the_execute_bit(phone):
    phone.fs.write("/data/local/tmp/t.sh", b'#!/system/bin/sh\necho "ran $1 $#"\n')
    assert run(phone, "/data/local/tmp/t.sh a")[2] == 126
    assert run(phone, "chmod +x /data/local/tmp/t.sh; /data/local/tmp/t.sh a b") == ("ran a 2\n", "", 0)
    assert run(phone, "cd /data/local/tmp; ./t.sh") == ("ran  0\n", "", 0)
    assert run(phone, "/system/bin/ls -d /sdcard") == ("/sdcard\n", "", 0)  # a tool by its path


def test_background_jobs_are_waited_for_and_killed_by_pid(phone):
    out, err, code = run(phone, "sleep 5 & pid=$!; echo $pid; kill -INT $pid; wait $pid; echo status $?")
    pid, status = out.splitlines()
    assert pid.isdigit() and status == "status 130" and (err, code) == ("", 0)
    assert run(phone, "sleep 5 & kill $!; wait $!; echo $?") == ("143\n", "", 0)  # SIGTERM by default
    assert run(phone, "(sleep 0.1; echo late) & echo early; wait; echo done") == ("early\nlate\ndone\n", "", 0)
    assert run(phone, "wait 12345; echo $?") == ("127\n", "", 0)
    assert run(phone, "kill -l 130") == ("INT\n", "", 0)
    assert run(phone, "kill -s HUP")[1].startswith("usage:\tkill [-s signame | -signum | -signame]")


def test_a_job_whose_output_goes_elsewhere_outlives_its_command_and_acts_on_the_phones_clock():
    from androidrl.virtual.phone import VirtualPhone
    from androidrl.virtual.system.clock import Clock

    phone = VirtualPhone(360, 800, 160, clock=Clock(stepped=True))
    job = "(sleep 3; cmd statusbar expand-notifications; sleep 2; echo done > /sdcard/job.txt) >/dev/null 2>&1"
    out, err, code = run(phone, f"{job} & echo started $!")
    assert out.startswith("started ") and out.split()[1].isdigit() and (err, code) == ("", 0)
    assert phone.clock.uptime() == 0 and phone.status_bar.panel == "collapsed"  # (the command did not wait)

    def at(seconds):  # the clock moves as an env's steps move it, and the phone is looked at
        phone.clock.advance(seconds - phone.clock.uptime())
        phone.screenshot()

    at(2.5)
    assert phone.status_bar.panel == "collapsed"
    at(3)
    assert phone.status_bar.panel == "notifications" and run(phone, "cat /sdcard/job.txt")[2] == 1
    at(5)
    assert run(phone, "cat /sdcard/job.txt") == ("done\n", "", 0) and phone.scheduler.pending() == 0
    # A snapshot loaded, or a reboot, ends the jobs still waiting; a job that writes to the client is waited for.
    phone.save_snapshot("before")
    run(phone, "(sleep 1; echo again > /sdcard/job.txt) >/dev/null 2>&1 &")
    phone.load_snapshot("before")
    at(10)
    assert run(phone, "cat /sdcard/job.txt")[0] == "done\n" and phone.scheduler.pending() == 0
    assert run(phone, "(sleep 1; echo late) & echo early") == ("early\nlate\n", "", 0)
    assert run(phone, "{ sleep 1; echo kept; } >/sdcard/job.txt 2>/dev/null & echo $?") == ("0\n", "", 0)
    assert run(phone, "cat /sdcard/job.txt")[0] == "" and phone.scheduler.pending() == 1
    at(phone.clock.uptime() + 1)
    assert run(phone, "cat /sdcard/job.txt")[0] == "kept\n"


def test_reboot_never_answers_in_a_job_it_ends_with_the_phone():
    # AOSP's reboot waits in pause() until init takes the phone down: no command after it runs.
    from androidrl.virtual.phone import PhoneOfflineError, VirtualPhone
    from androidrl.virtual.system.clock import Clock

    phone = VirtualPhone(360, 800, 160, clock=Clock(stepped=True), boot_seconds=0.0)
    with pytest.raises(PhoneOfflineError, match="went down to reboot"):
        phone.shell("echo x > /sdcard/a.txt; reboot; echo y > /sdcard/b.txt")
    assert run(phone, "ls /sdcard/a.txt /sdcard/b.txt")[2] == 1 and run(phone, "cat /sdcard/a.txt")[0] == "x\n"
    assert run(phone, "reboot -p & echo started") == ("started\n", "", 0)  # (a job: the phone goes under it)
    phone.power_on()
    assert run(phone, "(sleep 1; reboot -p) >/dev/null 2>&1 &")[2] == 0 and phone.online
    phone.clock.advance(1)
    with pytest.raises(PhoneOfflineError, match="powered off"):  # the next look runs the job: the phone goes
        phone.shell("echo late")
    assert not phone.online


def test_read_takes_one_line_of_the_clients_input_and_leaves_the_rest(phone):
    stdin = Stdin()
    stdin.feed(b"one two three\nsecond line\n")
    stdin.close()
    assert phone.shell('read a b; echo "[$a] [$b]"; read c; echo "[$c]"; read d; echo $?', stdin).stdout == (
        b"[one] [two three]\n[second line]\n1\n"
    )
    assert run(phone, "printf 'x\\ny\\nlast' | while read l; do echo \"<$l>\"; done") == ("<x>\n<y>\n", "", 0)


# --------------------------------------------------------------------------- toybox's tools, awk, service


@pytest.mark.parametrize(
    ("line", "stdout"),
    [
        ("printf '%s=%d\\n' a 1 b 2", "a=1\nb=2\n"),
        ("printf '%05.1f|%-3s|%c|%x|%o|%%\\n' 3.14159 ab xyz 255 8", "003.1|ab |x|ff|10|%\n"),
        ("echo 'Hello World' | tr -d lo; echo aabbcc | tr -s ab; echo hi | tr a-z A-Z", "He Wrd\nabcc\nHI\n"),
        ("printf 'a:b:c\\nd:e:f\\n' | cut -d: -f1,3; echo abcdef | cut -c2-4", "a:c\nd:f\nbcd\n"),
        (
            "printf '10\\n9\\n100\\n' | sort -n; printf 'b 2\\na 1\\nc 3\\n' | sort -k2 -r",
            "9\n10\n100\nc 3\nb 2\na 1\n",
        ),
        ("printf 'b\\na\\nb\\nb\\n' | sort | uniq -c", "      1 a\n      3 b\n"),
        ("printf 'a\\na\\nb\\n' | uniq -d; printf 'a\\nb\\nb\\n' | uniq -u", "a\na\n"),
        ("seq 3; seq 2 2 6; seq -s, 3; seq -w 8 10", "1\n2\n3\n2\n4\n6\n1,2,3\n08\n09\n10\n"),
        ("basename /sdcard/x.txt .txt; basename /a/b/; dirname /sdcard/x.txt; dirname x", "x\nb\n/sdcard\n.\n"),
        ("echo 'x=1 y=2' | sed 's/\\([a-z]\\)=\\([0-9]\\)/\\2=\\1/g'", "1=x 2=y\n"),
        ("printf 'a\\nb\\nc\\n' | sed -n '2p'; printf 'a\\nb\\nc\\n' | sed '1d;3s/c/C/'", "b\nb\nC\n"),
        ("printf 'k v\\n' | sed -E 's/(k) (v)/\\2 \\1/'; printf 'one\\ntwo\\n' | sed '$a end'", "v k\none\ntwo\nend\n"),
        ("printf 'a\\nb\\nc\\nd\\n' | sed -n '/b/,/c/p'; echo abc | sed 'y/abc/xyz/'", "b\nc\nxyz\n"),
        ("echo 'a b c' | awk '{print $2, NF}'", "b 3\n"),
        ("echo 'a:b:c' | awk -F: '{print $3; print NR}'", "c\n1\n"),
        ("printf 'x 1\\ny 2\\nx 3\\n' | awk '$1 == \"x\" { s += $2 } END { print s, NR }'", "4 3\n"),
        ("printf 'k1 3\\nk2 4\\nk1 5\\n' | awk '{ t[$1] += $2 } END { for (k in t) print k, t[k] }'", "k1 8\nk2 4\n"),
        ("printf 'a\\nbb\\nccc\\n' | awk '/b/,/c/ { print length($0) }'", "2\n3\n"),
        (
            "awk -v n=3 'BEGIN { for (i = 1; i <= n; i++) s = s i; printf \"%s %d %.2f\\n\", s, 3.9, 2/3 }'",
            "123 3 0.67\n",
        ),
        (
            "echo 'foo bar' | awk '{ gsub(/o/, \"0\"); print toupper($0), substr($2, 2), index($0, \"b\") }'",
            "F00 BAR ar 5\n",
        ),
        (
            "mkdir -p /sdcard/t/u; touch /sdcard/t/a.txt /sdcard/t/u/b.txt; find /sdcard/t -name '*.txt'",
            "/sdcard/t/a.txt\n/sdcard/t/u/b.txt\n",
        ),
        (
            "mkdir -p /sdcard/t/u; find /sdcard/t -type d; find /sdcard/t -maxdepth 0",
            "/sdcard/t\n/sdcard/t/u\n/sdcard/t\n",
        ),
        (
            "touch /data/local/tmp/m; find /data/local/tmp -user shell -type f; find /sdcard -user shell",
            "/data/local/tmp/m\n",
        ),
        ("mkdir -p /sdcard/t/u; touch /sdcard/t/u/b; find /sdcard/t -depth", "/sdcard/t/u/b\n/sdcard/t/u\n/sdcard/t\n"),
        (
            "mkdir -p /sdcard/t/u/v; touch /sdcard/t/a /sdcard/t/u/b; ls -R /sdcard/t; ls -p /sdcard/t",
            "/sdcard/t:\na\nu\n\n/sdcard/t/u:\nb\nv\n\n/sdcard/t/u/v:\na\nu/\n",
        ),
        (
            "mkdir -p /sdcard/t; touch /sdcard/t/a /sdcard/t/b; find /sdcard/t -type f -exec echo got {} \\;",
            "got /sdcard/t/a\ngot /sdcard/t/b\n",
        ),
        (
            "printf 'a b\\nc\\n' | xargs echo x; printf '1\\n2\\n' | xargs -n 1 echo n; echo q | xargs -I @ echo [@]",
            "x a b c\nn 1\nn 2\n[q]\n",
        ),
        (
            "echo hi > /sdcard/f; chmod 600 /sdcard/f; stat -c '%n %s %a %A %F %U' /sdcard/f",
            "/sdcard/f 3 660 -rw-rw---- regular file root\n",
        ),
        (
            "touch /data/local/tmp/x; chmod 750 /data/local/tmp/x; stat -c '%a %U:%G' /data/local/tmp/x",
            "750 shell:shell\n",
        ),
        ("echo hello > /sdcard/f; du /sdcard/f; du -s -b /sdcard/f", "4\t/sdcard/f\n6\t/sdcard/f\n"),
        ("env -i A=1 B=2 env; X=5 env | grep '^X='; env Y=3 sh -c 'echo $Y'", "A=1\nB=2\nX=5\n3\n"),
        ("date; date -u +%s; date +%Y-%m-%d", "Mon Jun 15 09:00:00 UTC 2026\n1781514000\n2026-06-15\n"),
        ("uptime", " 09:00:00 up 0 min,  0 users,  load average: 0.52, 0.48, 0.41\n"),
        ("service check activity; service check nothing", "Service activity: found\nService nothing: not found\n"),
        ("service list | head -2", "Found 47 services:\n0\tSurfaceFlinger: [android.ui.ISurfaceComposer]\n"),
        ("ls -d /sdcard/*/ | head -2", "/sdcard/Android/\n/sdcard/DCIM/\n"),
        ("touch /sdcard/f; ls -d /sdcard/*/ | grep -v '/$' | wc -l", "0\n"),  # the trailing slash: directories only
        ("ls /sdcard/Download /sdcard/Music", "/sdcard/Download:\n\n/sdcard/Music:\n"),
        ("expr 1 + 2 \\* 3; expr abc : 'a\\(.\\)'; expr 5 = 5", "7\nb\n1\n"),
        ("nproc; realpath /sdcard/../sdcard/x; nohup echo hup", "4\n/sdcard/x\nhup\n"),
        ("timeout 0.1 sleep 3; echo $?; timeout 5 true; echo $?", "124\n0\n"),
        (
            "mkdir /sdcard/e; rmdir /sdcard/e; ls -d /sdcard/e 2>/dev/null; mktemp -d | grep -c '^/data/local/tmp/tmp'",
            "1\n",
        ),
        ("free | head -2 | tail -1 | awk '{ print $2 }'", "4111888384\n"),  # MemTotal of /proc/meminfo, in bytes
    ],
)
def test_toybox_tools(phone, line, stdout):
    assert run(phone, line) == (stdout, "", 0)


@pytest.mark.parametrize(
    ("line", "stderr", "code"),
    [
        ("printf '%d\\n' abc", "printf: bad %d abc\n", 1),
        ("cut -f", "cut: Missing argument to -f\n", 1),
        ("echo x | cut -d, -c1", "cut: -d needs -Ff\n", 1),
        ("sed 'k'", "sed: bad pattern 'k'@1 (k)\n", 1),
        (
            "awk '{print $1'",
            "awk: syntax error at source line 1\n context is\n\t{print $1\nawk: bailing out at source line 1\n",
            2,
        ),
        (
            "awk 'function f() {}'",
            "awk: user-defined functions are not supported by this phone's awk at source line 1\n",
            2,
        ),
        ("awk 'BEGIN { print 1 / 0 }'", "awk: division by zero\n source line number 1\n", 2),
        ("find /nope", "find: '/nope': No such file or directory\n", 1),
        ("find /sdcard -bogus", "find: bad arg '-bogus'\n", 1),
        ("stat /nope", "stat: '/nope': No such file or directory\n", 1),
        ("chmod 755 /nope", "chmod: /nope: No such file or directory\n", 1),
        ("chmod zz /sdcard", "chmod: bad mode 'zz'\n", 1),
        ("df /nope >/dev/null", "df: '/nope': No such file or directory\n", 1),
        ("env -q", "env: Unknown option 'q' (see \"env --help\")\n", 125),
        ("service call activity 1", "service: call: raw binder transactions are not supported on this phone\n", 10),
        ("date -s 2020", "date: -s is not supported on this phone\n", 1),
    ],
)
def test_toybox_tools_fail_as_toybox_says(phone, line, stderr, code):
    assert run(phone, line)[1:] == (stderr, code)


def test_proc_reads_the_phones_state_and_clock():
    from androidrl.virtual.phone import VirtualPhone
    from androidrl.virtual.system.clock import Clock

    phone = VirtualPhone(360, 800, 160, clock=Clock(stepped=True))
    assert run(phone, "cat /proc/uptime") == ("0.00 0.00\n", "", 0)
    phone.clock.advance(90)
    assert run(phone, "cat /proc/uptime; uptime") == (
        "90.00 334.80\n 09:01:30 up 1 min,  0 users,  load average: 0.52, 0.48, 0.41\n",
        "",
        0,
    )
    meminfo = run(phone, "cat /proc/meminfo")[0]
    assert meminfo.startswith("MemTotal:        4015516 kB\nMemFree:  ")
    free = int(re.search(r"MemFree: +(\d+)", meminfo).group(1))
    run(phone, "am start -n com.android.settings/.Settings")  # a process more: less memory free
    assert int(re.search(r"MemFree: +(\d+)", run(phone, "cat /proc/meminfo")[0]).group(1)) < free
    assert run(phone, "grep -c ^processor /proc/cpuinfo") == ("4\n", "", 0)
    assert run(phone, "cat /proc/version")[0].startswith("Linux version " + run(phone, "uname -r")[0].strip() + " ")
    assert run(phone, "echo x > /proc/uptime")[1:] == (
        "/system/bin/sh: can't create /proc/uptime: Permission denied\n",
        1,
    )


def test_system_bin_lists_every_tool_of_the_registry(phone):
    from androidrl.virtual.shell.registry import COMMANDS, tools

    listed = run(phone, "ls /system/bin")[0].split()
    assert listed == tools() and {"sh", "awk", "sed", "find", "service", "ls", "[", "kill", "echo"} <= set(listed)
    assert not {"cd", "read", "set", "export", "wait", "local"} & set(listed)  # the shell's own are not files
    assert set(listed) < set(COMMANDS)
    assert run(phone, "ls -l /system/bin/sh")[0].startswith("-rwxr-xr-x 1 root shell ")
    assert run(phone, "rm /system/bin/ls")[1] == "rm: /system/bin/ls: Read-only file system\n"

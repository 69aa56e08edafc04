"""Shell scripts over the real ``adb``: pushed and run, typed into a session, and adbutils' screen recording.

The outputs are what Android's ``/system/bin/sh`` (mksh) and toybox print for the same script.
"""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from androidrl.device.adb_server import adb_path

SCRIPT = b"""#!/system/bin/sh
# A script as people push them: functions, loops, arithmetic, pipes, sh -c, a job, an error.
greet() {
    local who="$1"
    echo "hello, $who"
    return 3
}
greet "${1:-nobody}"
echo "greet returned $?"
total=0
for n in $(seq 1 5); do
    total=$((total + n * n))
done
echo "sum of squares: $total"
i=0
while [ "$i" -lt 3 ]; do
    i=$((i + 1))
    case $i in
        1) echo one ;;
        2) echo two ;;
        *) echo "many ($i)" ;;
    esac
done
printf '%s\\n' pear apple fig | sort | tr a-z A-Z | head -2
files=$(ls /data/local/tmp | wc -l)
echo "files here: $files"
sh -c 'echo "inner: $0 $1"; exit 7' child "$2"
echo "inner exit: $?"
echo "$(( 7 / 2 )) $(( -7 % 3 )) $(( 1 << 4 )) $(( 2147483647 + 1 ))"
if [ -d /sdcard ] && ! [ -e /sdcard/nope ]; then echo "dirs ok"; fi
sleep 0.1 &
wait $! && echo "job done"
for f in /sdcard/*/; do echo "dir ${f%/}"; done | head -2
echo "$*" | awk '{ print NF, toupper($2) }'
missing_tool --flag
echo "after error: $?"
echo "to stderr" >&2
exit 5
"""
OUTPUT = b"""hello, world
greet returned 3
sum of squares: 55
one
two
many (3)
APPLE
FIG
files here: 1
inner: child second
inner exit: 7
3 -1 16 -2147483648
dirs ok
job done
dir /sdcard/Android
dir /sdcard/DCIM
2 SECOND
after error: 127
"""
ERRORS = b"/data/local/tmp/script.sh[35]: missing_tool: inaccessible or not found\nto stderr\n"


def adb(adb_server, serial: str, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [adb_path(), "-s", serial, *args], input=stdin, env=adb_server.env, capture_output=True, timeout=60
    )


def test_a_pushed_script_runs_over_adb_shell_as_mksh_runs_it(served, adb_server, phone, tmp_path):
    local = tmp_path / "script.sh"
    local.write_bytes(SCRIPT)
    assert adb(adb_server, served.serial, "push", str(local), "/data/local/tmp/script.sh").returncode == 0
    result = adb(adb_server, served.serial, "shell", "sh /data/local/tmp/script.sh world second")
    assert (result.stdout, result.stderr, result.returncode) == (OUTPUT, ERRORS, 5)
    # run by its path, as a program: it needs its execute bit first, as on a device
    denied = adb(adb_server, served.serial, "shell", "/data/local/tmp/script.sh world second")
    assert (denied.stderr, denied.returncode) == (
        b"/system/bin/sh: /data/local/tmp/script.sh: can't execute: Permission denied\n",
        126,
    )
    result = adb(
        adb_server,
        served.serial,
        "shell",
        "chmod 755 /data/local/tmp/script.sh && /data/local/tmp/script.sh world second",
    )
    assert (result.stdout, result.stderr, result.returncode) == (OUTPUT, ERRORS, 5)
    # adb push keeps the host file's mode: an executable script runs by its path at once
    runnable = tmp_path / "run.sh"
    runnable.write_bytes(b"#!/system/bin/sh\necho ran $#\n")
    runnable.chmod(0o755)
    assert adb(adb_server, served.serial, "push", str(runnable), "/data/local/tmp/run.sh").returncode == 0
    assert adb(adb_server, served.serial, "shell", "/data/local/tmp/run.sh a b").stdout == b"ran 2\n"


def test_an_adb_shell_session_takes_commands_over_several_lines(served, adb_server):
    session = (
        b"total=0\nfor i in 1 2 3; do\n  total=$((total + i))\ndone\necho total $total\n"
        b"f() {\n  echo in f $1\n}\nf x\ncat <<EOF\nheredoc $total\nEOF\n"
        b"nosuch\necho 'still here'\nexit 2\necho never\n"
    )
    result = adb(adb_server, served.serial, "shell", stdin=session)
    assert (result.stdout, result.returncode) == (b"total 6\nin f x\nheredoc 6\nstill here\n", 2)
    assert (
        result.stderr == b"/system/bin/sh: nosuch: inaccessible or not found\n"
    )  # an error ends a line, not the session


def test_adbutils_screen_recording_leaves_a_video_and_no_folder(served, adb_server, phone, tmp_path):
    import adbutils

    if shutil.which("scrcpy"):
        pytest.skip("adbutils records with scrcpy when it is installed")
    device = adbutils.AdbClient(host="127.0.0.1", port=adb_server.port).device(served.serial)
    video = tmp_path / "video.mp4"
    device.start_recording(str(video))  # pushes an sh script: screenrecord "$1" &; PID=$!; read; kill -INT $PID; wait
    deadline = time.monotonic() + 10
    while not any(name.startswith("adbutils-tmp-video") for name in phone.fs.listdir("/sdcard")):
        assert time.monotonic() < deadline, "screenrecord never started"
        time.sleep(0.05)
    phone.tap(100, 300)  # something on screen changes: another frame
    time.sleep(0.3)
    device.stop_recording()
    assert video.is_file() and video.read_bytes()[4:8] == b"ftyp"  # an MP4, pulled from the phone
    assert not [name for name in phone.fs.listdir("/sdcard") if name.startswith("adbutils-tmp-video")]

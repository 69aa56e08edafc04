"""Screenshots of the virtual phone's apps, taken from the phone itself, for the README and docs/apps.md.

Usage: python scripts/screenshots.py [OUT_DIR]  (default docs/screenshots; 360x800 PNGs, as `screencap -p` writes them)

Each screen is reached the way a user or a task's reset reaches it: shell commands on a phone
with seeded content (launch the app's launcher activity, tap, type, pull the shade down).
"""

import re
import sys
from pathlib import Path

from androidrl.virtual.phone import VirtualPhone

#: The phone's seeded content, so lists have something to show.
CONTENT = {"contacts": 14, "events": 10, "messages": 10, "calls": 8, "files": 6, "photos": 8, "alarms": 3}


def launch(package: str) -> list[str]:
    """The commands that open ``package``'s launcher activity from a fresh start."""
    return [f"am force-stop {package}", f"monkey -p {package} -c android.intent.category.LAUNCHER 1"]


#: (file name, caption, phone options, shell commands that reach the screen).
SCREENS = [
    ("home", "Launcher", {}, ["input keyevent HOME"]),
    ("settings", "Settings", {}, launch("com.android.settings")),
    ("clock", "Clock (alarms)", {}, launch("com.android.deskclock")),
    ("contacts", "Contacts", {}, launch("com.android.contacts")),
    ("phone", "Phone (dialpad)", {}, ["am start -a android.intent.action.DIAL -d tel:5550142"]),
    ("messages", "Messages", {}, launch("com.android.messaging")),
    ("calendar", "Calendar", {}, launch("com.android.calendar")),
    ("files", "Files", {}, launch("com.android.documentsui")),
    ("camera", "Camera", {}, launch("com.android.camera2")),
    ("gallery", "Gallery", {}, launch("com.android.gallery3d")),
    ("calculator", "Calculator", {}, [*launch("com.android.calculator2"), "input text 12*7+5"]),
    ("notes-keyboard", "Notes, the keyboard up", {}, [*launch("com.androidrl.notes"), "TAP android.widget.EditText"]),
    ("quick-settings", "Quick Settings", {}, ["cmd statusbar expand-settings"]),
    ("settings-dark-de", "Settings, dark, German", {"night": True, "locale": "de-DE"}, launch("com.android.settings")),
]  # fmt: skip


def tap_first(phone: VirtualPhone, cls: str) -> str:
    """``input tap`` at the centre of the first node of class ``cls`` in the UI dump."""
    xml = phone.shell("uiautomator dump /dev/tty").stdout.decode()
    node = re.search(rf'class="{re.escape(cls)}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
    if node is None:
        raise SystemExit(f"no {cls} on the screen")
    left, top, right, bottom = map(int, node.groups())
    return f"input tap {(left + right) // 2} {(top + bottom) // 2}"


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    for name, caption, options, commands in SCREENS:
        phone = VirtualPhone(360, 800, 160, seed=0, content=CONTENT, **options)
        for command in commands:
            if command.startswith("TAP "):  # the first node of a class, tapped at its centre (as an agent finds it)
                command = tap_first(phone, command.split()[1])
            result = phone.shell(command)
            if result.exit_code != 0:
                raise SystemExit(f"{name}: {command!r} failed: {result.stderr.decode(errors='replace')}")
        (out / f"{name}.png").write_bytes(phone.shell("screencap -p").stdout)
        print(f"{out / name}.png  {caption}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

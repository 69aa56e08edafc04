"""What the dumps share: identity hashes, the phone's SDK level, window and record names."""

from __future__ import annotations

import zlib

from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.configuration import configuration_string
from androidrl.virtual.system.framework.intent import short_component
from androidrl.virtual.system.window.notification_shade import PACKAGE as SYSTEMUI

#: SystemUI's process (``ps``): the bars and the NotificationShade window belong to it.
SYSTEMUI_PID, SYSTEMUI_UID = 890, 10130


def identity(text: str) -> str:
    """A stable stand-in for ``Integer.toHexString(System.identityHashCode(obj))``."""
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:x}"


def sdk(phone: PhoneCore) -> int:
    """``ro.build.version.sdk``: which release's formats to print."""
    return int(phone.getprop("ro.build.version.sdk") or 34)


def configuration(phone: PhoneCore) -> str:
    """The phone's Configuration.toString()."""
    font = phone.settings.get("system", "font_scale") or "1.0"
    night = phone.settings.get("secure", "ui_night_mode") == "2"
    return configuration_string(phone.metrics, font, phone.getprop("persist.sys.locale") or "en-US", night)


def window_name(title: str) -> str:
    """``WindowState.toString()``: ``Window{hash u0 TITLE}``; an activity's title is ``package/full.Class``."""
    return f"Window{{{identity('window ' + title)} u0 {title}}}"


def activity_record(component: str, task_id: int) -> str:
    """``ActivityRecord.toString()``: ``ActivityRecord{hash u0 package/.Class tN}``."""
    package, cls = component.split("/", 1)
    short = short_component(package, cls)
    return f"ActivityRecord{{{identity('record ' + component)} u0 {short} t{task_id}}}"


def shade_window(phone: PhoneCore) -> str:
    """The title of SystemUI's window for the keyguard and the shade.

    ``NotificationShade`` from Android 11 on; before, the status bar's own window grew to hold them.
    """
    return "NotificationShade" if sdk(phone) >= 30 else "StatusBar"


def focused_window(phone: PhoneCore) -> str:
    """The focused window's name: SystemUI's shade window while the keyguard or shade shows, else the top activity's."""
    if phone.keyguard.showing or phone.status_bar.expanded:
        return window_name(shade_window(phone))
    return window_name(phone.top_activity.component)


__all__ = ["SYSTEMUI", "SYSTEMUI_PID", "SYSTEMUI_UID", "activity_record", "configuration", "focused_window",
           "identity", "sdk", "shade_window", "window_name"]  # fmt: skip

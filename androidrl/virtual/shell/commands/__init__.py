"""The tools of the phone's ``/system/bin``, one module per Android tool, all in the one registry.

Importing this package registers every command with
:func:`~androidrl.virtual.shell.registry.command`; :data:`COMMANDS` is then the whole table.
Android's own tools (``am``, ``pm``, ``cmd``, ``dumpsys``, ``input``, ``wm``, ``settings``,
``content``, ``svc``, ``logcat`` (with toybox's ``log`` beside it), ``uiautomator``,
``screencap``, ``screenrecord``, ``getevent``/``sendevent``, ``getprop``/``setprop``,
``monkey``) follow the Android 14 sources; ``dumpsys/`` is a package (each service's dump
in a module); ``toybox/`` holds toybox's, and ``builtins`` the shell's own. A new tool is a
new module here, listed below.
"""

from androidrl.virtual.shell.commands import (  # noqa: F401 (each module registers its commands)
    am,
    builtins,
    cmd,
    content,
    dumpsys,
    getevent,
    input,
    logcat,
    monkey,
    pm,
    props,
    screencap,
    screenrecord,
    settings,
    svc,
    uiautomator,
    wm,
)
from androidrl.virtual.shell.commands.toybox import disk, files, net, system, text  # noqa: F401 (toybox's too)
from androidrl.virtual.shell.registry import COMMANDS

__all__ = ["COMMANDS"]

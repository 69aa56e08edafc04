"""The tools of the phone's ``/system/bin``, one module per Android tool, all in the one registry.

Importing this package registers every command with
:func:`~androidrl.virtual.shell.registry.command`; :data:`COMMANDS` is then the whole table.
Android's own tools (``am``, ``pm``, ``cmd``, ``dumpsys``, ``input``, ``wm``, ``settings``,
``content``, ``svc``, ``logcat`` (with toybox's ``log`` beside it), ``uiautomator``,
``screencap``, ``screenrecord``, ``getevent``/``sendevent``, ``getprop``/``setprop``,
``monkey``, ``service``, ``locksettings``) follow the Android 14 sources; ``dumpsys/`` is a package (each
service's dump in a module); ``toybox/`` holds toybox's, ``awk`` Android's one-true-awk, ``sh``
the shell itself, and ``builtins`` and ``flow`` the shell's own commands. A new tool is a new
module here, listed below.
"""

from androidrl.virtual.shell.commands import (  # noqa: F401 (each module registers its commands)
    am,
    awk,
    builtins,
    cmd,
    content,
    dumpsys,
    flow,
    getevent,
    input,
    locksettings,
    logcat,
    monkey,
    pm,
    props,
    screencap,
    screenrecord,
    service,
    settings,
    sh,
    svc,
    uiautomator,
    wm,
)
from androidrl.virtual.shell.commands.toybox import (  # noqa: F401 (toybox's too)
    disk,
    fileinfo,
    files,
    filters,
    find,
    misc,
    net,
    sed,
    strings,
    system,
    text,
)
from androidrl.virtual.shell.registry import COMMANDS

__all__ = ["COMMANDS"]

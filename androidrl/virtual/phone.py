"""The virtual phone: a headless Android look-alike, deterministic under a seed.

This is the composition of the virtual phone: the :class:`~androidrl.virtual.system.core.PhoneCore`
(the system services — properties, settings, file system, radios, power, the activity
manager, the display and input dispatch), the preinstalled apps with the launcher as home
screen, and the shell with Android's commands. It is the one module of the package that
knows the apps; everything it composes works with whatever apps it is given.

:meth:`VirtualPhone.shell` answers shell commands with Android's output formats (see
:mod:`androidrl.virtual.shell`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping

from androidrl.virtual.apps.calculator.app import calculator_app
from androidrl.virtual.apps.calendar.app import calendar_app
from androidrl.virtual.apps.camera.app import camera_app
from androidrl.virtual.apps.contacts.app import contacts_app
from androidrl.virtual.apps.deskclock.app import deskclock_app
from androidrl.virtual.apps.dialer.app import dialer_app
from androidrl.virtual.apps.files.app import files_app, htmlviewer_app
from androidrl.virtual.apps.gallery.app import gallery_app
from androidrl.virtual.apps.installed.app import installed_app
from androidrl.virtual.apps.launcher.app import LAUNCHER, launcher_app
from androidrl.virtual.apps.launcher.app import PACKAGE as LAUNCHER_PACKAGE
from androidrl.virtual.apps.messaging.app import messaging_app
from androidrl.virtual.apps.notes.app import notes_app
from androidrl.virtual.apps.permissioncontroller.app import permissioncontroller_app
from androidrl.virtual.apps.practice.app import practice_app
from androidrl.virtual.apps.settings.app import settings_app
from androidrl.virtual.shell.commands import COMMANDS
from androidrl.virtual.shell.interpreter import Shell, ShellResult
from androidrl.virtual.shell.registry import system_bin
from androidrl.virtual.shell.stdin import Stdin
from androidrl.virtual.system.app_context import app_context
from androidrl.virtual.system.clock import Clock
from androidrl.virtual.system.content.stock import CLOCK_PACKAGE, CLOCK_PROVIDERS, provider_packages
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.fs import DEFAULT_CAPACITY
from androidrl.virtual.system.power import PhoneOfflineError
from androidrl.virtual.ui.config import check_configuration

__all__ = ["PhoneOfflineError", "VirtualPhone"]


def default_apps() -> list[App]:
    """Fresh instances of every preinstalled package, in install order (the provider packages last)."""
    apps = [
        launcher_app(),
        settings_app(),
        calculator_app(),
        calendar_app(),
        deskclock_app(),
        contacts_app(),
        dialer_app(),
        messaging_app(),
        files_app(),
        htmlviewer_app(),
        camera_app(),
        gallery_app(),
        notes_app(),
        practice_app(),
        permissioncontroller_app(),
    ]
    for app in apps:
        if app.package == CLOCK_PACKAGE:  # DeskClock owns its provider
            app.providers = CLOCK_PROVIDERS
    return [*apps, *provider_packages()]


class VirtualPhone(PhoneCore):
    r"""A headless Android phone with the stock apps and a shell.

    It keeps the state an Android device has — installed apps, a stack of tasks of
    activities, the settings provider, a file system, system properties, screen size and
    density — and turns input into effects the way Android does (see
    :class:`~androidrl.virtual.system.core.PhoneCore` for the parts and their methods).

    Args:
        width: Physical screen width in pixels.
        height: Physical screen height in pixels.
        density: Screen density in dpi (160 = 1 px per dp).
        seed: Seeds every random choice the phone makes (e.g. the practice target).
        serial: ``ro.serialno``.
        model: ``ro.product.model``.
        sdk: ``ro.build.version.sdk``; below 29 ``screencap`` writes the 12-byte raw header.
        boot_seconds: How long ``reboot`` keeps the phone offline.
        clock: The phone's clock (default: realtime, from 2026-06-15 09:00 UTC; see
            :mod:`androidrl.virtual.system.clock`).
        storage: Bytes its files may hold (``/data``, which ``/sdcard`` lives on; ``df`` shows
            it; a write beyond it fails with "No space left on device").
        content: How many contacts, events, messages, calls, files, photos and alarms the phone
            starts with, drawn from ``seed`` (``{"contacts": 20, "messages": 15}``; see
            :mod:`androidrl.virtual.system.content.seed`).
        night: Start in the dark theme (``secure ui_night_mode`` 2, as ``cmd uimode night yes``).
        font_scale: Start with this font size (``system font_scale``; Android offers 0.85 to 2.0).
        locale: Start in this locale (``persist.sys.locale``), e.g. ``de-DE``.

    Raises:
        ValueError: A font scale outside 0.5-3.0 or a locale that is not a language[-REGION] tag.

    Attributes:
        command_log: The most recent shell command lines received, oldest first (like a device log).

    Example:
        >>> phone = VirtualPhone(360, 800, 160)
        >>> phone.shell("settings get global wifi_on").stdout
        b'1\\n'
    """

    def __init__(
        self,
        width: int = 1080,
        height: int = 2400,
        density: int = 420,
        *,
        seed: int = 0,
        serial: str = "virtual-phone",
        model: str = "androidrl Virtual Phone",
        sdk: int = 34,
        boot_seconds: float = 1.0,
        clock: Clock | None = None,
        storage: int = DEFAULT_CAPACITY,
        content: Mapping[str, int] | None = None,
        night: bool = False,
        font_scale: float = 1.0,
        locale: str = "en-US",
    ) -> None:
        check_configuration(font_scale, locale)
        super().__init__(
            width,
            height,
            density,
            apps=default_apps(),
            home=(LAUNCHER_PACKAGE, LAUNCHER),
            app_context=app_context,
            app_from_apk=installed_app,
            seed=seed,
            serial=serial,
            model=model,
            sdk=sdk,
            boot_seconds=boot_seconds,
            clock=clock,
            storage=storage,
            content=content,
        )
        self.command_log: deque[str] = deque(maxlen=1000)
        self.settings.put("secure", "ui_night_mode", "2" if night else "1")
        self.settings.put("system", "font_scale", repr(float(font_scale)))
        self.props["persist.sys.locale"] = locale
        self.fs.mount("/system/bin", system_bin())

    def shell(
        self,
        command: str,
        stdin: bytes | Stdin = b"",
        cancel: threading.Event | None = None,
        deadline: float | None = None,
        sink: Callable[[int, bytes], None] | None = None,
        session: Shell | None = None,
    ) -> ShellResult:
        """Run a command line as ``adb shell`` does: stdout, stderr and exit status.

        Args:
            command: The command line, in the syntax of Android's ``sh``.
            stdin: Bytes fed to the first command's standard input, or a client's :class:`Stdin`.
            cancel: Set it to interrupt a running command (e.g. a client that went away).
            deadline: ``time.monotonic()`` after which waiting commands (``sleep``) give up.
            sink: ``sink(fd, data)`` gets the output as it is produced (the result's is then empty).
            session: A shell from :meth:`open_shell` to run in (its directory and variables carry on).

        Raises:
            PhoneOfflineError: The phone is rebooting or off.
        """
        self.check_online()
        self.deliver_due()  # (what went off while nobody looked is there for the command to see)
        self.check_online()  # (... a job's `reboot` among it)
        self.command_log.append(command)
        shell = session or self.open_shell(cancel, deadline)
        shell.sink = sink
        return shell.run(command, stdin, wait=session is None)

    def open_shell(
        self,
        cancel: threading.Event | None = None,
        deadline: float | None = None,
        sink: Callable[[int, bytes], None] | None = None,
    ) -> Shell:
        """A shell that keeps its working directory and variables across lines (an interactive session)."""
        return Shell(self, COMMANDS, cancel=cancel, deadline=deadline, sink=sink)

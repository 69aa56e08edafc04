"""Notifications and the status bar's panel: what is posted, and whether the shade is pulled down.

:class:`NotificationManager` holds the posted notifications as NotificationManagerService
does (``cmd notification post`` posts as ``com.android.shell``, id 2020); :class:`StatusBar`
is the shade's state that StatusBarManagerService drives (``cmd statusbar
expand-notifications|expand-settings|collapse``). The window manager draws from both.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Notification:
    """One posted notification (a StatusBarNotification and what its Notification shows).

    Attributes:
        package: Who posted it.
        uid: The poster's uid.
        id: Its id (``cmd notification post`` always uses 2020).
        tag: Its tag.
        title: ``android.title``, or "".
        text: ``android.text``.
        style: ``bigtext``, ``bigpicture``, ``inbox``, ``messaging``, ``media`` or "".
        posted_at: When it was posted, in seconds since the epoch.
        opens: The component its content intent starts, or "".
    """

    package: str
    uid: int
    id: int
    tag: str
    title: str
    text: str
    style: str = ""
    posted_at: float = 0.0
    opens: str = ""

    @property
    def key(self) -> str:
        """``user|package|id|tag|uid``, as StatusBarNotification.key builds it."""
        return f"0|{self.package}|{self.id}|{self.tag}|{self.uid}"

    @property
    def record_hash(self) -> str:
        """A stable stand-in for the record's identity hash in dumps."""
        return f"{zlib.crc32(self.key.encode()) & 0xFFFFFFFF:08x}"


class NotificationManager:
    """The posted notifications, newest last; a repost with the same key replaces the old one.

    Args:
        on_change: Runs after every post or cancel (the shade shows them).
        uid_of: The uid of a package (the per-package preferences name it).
    """

    def __init__(self, on_change: Callable[[], None] | None = None, uid_of: Callable[[str], int] | None = None) -> None:
        self._posted: dict[str, Notification] = {}
        self._blocked: dict[str, int] = {}  # package -> uid, of the packages whose notifications are off
        self._user_set: dict[str, int] = {}  # package -> uid, of every package the user switched either way
        self._on_change = on_change
        self._uid_of = uid_of or (lambda package: 10000)

    def post(self, notification: Notification) -> bool:
        """Post (or update) a notification; False when its package's notifications are off.

        A blocked package's notification is dropped (NotificationManagerService: "by user request").
        """
        if notification.package in self._blocked:
            return False
        self._posted.pop(notification.key, None)
        self._posted[notification.key] = notification
        self._changed()
        return True

    def cancel(self, key: str) -> bool:
        """Take a notification away by key; whether there was one."""
        removed = self._posted.pop(key, None) is not None
        if removed:
            self._changed()
        return removed

    def cancel_all(self) -> None:
        """Take every notification away (the shade's "Clear all")."""
        if self._posted:
            self._posted.clear()
            self._changed()

    def cancel_package(self, package: str) -> None:
        """Take away every notification of ``package`` (it was force-stopped: ``cancelAllNotificationsInt``)."""
        for key in [key for key, n in self._posted.items() if n.package == package]:
            self.cancel(key)

    def active(self) -> list[Notification]:
        """The posted notifications, oldest first."""
        return list(self._posted.values())

    def set_enabled_for_package(self, package: str, enabled: bool) -> None:
        """Allow or block a package's notifications (``setNotificationsEnabledForPackage``).

        On Android 13+ that is the POST_NOTIFICATIONS permission, user-set. Blocking cancels what it posted.
        """
        uid = self._user_set[package] = self._uid_of(package)
        if enabled:
            self._blocked.pop(package, None)
        else:
            self._blocked[package] = uid
            self._posted = {k: n for k, n in self._posted.items() if n.package != package}
        self._changed()

    def enabled_for_package(self, package: str) -> bool:
        """Whether ``package`` may post (``areNotificationsEnabledForPackage``)."""
        return package not in self._blocked

    def user_set(self) -> list[tuple[str, int, bool]]:
        """``(package, uid, enabled)`` of each package whose notifications the user switched, in order."""
        return [(package, uid, package not in self._blocked) for package, uid in self._user_set.items()]

    def forget_package(self, package: str) -> None:
        """A package's data was cleared or it went: its notification permission is back to its default."""
        if self._user_set.pop(package, None) is not None or self._blocked.pop(package, None) is not None:
            self._blocked.pop(package, None)
            self._changed()

    def get(self, key: str) -> Notification | None:
        """The notification with that key, or None."""
        return self._posted.get(key)

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()


class AppNotifications:
    """What an app's ``NotificationManager`` does: post and cancel its own notifications (without a tag).

    Settings, a system app, also reads and switches whether a package may post (the per-app switch).

    Args:
        manager: The phone's notifications.
        uid_of: A package's uid.
        now: The wall time, in seconds (a notification's ``when``).
    """

    def __init__(self, manager: NotificationManager, uid_of: Callable[[str], int], now: Callable[[], float]) -> None:
        self._manager, self._uid_of, self._now = manager, uid_of, now

    def notify(self, package: str, id: int, title: str, text: str, opens: str = "") -> None:
        """``notify(id, notification)``: post or update the package's notification ``id``; a tap opens ``opens``."""
        uid = self._uid_of(package)
        self._manager.post(Notification(package, uid, id, "null", title, text, "", self._now(), opens))

    def cancel(self, package: str, id: int) -> bool:
        """``cancel(id)``: take the package's notification ``id`` away; whether it was there."""
        return self._manager.cancel(Notification(package, self._uid_of(package), id, "null", "", "").key)

    def enabled_for_package(self, package: str) -> bool:
        """``areNotificationsEnabledForPackage``: whether ``package`` may post."""
        return self._manager.enabled_for_package(package)

    def set_enabled_for_package(self, package: str, enabled: bool) -> None:
        """``setNotificationsEnabledForPackage``: allow or block ``package`` (blocking cancels what it posted)."""
        self._manager.set_enabled_for_package(package, enabled)

    def get(self, package: str, id: int) -> Notification | None:
        """The package's notification ``id`` if posted (``getActiveNotifications``)."""
        return self._manager.get(Notification(package, self._uid_of(package), id, "null", "", "").key)


#: The shade's states: closed, pulled down to the notifications, or all the way to quick settings.
PANEL_STATES = ("collapsed", "notifications", "settings")


class StatusBar:
    """Whether the notification shade is pulled down, and how far.

    Args:
        on_change: Runs after the panel opens or closes.
    """

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self._panel = "collapsed"
        self._on_change = on_change

    @property
    def panel(self) -> str:
        """``collapsed``, ``notifications`` or ``settings``."""
        return self._panel

    @property
    def expanded(self) -> bool:
        """Whether the shade is down."""
        return self._panel != "collapsed"

    def expand_notifications(self) -> None:
        """Pull the shade down to the notifications."""
        self._set("notifications")

    def expand_settings(self) -> None:
        """Pull the shade down to quick settings."""
        self._set("settings")

    def collapse(self) -> bool:
        """Close the shade; whether it was open."""
        was = self.expanded
        self._set("collapsed")
        return was

    def _set(self, panel: str) -> None:
        if panel != self._panel:
            self._panel = panel
            if self._on_change is not None:
                self._on_change()

"""Broadcasts: intents sent to the receivers apps declare, among them the alarms that went off.

ActivityManagerService queues a broadcast and runs each receiver in its app's process; here a
broadcast runs its receivers at once, in the order the apps were installed. The alarms the
alarm manager hands over when their time has come are broadcasts to the package that set them
(their PendingIntent), and ``BOOT_COMPLETED`` goes to every app after a boot.
"""

from __future__ import annotations

import threading

from androidrl.virtual.system.alarm_manager import AlarmManager
from androidrl.virtual.system.framework.app import Context
from androidrl.virtual.system.framework.intent import Intent
from androidrl.virtual.system.packages import PackageManager
from androidrl.virtual.system.processes import Processes


class Broadcasts:
    """Sends broadcasts to the installed apps' receivers (``App.receivers``).

    Args:
        packages: The installed packages (a disabled one receives nothing).
        processes: The process table: a receiver's app process starts for it.
        alarms: The alarm manager whose due alarms :meth:`deliver_alarms` sends.
        context: What the receivers get to reach the system with.
        lock: The phone's lock.
    """

    def __init__(
        self,
        packages: PackageManager,
        processes: Processes,
        alarms: AlarmManager,
        context: Context,
        *,
        lock: threading.RLock,
    ) -> None:
        self.packages = packages
        self.processes = processes
        self.alarms = alarms
        self.context = context
        self._lock = lock

    def send(self, intent: Intent, package: str | None = None) -> int:
        """Send ``intent`` to every receiver declared for its action (those of ``package`` only, if given).

        Returns:
            How many receivers got it.
        """
        with self._lock:
            apps = self.packages.installed() if package is None else [self.packages.get(package)]
            sent = 0
            for app in apps:
                receiver = app.receivers.get(intent.action or "") if app is not None else None
                if receiver is None or not self.packages.enabled(app):
                    continue
                self.processes.start(app.package)
                receiver(self.context, app, intent)
                sent += 1
            return sent

    def deliver_alarms(self) -> None:
        """Send each alarm whose time has come to the package that set it (cheap when none has)."""
        for alarm in self.alarms.take_due():
            self.send(Intent(action=alarm.action, extras=dict(alarm.extras)), alarm.package)

"""The phone's processes: the system's, and one per running app.

``ps``, ``pidof``, ``dumpsys`` and the log agree on their pids.
An app's process starts when one of its activities is created and ends with ``am
force-stop``, ``pm clear`` or a reboot (the next start gets a new pid, as on Android).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Process:
    """One row of ``ps -A``."""

    user: str
    pid: int
    ppid: int
    name: str
    uid: int


#: What a booted phone runs before any app: (user, pid, ppid, name).
SYSTEM = (
    ("root", 1, 0, "init"),
    ("root", 2, 0, "[kthreadd]"),
    ("logd", 180, 1, "logd"),
    ("system", 201, 1, "servicemanager"),
    ("root", 340, 1, "zygote64"),
    ("system", 420, 1, "surfaceflinger"),
    ("shell", 503, 1, "adbd"),
    ("system", 612, 340, "system_server"),
    ("u0_a130", 890, 340, "com.android.systemui"),
    ("radio", 1104, 340, "com.android.phone"),
)
SYSTEM_SERVER = 612
ZYGOTE = 340
FIRST_APP_PID = 2200
FIRST_SHELL_PID = 4100


class Processes:
    """The process table (apps' uids are assigned on first use and kept: ``u0_aNN`` users)."""

    def __init__(self) -> None:
        self._apps: dict[str, int] = {}
        self._next = FIRST_APP_PID
        self._uids: dict[str, int] = {}
        self._next_shell = FIRST_SHELL_PID

    def shell_pid(self) -> int:
        """A pid for a new shell process or background job (``$$``, ``$!``).

        They climb from a start of their own, so that app pids do not depend on how many commands ran.
        """
        self._next_shell += 1
        return self._next_shell

    def uid(self, package: str) -> int:
        """The package's app uid (10000 + n, fixed once assigned)."""
        return self._uids.setdefault(package, 10100 + len(self._uids))

    def start(self, package: str) -> tuple[int, bool]:
        """The pid of the package's process, starting it if it is not running; (pid, started now)."""
        if package in self._apps:
            return self._apps[package], False
        self._next += 37  # pids climb, with gaps (other processes come and go)
        self._apps[package] = self._next
        return self._next, True

    def kill(self, package: str) -> int | None:
        """End the package's process; its pid, if it ran."""
        return self._apps.pop(package, None)

    def boot(self) -> None:
        """A reboot ends every app process (pids start again from the bottom)."""
        self._apps.clear()
        self._next = FIRST_APP_PID
        self._next_shell = FIRST_SHELL_PID

    def pid(self, name: str) -> int | None:
        """The pid of a process by name (a package's, or a system process's)."""
        if name in self._apps:
            return self._apps[name]
        return next((pid for _, pid, _, process in SYSTEM if process == name), None)

    def table(self) -> list[Process]:
        """Every process, system first, then apps by pid."""
        rows = [Process(user, pid, ppid, name, 0) for user, pid, ppid, name in SYSTEM]
        for package, pid in sorted(self._apps.items(), key=lambda item: item[1]):
            uid = self.uid(package)
            rows.append(Process(f"u0_a{uid - 10000}", pid, ZYGOTE, package, uid))
        return rows

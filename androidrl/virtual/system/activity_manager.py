"""The activity manager: the stack of tasks, starting, finishing and stopping activities, and lock task mode."""

from __future__ import annotations

import threading
from collections.abc import Callable

from androidrl.virtual.system.framework.app import Activity, App, Context
from androidrl.virtual.system.framework.intent import (
    ACTION_MAIN,
    CATEGORY_HOME,
    FLAG_ACTIVITY_CLEAR_TOP,
    Intent,
    short_component,
)
from androidrl.virtual.system.logd import LogBuffer
from androidrl.virtual.system.packages import PackageManager
from androidrl.virtual.system.processes import SYSTEM_SERVER, Processes

SHELL_UID = 2000  # who `am start` runs as


class Task(list):
    """A task: its activities, bottom first, and the id Android numbers it with (``taskId``)."""

    def __init__(self, task_id: int, activities: list[Activity] | None = None) -> None:
        super().__init__(activities or ())
        self.task_id = task_id

    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:  # a task is itself, not any list of the same activities
        return self is other


class ActivityManager:
    """Runs the installed apps' activities in tasks, as Android's ActivityTaskManager does.

    Each task is a list of activities, bottom first; the last task is in front. The state
    is plain (lists of activity objects), so it can be copied. One task may be pinned
    (lock task mode, ``am task lock``): then no other task comes to the front, HOME does
    nothing and its last activity cannot finish (LockTaskController).

    Args:
        packages: The installed packages it starts activities of.
        home: (package, activity class) of the home screen, started by HOME and at boot.
        context: What the activities it creates get to reach the system with.
        lock: The phone's lock, held while the stack changes.
        on_change: Runs after every change of what is in front (the screen must be rebuilt).
        processes: The process table: an app's process starts with its first activity.
        log: The phone's log, where starts and stops are written as ActivityTaskManager writes them.
        sdk: The SDK level (the log's wording differs between releases).
        content_type: The MIME type a ``content:`` URI's provider gives it (``resolveTypeIfNeeded``).
    """

    def __init__(
        self,
        packages: PackageManager,
        home: tuple[str, str],
        context: Context,
        *,
        lock: threading.RLock,
        on_change: Callable[[], None],
        processes: Processes | None = None,
        log: LogBuffer | None = None,
        sdk: int = 34,
        content_type: Callable[[str], str | None] | None = None,
    ) -> None:
        self._content_type = content_type
        self.processes = processes or Processes()
        self.log = log or LogBuffer()
        self.sdk = sdk
        self.packages = packages
        self.home = home
        self.context = context
        self._lock = lock
        self._on_change = on_change
        self._tasks: list[Task] = []
        self._next_task_id = 1
        self._locked: Task | None = None  # the pinned task (lock task mode)
        # Starts for a result asked in a caller's onCreate: they run once the caller is in its task.
        self._deferred: list[tuple[Intent, Activity, int]] = []

    @property
    def tasks(self) -> list[Task]:
        """The tasks, bottom first."""
        return self._tasks

    def state(self) -> dict:
        """What a snapshot keeps: the tasks, the next task id and the pinned task."""
        return {"tasks": self._tasks, "next_task_id": self._next_task_id, "locked": self._locked}

    def restore(self, state: dict) -> None:
        """Put back what :meth:`state` gave (a copy of it)."""
        with self._lock:
            self._tasks, self._next_task_id, self._locked = state["tasks"], state["next_task_id"], state["locked"]
            self._on_change()

    # ------------------------------------------------------------------ lock task mode

    @property
    def locked_task(self) -> Task | None:
        """The pinned task (lock task mode), or None."""
        return self._locked

    def start_lock_task(self, task_id: int) -> bool:
        """Pin a task and bring it to the front (``am task lock ID``); False when no task has that id.

        As ActivityTaskManagerService.startSystemLockTaskMode: an unknown id changes nothing.
        """
        with self._lock:
            task = self.task(task_id)
            if task is None:
                return False
            self._tasks.remove(task)
            self._tasks.append(task)
            self._locked = task
            self._on_change()
            return True

    def stop_lock_task(self) -> None:
        """Leave lock task mode (``am task lock stop``)."""
        with self._lock:
            self._locked = None
            self._on_change()

    def task(self, task_id: int) -> Task | None:
        """The task with that id, or None."""
        return next((t for t in self._tasks if t.task_id == task_id), None)

    def _new_task(self, activity: Activity) -> Task:
        task = Task(self._next_task_id, [activity])
        self._next_task_id += 1
        return task

    @property
    def top_activity(self) -> Activity:
        """The activity in front."""
        return self._tasks[-1][-1]

    def activity_stack(self) -> list[list[str]]:
        """Components of every task's activities, bottom task first (for tests and dumpsys)."""
        return [[a.component for a in task] for task in self._tasks]

    def foreground(self) -> tuple[str, str]:
        """(package, activity class) in front."""
        with self._lock:
            top = self.top_activity
            return top.app.package, top.cls

    @property
    def idle(self) -> bool:
        """False while the activity in front animates; ``uiautomator dump`` needs an idle screen."""
        with self._lock:
            return not self.top_activity.animating

    def boot(self) -> None:
        """Reset running state as a boot does: no tasks but the home screen. Data survives."""
        self._tasks, self._next_task_id, self._locked = [], 1, None
        self.processes.boot()
        self.go_home()

    def go_home(self) -> bool:
        """Bring the home screen to the front, starting it if needed (HOME key, home intent).

        Returns:
            False when a pinned task keeps the front (lock task mode), as Android refuses it.
        """
        if self._locked is not None and self._locked in self._tasks:
            return False
        package, cls = self.home
        for task in self._tasks:
            if task[0].app.package == package:
                self._tasks.remove(task)
                self._tasks.append(task)
                break
        else:
            launcher = self.packages.apps[package]
            self._tasks.append(self._new_task(self._create(launcher, cls, Intent(ACTION_MAIN))))
        self._on_change()
        return True

    def resolve(self, intent: Intent) -> tuple[App, str] | None:
        """The app and activity class an intent starts, or None (a disabled app starts nothing)."""
        target = self._resolve(intent)
        return None if target is None or not self.packages.enabled(target[0]) else target

    def _resolve(self, intent: Intent) -> tuple[App, str] | None:
        if intent.component is not None:
            app = self.packages.get(intent.component[0])
            cls = intent.component[1]
            return (app, cls) if app is not None and cls in app.activities else None
        mime = intent.type
        if mime is None and intent.scheme == "content" and self._content_type is not None:
            mime = self._content_type(intent.data or "")
        best: tuple[int, App, str] | None = None
        for app in self.packages.installed():
            if (intent.package is not None and app.package != intent.package) or not self.packages.enabled(app):
                continue
            for found in app.intent_filters():
                better = best is None or found.priority > best[0]  # (ties: the first; Android asks the user)
                if better and found.activity in app.activities and found.matches(intent, mime):
                    best = (found.priority, app, found.activity)
        return (best[1], best[2]) if best else None

    def start_activity(self, intent: Intent, caller: Activity | None = None, request_code: int = -1) -> str:
        """Start what ``intent`` names, like ``startActivity`` with FLAG_ACTIVITY_NEW_TASK.

        With a ``caller`` (``startActivityForResult``) the new activity goes on top of the caller's
        task, and when it finishes the caller's ``on_activity_result`` gets its result.

        Returns:
            ``"started"``, ``"brought-to-front"`` (the app's task was resumed as it was),
            ``"home"``, ``"not-found"`` when nothing resolves, or ``"lock-task-violation"`` when
            a pinned task keeps the front (ActivityManager.START_RETURN_LOCK_TASK_MODE_VIOLATION).
        """
        with self._lock:
            if CATEGORY_HOME in intent.categories and intent.component is None:
                return "home" if self.go_home() else "lock-task-violation"
            target = self.resolve(intent)
            if target is None:
                return "not-found"
            app, cls = target
            task = next((t for t in self._tasks if t[0].app is app), None)
            if caller is not None:
                caller_task = next((t for t in self._tasks if any(a is caller for a in t)), None)
                if caller_task is None:  # (asked in the caller's onCreate: it goes on top once the caller shows)
                    self._deferred.append((intent, caller, request_code))
                    return "started"
                task = caller_task
            if self._locked is not None and task is not self._locked:
                return "lock-task-violation"
            self._system_log("ActivityTaskManager", f"START u0 {{{intent.short()}}} from uid {SHELL_UID}")
            if app.package == self.home[0]:
                self.go_home()
                return "home"
            cleared = task is not None and intent.flags & FLAG_ACTIVITY_CLEAR_TOP and self._clear_top(task, cls)
            front = bool(task) and task[0].cls == cls and intent.action in (None, ACTION_MAIN)
            if not cleared and front and caller is None:
                self._tasks.remove(task)
                self._tasks.append(task)
                self._on_change()
                return "brought-to-front"
            activity = self._create(app, cls, intent, caller, request_code)
            # finish() in onCreate (a Theme.NoDisplay trampoline): it never shows and leaves the tasks
            # as they were; what it started came forward itself.
            if not activity.finishing:
                if task is not None and task in self._tasks:
                    self._tasks.remove(task)
                    self._tasks.append(task)
                    task.append(activity)
                else:
                    self._tasks.append(self._new_task(activity))
            elif task is not None and not task and task in self._tasks:  # (cleared, and nothing took its place)
                self._tasks.remove(task)
            if not self._tasks:  # (it left no task at all: home)
                self.go_home()
            deferred = [d for d in self._deferred if d[1] is activity]
            self._deferred = [d for d in self._deferred if d[1] is not activity]
            for later in deferred if not activity.finishing else ():
                self.start_activity(*later)
            self._on_change()
            return "started"

    @staticmethod
    def _clear_top(task: Task, cls: str) -> bool:
        """FLAG_ACTIVITY_CLEAR_TOP: the task's activity of ``cls`` and those above it finish; whether one did."""
        index = next((i for i, a in enumerate(task) if a.cls == cls), None)
        if index is not None:
            del task[index:]
        return index is not None

    def finish_activity(self, activity: Activity) -> bool:
        """Remove ``activity``; an emptied task goes, and the home screen is never left without a task.

        Returns:
            False when it is the last activity of the pinned task, which cannot finish
            (LockTaskController.activityBlockedFromFinish).
        """
        with self._lock:
            locked = self._locked
            if locked is not None and len(locked) == 1 and locked[0] is activity:
                return False
            for task in self._tasks:
                if any(a is activity for a in task):
                    task.remove(activity)
                    if not task:
                        self._tasks.remove(task)
                    break
            if not self._tasks:
                self.go_home()
            caller = activity.caller
            if caller is not None and any(a is caller for task in self._tasks for a in task):
                caller.on_activity_result(activity.request_code, activity.result_code, activity.result_data)
            self._on_change()
            return True

    def force_stop(self, package: str) -> None:
        """Kill every task of ``package`` (``am force-stop``); its saved data stays."""
        with self._lock:
            self._tasks = [t for t in self._tasks if t[0].app.package != package]
            if self._locked is not None and self._locked not in self._tasks:
                self._locked = None  # a pinned task that goes ends lock task mode
            if self.processes.kill(package) is not None:
                uid = self.processes.uid(package)
                message = f"Force stopping {package} appid={uid} user=0: from pid {SHELL_UID}"
                self._system_log("ActivityManager", message)
            if not self._tasks or package == self.home[0]:
                self.go_home()
            self._on_change()

    def beneath(self, activity: Activity) -> Activity | None:
        """The activity just behind ``activity`` (what a translucent one shows through), or None."""
        order = [a for task in self._tasks for a in task]
        index = next((i for i, a in enumerate(order) if a is activity), 0)
        return order[index - 1] if index > 0 else None

    def _create(
        self, app: App, cls: str, intent: Intent, caller: Activity | None = None, request_code: int = -1
    ) -> Activity:
        pid, started = self.processes.start(app.package)
        component = short_component(app.package, cls)
        if started:
            uid = self.processes.uid(app.package)
            message = f"Start proc {pid}:{app.package}/u0a{uid - 10000} for next-top-activity {{{component}}}"
            self._system_log("ActivityManager", message)
        # (an activity started for a result learns its caller in onCreate; a factory such as Settings'
        # SubSettings takes the four usual arguments)
        result = {"caller": caller, "request_code": request_code} if caller is not None else {}
        activity = app.activities[cls](self.context, app, cls, intent, **result)
        token = id(activity) & 0x7FFFFFF
        self.log.write("wm_on_create_called", f"[{token},{cls},performCreate,0]", buffer="events", pid=pid)
        self.log.write("wm_on_resume_called", f"[{token},{cls},RESUME_ACTIVITY,0]", buffer="events", pid=pid)
        user = " for user 0" if self.sdk >= 34 else ""
        self._system_log("ActivityTaskManager", f"Displayed {component}{user}: +{180 + len(cls) * 3}ms")
        return activity

    def _system_log(self, tag: str, message: str) -> None:
        self.log.write(tag, message, buffer="system", pid=SYSTEM_SERVER)

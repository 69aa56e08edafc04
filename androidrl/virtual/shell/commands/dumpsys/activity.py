"""``dumpsys activity [activities|top|processes|NAME]``: what ActivityManagerService prints (frameworks/base).

``top`` and a NAME (a component, a package, any part of one) dump activities as
ActivityTaskManagerService.dumpActivity does: a ``TASK`` and an ``ACTIVITY`` line each, bottom
task first (so the last is the one in front), then what the app's process prints for it
(Activity.dumpInner: its state, ViewRootImpl.dump and the ``View Hierarchy:``, each view as
``View.toString()`` writes it).
"""

from __future__ import annotations

import zlib

from androidrl.virtual.shell.commands.dumpsys.common import activity_record, configuration, identity, sdk
from androidrl.virtual.system.activity_manager import Task
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import short_component
from androidrl.virtual.ui.views import View

#: android.R.id.content, the one framework id the decor carries.
_ANDROID_IDS = {"content": 0x01020002}


def _view_id(resource_id: str, package: str) -> str:
    """View.appendId: `` #hex pkg:type/entry`` (``app`` for the app's own ids, ``android`` for the framework's)."""
    if ":id/" not in resource_id:
        return ""
    owner, entry = resource_id.split(":id/", 1)
    if owner == "android":
        number = _ANDROID_IDS.get(entry, 0x01020000 + zlib.crc32(entry.encode()) % 0x1000)
        return f" #{number:x} android:id/{entry}"
    number = 0x7F0B0000 + zlib.crc32(resource_id.encode()) % 0x10000
    return f" #{number:x} {'app' if owner == package else owner}:id/{entry}"


def _view_line(view: View, parent: tuple[int, int, int, int], package: str, root: bool) -> str:
    """View.toString(): class, hash, view flags, private flags, the frame in the parent, the id."""
    flags = "V" + ("F" if view.focusable else ".") + ("E" if view.enabled else ".")
    flags += ("D" if view.background is not None or view.text else ".") + "."
    flags += ("V" if view.scrollable else ".") + ("C" if view.clickable else ".")
    flags += ("L" if view.long_clickable else ".") + "."
    private = ("R" if root else ".") + ("F" if view.focused else ".") + ("S" if view.selected else ".") + "....."
    left, top, right, bottom = view.bounds
    frame = f"{left - parent[0]},{top - parent[1]}-{right - parent[0]},{bottom - parent[1]}"
    cls = "com.android.internal.policy.DecorView" if root else view.cls
    return f"{cls}{{{identity(f'view {id(view)}')} {flags} {private} {frame}{_view_id(view.resource_id, package)}}}"


def _hierarchy(
    view: View, parent: tuple[int, int, int, int], package: str, prefix: str, out: list[str], root: bool = False
) -> None:
    """ViewRootImpl.dumpViewHierarchy: each view, its children two spaces further in."""
    out.append(prefix + _view_line(view, parent, package, root))
    for child in view.children:
        _hierarchy(child, view.bounds, package, prefix + "  ", out)


def _app_dump(phone: PhoneCore, activity: Activity, resumed: bool, prefix: str) -> str:
    """What the app's process writes for one activity (ActivityThread.handleDumpActivity)."""
    inner = prefix + "  "
    lines = [
        f"{prefix}Local Activity {identity(f'activity {id(activity)}')} State:",
        f"{inner}mResumed={str(resumed).lower()} mStopped={str(not resumed).lower()} mFinished=false",
        f"{inner}mIsInMultiWindowMode=false mIsInPictureInPictureMode=false",
        f"{inner}mChangingConfigurations=false",
        f"{inner}mCurrentConfig={configuration(phone)}",
        f"{prefix}ViewRoot:",
        f"{inner}mAdded=true",
        f"{inner}mRemoved=false",
        f"{inner}mStopped={str(not resumed).lower()}",
        f"{prefix}View Hierarchy:",
    ]
    window = phone.windows.decor(activity)
    _hierarchy(window, (0, 0, 0, 0), activity.app.package, inner, lines, root=True)
    lines.append(f"{prefix}Looper (main, tid 1) {{{identity('looper ' + activity.app.package)}}}")
    lines.append(f"{inner}(Total messages: 0, polling=true, quitting=false)")
    return "\n".join(lines) + "\n"


def _matches(name: str, activity: Activity) -> bool:
    """ActivityManagerService.ItemMatcher: a component, or any part of one."""
    if name == "all":
        return True
    if "/" in name:
        package, cls = name.split("/", 1)
        return activity.app.package == package and activity.cls in (cls, package + cls)
    return name in activity.component


def dump_activities_named(phone: PhoneCore, name: str) -> str | None:
    """``dumpsys activity top|all|NAME``; None when no activity matches (AMS then tries ``am NAME``)."""
    tasks: list[Task] = phone.activities.tasks
    chosen: list[tuple[Task, Activity]] = []
    for task in tasks:  # bottom first: the activity in front is dumped last
        picked = [task[-1]] if name == "top" else [a for a in task if _matches(name, a)]
        chosen += [(task, activity) for activity in picked]
    if not chosen:
        return None
    front = tasks[-1][-1]
    resumed_ok = phone.wakefulness.awake and not phone.keyguard.showing
    blocks, last = [], None
    for task, activity in chosen:
        package = activity.app.package
        text = ""
        if task is not last:
            affinity = f"{phone.processes.uid(package)}:{package}" if sdk(phone) >= 33 else package
            text += f"TASK {affinity} id={task.task_id} userId=0\n"
            last = task
        pid = phone.processes.pid(package)
        short = short_component(package, activity.cls)
        text += f"  ACTIVITY {short} {identity('record ' + activity.component)} pid={pid or '(not running)'}\n"
        text += _app_dump(phone, activity, resumed_ok and activity is front, "    ")
        blocks.append(text)
    return "\n".join(blocks)


def _dump_activities_section(phone: PhoneCore) -> str:
    """``dumpsys activity activities``: every task, front first, and the resumed activity."""
    lines = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)", "Display #0 (activities from top to bottom):"]
    tasks = list(reversed(phone.activities.tasks))
    front = activity_record(tasks[0][-1].component, tasks[0].task_id)
    modern = sdk(phone) >= 33
    for index, task in enumerate(tasks):
        package = task[0].app.package
        kind = "home" if package == phone.activities.home[0] else "standard"
        uid = phone.processes.uid(package)
        lines.append(
            f"  * Task{{{identity(f'task {task.task_id}')} #{task.task_id} type={kind} A={uid}:{package} U=0 "
            f"visible={str(index == 0).lower()} mode=fullscreen translucent=false sz={len(task)}}}"
        )
        if index == 0 and modern:  # Android 13 and 14: the task's top resumed activity
            lines.append(f"    topResumedActivity={front}")
        for position in range(len(task) - 1, -1, -1):
            lines.append(f"    * Hist  #{position}: {activity_record(task[position].component, task.task_id)}")
        lines.append("")
    if not modern:  # up to Android 12
        lines.append(f"  mResumedActivity: {front}")
    lines += [f"  ResumedActivity: {front}", f"  mFocusedApp={front}"]
    return "\n".join(lines) + "\n"


def _dump_processes(phone: PhoneCore) -> str:
    lines = ["ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)"]
    for p in phone.processes.table():
        if p.uid:
            lines.append(f"  *APP* UID {p.uid} ProcessRecord{{{identity(p.name)} {p.pid}:{p.name}/{p.user}}}")
    return "\n".join(lines) + "\n"


def dump_activity(phone: PhoneCore, args: list[str]) -> str:
    """``dumpsys activity [-a] [activities|a|processes|p|top|NAME]``; with no section, activities and processes."""
    words = [a for a in args if not a.startswith("-")]
    if "--dump-priority" in args:
        words = words[1:]
    section = words[0] if words else None
    with phone.lock:
        if section in ("activities", "a"):
            return _dump_activities_section(phone)
        if section in ("processes", "p"):
            return _dump_processes(phone)
        if section is None:
            return _dump_activities_section(phone) + "\n" + _dump_processes(phone)
        named = dump_activities_named(phone, section)
    if named is not None:
        return named
    return f"Bad activity command, or no activities match: {section}\nUse -h for help.\n"

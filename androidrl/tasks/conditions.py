"""Evaluate task conditions on what the device shows, through a :class:`~androidrl.ui.Snapshot`.

UI conditions read the snapshot's XML (dumped at most once per step), shell conditions
its cached command outputs, foreground conditions the ``mCurrentFocus`` line of
``dumpsys window``, log conditions one ``logcat -d`` of the lines since the reset, and the
Android-state conditions (``content``, ``setting``, ``file``, ``dumpsys``) the commands of
:mod:`androidrl.tasks.state` — so a step asks the device each thing at most once, whatever
the number of conditions.
:func:`needs` says which of these a condition reads, before anything is asked.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable

from androidrl.tasks import state
from androidrl.tasks.base import Needs
from androidrl.tasks.schema import (
    AllCondition,
    AnyCondition,
    Condition,
    ContentCondition,
    DumpsysCondition,
    FileCondition,
    ForegroundCondition,
    LogcatCondition,
    LogMatch,
    NodeCondition,
    NotCondition,
    Selector,
    SettingCondition,
    ShellCondition,
)
from androidrl.ui import Snapshot

_EXACT = {
    "resource_id": "resource-id",
    "text": "text",
    "content_desc": "content-desc",
    "class_name": "class",
    "package": "package",
}
_REGEX = {"text_regex": "text", "content_desc_regex": "content-desc"}
_FLAGS = ("checked", "checkable", "clickable", "enabled", "focused", "selected", "scrollable")
_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ u\d+ ([^\s/}]+)/([^\s}]+)")
_FOCUSED_APP = re.compile(r"mFocusedApp=ActivityRecord\{\S+ u\d+ ([^\s/}]+)/([^\s}]+)")


def matches(node: ET.Element, selector: Selector) -> bool:
    """Whether one ``<node>`` satisfies every attribute of ``selector`` (``within``, about its ancestors, aside)."""
    attrs = node.attrib
    for field, attr in _EXACT.items():
        wanted = getattr(selector, field)
        if wanted is not None and attrs.get(attr) != wanted:
            return False
    for field, attr in _REGEX.items():
        pattern = getattr(selector, field)
        if pattern is not None and re.search(pattern, attrs.get(attr, "")) is None:
            return False
    for flag in _FLAGS:
        wanted = getattr(selector, flag)
        if wanted is not None and (attrs.get(flag) == "true") != wanted:
            return False
    return all(any(matches(d, sub) for d in node.iter("node") if d is not node) for sub in selector.has)


def find_nodes(root: ET.Element, selector: Selector) -> list[ET.Element]:
    """Every node matching ``selector`` (inside a node matching its ``within``, if any), in document order."""
    if selector.within is None:
        return [node for node in root.iter("node") if matches(node, selector)]
    found: dict[ET.Element, None] = {}  # (an ordered set: nested outer nodes find the same node twice)
    for outer in find_nodes(root, selector.within):
        found.update((node, None) for node in outer.iter("node") if node is not outer and matches(node, selector))
    order = {node: i for i, node in enumerate(root.iter("node"))} if len(found) > 1 else {}
    return sorted(found, key=order.get) if order else list(found)


def foreground(dumpsys_window: str) -> tuple[str, str] | None:
    """(package, full activity class) in front, from ``dumpsys window`` output."""
    match = _FOCUS.search(dumpsys_window) or _FOCUSED_APP.search(dumpsys_window)
    if match is None:
        return None
    package, activity = match.groups()
    return package, package + activity if activity.startswith(".") else activity


#: What each leaf kind of condition reads.
_LEAF_NEEDS = {
    NodeCondition: Needs.UI,
    ShellCondition: Needs.SHELL,
    ForegroundCondition: Needs.FOREGROUND,
    LogcatCondition: Needs.LOGCAT,
    ContentCondition: Needs.SHELL,
    SettingCondition: Needs.SHELL,
    FileCondition: Needs.SHELL,
    DumpsysCondition: Needs.SHELL,
}


def needs(condition: Condition | None) -> Needs:
    """What evaluating ``condition`` may read (every branch of ``all``/``any``/``not``); NONE for None."""
    if condition is None:
        return Needs.NONE
    if isinstance(condition, AllCondition):
        return _union(condition.all)
    if isinstance(condition, AnyCondition):
        return _union(condition.any)
    if isinstance(condition, NotCondition):
        return needs(condition.not_)
    try:
        return _LEAF_NEEDS[type(condition)]
    except KeyError:
        raise TypeError(f"not a condition: {condition!r}") from None


def _union(conditions: tuple[Condition, ...]) -> Needs:
    result = Needs.NONE
    for condition in conditions:
        result |= needs(condition)
    return result


def holds(condition: Condition, snapshot: Snapshot, since: float = 0.0) -> bool:
    """Evaluate ``condition`` on the device state ``snapshot`` reads (log lines: those after ``since``)."""
    if isinstance(condition, NodeCondition):
        count = len(find_nodes(snapshot.hierarchy, condition.node))
        if condition.min_count is not None or condition.max_count is not None:
            low = condition.min_count if condition.min_count is not None else 0
            high = condition.max_count if condition.max_count is not None else count
            return low <= count <= high
        return (count > 0) == condition.present
    if isinstance(condition, ShellCondition):
        result = snapshot.shell(condition.shell)
        output = result.text.strip()
        if condition.exit_code is not None:
            return result.exit_code == condition.exit_code
        if condition.equals is not None:
            return output == condition.equals
        if condition.matches is not None:
            return re.search(condition.matches, output) is not None
        return condition.contains in output
    if isinstance(condition, ForegroundCondition):
        return _foreground_holds(condition, snapshot)
    if isinstance(condition, LogcatCondition):
        return any(_log_matches(condition.logcat, line) for line in log_lines(snapshot, condition.logcat, since))
    if isinstance(condition, ContentCondition):
        return _content_holds(condition, snapshot)
    if isinstance(condition, SettingCondition):
        return _setting_holds(condition, snapshot)
    if isinstance(condition, FileCondition):
        return _file_holds(condition, snapshot)
    if isinstance(condition, DumpsysCondition):
        query = condition.dumpsys
        output = snapshot.shell(state.dumpsys_command(query.service, query.args)).text
        return re.search(query.matches, output, re.MULTILINE) is not None
    if isinstance(condition, AllCondition):
        return all(holds(c, snapshot, since) for c in condition.all)
    if isinstance(condition, AnyCondition):
        return any(holds(c, snapshot, since) for c in condition.any)
    if isinstance(condition, NotCondition):
        return not holds(condition.not_, snapshot, since)
    raise TypeError(f"not a condition: {condition!r}")


#: A ``logcat -v epoch`` line: seconds, pid, tid, priority, tag, message.
_EPOCH_LINE = re.compile(r"^\s*(\d+\.\d+)\s+(\d+)\s+(\d+)\s+([VDIWEF])\s+(.*?)\s*: (.*)$")


def log_mark(device_shell: Callable[[str], str]) -> float:
    """The time of the device's newest log line (what an episode's log conditions count from); 0 if none."""
    stamps = [m[1] for m in map(_EPOCH_LINE.match, device_shell("logcat -d -v epoch -t 1").splitlines()) if m]
    return float(stamps[-1]) if stamps else 0.0


def log_lines(snapshot: Snapshot, match: LogMatch, since: float) -> list[tuple[str, str]]:
    """(tag, message) of the log lines after ``since`` that the match's tag, priority and buffer select."""
    spec = f"{match.tag}:{match.priority} *:S" if match.tag else f"*:{match.priority}"
    when = f"-t {since:.3f}" if since > 0 else "-d"
    output = snapshot.shell(f"logcat -d -v epoch -b {match.buffer} {when} {spec}").text
    lines = []
    for m in map(_EPOCH_LINE.match, output.splitlines()):
        if m and float(m[1]) > since:
            lines.append((m[5], m[6]))
    return lines


def _log_matches(match: LogMatch, line: tuple[str, str]) -> bool:
    tag, message = line
    return (match.tag is None or tag == match.tag) and re.search(match.matches, message) is not None


def _foreground_holds(condition: ForegroundCondition, snapshot: Snapshot) -> bool:
    front = foreground(snapshot.shell("dumpsys window").text)
    if front is None:
        return False
    package, activity = front
    want = condition.foreground
    if want.package is not None and package != want.package:
        return False
    if want.package_regex is not None and re.search(want.package_regex, package) is None:
        return False
    if want.activity is not None:
        expected = package + want.activity if want.activity.startswith(".") else want.activity
        if activity != expected:
            return False
    return want.activity_regex is None or re.search(want.activity_regex, activity) is not None


def _content_holds(condition: ContentCondition, snapshot: Snapshot) -> bool:
    query = condition.content
    command = state.content_query_command(query.uri, query.projection, query.where, query.sort)
    rows = state.parse_rows(snapshot.shell(command).text, query.projection)
    if query.rows is not None:
        columns = sorted({column for row in query.rows for column in row})
        got = Counter(tuple(row.get(c, "NULL") for c in columns) for row in rows)
        want = Counter(tuple(state.as_text(row.get(c)) for c in columns) for row in query.rows)
        return got == want
    if query.count is not None:
        return len(rows) == query.count
    low = query.min_count if query.min_count is not None else (1 if query.max_count is None else 0)
    return low <= len(rows) and (query.max_count is None or len(rows) <= query.max_count)


def _setting_holds(condition: SettingCondition, snapshot: Snapshot) -> bool:
    query = condition.setting
    value = snapshot.shell(state.setting_command(query.namespace, query.key)).text.rstrip("\r\n")
    if query.equals is not None:
        return value == query.equals
    if query.matches is not None:
        return re.search(query.matches, value) is not None
    if query.between is not None:
        try:
            number = float(value)
        except ValueError:
            return False
        return float(query.between[0]) <= number <= float(query.between[1])
    return value in query.in_


def _file_holds(condition: FileCondition, snapshot: Snapshot) -> bool:
    query = condition.file
    if query.contains is None and query.matches is None:
        exists = snapshot.shell(state.file_exists_command(query.path)).exit_code == 0
        return exists == query.exists
    result = snapshot.shell(state.file_read_command(query.path))
    if result.exit_code != 0:
        return False
    text = result.text
    if query.contains is not None and query.contains not in text:
        return False
    return query.matches is None or re.search(query.matches, text, re.MULTILINE) is not None

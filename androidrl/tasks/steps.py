"""Setup and reset steps: what a task does to a device before an episode, each a shell command or UI action.

Steps: ``shell`` (a command; a non-zero exit fails the step unless ``check: false``),
``home``, ``back``, ``key``, ``launch`` (an app or component, with intent extras), ``tap``
(pixels or a UI node), ``text``, ``wait`` (until a condition holds, with a timeout),
``sleep``, ``snapshot`` (load a saved snapshot of the whole device), and for the suite's
families: ``insert`` (typed rows into a content provider with ``content insert``), ``file``
(write files), ``config`` (a device configuration: theme, font scale, density, locale) and
``notify`` (post a notification with ``cmd notification post``). Every step is a command any
Android device takes over adb, so a task runs unchanged on an emulator.
"""

from __future__ import annotations

import re
import shlex
import time
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from androidrl.device.base import Device, input_text_commands, keycode
from androidrl.errors import DeviceCommandError, DeviceError, TaskError
from androidrl.screen import MAX_SIDE
from androidrl.tasks import placeholders
from androidrl.tasks.conditions import find_nodes, holds
from androidrl.tasks.schema import IDENTIFIER, SCALARS, ConditionField, Model, Selector, parse_list, validate_nested
from androidrl.tasks.state import content_query_command, parse_rows
from androidrl.ui import Snapshot, node_center

#: The largest file a ``file`` step writes (it travels on one command line).
MAX_FILE_BYTES = 64 * 1024
#: The key of an inserted row that holds inserts to make after it, with ``$parent_id`` its ``_id``.
CHILDREN = "_children"
PARENT_ID = "$parent_id"


class Launch(Model):
    """Start an app (its launcher activity) or a component, optionally stopping it first."""

    package: str | None = None
    component: str | None = None
    action: str | None = None
    extras: dict[str, str | int | bool] = Field(default_factory=dict)
    stop: bool = True

    @model_validator(mode="after")
    def _target(self) -> Launch:
        if sum(v is not None for v in (self.package, self.component, self.action)) != 1:
            raise ValueError("launch needs exactly one of package, component, action")
        if self.component is not None and "/" not in self.component:
            raise ValueError(f"component must be package/activity, got {self.component!r}")
        return self


class TapTarget(Model):
    """Where to tap: pixels, or the centre of the first UI node matching a selector."""

    x: int | None = Field(default=None, ge=0, lt=MAX_SIDE)
    y: int | None = Field(default=None, ge=0, lt=MAX_SIDE)
    node: Selector | None = None

    @model_validator(mode="after")
    def _where(self) -> TapTarget:
        if (self.node is None) == (self.x is None or self.y is None):
            raise ValueError("tap needs either x and y, or node")
        return self


class Wait(Model):
    """Wait until a condition holds."""

    until: ConditionField
    timeout: float = Field(default=10.0, gt=0, le=600)
    interval: float = Field(default=0.1, gt=0, le=60)


def _check_row(row: Any) -> Any:
    if not isinstance(row, dict):
        raise ValueError(f"a row is a mapping of column to value, got {row!r}")
    for column, value in row.items():
        if column == CHILDREN:
            continue
        if not isinstance(column, str) or not re.match(IDENTIFIER, column):
            raise ValueError(f"column {column!r} is not a column name")
        if not isinstance(value, SCALARS):
            raise ValueError(f"column {column}: a value is text, a number, a boolean or null, got {value!r}")
    return row


def _list_or_placeholder(parse: Any, what: str) -> Any:
    """A validator of a list of ``what`` (each checked by ``parse``), or of one placeholder that fills it."""

    def validate(value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, str):
            if not placeholders.PLACEHOLDER.fullmatch(value):
                raise ValueError(f"expected a list of {what}, or one placeholder of a list parameter, got {value!r}")
            return value
        return parse_list([value] if isinstance(value, dict) else value, parse, what)

    return BeforeValidator(validate)


class Insert(Model):
    """Rows into a content provider: one ``content insert --uri URI --bind column:type:value ...`` each.

    A row's ``_children`` (a list of ``{uri, rows}``) are inserted after it, with ``$parent_id``
    in their values replaced by the row's ``_id`` (read back with ``content query``): a contact
    is a ``raw_contacts`` row whose children are its ``data`` rows. With ``after``, the rows come
    that many seconds later, by a background job left on the phone (rows that sync in late).
    """

    uri: str = Field(pattern=r"^content://\S+$")
    rows: Annotated[tuple[dict[str, Any], ...] | str, _list_or_placeholder(_check_row, "rows")]
    after: float | None = Field(default=None, gt=0, le=600)


class FileWrite(Model):
    """A file to write: its text, or ``size`` bytes of filler (the parent folder is made)."""

    path: str = Field(pattern=r"^/[^\s'\"]+$")
    content: str | None = Field(default=None, max_length=MAX_FILE_BYTES)
    size: int | None = Field(default=None, ge=0, le=MAX_FILE_BYTES)

    @model_validator(mode="after")
    def _one(self) -> FileWrite:
        if (self.content is None) == (self.size is None):
            raise ValueError("a file needs exactly one of content, size")
        return self


class DeviceConfig(Model):
    """A device configuration, set with the commands a user would type (each optional)."""

    theme: Literal["light", "dark"] | None = None  # cmd uimode night yes|no
    font_scale: float | None = Field(default=None, ge=0.5, le=2.0)  # settings put system font_scale
    density: int | Literal["reset"] | None = Field(default=None)  # wm density N | reset
    locale: str | None = Field(default=None, pattern=r"^[a-z]{2,3}(-[A-Z]{2})?$")  # setprop persist.sys.locale

    @model_validator(mode="after")
    def _something(self) -> DeviceConfig:
        if isinstance(self.density, int) and not 72 <= self.density <= 1000:
            raise ValueError(f"density must be 72..1000 dpi or 'reset', got {self.density}")
        if not self.model_dump(exclude_none=True):
            raise ValueError("config needs at least one of theme, font_scale, density, locale")
        return self


class Notify(Model):
    """A notification, posted by the shell: ``cmd notification post [-t TITLE] [-c activity -n COMPONENT] TAG TEXT``."""

    tag: str = Field(default="androidrl", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    text: str = Field(min_length=1, max_length=1000)
    title: str | None = Field(default=None, max_length=200)
    opens: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.]+/[A-Za-z0-9_.$]+$")  # the activity a tap opens


STEP_KINDS = (
    "shell",
    "home",
    "back",
    "key",
    "launch",
    "tap",
    "text",
    "wait",
    "sleep",
    "snapshot",
    "insert",
    "file",
    "config",
    "notify",
)


class Step(Model):
    """One setup/reset step: exactly one of :data:`STEP_KINDS` is set."""

    shell: str | None = Field(default=None, min_length=1)
    check: bool = True  # for shell: fail the step on a non-zero exit code
    home: Literal[True] | None = None
    back: Literal[True] | None = None
    key: str | None = None
    launch: Launch | None = None
    tap: TapTarget | None = None
    text: str | None = None
    wait: Wait | None = None
    sleep: float | None = Field(default=None, ge=0, le=60)
    # Load this snapshot (an emulator's, or a virtual phone's); saved at setup if the device lacks it.
    snapshot: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    insert: Insert | None = None
    file: Annotated[
        tuple[FileWrite, ...] | str | None, _list_or_placeholder(lambda v: validate_nested(FileWrite, v), "files")
    ] = None
    config: DeviceConfig | None = None
    notify: Notify | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, value: Any) -> Any:
        if value in ("home", "back"):
            return {value: True}
        return value

    @model_validator(mode="after")
    def _one_action(self) -> Step:
        actions = [f for f in STEP_KINDS if getattr(self, f) is not None]
        if len(actions) != 1:
            raise ValueError(f"a step needs exactly one of {', '.join(STEP_KINDS)}; got {actions or 'none'}")
        # What a phone would refuse at reset is refused now (placeholders are checked once filled).
        if self.key is not None and not placeholders.has_placeholders(self.key):
            keycode(self.key)
        if self.text is not None and not placeholders.has_placeholders(self.text):
            input_text_commands(self.text)
        return self

    @property
    def kind(self) -> str:
        """Which action this step is."""
        return next(f for f in STEP_KINDS if getattr(self, f) is not None)

    def describe(self) -> str:
        """A short text for error messages."""
        value = getattr(self, self.kind)
        return self.kind if value is True else f"{self.kind}: {value if isinstance(value, str) else value!r}"


# ---------------------------------------------------------------------------- commands


def launch_command(launch: Launch) -> str:
    """The ``am start`` command line for a launch step (extras typed: --es, --ei, --ez)."""
    parts = ["am", "start"]
    if launch.stop:
        parts.append("-S")
    if launch.component is not None:
        parts += ["-n", launch.component]
    elif launch.package is not None:
        parts += ["-a", "android.intent.action.MAIN", "-c", "android.intent.category.LAUNCHER", "-p", launch.package]
    else:
        parts += ["-a", launch.action]
    for key, value in launch.extras.items():
        flag = "--ez" if isinstance(value, bool) else "--ei" if isinstance(value, int) else "--es"
        parts += [flag, key, str(value).lower() if isinstance(value, bool) else str(value)]
    return shlex.join(parts)


def bind(column: str, value: Any) -> str:
    r"""A ``content`` binding ``column:type:value`` (s text, b boolean, i/l int, d real, n null).

    A ``:`` or ``\`` in the column or a text value is escaped with a backslash, as Android 14's
    ``content`` splits a binding (cmds/content Content.java ``splitWithEscaping``).
    """
    column = _escape_binding(column)
    if value is None:
        return f"{column}:n:"
    if isinstance(value, bool):
        return f"{column}:b:{str(value).lower()}"
    if isinstance(value, int):
        return f"{column}:{'i' if -(2**31) <= value < 2**31 else 'l'}:{value}"
    if isinstance(value, float):
        return f"{column}:d:{value!r}"
    return f"{column}:s:{_escape_binding(str(value))}"


def _escape_binding(text: str) -> str:
    return text.replace("\\", "\\\\").replace(":", "\\:")


def insert_command(uri: str, row: dict[str, Any]) -> str:
    """The ``content insert`` command of one row (its ``_children`` are not part of it)."""
    parts = ["content", "insert", "--uri", uri]
    for column, value in row.items():
        if column != CHILDREN:
            parts += ["--bind", bind(column, value)]
    return shlex.join(parts)


def later_insert_command(uri: str, rows: tuple[dict[str, Any], ...], seconds: float) -> str:
    """A background job that inserts ``rows`` (and their children) ``seconds`` from now, and returns at once.

    ``(sleep N; content insert ...) >/dev/null 2>&1 &``: its output goes to no client, so the adb
    command does not wait for it (on the virtual phone it waits on the phone's clock:
    :mod:`androidrl.virtual.shell.background`). A parent's ``_id`` is read back into a shell
    variable, which its children's ``$parent_id`` bindings expand.
    """
    commands: list[str] = []

    def add(uri: str, rows: tuple[dict[str, Any], ...], parent: str | None) -> None:
        for row in rows:
            parts = ["content", "insert", "--uri", shlex.quote(uri)]
            for column, value in row.items():
                if column == CHILDREN:
                    continue
                if value == PARENT_ID and parent is not None:  # (the shell expands it: double quotes)
                    parts += ["--bind", f'"{_escape_binding(column)}:i:${parent}"']
                else:
                    parts += ["--bind", shlex.quote(bind(column, value))]
            commands.append(" ".join(parts))
            children = row.get(CHILDREN) or ()
            if children:
                variable = f"p{len(commands)}"
                query = content_query_command(uri, projection=("_id",), sort="_id DESC")
                commands.append(f"{variable}=$({query} | sed -n 's/^Row: 0 _id=\\([0-9]*\\).*/\\1/p')")
                for child in children:
                    add(child["uri"], tuple(_check_row(r) for r in child["rows"]), variable)

    add(uri, rows, None)
    return f"(sleep {seconds:g}; {'; '.join(commands)}) >/dev/null 2>&1 &"


def config_commands(config: DeviceConfig) -> list[str]:
    """The commands that set a device configuration (only the parts it names)."""
    commands = []
    if config.theme is not None:
        commands.append(f"cmd uimode night {'yes' if config.theme == 'dark' else 'no'}")
    if config.font_scale is not None:
        commands.append(f"settings put system font_scale {config.font_scale:g}")
    if config.density is not None:
        commands.append(f"wm density {config.density}")
    if config.locale is not None:
        commands.append(f"setprop persist.sys.locale {config.locale}")
    return commands


def notify_command(notify: Notify) -> str:
    """The ``cmd notification post`` command of a notify step.

    The activity goes as the content intent's operand: ``-c`` reads the intent with
    ``Intent.parseCommandArgs``, which takes its options and then one operand, so after
    ``-n COMPONENT`` it would take the tag (NotificationShellCmd.doNotify).
    """
    parts = ["cmd", "notification", "post", "-S", "bigtext"]
    if notify.title:
        parts += ["-t", notify.title]
    if notify.opens:
        parts += ["-c", "activity", notify.opens]
    return shlex.join([*parts, notify.tag, notify.text])


def file_commands(write: FileWrite) -> list[str]:
    """The commands that write one file (``echo -nE``: no newline added, no backslash escapes)."""
    folder = write.path.rsplit("/", 1)[0] or "/"
    content = (
        write.content if write.content is not None else ("x" * 63 + "\n") * (write.size // 64) + "x" * (write.size % 64)
    )
    return [f"mkdir -p {shlex.quote(folder)}", f"echo -nE {shlex.quote(content)} > {shlex.quote(write.path)}"]


# ---------------------------------------------------------------------------- running steps


def run_steps(device: Device, steps: tuple[Step, ...], where: str) -> None:
    """Run steps in order.

    Raises:
        TaskError: A step failed, naming ``where`` and the step.
    """
    for index, step in enumerate(steps, start=1):
        try:
            run_step(device, step)
        except (TaskError, DeviceCommandError) as err:
            raise TaskError(f"{where} step {index} ({step.describe()}): {err}") from None


def run_step(device: Device, step: Step) -> None:
    """Run one step.

    Raises:
        TaskError: The step failed (the device refused a command, a node or condition never showed up).
        DeviceCommandError: A checked shell command exited non-zero.
    """
    kind = step.kind
    if kind == "shell":
        device.shell(step.shell, check=step.check)
    elif kind in ("home", "back"):
        getattr(device, kind)()
    elif kind == "key":
        device.key(step.key)
    elif kind == "text":
        device.text(step.text)
    elif kind == "sleep":
        time.sleep(step.sleep)
    elif kind == "snapshot":
        try:
            device.load_snapshot(step.snapshot)
            device.wait_ready()  # an emulator drops off adb for a moment while it loads
        except DeviceError as err:
            raise TaskError(str(err)) from None
    elif kind == "launch":
        _checked(device, launch_command(step.launch))
    elif kind == "tap":
        _tap(device, step.tap)
    elif kind == "wait":
        _wait(device, step.wait)
    elif kind == "insert" and step.insert.after is not None:
        device.shell(later_insert_command(step.insert.uri, step.insert.rows, step.insert.after))
    elif kind == "insert":
        insert_rows(device, step.insert.uri, step.insert.rows)
    elif kind == "file":
        for write in step.file:
            for command in file_commands(write):
                device.shell(command)
    elif kind == "config":
        for command in config_commands(step.config):
            _checked(device, command)
    elif kind == "notify":
        _checked(device, notify_command(step.notify))


def insert_rows(device: Device, uri: str, rows: tuple[dict[str, Any], ...]) -> None:
    """Insert rows, then their ``_children`` with their parent's ``_id``.

    The rows go in one command line (one round trip over adb), the parents' ``_id`` s are read
    back with one query (a provider numbers new rows upwards: the newest ``len(rows)`` ids are
    these rows', in order), and the children of every parent go in one line per URI.

    Raises:
        TaskError: The provider refused a row, or the parents' ``_id`` s could not be read back.
    """
    _checked_lines(device, [insert_command(uri, row) for row in rows])
    if not any(row.get(CHILDREN) for row in rows):
        return
    found = parse_rows(_checked(device, content_query_command(uri, projection=("_id",), sort="_id DESC")))
    ids = [row.get("_id", "") for row in found[: len(rows)]][::-1]
    if len(ids) < len(rows) or not all(i.lstrip("-").isdigit() for i in ids):
        raise TaskError(f"inserted {len(rows)} rows into {uri} but `content query` shows no _id for each")
    children: dict[str, list[dict[str, Any]]] = {}
    for row, parent in zip(rows, map(int, ids)):
        for child in row.get(CHILDREN) or ():
            filled = ({k: parent if v == PARENT_ID else v for k, v in r.items()} for r in child["rows"])
            children.setdefault(child["uri"], []).extend(_check_row(r) for r in filled)
    for child_uri, child_rows in children.items():
        insert_rows(device, child_uri, tuple(child_rows))


#: How long a command line of several commands may grow (adb and a device's shell take far more).
MAX_LINE = 16_000


def _checked_lines(device: Device, commands: list[str]) -> None:
    """Run commands as few ``;``-joined lines as fit, each line checked as :func:`_checked` checks one."""
    line: list[str] = []
    for command in commands:
        if line and sum(map(len, line)) + len(command) + 2 * len(line) > MAX_LINE:
            _checked(device, "; ".join(line))
            line = []
        line.append(command)
    if line:
        _checked(device, "; ".join(line))


def _checked(device: Device, command: str) -> str:
    """Run a command whose failure Android reports in its output, not its exit code (``am``, ``content``, ``cmd``)."""
    result = device.execute(command)
    out, err = result.text, result.stderr.decode("utf-8", "replace")
    lines = [line for line in (out + "\n" + err).splitlines() if line.startswith(("Error", "[ERROR]", "cmd: "))]
    if result.exit_code != 0 or lines:
        detail = " ".join(lines) or err.strip() or out.strip() or f"exit code {result.exit_code}"
        raise TaskError(f"`{command}` failed: {detail}")
    return out


def _tap(device: Device, target: TapTarget) -> None:
    if target.node is None:
        device.tap(target.x, target.y)
        return
    nodes = find_nodes(Snapshot(device).hierarchy, target.node)
    if not nodes:
        raise TaskError(f"no UI node matches {target.node.model_dump(exclude_defaults=True)}")
    device.tap(*node_center(nodes[0]))


def _wait(device: Device, wait: Wait) -> None:
    deadline = time.monotonic() + wait.timeout
    while not holds(wait.until, Snapshot(device)):
        if time.monotonic() >= deadline:
            raise TaskError(f"the condition did not hold within {wait.timeout:g} s")
        time.sleep(wait.interval)

"""Running a parsed program (mksh's ``exec.c``): lists, pipelines, compound and simple commands, subshells, jobs.

:class:`Execution` is the half of :class:`~androidrl.virtual.shell.interpreter.Shell` that runs
the nodes of :mod:`~androidrl.virtual.shell.tree`; the shell's state (variables, options, its
input and output) and what commands use of it are in the other half. A pipeline runs its
stages in order, every one but the last in a subshell whose output is the next one's input,
as mksh runs them (so ``echo x | read v`` sets ``v``). A command is looked up as mksh does:
special builtins, then functions, then the phone's commands (the registry: builtins and
``/system/bin``), then a script on the phone's file system named by its path.
"""

from __future__ import annotations

import contextlib
import posixpath
import threading
from collections.abc import Callable

from androidrl.virtual.shell import conditions, expansion, patterns
from androidrl.virtual.shell.control import FunctionReturn, LoopControl, ShellError, ShellExit
from androidrl.virtual.shell.jobs import Job
from androidrl.virtual.shell.stdin import Stdin
from androidrl.virtual.shell.streams import NO_INPUT, RedirectError, Sink, Streams, apply_redirects
from androidrl.virtual.shell.tree import (
    AndOr,
    Arith,
    Case,
    DoubleBracket,
    For,
    FunctionDef,
    Group,
    If,
    Loop,
    Node,
    Pipeline,
    Redirected,
    Sequence,
    Simple,
    Subshell,
)

MAX_SUBSTITUTION_DEPTH = 16
MAX_CALL_DEPTH = 40
#: POSIX's special builtins: found before functions, and their assignments stay.
SPECIAL_BUILTINS = frozenset({":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly",
                              "return", "set", "shift", "times", "trap", "unset"})  # fmt: skip
_TOOL_DIRS = ("/system/bin/", "/system/xbin/", "/vendor/bin/", "/bin/")

# A command: (shell, argv, stdin) -> (stdout, stderr, exit code); stdin is the shell's input (a Stdin, or bytes
# for a command another command runs): read it with Shell.read_stdin, stdin_chunks or read_line.
Command = Callable[["Execution", list[str], "bytes | Stdin"], tuple[bytes, bytes, int]]


def is_builtin(command: Command) -> bool:
    """Whether ``command`` is the shell's own (``cd``, ``read``...), not a tool of ``/system/bin``."""
    return getattr(command, "shell_builtin", False)


class Execution:
    """What a shell does with a parsed program (mixed into :class:`~androidrl.virtual.shell.interpreter.Shell`)."""

    # ------------------------------------------------------------------ lists and pipelines

    def _sequence(self, node: Sequence) -> int:
        for item, background in node.items:
            if self.interrupted:
                raise ShellExit(self.killed_status)
            if background:
                self.start_job(item)
                self.status = 0
            else:
                self._and_or(item)
        return self.status

    def _and_or(self, node: AndOr) -> int:
        items = ((None, node.first), *node.rest)
        last = len(items) - 1
        status, ran_last = 0, False
        for index, (op, pipeline) in enumerate(items):
            if op is not None and (op == "&&") != (status == 0):
                continue
            if index == last:
                status, ran_last = self._pipeline(pipeline), True
                continue
            self.errexit_off += 1
            try:
                status = self._pipeline(pipeline)
            finally:
                self.errexit_off -= 1
        self.status = status
        if status and ran_last and not items[last][1].negate and "e" in self.options and not self.errexit_off:
            raise ShellExit(status)
        return status

    def _pipeline(self, node: Pipeline) -> int:
        commands = node.commands
        if len(commands) == 1:
            status = self.execute(commands[0])
        else:
            statuses = []
            saved = self.io
            data = None
            try:
                for stage in commands[:-1]:
                    collected: list[bytes] = []
                    streams = Streams(saved.stdin if data is None else Stdin.of(data), {**saved.fds, 1: collected})
                    statuses.append(self.subshell(streams).run_isolated(lambda sub, s=stage: sub.execute(s)))
                    data = b"".join(collected)
                self.io = Streams(Stdin.of(data), saved.fds)
                statuses.append(self.execute(commands[-1]))
            finally:
                self.io = saved
            status = statuses[-1]
            if "pipefail" in self.options:
                status = next((s for s in reversed(statuses) if s), 0)
        if node.negate:
            status = int(status == 0)
        self.status = status
        return status

    def start_job(self, item: AndOr) -> Job | None:
        """Run ``item`` in the background: a subshell in its own thread, reading nothing.

        A job whose output goes to no client and that begins with ``sleep`` goes on after the
        command, on the phone's clock (:mod:`~androidrl.virtual.shell.background`): None then.
        """
        pid = self.start_detached(item)
        if pid is not None:
            self.last_job = pid
            return None
        cancel = threading.Event()
        child = self.subshell(Streams(NO_INPUT, dict(self.io.fds)))
        child.cancel = cancel

        def run(job: Job) -> int:
            child.pid, child.job = job.pid, job
            return child.run_isolated(lambda sub: sub.execute(item))

        job = self.jobs.start(self.phone.processes.shell_pid(), cancel, run)
        self.last_job = job.pid
        return job

    # ------------------------------------------------------------------ subshells

    def subshell(self, streams: Streams | None = None) -> Execution:
        """A copy of this shell (``( )``, a pipeline stage, ``$(...)``, a job): what it changes stays in it."""
        if self.depth >= MAX_SUBSTITUTION_DEPTH * 4:
            raise ShellError("subshells nested too deeply")
        child = type(self)(self.phone, self.commands, self.cancel, self.deadline, self.depth + 1)
        child.cwd, child.status, child.line = self.cwd, self.status, self.line
        child.variables, child.exported = dict(self.variables), set(self.exported)
        child.readonly, child.positional = set(self.readonly), list(self.positional)
        child.functions, child.options = dict(self.functions), set(self.options)
        child.name, child.script, child.pid, child.last_job = self.name, self.script, self.pid, self.last_job
        child.frames, child.loops, child.job = [dict(f) for f in self.frames], self.loops, self.job
        child.io = streams or self.io
        return child

    def spawn(self, name: str, script: str | None, positional: list[str]) -> Execution:
        """A new shell process run by this one (``sh``): the exported variables only, this one's input and output."""
        child = type(self)(self.phone, self.commands, self.cancel, self.deadline, self.depth + 1)
        child.cwd = self.cwd
        child.variables = {k: v for k, v in self.variables.items() if k in self.exported}
        child.exported = set(child.variables)
        child.name, child.script, child.positional = name, script, positional
        child.io, child.job = self.io, self.job
        return child

    def run_isolated(self, body: Callable[[Execution], int]) -> int:
        """Run ``body(self)`` as a subshell's whole life: ``exit``, errors and stray ``return`` end only it."""
        try:
            return body(self)
        except ShellExit as stop:
            return stop.code & 0xFF
        except ShellError as failure:
            self.error(failure.message)
            return failure.status
        except FunctionReturn as back:
            return back.status
        except LoopControl:
            return self.status
        finally:
            self.finish()

    def command_output(self, body: tuple[Node, ...]) -> str:
        """The output of ``$(...)``, trailing newlines removed; ``$?`` becomes its status."""
        if self.depth >= MAX_SUBSTITUTION_DEPTH:
            raise ShellError("command substitution nested too deeply")
        collected: list[bytes] = []
        child = self.subshell(Streams(self.io.stdin, {**self.io.fds, 1: collected}))
        self.status = child.run_isolated(lambda sub: sub.run_nodes(body))
        self.substituted = True
        return b"".join(collected).decode("utf-8", "replace").rstrip("\n")

    # ------------------------------------------------------------------ compound commands

    def _subshell(self, node: Subshell) -> int:
        return self.subshell().run_isolated(lambda sub: sub.execute(node.body))

    def _group(self, node: Group) -> int:
        return self.execute(node.body)

    def condition(self, node: Sequence) -> int:
        """Run the condition of an ``if``/``while``: ``set -e`` does not apply in it."""
        self.errexit_off += 1
        try:
            return self.execute(node)
        finally:
            self.errexit_off -= 1

    def _if(self, node: If) -> int:
        for cond, body in node.clauses:
            if self.condition(cond) == 0:
                return self.execute(body)
        return self.execute(node.orelse) if node.orelse is not None else 0

    def _loop_body(self, body: Sequence) -> bool:
        """Run one pass of a loop's body; False when ``break`` ends the loop."""
        try:
            self.execute(body)
        except LoopControl as control:
            if control.levels > 1:
                control.levels -= 1
                raise
            return control.again
        return True

    def _while(self, node: Loop) -> int:
        status = 0
        self.loops += 1
        try:
            while (self.condition(node.cond) == 0) != node.until:
                if self.interrupted:
                    raise ShellExit(self.killed_status)
                if not self._loop_body(node.body):
                    break
                status = self.status
        finally:
            self.loops -= 1
        return status

    def _for(self, node: For) -> int:
        values = expansion.all_fields(self, node.words) if node.words is not None else list(self.positional)
        status = 0
        self.loops += 1
        try:
            for value in values:
                if self.interrupted:
                    raise ShellExit(self.killed_status)
                self.assign(node.name, value)
                if not self._loop_body(node.body):
                    break
                status = self.status
        finally:
            self.loops -= 1
        return status

    def _case(self, node: Case) -> int:
        subject = expansion.string(self, node.word)
        status, falling = 0, False
        for item in node.items:
            if falling or any(patterns.matches(expansion.pattern(self, p), subject) for p in item.patterns):
                status = self.execute(item.body) if item.body is not None else 0
                if item.end == ";;":
                    return status
                falling = item.end == ";&"
        return status

    def _function_def(self, node: FunctionDef) -> int:
        self.functions[node.name] = node
        return 0

    def _arith(self, node: Arith) -> int:
        self.line = node.line
        return int(self.arithmetic(expansion.string(self, node.expr)) == 0)

    def _double_bracket(self, node: DoubleBracket) -> int:
        self.line = node.line
        return conditions.double_bracket(self, node.items)

    def _redirected(self, node: Redirected) -> int:
        saved = self.io
        try:
            self.io = apply_redirects(self, node.redirects, saved)
        except RedirectError as failure:
            self.error(str(failure))
            return 1
        try:
            return self.execute(node.command)
        finally:
            self.io = saved

    # ------------------------------------------------------------------ simple commands

    def _simple(self, node: Simple) -> int:
        self.line = node.line
        self.substituted = False
        argv = expansion.all_fields(self, node.words)
        if "x" in self.options and argv:
            self.io.err.append(("+ " + " ".join(argv) + "\n").encode())
        saved = self.io
        if node.redirects:
            try:
                self.io = apply_redirects(self, node.redirects, saved)
            except RedirectError as failure:
                self.error(str(failure))
                return 1
        try:
            if not argv:
                for name, word, append in node.assigns:
                    self.assign(name, self._assigned(name, word, append))
                return self.status if self.substituted else 0  # `x=$(cmd)` has cmd's status
            if not node.assigns:
                return self.run_argv(argv)
            return self._with_assignments(node, argv)
        finally:
            if self.keep_io:
                self.keep_io = False
            else:
                self.io = saved

    def _with_assignments(self, node: Simple, argv: list[str]) -> int:
        """``NAME=value cmd``: the values for this command only (they stay for a special builtin)."""
        permanent = argv[0] in SPECIAL_BUILTINS
        saved = {name: self.variables.get(name) for name, _, _ in node.assigns}
        exported = set(self.exported)
        for name, word, append in node.assigns:
            self.assign(name, self._assigned(name, word, append))
            self.exported.add(name)
        try:
            return self.run_argv(argv)
        finally:
            if not permanent:
                self.exported = exported
                for name, value in saved.items():
                    if value is None:
                        self.variables.pop(name, None)
                    else:
                        self.variables[name] = value

    def _assigned(self, name: str, word, append: bool) -> str:
        value = expansion.string(self, word)
        return (self.variables.get(name, "") + value) if append else value

    def run_argv(self, argv: list[str]) -> int:
        """Run one command by name, as mksh looks it up; its exit status."""
        name = argv[0]
        if name == "exec":
            return self._exec(argv)
        if name not in SPECIAL_BUILTINS:
            function = self.functions.get(name)
            if function is not None:
                return self.call_function(function, argv)
        return self.run_utility(argv)

    def run_utility(self, argv: list[str]) -> int:
        """Run a builtin, a tool of the registry or a script named by its path (never a function)."""
        command = self.commands.get(argv[0])
        if command is not None:
            return self.call(command, argv)
        if "/" in argv[0]:
            return self.run_path(argv)
        self.error(f"{argv[0]}: inaccessible or not found")
        return 127

    def _exec(self, argv: list[str]) -> int:
        """``exec CMD``: the command replaces the shell (the program ends with it).

        ``exec`` alone keeps its redirections for the rest of the shell.
        """
        if len(argv) == 1:
            self.keep_io = True
            return 0
        raise ShellExit(self.run_utility(argv[1:]))

    def call(self, command: Command, argv: list[str]) -> int:
        """Run a registry command with this shell's input and output."""
        io = self.io
        saved, self.live = self.live, (io.fds[1].append if type(io.fds.get(1)) is Sink else None)
        try:
            stdout, stderr, code = command(self, argv, io.stdin)
        finally:
            self.live = saved
        try:
            if stdout:
                io.out.append(stdout)
            if stderr:
                io.err.append(stderr)
        except OSError as exc:  # a redirection's file ran out of space (it holds what fitted)
            with contextlib.suppress(OSError):
                io.err.append(self.write_error(command, argv[0], exc.strerror))
            return 1
        return code

    def write_error(self, command: Command, name: str, strerror: str) -> bytes:
        """What a command says when its output cannot be written: mksh's builtins (``c_print``), toybox's ``xwrite``."""
        if is_builtin(command) or name in ("echo", "pwd", "kill", "test", "[", "true", "false"):
            return f"{self.prefix()}{name}: write: {strerror}\n".encode()
        return f"{name}: xwrite: {strerror}\n".encode()

    def run_path(self, argv: list[str]) -> int:
        """A command named by a path: a tool of ``/system/bin``, or a script on the phone (mksh's ``search_access``)."""
        name = argv[0]
        for directory in _TOOL_DIRS:
            tool = name[len(directory) :] if name.startswith(directory) else None
            if tool in self.commands and not is_builtin(self.commands[tool]):
                return self.call(self.commands[tool], [tool, *argv[1:]])
        fs, path = self.phone.fs, self.path(name)
        if not fs.exists(path):
            self.error(f"{name}: inaccessible or not found")
            return 127
        if fs.is_dir(path) or not fs.stat(path).mode & 0o111:
            self.error(f"{name}: can't execute: {'Is a directory' if fs.is_dir(path) else 'Permission denied'}")
            return 126
        text = fs.read(path)
        first = text.split(b"\n", 1)[0].split()
        interpreter = first[0][2:].decode("utf-8", "replace") if first and first[0].startswith(b"#!") else ""
        if text.startswith(b"\x7fELF") or (interpreter and posixpath.basename(interpreter) not in ("sh", "mksh")):
            self.error(f"{name}: can't execute: Exec format error")  # only sh scripts run here
            return 126
        child = self.spawn(name, name, argv[1:])
        return child.run_isolated(lambda sub: sub.run_program(text.decode("utf-8", "replace")))

    def call_function(self, function: FunctionDef, argv: list[str]) -> int:
        """Run a shell function with ``argv[1:]`` as its positional parameters."""
        if len(self.frames) >= MAX_CALL_DEPTH:
            raise ShellError(f"{argv[0]}: function calls nested too deeply")
        saved, self.positional = self.positional, argv[1:]
        self.frames.append({})
        try:
            return self.execute(function.body)
        except FunctionReturn as back:
            return back.status
        finally:
            self.positional = saved
            for name, value in self.frames.pop().items():
                if value is None:
                    self.variables.pop(name, None)
                else:
                    self.variables[name] = value

    _dispatch = {
        Sequence: _sequence,
        AndOr: _and_or,
        Pipeline: _pipeline,
        Simple: _simple,
        Subshell: _subshell,
        Group: _group,
        If: _if,
        Loop: _while,
        For: _for,
        Case: _case,
        FunctionDef: _function_def,
        Arith: _arith,
        DoubleBracket: _double_bracket,
        Redirected: _redirected,
    }

"""Background jobs that outlive their command: ``(sleep 5; CMD) >/dev/null 2>&1 &``, run on the phone's clock.

On a device, a job whose output goes to no client (both of its descriptors 1 and 2 redirected to
``/dev/null`` or a file) does not hold the adb command open: adbd reports the command's end when
the output closes, and the job's process goes on by itself — the way a script schedules something
for later (``(sleep 5; input keyevent HOME) >/dev/null 2>&1 &``). Such a job that begins with a
``sleep`` is not run in a thread here: the commands after each top-level ``sleep N`` wait in the
phone's :class:`~androidrl.virtual.system.scheduler.Scheduler` until N seconds of its uptime have
passed, then run when the phone is next looked at. On a stepped clock (a phone in an env) that is
after the same number of steps every time; on a realtime one, after N seconds.

The shell that started it does not wait for it (``wait`` does not know it: it is no longer its
child), and ``$!`` is its pid. A ``sleep`` inside a loop, a function or an ``&&`` chain of the job
runs as any ``sleep`` does; loading a snapshot or rebooting ends the jobs still waiting.
"""

from __future__ import annotations

import functools
import threading

from androidrl.virtual.shell import expansion
from androidrl.virtual.shell.control import FunctionReturn, LoopControl, ShellError, ShellExit
from androidrl.virtual.shell.streams import NO_INPUT, Closed, FileOut, RedirectError, Streams, apply_redirects
from androidrl.virtual.shell.tree import AndOr, Group, Redirected, Simple, Subshell
from androidrl.virtual.system.power import PhoneOfflineError

#: The top-level commands of a job: ``(and-or list, whether it runs in the background)``.
Items = tuple[tuple[AndOr, bool], ...]


class DetachedJobs:
    """Jobs that outlive their command (mixed into :class:`~androidrl.virtual.shell.interpreter.Shell`)."""

    def start_detached(self, item: AndOr) -> int | None:
        """Start ``item`` as a job that outlives this shell's command, if it is one; its pid, else None.

        It is one when it is a ``( list )`` or ``{ list; }`` whose redirections send both stdout and
        stderr away from the client, and whose list begins with ``sleep N``.
        """
        if item.rest or len(item.first.commands) != 1 or item.first.negate:
            return None
        command = item.first.commands[0]
        if not isinstance(command, Redirected) or not isinstance(command.command, (Subshell, Group)):
            return None
        items = command.command.body.items
        if not items or _sleep_seconds(self, items[0][0]) is None:
            return None
        try:
            io = apply_redirects(self, command.redirects, Streams(NO_INPUT, dict(self.io.fds)))
        except RedirectError:
            return None  # (the job runs as any other, and says why)
        if not all(isinstance(io.fds.get(fd), (FileOut, Closed)) or fd not in io.fds for fd in (1, 2)):
            return None  # its output goes to the client: the command waits for it
        job = self._detached_shell(io)
        _resume(job, items)
        return job.pid

    def _detached_shell(self, io: Streams):
        """A copy of this shell that is no longer its child: its own pid, no client to cancel it, no deadline."""
        child = self.subshell(io)
        child.cancel, child.deadline, child.job = threading.Event(), None, None
        child.pid = self.phone.processes.shell_pid()
        return child


def _resume(sh, items: Items) -> None:
    """Run the job's commands from the first: up to a top-level ``sleep``, whose rest waits on the phone's clock."""
    for index, (item, background) in enumerate(items):
        seconds = None if background else _sleep_seconds(sh, item)
        if seconds is not None:
            rest = items[index + 1 :]
            if rest:
                sh.phone.scheduler.schedule(seconds, functools.partial(_resume, sh, rest))
            return
        if not _run_item(sh, item, background):
            return


def _run_item(sh, item: AndOr, background: bool) -> bool:
    """Run one top-level command of the job; False when the job ends there (``exit``, an error)."""
    try:
        if background:
            sh.start_job(item)
        else:
            sh.execute(item)
    except ShellExit:
        return False
    except ShellError as failure:  # (an error ends a non-interactive shell, as mksh's unwind)
        sh.error(failure.message)
        return False
    except (FunctionReturn, LoopControl):
        return False
    except PhoneOfflineError:  # (it rebooted the phone: the job ends with it, and the phone is looked at as it is)
        return False
    return True


def _sleep_seconds(sh, item: AndOr) -> float | None:
    """The seconds of an and-or list that is only ``sleep N`` (no redirection, no assignment); else None."""
    if item.rest or len(item.first.commands) != 1 or item.first.negate:
        return None
    command = item.first.commands[0]
    if not isinstance(command, Simple) or command.assigns or command.redirects or len(command.words) != 2:
        return None
    if command.words[0].bare != "sleep":
        return None
    try:
        return max(0.0, float(expansion.string(sh, command.words[1])))
    except (ValueError, ShellError):  # (an operand sleep would refuse: run it as it is, and let it say so)
        return None

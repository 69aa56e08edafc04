"""The exceptions androidrl raises.

Wrong kinds raise :class:`TypeError` and wrong values :class:`ValueError`, as in the
standard library; faults of the domain raise one of the classes below, all under
:class:`AndroidRLError` so a caller can catch everything of ours at once.
"""

from __future__ import annotations


class AndroidRLError(Exception):
    """Base class of every androidrl-specific error."""


class DeviceError(AndroidRLError):
    """A device could not do what was asked.

    Attributes:
        serial: The serial of the device, when known.
    """

    def __init__(self, message: str, *, serial: str | None = None) -> None:
        super().__init__(f"{serial}: {message}" if serial else message)
        self.serial = serial


class DeviceNotFoundError(DeviceError):
    """No device with the requested serial is known."""


class DeviceOfflineError(DeviceError):
    """The device is known but offline, rebooting, unauthorized or disconnected."""


class DeviceTimeoutError(DeviceError, TimeoutError):
    """A device call did not finish within its timeout."""


class DeviceBusyError(DeviceError):
    """The screen never became idle, so ``uiautomator dump`` could not read it."""


class DeviceCommandError(DeviceError):
    """A command ran on the device and failed.

    Attributes:
        command: The command line as sent to the device.
        exit_code: Its exit status.
        stdout: What it printed on standard output.
        stderr: What it printed on standard error.
    """

    def __init__(
        self,
        command: str,
        exit_code: int,
        stdout: str = "",
        stderr: str = "",
        *,
        serial: str | None = None,
    ) -> None:
        detail = (stderr or stdout).strip()
        message = f"`{command}` exited with {exit_code}"
        if detail:
            message += f": {detail[:500]}"
        super().__init__(message, serial=serial)
        self.command = command
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr


class ConfigError(AndroidRLError, ValueError):
    """A configuration value is missing, unknown or invalid.

    The message names the key path, what was expected and what was got, e.g.
    ``algo.hyperparams.n_steps: expected a positive int, got -5``.
    """


class TaskError(AndroidRLError):
    """A task spec is invalid, or a task step failed on the device."""

"""VirtualDevice: the Device interface over an in-process :class:`~androidrl.virtual.phone.VirtualPhone`.

Shell commands go through the phone's shell exactly as they would over adb (so input is
parsed, quoted and checked the same way); screenshots and UI dumps are read from the
phone directly, without encoding; :meth:`VirtualDevice.ui_tree` builds the parsed UI dump
straight from the view tree, with no XML text to write and parse again.
"""

from __future__ import annotations

import inspect
import itertools
import numbers
import time
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np

from androidrl.device.base import CommandResult, Device
from androidrl.errors import DeviceError, DeviceOfflineError, DeviceTimeoutError
from androidrl.screen import check_screen
from androidrl.spaces import EnvAction
from androidrl.virtual.phone import PhoneOfflineError, VirtualPhone
from androidrl.virtual.system.clock import Clock
from androidrl.virtual.ui.uixml import hierarchy_tree
from androidrl.virtual.ui.views import View

_serials = itertools.count()
#: How much phone time one action takes on a stepped clock (about what a person or an agent spends on one).
STEP_SECONDS = 1.0


class VirtualDevice(Device):
    """A virtual phone in this process.

    Args:
        phone: An existing phone to drive; by default one is created on :meth:`connect`
            from ``phone_kwargs`` (``width``, ``height``, ``density``, ``seed``...).
        serial: The device's serial (default ``virtual-N``).
        timeout: Default timeout of one call, in seconds.

    A phone made here has a *stepped* clock (:mod:`androidrl.virtual.system.clock`): its time moves
    :data:`STEP_SECONDS` before each action an env performs (a NONE action too) and by what ``sleep`` waits, never
    with the host's clock, so an episode replays exactly under its seed.

    Example:
        >>> device = VirtualDevice(width=360, height=800, density=160)
        >>> device.tap(180, 400)
        ''
    """

    def __init__(
        self,
        phone: VirtualPhone | None = None,
        *,
        serial: str | None = None,
        timeout: float = 10.0,
        **phone_kwargs: Any,
    ) -> None:
        super().__init__()
        if phone is not None and phone_kwargs:
            raise TypeError("pass either a phone or phone settings, not both")
        if phone is None:  # the phone is made lazily: refuse settings it would refuse, now
            settings = inspect.signature(VirtualPhone).bind(**phone_kwargs)
            settings.apply_defaults()
            check_screen(settings.arguments["width"], settings.arguments["height"], settings.arguments["density"])
            seed = settings.arguments["seed"]
            if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:  # (NumPy would, later)
                raise ValueError(f"seed must be a non-negative int, got {seed!r}")
        self.serial = serial or (phone.getprop("ro.serialno") if phone else f"virtual-{next(_serials)}")
        self.timeout = timeout
        self._phone = phone
        self._phone_kwargs = {"serial": self.serial, "clock": None, **phone_kwargs}
        self._tree: tuple[View, str, ET.Element] | None = None  # (window, package, its elements)

    @property
    def phone(self) -> VirtualPhone:
        """The phone (created on first use)."""
        if self._phone is None:
            kwargs = self._phone_kwargs
            self._phone = VirtualPhone(**{**kwargs, "clock": kwargs["clock"] or Clock(stepped=True)})
        return self._phone

    def perform(self, action: EnvAction) -> str:
        """As :meth:`Device.perform`, after the phone's time moved by :data:`STEP_SECONDS` on a stepped clock.

        (The time passes before the action, as an agent looks before it acts: what the action
        logs or stamps comes after everything the previous step saw.)
        """
        clock = self.phone.clock
        if clock.stepped:
            clock.advance(STEP_SECONDS)
        return super().perform(action)

    def connect(self) -> None:
        """Create the phone if needed and check that it is online."""
        self._online()

    def _online(self) -> VirtualPhone:
        phone = self.phone
        if not phone.online:
            raise DeviceOfflineError("the virtual phone is rebooting or powered off", serial=self.serial)
        return phone

    def wait_ready(self, timeout: float = 60.0, poll: float = 0.2) -> None:
        """As :meth:`Device.wait_ready`; a phone that is up answers at once (in process: no round trip)."""
        if self._phone is None or not self._phone.online:
            super().wait_ready(timeout, poll)
        self._screen_size = None  # (as after a reply: a reboot may come back with another size)

    def wake_and_unlock(self) -> None:
        """As :meth:`Device.wake_and_unlock`; an awake, unlocked phone needs no command."""
        phone = self._online()
        if not phone.wakefulness.awake or phone.keyguard.showing:
            super().wake_and_unlock()

    def query_screen_size(self) -> tuple[int, int]:
        """The phone's size now, as ``wm size`` answers it (an override size wins)."""
        self._screen_size = self._online().size
        return self._screen_size

    def execute(self, command: str, *, timeout: float | None = None) -> CommandResult:
        """Run ``command`` with the phone's shell (``sleep`` and friends honour ``timeout``)."""
        limit = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        try:
            result = self._online().shell(command, deadline=deadline)
        except PhoneOfflineError as err:
            raise DeviceOfflineError(str(err), serial=self.serial) from None
        if time.monotonic() > deadline:
            raise DeviceTimeoutError(f"`{command}` did not finish within {limit:g} s", serial=self.serial)
        return CommandResult(result.stdout, result.stderr, result.exit_code)

    def screenshot(self) -> np.ndarray:
        """The phone's current frame (shared and read-only; it changes identity when the screen does)."""
        return self._online().screenshot()

    def changed_regions(self, old: np.ndarray, new: np.ndarray) -> tuple[tuple[int, int, int, int], ...] | None:
        """The regions the phone's renderer redrew between the two frames (exact, no comparison)."""
        return self.phone.changed_regions(old, new)

    def snapshot_names(self) -> list[str]:
        """The phone's snapshots."""
        return self.phone.snapshot_names()

    def save_snapshot(self, name: str) -> None:
        """Save the whole phone as ``name`` (in this process)."""
        self._online().save_snapshot(name)

    def load_snapshot(self, name: str) -> None:
        """Put the phone back as ``name`` has it.

        Raises:
            DeviceError: No such snapshot.
        """
        try:
            self._online().load_snapshot(name)
        except KeyError:
            raise DeviceError(f"no snapshot named {name!r}", serial=self.serial) from None

    def _dump_ui_once(self) -> str | None:
        phone = self._online()
        return phone.dump_ui() if phone.idle else None

    def ui_tree(self) -> ET.Element:
        """The parsed ``uiautomator dump`` of the window in front, built from its views (no XML text).

        The same object comes back until the phone rebuilds its window.

        Raises:
            DeviceBusyError: The screen never became idle (as :meth:`dump_ui`).
        """
        return self._until_idle(self._ui_tree_once)

    def _ui_tree_once(self) -> ET.Element | None:
        phone = self._online()
        with phone.lock:
            if not phone.idle:
                return None
            window, package = phone.display.focused_window()  # (the same objects until the screen is rebuilt)
            if self._tree is None or self._tree[0] is not window or self._tree[1] != package:
                self._tree = (window, package, hierarchy_tree(window, package))
            return self._tree[2]

"""DeviceSpec: which phone a worker drives, typed — and the one place that reads its string form.

A spec is an adb serial (``emulator-5554``, ``192.168.1.7:5555``) with the adb server that
knows it, or a virtual phone of a given size made in the worker. Configs build specs
directly; the string form (``"virtual:360x800@160"``) is for the command line and Python
callers, and :meth:`DeviceSpec.parse` is its only reader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from androidrl.device.base import Device
from androidrl.screen import MIN_DENSITY, check_screen

_VIRTUAL = re.compile(r"^virtual(?::(\d+)x(\d+)(?:@(\d+))?)?$")


@dataclass(frozen=True)
class DeviceSpec:
    """A device for one worker: an adb serial, or a virtual phone created in the worker.

    Write it as a string: ``"emulator-5554"``, ``"192.168.1.7:5555"`` (adb serials), or
    ``"virtual"`` / ``"virtual:360x800"`` / ``"virtual:360x800@160"`` (a virtual phone of that
    size and density), or build it with :meth:`virtual_phone`.
    """

    serial: str
    virtual: bool = False
    width: int = 1080
    height: int = 2400
    density: int = 420
    adb_host: str = "127.0.0.1"
    adb_port: int | None = None
    night: bool = False
    font_scale: float = 1.0
    locale: str = "en-US"

    @classmethod
    def virtual_phone(
        cls,
        width: int = 1080,
        height: int = 2400,
        density: int = 420,
        night: bool = False,
        font_scale: float = 1.0,
        locale: str = "en-US",
    ) -> DeviceSpec:
        """A virtual phone of this size and density, in the dark theme or not, at a font scale, in a locale."""
        return cls(
            f"virtual:{width}x{height}@{density}",
            True,
            width,
            height,
            density,
            night=night,
            font_scale=font_scale,
            locale=locale,
        )

    @classmethod
    def parse(cls, text: str, adb_host: str = "127.0.0.1", adb_port: int | None = None) -> DeviceSpec:
        """A spec from its string form.

        Raises:
            ValueError: The string is empty or a malformed ``virtual:...`` spec.
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"a device is an adb serial or 'virtual[:WxH[@DPI]]', got {text!r}")
        text = text.strip()
        if not text.isprintable() or any(c.isspace() for c in text):
            raise ValueError(f"a device serial has no spaces or control characters, got {text!r}")
        match = _VIRTUAL.match(text)
        if match:
            width, height, density = match.groups()
            if not width:
                return cls(text, True)
            # Without a density, keep a real phone's: 420 dpi at 1080 pixels wide.
            dpi = int(density) if density else max(MIN_DENSITY, round(420 * int(width) / 1080))
            try:
                check_screen(int(width), int(height), dpi)
            except ValueError as err:
                raise ValueError(f"bad virtual device {text!r}: {err}") from None
            return cls(text, True, int(width), int(height), dpi)
        if text.startswith("virtual"):
            raise ValueError(f"bad virtual device {text!r}: write virtual, virtual:360x800 or virtual:360x800@160")
        return cls(text, False, adb_host=adb_host, adb_port=adb_port)

    def screen_size(self) -> tuple[int, int] | None:
        """The screen size if known before connecting (virtual phones)."""
        return (self.width, self.height) if self.virtual else None

    def worker_serial(self, index: int) -> str:
        """The serial of worker ``index``'s device: the adb serial, or ``virtual-<index>``."""
        return f"virtual-{index}" if self.virtual else self.serial

    def make_device(self, index: int = 0, seed: int = 0) -> Device:
        """The Device (not connected yet)."""
        if self.virtual:
            from androidrl.device.virtual import VirtualDevice

            return VirtualDevice(
                serial=self.worker_serial(index),
                width=self.width,
                height=self.height,
                density=self.density,
                seed=seed + index,
                night=self.night,
                font_scale=self.font_scale,
                locale=self.locale,
            )
        from androidrl.device.adb import AdbDevice

        return AdbDevice(self.serial, host=self.adb_host, port=self.adb_port)


def parse_devices(
    devices: Sequence[str | DeviceSpec], adb_host: str = "127.0.0.1", adb_port: int | None = None
) -> list[DeviceSpec]:
    """Specs for a list of devices (strings are parsed); an adb serial listed twice is an error.

    Raises:
        ValueError: An empty list, a bad spec, or a duplicate serial.
    """
    if isinstance(devices, str) or not devices:
        raise ValueError(f"devices must be a non-empty list of serials or 'virtual' specs, got {devices!r}")
    specs = [d if isinstance(d, DeviceSpec) else DeviceSpec.parse(d, adb_host, adb_port) for d in devices]
    seen: set[str] = set()
    for spec in specs:
        if not spec.virtual:
            if spec.serial in seen:
                raise ValueError(
                    f"device {spec.serial} is listed twice: two workers would drive the same phone and "
                    "corrupt each other's episodes; list each serial once (use 'virtual' for more virtual phones)"
                )
            seen.add(spec.serial)
    return specs

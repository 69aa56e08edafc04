"""DeviceSpec: which phone a worker drives, typed — and the one place that reads its string form.

A spec is an adb serial (``emulator-5554``, ``192.168.1.7:5555``) with the adb server that
knows it, or a virtual phone of a given size made in the worker. Configs build specs
directly; the string form (``"virtual:360x800@160"``) is for the command line and Python
callers, and :meth:`DeviceSpec.parse` is its only reader.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from androidrl.device.base import Device
from androidrl.screen import MIN_DENSITY, check_screen
from androidrl.validation import shorten

_VIRTUAL = re.compile(r"^virtual(?::(\d+)x(\d+)(?:@(\d+))?)?$")
#: A network serial as adb writes it: [tcp:|udp:]host:port, an IPv6 host in brackets (adb's ParseNetAddress).
_NETWORK = re.compile(r"^(?:tcp:|udp:)?(\[[^\]]*\]|[^:\[\]]*):(-?\d*)$")
#: An emulator's serial: emulator-<console port>.
_EMULATOR = re.compile(r"^emulator-(\d{1,5})$")
#: The longest serial (adb's are a model's serial number, emulator-5554, or an address and port).
MAX_SERIAL = 255
#: The most devices one vector env drives.
MAX_DEVICES = 4096


@dataclass(frozen=True)
class DeviceSpec:
    """A device for one worker: an adb serial, or a virtual phone created in the worker.

    Write it as a string: ``"emulator-5554"``, ``"192.168.1.7:5555"`` (adb serials), or
    ``"virtual"`` / ``"virtual:360x800"`` / ``"virtual:360x800@160"`` (a virtual phone of that
    size and density), or build it with :meth:`virtual_phone` (which also takes the phone's
    seeded ``content``: ``{"contacts": 20, "messages": 15}``).
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
    content: tuple[tuple[str, int], ...] = ()

    @classmethod
    def virtual_phone(
        cls,
        width: int = 1080,
        height: int = 2400,
        density: int = 420,
        night: bool = False,
        font_scale: float = 1.0,
        locale: str = "en-US",
        content: Mapping[str, int] | None = None,
    ) -> DeviceSpec:
        """A virtual phone of this size and density, in the dark theme or not, at a font scale, in a locale.

        It holds ``content`` (kind -> count) seeded from its seed.
        """
        return cls(
            f"virtual:{width}x{height}@{density}",
            True,
            width,
            height,
            density,
            night=night,
            font_scale=font_scale,
            locale=locale,
            content=tuple((content or {}).items()),
        )

    @classmethod
    def parse(cls, text: str, adb_host: str = "127.0.0.1", adb_port: int | None = None) -> DeviceSpec:
        """A spec from its string form.

        Raises:
            ValueError: The string is empty or a malformed ``virtual:...`` spec.
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"a device is an adb serial or 'virtual[:WxH[@DPI]]', got {shorten(text)}")
        text = text.strip()
        if not text.isprintable() or any(c.isspace() for c in text):
            raise ValueError(f"a device serial has no spaces or control characters, got {shorten(text)}")
        if len(text) > MAX_SERIAL:
            raise ValueError(f"a device serial has at most {MAX_SERIAL} characters, got {shorten(text)}")
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
        _network_address(text)  # (a host:port serial is well formed)
        return cls(text, False, adb_host=adb_host, adb_port=adb_port)

    def phone(self) -> str:
        """Which phone the serial reaches, the same text for every alias of one phone (see :func:`phone_address`)."""
        return phone_address(self.serial)

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
                content=dict(self.content) or None,
            )
        from androidrl.device.adb import AdbDevice

        return AdbDevice(self.serial, host=self.adb_host, port=self.adb_port)


def _network_address(serial: str) -> tuple[str, int] | None:
    """(host, port) of a network serial (``host:port``, ``[::1]:port``, ``tcp:host:port``); None for other serials.

    Raises:
        ValueError: It is written as one but has no host, or no port in 1-65535.
    """
    if serial.startswith("[") and "]" not in serial:
        raise ValueError(f"bad device {serial!r}: an IPv6 address is written [address]:port")
    match = _NETWORK.match(serial)
    if match is None:
        return None
    host, port = match.groups()
    if host in ("", "[]") or not port or not 1 <= int(port) <= 65535:
        raise ValueError(f"bad device {serial!r}: a network serial is host:port with a port in 1-65535")
    return host, int(port)


def phone_address(serial: str) -> str:
    """The phone an adb serial reaches: aliases of one phone give the same text.

    ``127.0.0.1:6501``, ``localhost:6501``, ``[::1]:6501`` and ``tcp:127.0.0.1:6501`` are one phone
    (``adb connect`` makes a transport for each); so are ``emulator-5554`` and ``127.0.0.1:5555``, the
    emulator's adbd at its console port + 1 on the loopback (AOSP adb ``transport_local.cpp``:
    ``local_connect(port)`` registers ``emulator-<port - 1>`` on ``port``). Host names are compared
    as written (lower case, without a final dot): resolving them would ask DNS.
    """
    emulator = _EMULATOR.match(serial)
    if emulator:
        return f"127.0.0.1:{int(emulator.group(1)) + 1}"
    try:
        address = _network_address(serial)
    except ValueError:
        return serial
    if address is None:
        return serial
    host, port = address
    host = host.strip("[]").rstrip(".").lower()
    try:
        ip = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        ip = None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if host == "localhost" or (ip is not None and (ip.is_loopback or ip.is_unspecified)):
        return f"127.0.0.1:{port}"  # (a server on 0.0.0.0 answers on the loopback too)
    if isinstance(ip, ipaddress.IPv6Address):
        return f"[{ip}]:{port}"
    return f"{ip if ip is not None else host}:{port}"


def parse_devices(
    devices: Sequence[str | DeviceSpec], adb_host: str = "127.0.0.1", adb_port: int | None = None
) -> list[DeviceSpec]:
    """Specs for a list of devices (strings are parsed); a phone listed twice, under any alias, is an error.

    Raises:
        ValueError: An empty list, more than :data:`MAX_DEVICES`, a bad spec, or one phone twice
            (``localhost:6501`` and ``127.0.0.1:6501``: see :func:`phone_address`).
    """
    if isinstance(devices, str) or not devices:
        raise ValueError(f"devices must be a non-empty list of serials or 'virtual' specs, got {shorten(devices)}")
    if len(devices) > MAX_DEVICES:
        raise ValueError(f"devices: at most {MAX_DEVICES} devices, got {len(devices):,}")
    specs = [d if isinstance(d, DeviceSpec) else DeviceSpec.parse(d, adb_host, adb_port) for d in devices]
    seen: dict[str, str] = {}
    for spec in specs:
        if not spec.virtual:
            phone = spec.phone()
            if phone in seen:
                if seen[phone] == spec.serial:
                    what = f"device {spec.serial} is listed twice"
                else:
                    what = f"devices {seen[phone]} and {spec.serial} are one phone (both reach {phone})"
                raise ValueError(
                    f"{what}: two workers would drive the same phone and corrupt each other's episodes; "
                    "list each phone once (use 'virtual' for more virtual phones)"
                )
            seen[phone] = spec.serial
    return specs

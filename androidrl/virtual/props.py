"""System properties (``getprop``): the build and device facts a phone of one SDK level reports."""

from __future__ import annotations

#: ``ro.build.version.release`` of each SDK level; other levels report the level itself.
RELEASES = {34: "14", 33: "13", 32: "12", 31: "12", 30: "11", 29: "10", 28: "9"}


def system_properties(serial: str, model: str, sdk: int) -> dict[str, str]:
    """The properties of a freshly booted virtual phone.

    A plain dict, written by ``setprop`` and read by ``getprop``, the adb banner and the
    parts that behave by SDK level (``screencap``'s header).

    Args:
        serial: ``ro.serialno``.
        model: ``ro.product.model``.
        sdk: ``ro.build.version.sdk``.
    """
    release = RELEASES.get(sdk, str(sdk))
    return {
        "ro.serialno": serial,
        "ro.product.model": model,
        "ro.product.name": "androidrl_virtual",
        "ro.product.device": "virtual",
        "ro.product.manufacturer": "androidrl",
        "ro.product.brand": "androidrl",
        "ro.product.cpu.abi": "x86_64",
        "ro.build.version.sdk": str(sdk),
        "ro.build.version.release": release,
        "ro.build.display.id": f"androidrl-virtual-{release}",
        "ro.build.type": "userdebug",
        "ro.debuggable": "1",
        "ro.secure": "0",
        "ro.adb.secure": "0",
        "ro.kernel.qemu": "0",
        "sys.boot_completed": "1",
        "persist.sys.locale": "en-US",
    }

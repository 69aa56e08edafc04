"""System properties (``getprop``): the build and device facts a phone of one SDK level reports."""

from __future__ import annotations

#: ``ro.build.version.release`` of each SDK level; other levels report the level itself.
RELEASES = {34: "14", 33: "13", 32: "12", 31: "12", 30: "11", 29: "10", 28: "9"}
#: ``ro.build.id`` (and security patch) of the emulator system images of each level.
BUILDS = {
    34: ("UE1A.230829.036", "2023-09-05"),
    33: ("TE1A.220922.034", "2022-10-05"),
    32: ("SC2A.220601.004", "2022-06-05"),
    31: ("SE1A.220203.002", "2022-02-05"),
    30: ("RSR1.210722.013", "2021-08-05"),
    29: ("QSR1.210802.001", "2021-08-05"),
}


def system_properties(serial: str, model: str, sdk: int, density: int = 420) -> dict[str, str]:
    """The properties of a freshly booted virtual phone.

    A plain dict, written by ``setprop`` and read by ``getprop``, the adb banner and the
    parts that behave by SDK level (``screencap``'s header).

    Args:
        serial: ``ro.serialno``.
        model: ``ro.product.model``.
        sdk: ``ro.build.version.sdk``.
        density: ``ro.sf.lcd_density``, the screen's physical density.
    """
    release = RELEASES.get(sdk, str(sdk))
    build_id, patch = BUILDS.get(sdk, (f"ANDROIDRL.{sdk}", "2023-09-05"))
    incremental = "10754064"
    fingerprint = f"androidrl/androidrl_virtual/virtual:{release}/{build_id}/{incremental}:userdebug/test-keys"
    return {
        "ro.serialno": serial,
        "ro.product.model": model,
        "ro.product.name": "androidrl_virtual",
        "ro.product.device": "virtual",
        "ro.product.manufacturer": "androidrl",
        "ro.product.brand": "androidrl",
        "ro.product.cpu.abi": "x86_64",
        "ro.product.cpu.abilist": "x86_64,arm64-v8a",
        "ro.product.cpu.abilist64": "x86_64,arm64-v8a",
        "ro.product.cpu.abilist32": "",
        "ro.product.locale": "en-US",
        "ro.product.first_api_level": str(sdk),
        "ro.build.version.sdk": str(sdk),
        "ro.build.version.release": release,
        "ro.build.version.release_or_codename": release,
        "ro.build.version.codename": "REL",
        "ro.build.version.preview_sdk": "0",
        "ro.build.version.incremental": incremental,
        "ro.build.version.security_patch": patch,
        "ro.build.version.min_supported_target_sdk": "23" if sdk >= 34 else "17",
        "ro.build.id": build_id,
        "ro.build.display.id": f"androidrl_virtual-userdebug {release} {build_id} {incremental} test-keys",
        "ro.build.fingerprint": fingerprint,
        "ro.bootimage.build.fingerprint": fingerprint,
        "ro.vendor.build.fingerprint": fingerprint,
        "ro.build.tags": "test-keys",
        "ro.build.flavor": "androidrl_virtual-userdebug",
        "ro.build.product": "virtual",
        "ro.build.characteristics": "default",
        "ro.build.date.utc": "1693958400",
        "ro.build.user": "android-build",
        "ro.build.host": "androidrl",
        "ro.build.type": "userdebug",
        "ro.debuggable": "1",
        "ro.secure": "0",
        "ro.adb.secure": "0",
        "ro.kernel.qemu": "0",
        "ro.boot.serialno": serial,
        "ro.boot.hardware": "virtual",
        "ro.hardware": "virtual",
        "ro.board.platform": "virtual",
        "ro.zygote": "zygote64",
        "ro.sf.lcd_density": str(density),
        "ro.opengles.version": "196610",
        "ro.vendor.api_level": str(sdk),
        "sys.boot_completed": "1",
        "dev.bootcomplete": "1",
        "init.svc.bootanim": "stopped",
        "service.bootanim.exit": "1",
        "init.svc.adbd": "running",
        "persist.sys.locale": "en-US",
        "persist.sys.timezone": "UTC",
        "persist.sys.usb.config": "adb",
        "wifi.interface": "wlan0",
        "gsm.operator.alpha": "Android",
        "gsm.sim.state": "LOADED",
        "net.bt.name": "Android",
    }

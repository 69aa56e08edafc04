"""Shared fixtures: small virtual phones and the devices and envs over them."""

from __future__ import annotations

import re

import pytest

from androidrl.device.adb import AdbDevice
from androidrl.device.adb_server import IsolatedAdbServer
from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.virtual.adbd import AdbdThread
from androidrl.virtual.phone import VirtualPhone

# Small screens keep tests fast; 160 dpi makes 1 dp = 1 px.
WIDTH, HEIGHT, DENSITY = 360, 800, 160


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=0, boot_seconds=0.2)


@pytest.fixture(scope="session")
def adb_server():
    """A private adb server (own port and HOME, no emulator scan), killed after the session."""
    with IsolatedAdbServer() as server:
        yield server


@pytest.fixture(scope="session")
def adbd():
    """A background thread serving virtual phones as adbd over TCP."""
    with AdbdThread() as thread:
        yield thread


@pytest.fixture
def served(phone: VirtualPhone, adbd: AdbdThread, adb_server: IsolatedAdbServer):
    """``phone`` behind its own virtual adbd, connected to the private adb server; yields the server."""
    server = adbd.serve(phone)
    adb_server.adb("connect", server.serial)
    adb_server.adb("-s", server.serial, "wait-for-device", timeout=10)
    yield server
    adbd.stop_server(server)
    adb_server.adb("disconnect", server.serial, check=False)


@pytest.fixture(params=["inprocess", "adb"])
def device(request, phone: VirtualPhone):
    """The same phone as an in-process VirtualDevice, and behind the real adb as an AdbDevice."""
    if request.param == "inprocess":
        return VirtualDevice(phone, timeout=5.0)
    server = request.getfixturevalue("served")
    port = request.getfixturevalue("adb_server").port
    return AdbDevice(server.serial, port=port, timeout=5.0)


@pytest.fixture
def env(device: VirtualDevice, tmp_path):
    env = AndroidEnv(device, save_dir=tmp_path / "obs", reset_timeout=5.0)
    yield env
    env.close()


def node_bounds(xml: str, **attrs: str) -> tuple[int, int, int, int]:
    """Bounds of the first node whose attributes contain all of ``attrs`` (use resource_id for resource-id)."""
    for node in re.findall(r"<node [^>]*>", xml):
        if all(f'{k.replace("_", "-")}="{v}"' in node for k, v in attrs.items()):
            left, top, right, bottom = map(int, re.search(r'bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', node).groups())
            return left, top, right, bottom
    raise AssertionError(f"no node with {attrs}")


def center(bounds: tuple[int, int, int, int]) -> tuple[int, int]:
    return (bounds[0] + bounds[2]) // 2, (bounds[1] + bounds[3]) // 2


def tap_node(device, **attrs: str) -> None:
    """Tap the centre of the node matching ``attrs`` in the current UI dump."""
    device.tap(*center(node_bounds(device.dump_ui(), **attrs)))

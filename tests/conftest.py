"""Shared fixtures: small virtual phones and the devices and envs over them."""

from __future__ import annotations

import pytest

from androidrl.device.adb import AdbDevice
from androidrl.device.adb_server import IsolatedAdbServer
from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.ui import ui_elements
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
    """Bounds of the first UI element whose fields equal ``attrs`` (text, resource_id, content_desc...)."""
    element = next((e for e in ui_elements(xml) if all(getattr(e, k) == v for k, v in attrs.items())), None)
    assert element is not None, f"no node with {attrs}"
    return element.bounds


def serve_as_emulator(adbd: AdbdThread, phone: VirtualPhone, adb_server: IsolatedAdbServer):
    """Serve ``phone`` on the first free emulator adb port (5555, 5557...), announced to ``adb_server``."""
    for port in range(5555, 5586, 2):
        try:
            return adbd.serve(phone, port=port, announce_port=adb_server.port)
        except OSError:
            continue
    pytest.skip("no free emulator port in 5555-5585")


def center(bounds: tuple[int, int, int, int]) -> tuple[int, int]:
    return (bounds[0] + bounds[2]) // 2, (bounds[1] + bounds[3]) // 2


def tap_node(device, **attrs: str) -> None:
    """Tap the centre of the node matching ``attrs`` in the current UI dump."""
    device.tap(*center(node_bounds(device.dump_ui(), **attrs)))

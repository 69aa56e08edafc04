"""Shared fixtures: small virtual phones and the devices and envs over them."""

from __future__ import annotations

import io
import struct
import zipfile

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


def tiny_config(**changes: object) -> dict:
    """A tap-target training config small enough for tests; a dict given for a section updates it, anything else
    replaces it."""
    config: dict = {
        "experiment": "test",
        "devices": {"virtual": {"count": 2, "width": WIDTH, "height": HEIGHT, "density": DENSITY}},
        "task": "tap-target",
        "observation": {"shape": [84, 40]},
        "action": {"type": "grid", "rows": 3, "cols": 3, "region": [0, 0.09, 1, 0.94]},
        "algo": {"name": "PPO", "hyperparams": {"n_steps": 64, "batch_size": 64, "n_epochs": 1}},
        "training": {"total_timesteps": 128, "eval_freq": 0, "checkpoint_freq": 0, "progress_bar": False},
    }
    for key, value in changes.items():
        merge = isinstance(value, dict) and isinstance(config.get(key), dict)
        config[key] = {**config[key], **value} if merge else value
    return config


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


def make_apk(package: str, payload: bytes = b"dex\n035\0") -> bytes:
    """A minimal APK: a zip whose AndroidManifest.xml is binary XML with <manifest package=...>."""
    strings = ["package", package, "manifest"]
    encoded = b"".join(struct.pack("<H", len(t)) + t.encode("utf-16-le") + b"\0\0" for t in strings)
    offsets, at = [], 0
    for text in strings:
        offsets.append(at)
        at += 2 + 2 * len(text) + 2
    pool_header = 28 + 4 * len(strings)
    pool = struct.pack("<HHIIIIII", 0x0001, 28, pool_header + len(encoded), len(strings), 0, 0, pool_header, 0)
    pool += struct.pack(f"<{len(strings)}I", *offsets) + encoded
    attribute = struct.pack("<iiiHBBi", -1, 0, 1, 8, 0, 3, 1)
    element = struct.pack("<HHIIi", 0x0102, 16, 16 + 20 + len(attribute), 1, -1)
    element += struct.pack("<iiHHHHHH", -1, 2, 20, 20, 1, 0, 0, 0) + attribute
    body = pool + element
    manifest = struct.pack("<HHI", 0x0003, 8, 8 + len(body)) + body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("AndroidManifest.xml", manifest)
        archive.writestr("classes.dex", payload)
    return out.getvalue()

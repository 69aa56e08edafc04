"""Shared fixtures: small virtual phones and the devices and envs over them."""

from __future__ import annotations

import re

import pytest

from androidrl.device.virtual import VirtualDevice
from androidrl.env import AndroidEnv
from androidrl.virtual.phone import VirtualPhone

# Small screens keep tests fast; 160 dpi makes 1 dp = 1 px.
WIDTH, HEIGHT, DENSITY = 360, 800, 160


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(WIDTH, HEIGHT, DENSITY, seed=0, boot_seconds=0.2)


@pytest.fixture
def device(phone: VirtualPhone) -> VirtualDevice:
    return VirtualDevice(phone, timeout=5.0)


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

"""Devices: the only layer that talks to a phone."""

from androidrl.device.base import CommandResult, Device, input_text_commands, keycode
from androidrl.device.spec import DeviceSpec, parse_devices
from androidrl.device.virtual import VirtualDevice

__all__ = ["CommandResult", "Device", "DeviceSpec", "VirtualDevice", "input_text_commands", "keycode", "parse_devices"]

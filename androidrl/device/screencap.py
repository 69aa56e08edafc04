"""Decode the raw output of Android's ``screencap`` into an RGB array.

Raw ``screencap`` writes little-endian u32 width, height and pixel format — and, from
Android 9 on, a u32 color space — followed by the pixels. The header size is told apart
by the total length, as the two layouts differ by four bytes.
"""

from __future__ import annotations

import struct

import numpy as np

from androidrl.errors import DeviceError

# HAL pixel format -> bytes per pixel: RGBA_8888, RGBX_8888, RGB_888, RGB_565, BGRA_8888
_FORMATS = {1: 4, 2: 4, 3: 3, 4: 2, 5: 4}
_RGB_565 = 4
_BGRA = 5


def _header(raw: bytes | bytearray | memoryview) -> tuple[int, int, int, int]:
    """Width, height, pixel format and bytes per pixel of the raw screencap at the start of ``raw``."""
    if len(raw) < 12:
        raise DeviceError(f"screencap returned {len(raw)} bytes: {bytes(raw[:200])!r}")
    width, height, fmt = struct.unpack_from("<III", raw)
    bpp = _FORMATS.get(fmt, 0)
    if not bpp or width == 0 or height == 0:
        raise DeviceError(f"screencap: unsupported header {width}x{height} format {fmt}: {bytes(raw[:64])!r}")
    return width, height, fmt, bpp


def screencap_length(raw: bytes | bytearray | memoryview, then: bytes) -> int:
    """How many bytes the raw screencap at the start of ``raw`` takes, where ``raw`` ends or ``then`` starts.

    For a screencap followed by other output in one answer (a UI dump, starting ``<?xml``):
    its header is the one size (12 or 16 bytes) after which ``raw`` ends or goes on with ``then``.

    Raises:
        DeviceError: ``raw`` does not start with a raw screencap followed so.
    """
    width, height, fmt, bpp = _header(raw)
    body = width * height * bpp
    for header in (16, 12):
        end = header + body
        if len(raw) == end or (then and bytes(raw[end : end + len(then)]) == then):
            return end
    raise DeviceError(f"screencap: {len(raw)} bytes are not a {width}x{height} format-{fmt} image and then {then!r}")


def decode_screencap(raw: bytes | bytearray | memoryview) -> np.ndarray:
    """The ``(height, width, 3)`` uint8 RGB image in raw ``screencap`` output.

    A read-only view of ``raw`` (no copy), except for RGB_565 frames, which are expanded.

    Raises:
        DeviceError: The data is not a raw screencap (e.g. an error message) or uses an
            unknown pixel format.
    """
    width, height, fmt, bpp = _header(raw)
    body = width * height * bpp
    if len(raw) == 16 + body:
        offset = 16
    elif len(raw) == 12 + body:
        offset = 12
    else:
        raise DeviceError(f"screencap: {len(raw)} bytes do not match a {width}x{height} format-{fmt} image")
    if fmt == _RGB_565:
        value = np.frombuffer(raw, dtype="<u2", count=width * height, offset=offset).reshape(height, width)
        rgb = np.empty((height, width, 3), dtype=np.uint8)
        rgb[..., 0] = ((value >> 11) & 0x1F) * 255 // 31
        rgb[..., 1] = ((value >> 5) & 0x3F) * 255 // 63
        rgb[..., 2] = (value & 0x1F) * 255 // 31
        return rgb
    # A view that skips the alpha (or padding) byte: no copy. Consumers that need packed
    # pixels copy what they use (a downscale reads a few rows at a time).
    pixels = np.frombuffer(raw, dtype=np.uint8, count=body, offset=offset).reshape(height, width, bpp)
    rgb = pixels[..., 2::-1] if fmt == _BGRA else pixels[..., :3]
    rgb.flags.writeable = False
    return rgb

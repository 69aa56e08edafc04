"""Observation wrappers: the screen as a fixed-size uint8 image, optionally with a UI mask.

:class:`ScreenshotObservation` turns AndroidEnv's ``{"screenshot": path, "xml": path}`` into
an ``(height, width, channels)`` uint8 array whatever the device's resolution. It reads
the env's in-memory frame (no PNG decode) and, by default, stops the env from writing
observation files at all, so the training path never encodes or decodes a PNG.

Resizing keeps the aspect ratio by one of two documented rules:

* ``fit="letterbox"`` (default): scale the screen to fit inside the output, centred, with
  black bars on the short side. Nothing is cropped; every output pixel maps to one
  screen region, so pixel positions can be turned back into taps.
* ``fit="crop"``: scale to cover the output and cut the overflow equally on both sides.

Downscaling uses PIL's box filter (area averaging: correct for any factor, no aliasing),
in horizontal bands of output rows. An unchanged frame reuses the last result; a frame
the device says changed only in some region (the virtual phone knows exactly what it
redrew) recomputes only the bands that region touches — and since a band is always
computed the same way, the result equals a from-scratch downscale bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Annotated, Literal

import gymnasium as gym
import numpy as np
from PIL import Image
from pydantic import AfterValidator

from androidrl.env import AndroidEnv
from androidrl.tasks.base import Needs

_FITS = ("letterbox", "crop")
# Output rows are downscaled in bands of about this many source pixels (8 to 32 rows): bands
# small enough that a changed button costs little, large enough that PIL's per-call
# overhead does not dominate on small screens.
BAND_PIXELS = 24_000
# Big reductions first shrink by a whole factor (exact box averaging), then box-filter the
# rest: about twice as fast as one box filter, and each band is still always computed alike.
REDUCING_GAP = 2.0
#: The largest observation side: images for a policy, not for people (84 is usual).
MAX_SIDE = 1024


@dataclass(frozen=True)
class Geometry:
    """Where the screen lands in the output: a scale and an offset (for letterbox and crop)."""

    screen: tuple[int, int]  # (width, height) of the device screen
    output: tuple[int, int]  # (width, height) of the observation
    scale: float
    offset: tuple[int, int]  # output pixel of the screen's top-left corner (negative when cropped)

    @classmethod
    def fit(cls, screen: tuple[int, int], output: tuple[int, int], rule: str) -> Geometry:
        """The geometry of ``rule`` ("letterbox" or "crop") for these sizes."""
        sw, sh = screen
        ow, oh = output
        scale = min(ow / sw, oh / sh) if rule == "letterbox" else max(ow / sw, oh / sh)
        width, height = max(1, round(sw * scale)), max(1, round(sh * scale))
        return cls(screen, output, scale, ((ow - width) // 2, (oh - height) // 2))

    @property
    def scaled_size(self) -> tuple[int, int]:
        """(width, height) of the whole screen once scaled."""
        return max(1, round(self.screen[0] * self.scale)), max(1, round(self.screen[1] * self.scale))

    def to_output(self, x: float, y: float) -> tuple[float, float]:
        """A screen pixel's position in the observation."""
        return x * self.scale + self.offset[0], y * self.scale + self.offset[1]


def band_rows(width: int, height: int, out_height: int) -> int:
    """Output rows per downscaling band for a ``width`` x ``height`` screen scaled to ``out_height`` rows.

    A function of the geometry alone, so a band redone after a change is bit-identical to
    the same band of a from-scratch downscale.
    """
    return min(32, max(8, round(BAND_PIXELS * out_height / (width * height))))


def _bands_over(regions: Iterable[tuple[int, int, int, int]], scale: float, rows: int) -> list[int]:
    """The first output rows of the bands (``rows`` high) under the rows of ``regions``, scaled by ``scale``."""
    tops = set()
    for _, top, _, bottom in regions:
        tops.update(range(int(top * scale) // rows * rows, math.ceil(bottom * scale), rows))
    return sorted(tops)


def check_shape(shape: tuple[int, int]) -> tuple[int, int]:
    """An observation ``(height, width)`` of positive ints, as a tuple.

    Raises:
        TypeError: Not a pair.
        ValueError: Not two positive ints.
    """
    if isinstance(shape, str) or not hasattr(shape, "__len__"):
        raise TypeError(f"ScreenshotObservation requires shape (height, width), got {shape!r}")
    if len(shape) != 2 or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1 for v in shape):
        raise ValueError(f"ScreenshotObservation requires shape (height, width) of positive ints, got {shape!r}")
    if max(shape) > MAX_SIDE:
        raise ValueError(f"ScreenshotObservation shape {tuple(shape)} is too large: at most {MAX_SIDE} pixels a side")
    return int(shape[0]), int(shape[1])


#: ``(height, width)`` of an observation image (the type the config validates, too).
Shape = Annotated[tuple[int, int], AfterValidator(check_shape)]


def _rows_image(frame: np.ndarray, first: int, last: int) -> Image.Image:
    """Rows ``first:last`` of an RGB frame as a PIL image, without copying when the frame allows it.

    Frames of the virtual phone and of ``AdbDevice`` are RGB views of four-byte pixels
    (RGBX / RGBA memory), which PIL reads in place; other frames are copied.
    """
    height, width = frame.shape[:2]
    if frame.base is not None and frame.strides[1:] == (4, 1) and frame.strides[0] >= 4 * width:
        pixels = np.lib.stride_tricks.as_strided(frame, (height, width, 4), (frame.strides[0], 4, 1), writeable=False)
        rows = pixels[first:last]
        if rows.flags.c_contiguous:
            return Image.frombuffer("RGBX", (width, last - first), rows, "raw", "RGBX", 0, 1)
    return Image.fromarray(np.ascontiguousarray(frame[first:last]))


class ScreenshotObservation(gym.ObservationWrapper):
    """The screen as a fixed-size uint8 image (``Box(0, 255, shape, uint8)``, ready for ``CnnPolicy``).

    Args:
        env: An :class:`~androidrl.env.AndroidEnv`, possibly wrapped.
        shape: ``(height, width)`` of the output image.
        grayscale: One luminance channel instead of RGB.
        channels_first: ``(C, H, W)`` instead of the default ``(H, W, C)``.
        fit: ``"letterbox"`` (keep the whole screen, pad) or ``"crop"`` (fill, cut the overflow).
        clickable_mask: Return a Dict ``{"screen": image, "clickable": mask}`` where the mask
            (same height and width, one channel) is 255 over clickable UI nodes — for
            ``MultiInputPolicy``. Needs a UI dump each step (asked of the env).
        write_files: Keep writing the env's observation PNG/XML files (off by default:
            nothing on the training path needs them). With them off, the env dumps the UI
            only when the task's conditions or a wrapper need it (its ``dump_xml="auto"``).

    Example:
        >>> env = ScreenshotObservation(AndroidEnv(VirtualDevice()), shape=(84, 84), grayscale=True)
        >>> env.observation_space
        Box(0, 255, (84, 84, 1), uint8)
    """

    def __init__(
        self,
        env: gym.Env,
        shape: Shape = (84, 84),
        grayscale: bool = False,
        channels_first: bool = False,
        fit: Literal["letterbox", "crop"] = "letterbox",
        clickable_mask: bool = False,
        write_files: bool = False,
    ) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, AndroidEnv):
            raise TypeError(f"ScreenshotObservation wraps an AndroidEnv, got {type(env.unwrapped).__name__}")
        height, width = check_shape(shape)
        if fit not in _FITS:
            raise ValueError(f"fit must be one of {_FITS}, got {fit!r}")
        self.shape = (height, width)
        self.grayscale = grayscale
        self.channels_first = channels_first
        self.fit = fit
        self.clickable_mask = clickable_mask
        env.unwrapped.set_write_files(write_files)
        if clickable_mask:
            env.unwrapped.require(Needs.UI)
        channels = 1 if grayscale else 3
        image_shape = (channels, height, width) if channels_first else (height, width, channels)
        image = gym.spaces.Box(0, 255, image_shape, np.uint8)
        if clickable_mask:
            mask_shape = (1, height, width) if channels_first else (height, width, 1)
            self.observation_space = gym.spaces.Dict(
                {"screen": image, "clickable": gym.spaces.Box(0, 255, mask_shape, np.uint8)}
            )
        else:
            self.observation_space = image
        self._cache: tuple[np.ndarray, np.ndarray] | None = None  # (frame, the screen downscaled)

    def geometry(self) -> Geometry:
        """How the current screen maps into the observation."""
        android = self.env.unwrapped
        return Geometry.fit(android.screen_size, (self.shape[1], self.shape[0]), self.fit)

    def observation(self, observation: dict[str, str]) -> np.ndarray | dict[str, np.ndarray]:
        """The image (and mask) for the observation the env just returned."""
        image = self._image(self._frame(observation))
        if not self.clickable_mask:
            return image
        return {"screen": image, "clickable": self._mask()}

    def _frame(self, observation: dict[str, str]) -> np.ndarray:
        android = self.env.unwrapped
        path = observation.get("screenshot", "")
        if path and path != android.last_screenshot_path:  # an observation from elsewhere: read it
            return np.asarray(Image.open(path).convert("RGB"))
        return android.frame

    def _image(self, frame: np.ndarray) -> np.ndarray:
        """The output image for ``frame`` (a fresh array each call: callers may keep it)."""
        height, width = frame.shape[:2]
        geometry = Geometry.fit((width, height), (self.shape[1], self.shape[0]), self.fit)
        cache, self._cache = self._cache, None  # (kept only once ``scaled`` is whole again)
        if cache is not None and cache[0] is frame:
            scaled = cache[1]
        else:
            out_height = geometry.scaled_size[1]
            rows = band_rows(width, height, out_height)
            bands: Iterable[int] = range(0, out_height, rows)
            if cache is not None and cache[0].shape == frame.shape:
                scaled = cache[1]
                regions = self.env.unwrapped.changed_regions(cache[0], frame)
                if regions is not None:  # redo only the bands over the changed rows
                    bands = _bands_over(regions, out_height / height, rows)
            else:
                channels = 1 if self.grayscale else 3
                scaled = np.empty((out_height, geometry.scaled_size[0], channels), dtype=np.uint8)
            whole = _rows_image(frame, 0, height) if bands else None  # (once a frame, not once a band)
            for top in bands:
                self._band(whole, scaled, top, rows)
        self._cache = (frame, scaled)
        return self._compose(scaled, geometry)

    def _band(self, whole: Image.Image, scaled: np.ndarray, top: int, rows: int) -> None:
        """Downscale output rows ``top``..``top + rows`` of ``scaled`` from the rows of frame ``whole`` under them."""
        width, height = whole.size
        out_height, out_width = scaled.shape[:2]
        bottom = min(out_height, top + rows)
        y0, y1 = top * height / out_height, bottom * height / out_height
        if self.grayscale:  # (to grey first, as a from-scratch downscale does: only the band's rows)
            first, last = int(y0), min(height, math.ceil(y1))
            source, box = whole.crop((0, first, width, last)).convert("L"), (0, y0 - first, width, y1 - first)
        else:  # (the band's box of the whole frame: the same pixels as a crop's, without the copy)
            source, box = whole, (0, y0, width, y1)
        band = source.resize((out_width, bottom - top), Image.BOX, box=box, reducing_gap=REDUCING_GAP)
        pixels = np.asarray(band)
        scaled[top:bottom] = pixels.reshape(bottom - top, out_width, -1)[..., : scaled.shape[2]]

    def _compose(self, scaled: np.ndarray, geometry: Geometry) -> np.ndarray:
        """The scaled screen placed on the output canvas (letterbox bars, or cropped)."""
        out_h, out_w = self.shape
        canvas = np.zeros((out_h, out_w, scaled.shape[2]), dtype=np.uint8)
        ox, oy = geometry.offset
        sh, sw = scaled.shape[:2]
        src_x, src_y = max(0, -ox), max(0, -oy)
        dst_x, dst_y = max(0, ox), max(0, oy)
        w, h = min(sw - src_x, out_w - dst_x), min(sh - src_y, out_h - dst_y)
        canvas[dst_y : dst_y + h, dst_x : dst_x + w] = scaled[src_y : src_y + h, src_x : src_x + w]
        return np.ascontiguousarray(np.moveaxis(canvas, -1, 0)) if self.channels_first else canvas

    def _mask(self) -> np.ndarray:
        geometry = self.geometry()
        mask = np.zeros(self.shape, dtype=np.uint8)
        for element in self.env.unwrapped.current_elements():
            if not element.clickable:
                continue
            left, top, right, bottom = element.bounds
            x1, y1 = geometry.to_output(left, top)
            x2, y2 = geometry.to_output(right, bottom)
            rows = slice(max(0, int(y1)), max(0, int(np.ceil(y2))))
            cols = slice(max(0, int(x1)), max(0, int(np.ceil(x2))))
            mask[rows, cols] = 255
        return mask[None] if self.channels_first else mask[..., None]

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
and the result for an unchanged frame is reused.
"""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import numpy as np
from PIL import Image

from androidrl.env import AndroidEnv
from androidrl.tasks.conditions import ui_elements

_FITS = ("letterbox", "crop")


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
            ``MultiInputPolicy``. Needs a UI dump each step.
        write_files: Keep writing the env's observation PNG/XML files (off by default:
            nothing on the training path needs them).

    Example:
        >>> env = ScreenshotObservation(AndroidEnv(VirtualDevice()), shape=(84, 84), grayscale=True)
        >>> env.observation_space
        Box(0, 255, (84, 84, 1), uint8)
    """

    def __init__(
        self,
        env: gym.Env,
        shape: tuple[int, int] = (84, 84),
        grayscale: bool = False,
        channels_first: bool = False,
        fit: str = "letterbox",
        clickable_mask: bool = False,
        write_files: bool = False,
    ) -> None:
        super().__init__(env)
        if not isinstance(env.unwrapped, AndroidEnv):
            raise TypeError(f"ScreenshotObservation wraps an AndroidEnv, got {type(env.unwrapped).__name__}")
        if isinstance(shape, str) or not hasattr(shape, "__len__"):
            raise TypeError(f"ScreenshotObservation requires shape (height, width), got {shape!r}")
        if len(shape) != 2:
            raise ValueError(f"ScreenshotObservation requires shape (height, width), got {tuple(shape)}")
        height, width = (int(v) for v in shape)
        if height < 1 or width < 1:
            raise ValueError(f"ScreenshotObservation requires a positive shape (height, width), got {tuple(shape)}")
        if fit not in _FITS:
            raise ValueError(f"fit must be one of {_FITS}, got {fit!r}")
        self.shape = (height, width)
        self.grayscale = grayscale
        self.channels_first = channels_first
        self.fit = fit
        self.clickable_mask = clickable_mask
        env.unwrapped.write_files = write_files
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
        self._cache: tuple[np.ndarray, np.ndarray] | None = None  # (source frame, its image)

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
        if self._cache is not None and self._cache[0] is frame:
            return self._cache[1].copy()  # a fresh array each step (callers may keep it)
        geometry = Geometry.fit((frame.shape[1], frame.shape[0]), (self.shape[1], self.shape[0]), self.fit)
        source = Image.fromarray(np.ascontiguousarray(frame))
        if self.grayscale:
            source = source.convert("L")
        scaled = source.resize(geometry.scaled_size, Image.BOX, reducing_gap=2.0)
        canvas = Image.new(source.mode, (self.shape[1], self.shape[0]))
        canvas.paste(scaled, geometry.offset)
        image = np.asarray(canvas, dtype=np.uint8)
        image = image[..., None] if self.grayscale else image
        if self.channels_first:
            image = np.ascontiguousarray(np.moveaxis(image, -1, 0))
        self._cache = (frame, image)
        return image.copy()

    def _mask(self) -> np.ndarray:
        geometry = self.geometry()
        mask = np.zeros(self.shape, dtype=np.uint8)
        for element in ui_elements(self.env.unwrapped.current_xml()):
            if not element.clickable:
                continue
            left, top, right, bottom = element.bounds
            x1, y1 = geometry.to_output(left, top)
            x2, y2 = geometry.to_output(right, bottom)
            rows = slice(max(0, int(y1)), max(0, int(np.ceil(y2))))
            cols = slice(max(0, int(x1)), max(0, int(np.ceil(x2))))
            mask[rows, cols] = 255
        return mask[None] if self.channels_first else mask[..., None]

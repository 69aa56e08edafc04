"""Bitmaps on screen: an image file's bytes decoded, scaled to a view's box and drawn as one ``image`` op.

Decoding and scaling cost far more than a frame may, so each (file bytes, size, scale type) is
done once and kept, least recently used first out past :data:`CACHE_BYTES` (the bytes object a
file system hands out again is the same, and its hash is kept with it): an unchanged photo grid
costs a comparison, as every other screen does.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict

from PIL import Image, UnidentifiedImageError

from androidrl.virtual.ui.views import Color, View

#: What a file that is not an image shows (Gallery's "no thumbnail" grey).
BROKEN: Color = (189, 193, 198)
#: How many bytes of scaled pictures the process keeps (every phone in it together).
CACHE_BYTES = 32 << 20

_cache: OrderedDict[tuple, tuple[bytes, int, int] | None] = OrderedDict()
_cache_bytes = 0
_cache_lock = threading.Lock()


def scaled(data: bytes, width: int, height: int, crop: bool) -> tuple[bytes, int, int] | None:
    """``data`` (JPEG, PNG...) decoded and scaled into ``width`` x ``height`` pixels: RGB bytes and their size.

    Args:
        data: The image file's bytes.
        width: The box's width in pixels.
        height: The box's height in pixels.
        crop: Fill the box, cutting what overflows (``scaleType=centerCrop``); else fit inside it
            (``fitCenter``), so one side may be shorter than the box's.

    Returns:
        ``(pixels, width, height)``, or None when ``data`` is no image or the box is empty.
    """
    global _cache_bytes
    key = (data, width, height, crop)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    picture = _scale(data, width, height, crop)
    with _cache_lock:
        _cache[key] = picture
        _cache_bytes += len(data) + (len(picture[0]) if picture else 0)
        while _cache_bytes > CACHE_BYTES and len(_cache) > 1:
            (old, *_), gone = _cache.popitem(last=False)
            _cache_bytes -= len(old) + (len(gone[0]) if gone else 0)
    return picture


def _scale(data: bytes, width: int, height: int, crop: bool) -> tuple[bytes, int, int] | None:
    if width <= 0 or height <= 0:
        return None
    try:
        with Image.open(io.BytesIO(data)) as image:
            picture = image.convert("RGB")
    except (UnidentifiedImageError, OSError, ValueError):
        return None
    w, h = picture.size
    ratio = max(width / w, height / h) if crop else min(width / w, height / h)
    size = (max(1, round(w * ratio)), max(1, round(h * ratio)))
    picture = picture.resize(size, Image.Resampling.BILINEAR)
    if crop:
        left, top = (size[0] - width) // 2, (size[1] - height) // 2
        picture = picture.crop((left, top, left + width, top + height))
    return picture.tobytes(), picture.width, picture.height


def image_size(data: bytes) -> tuple[int, int] | None:
    """The width and height an image file says it has, or None when it is no image."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except (UnidentifiedImageError, OSError, ValueError):
        return None


class BitmapView(View):
    """``android.widget.ImageView`` showing an image file (``setImageBitmap``), centred in its box.

    Args:
        data: The image file's bytes (undecodable bytes show a grey box).
        crop: ``centerCrop`` (fill the box) instead of ``fitCenter``.
    """

    def __init__(self, data: bytes, crop: bool = True, **kwargs) -> None:
        kwargs.setdefault("cls", "android.widget.ImageView")
        super().__init__(**kwargs)
        self.data = data
        self.crop = crop

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        picture = scaled(self.data, right - left, bottom - top, self.crop)
        if picture is None:
            return [("rect", self.bounds, BROKEN, 0)]
        pixels, width, height = picture
        x, y = left + (right - left - width) // 2, top + (bottom - top - height) // 2
        return [("image", (x, y, x + width, y + height), pixels, (width, height))]

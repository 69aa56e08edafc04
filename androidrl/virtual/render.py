"""Draw a laid-out view tree into an RGB frame.

Drawing happens in two steps: :func:`display_list` turns the tree into a tuple of plain
drawing operations (cheap, pure Python), and :class:`Renderer` rasterises it with PIL only
when the list differs from the last one. Most agent actions do not change the screen, so
most screenshots cost a comparison instead of a redraw.
"""

from __future__ import annotations

import functools

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from androidrl.virtual.views import (
    DIVIDER,
    HINT,
    PRIMARY,
    WHITE,
    AppIcon,
    Box,
    Color,
    EditText,
    ImageView,
    ScrollingList,
    Switch,
    View,
)

Op = tuple  # ("rect", box, color, radius) | ("text", ...) | ("disc", ...) | ("layer", box, ops)


@functools.cache
def font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size_px`` (the same on every machine)."""
    return ImageFont.load_default(size=max(4, size_px))


def display_list(root: View, scale: float) -> tuple[Op, ...]:
    """The drawing operations for ``root`` and its shown descendants, back to front."""
    ops: list[Op] = []
    _emit(root, scale, ops)
    return tuple(ops)


def _emit(view: View, scale: float, ops: list[Op]) -> None:
    if not view.is_shown():
        return
    box = view.bounds
    if view.background is not None:
        ops.append(("rect", box, view.background, round(view.corner * scale)))
    if isinstance(view, Switch):
        _emit_switch(view, box, ops)
    elif isinstance(view, AppIcon):
        _emit_app_icon(view, box, scale, ops)
    elif isinstance(view, ImageView):
        _emit_icon(view, box, scale, ops)
    elif isinstance(view, EditText):
        line = max(1, round(2 * scale)) if view.focused else max(1, round(scale))
        color = PRIMARY if view.focused else DIVIDER
        ops.append(("rect", (box[0], box[3] - line, box[2], box[3]), color, 0))
        shown = ("•" * len(view.text)) if view.password else view.text
        if shown or view.focused:
            ops.append(_text_op(view, shown + ("|" if view.focused else ""), scale, view.text_color))
        elif view.hint:
            ops.append(_text_op(view, view.hint, scale, HINT))
    elif view.text:
        ops.append(_text_op(view, view.text, scale, view.text_color))
    if isinstance(view, ScrollingList):
        inner: list[Op] = []
        for child in view.children:
            _emit(child, scale, inner)
        ops.append(("layer", view.visible, tuple(inner)))
    else:
        for child in view.children:
            _emit(child, scale, ops)


def _text_op(view: View, text: str, scale: float, color: Color) -> Op:
    pad = round(view.padding * scale)
    box = (view.bounds[0] + pad, view.bounds[1], view.bounds[2] - pad, view.bounds[3])
    return ("text", box, text, round(view.text_size * scale), color, view.bold, view.gravity)


def _emit_switch(view: View, box: Box, ops: list[Op]) -> None:
    height = box[3] - box[1]
    track = (box[0], box[1] + height // 4, box[2], box[3] - height // 4)
    on = view.checked
    ops.append(("rect", track, (168, 199, 250) if on else (189, 193, 198), height // 4))
    size = height * 3 // 4
    left = box[2] - size if on else box[0]
    top = box[1] + (height - size) // 2
    ops.append(("disc", (left, top, left + size, top + size), PRIMARY if on else (116, 119, 117)))


def _emit_app_icon(view: AppIcon, box: Box, scale: float, ops: list[Op]) -> None:
    size = round(52 * scale)
    left = (box[0] + box[2] - size) // 2
    top = box[1] + round(8 * scale)
    ops.append(("disc", (left, top, left + size, top + size), view.color))
    ops.append(("text", (left, top, left + size, top + size), view.glyph, size // 2, WHITE, True, "center"))
    label_top = top + size + round(4 * scale)
    label_box = (box[0] + 2, label_top, box[2] - 2, label_top + round(view.text_size * scale * 1.5))
    ops.append(("text", label_box, view.text, round(view.text_size * scale), view.text_color, False, "center"))


def _emit_icon(view: ImageView, box: Box, scale: float, ops: list[Op]) -> None:
    size = min(box[2] - box[0], box[3] - box[1])
    left = box[0] + (box[2] - box[0] - size) // 2
    top = box[1] + (box[3] - box[1] - size) // 2
    disc = (left, top, left + size, top + size)
    ops.append(("disc", disc, view.color))
    if view.glyph:
        ops.append(("text", disc, view.glyph, max(4, size // 2), view.glyph_color, True, "center"))


class Renderer:
    """Rasterises display lists at a fixed screen size, caching the last frame."""

    def __init__(self, width: int, height: int, background: Color = WHITE) -> None:
        self.width = width
        self.height = height
        self.background = background
        self._ops: tuple[Op, ...] | None = None
        self._frame: np.ndarray | None = None
        self.frames_drawn = 0

    def render(self, ops: tuple[Op, ...]) -> np.ndarray:
        """The frame for ``ops``: a read-only ``(height, width, 3)`` uint8 array."""
        if self._frame is None or ops != self._ops:
            image = Image.new("RGB", (self.width, self.height), self.background)
            _draw_ops(image, ops)
            frame = np.asarray(image)
            frame.flags.writeable = False
            self._ops, self._frame = ops, frame
            self.frames_drawn += 1
        return self._frame


def _draw_ops(image: Image.Image, ops: tuple[Op, ...]) -> None:
    draw = ImageDraw.Draw(image)
    for op in ops:
        kind = op[0]
        if kind == "rect":
            _, box, color, radius = op
            xy = (box[0], box[1], box[2] - 1, box[3] - 1)
            if radius > 0:
                draw.rounded_rectangle(xy, radius=radius, fill=color)
            else:
                draw.rectangle(xy, fill=color)
        elif kind == "disc":
            _, box, color = op
            draw.ellipse((box[0], box[1], box[2] - 1, box[3] - 1), fill=color)
        elif kind == "text":
            _draw_text(draw, *op[1:])
        elif kind == "layer":
            # Scrolling content is drawn on its own canvas and pasted, which clips it.
            _, box, inner = op
            if box[2] > box[0] and box[3] > box[1]:
                layer = image.crop(box)
                shifted = tuple(_shift(o, -box[0], -box[1]) for o in inner)
                _draw_ops(layer, shifted)
                image.paste(layer, box[:2])


def _shift(op: Op, dx: int, dy: int) -> Op:
    box = op[1]
    moved = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
    if op[0] == "layer":
        return ("layer", moved, tuple(_shift(o, dx, dy) for o in op[2]))
    return (op[0], moved, *op[2:])


def _draw_text(
    draw: ImageDraw.ImageDraw, box: Box, text: str, size: int, color: Color, bold: bool, gravity: str
) -> None:
    face = font(size)
    text = _ellipsize(text, face, box[2] - box[0])
    if not text:
        return
    cy = (box[1] + box[3]) / 2
    if gravity == "center":
        xy, anchor = ((box[0] + box[2]) / 2, cy), "mm"
    else:
        xy, anchor = (box[0], cy), "lm"
    draw.text(
        xy, text, fill=color, font=face, anchor=anchor, stroke_width=1 if bold and size >= 14 else 0, stroke_fill=color
    )


def _ellipsize(text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    if width <= 0:
        return ""
    if face.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with an ellipsis
        mid = (lo + hi + 1) // 2
        if face.getlength(text[:mid] + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…" if lo else ""

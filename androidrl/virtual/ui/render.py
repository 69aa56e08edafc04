"""Draw a laid-out view tree into an RGB frame (kept in RGBX memory).

Drawing happens in two steps: :func:`display_list` turns the tree into a tuple of plain
drawing operations (cheap, pure Python), and :class:`Renderer` rasterises it with PIL only
when the list differs from the last one. Most agent actions do not change the screen, so
most screenshots cost a comparison instead of a redraw.
"""

from __future__ import annotations

import functools
import sys
import weakref
from collections import Counter, deque
from math import ceil, floor

import numpy as np
from PIL import Image, ImageDraw

from androidrl.virtual.ui.glyphs import text_mask
from androidrl.virtual.ui.views import (
    DIVIDER,
    HINT,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
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

Op = tuple  # ("rect", box, color, radius) | ("text", ...) | ("disc", ...) | ("line", ...) | ("dim", box, alpha)
#            | ("layer", box, ops) | ("image", box, rgb bytes, (width, height))


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
    painted = view.paint(scale) if view.paints else None
    if painted is not None:  # a widget that draws itself (a CheckBox, a SeekBar, a picker's clock face)
        ops += painted
    elif isinstance(view, Switch):
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
        if view.glow:  # the edge effect of an overscroll: a flat glow pulled out from the edge
            left, top, right, bottom = view.visible
            depth = min(abs(view.glow), (bottom - top) // 4)
            edge = (
                (left, top - depth, right, top + depth)
                if view.glow < 0
                else (left, bottom - depth, right, bottom + depth)
            )
            inner.append(("disc", edge, GLOW))
        ops.append(("layer", view.visible, tuple(inner)))
    else:
        for child in view.children:
            _emit(child, scale, ops)


def _text_op(view: View, text: str, scale: float, color: Color) -> Op:
    pad = round(view.padding * scale)
    box = (view.bounds[0] + pad, view.bounds[1], view.bounds[2] - pad, view.bounds[3])
    return ("text", box, text, round(view.text_px(scale)), color, view.bold, view.gravity)


#: The edge glow's colour (Material's overscroll tint over a light surface).
GLOW = (210, 227, 252)

# The dark theme's palette (Material dark surfaces and text), keyed by the light colour it replaces.
NIGHT_PALETTE: dict[Color, Color] = {
    WHITE: (32, 33, 36),
    SURFACE: (41, 42, 45),
    TEXT: (232, 234, 237),
    TEXT_SECONDARY: (189, 193, 198),
    PRIMARY: (138, 180, 248),
    DIVIDER: (95, 99, 104),
    HINT: (128, 134, 139),
    GLOW: (60, 64, 67),
    (245, 245, 245): (48, 49, 52),
    (232, 240, 254): (40, 60, 95),
    (189, 193, 198): (95, 99, 104),
    (168, 199, 250): (60, 90, 140),
    (116, 119, 117): (189, 193, 198),
}


def night(ops: tuple[Op, ...]) -> tuple[Op, ...]:
    """``ops`` as the dark theme draws them: each palette colour mapped to its dark one (others stay)."""
    return tuple(_night_op(op) for op in ops)


def _night_op(op: Op) -> Op:
    kind = op[0]
    if kind == "layer":
        return ("layer", op[1], night(op[2]))
    if kind == "text":
        return (*op[:4], NIGHT_PALETTE.get(op[4], op[4]), *op[5:])
    if kind == "line":
        return (*op[:3], NIGHT_PALETTE.get(op[3], op[3]), op[4])
    if kind in ("dim", "image"):  # (a photo looks the same in the dark theme)
        return op
    return (kind, op[1], NIGHT_PALETTE.get(op[2], op[2]), *op[3:])


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
    label_box = (box[0] + 2, label_top, box[2] - 2, label_top + round(view.text_px(scale) * 1.5))
    ops.append(("text", label_box, view.text, round(view.text_px(scale)), view.text_color, False, "center"))


def _emit_icon(view: ImageView, box: Box, scale: float, ops: list[Op]) -> None:
    size = min(box[2] - box[0], box[3] - box[1])
    left = box[0] + (box[2] - box[0] - size) // 2
    top = box[1] + (box[3] - box[1] - size) // 2
    disc = (left, top, left + size, top + size)
    ops.append(("disc", disc, view.color))
    if view.glyph:
        ops.append(("text", disc, view.glyph, max(4, size // 2), view.glyph_color, True, "center"))


class Renderer:
    """Rasterises display lists at a fixed screen size, redrawing only what changed.

    When a new display list differs from the last one in a few operations, only the
    region those operations cover (old and new) is drawn again — every operation that
    touches the region, in order, on a background-filled patch — and pasted into a copy
    of the last frame. A screen where one line of text changed costs that line.

    Frames live in RGBX memory (four bytes a pixel, X = 255), which PIL draws into and
    reads from without converting, and which is also ``screencap``'s raw RGBA: a frame is
    the ``(height, width, 3)`` view of it, and :meth:`rgbx` gives the buffer itself.
    """

    #: Redraw everything once the damaged area passes this share of the screen.
    FULL_REDRAW_SHARE = 0.5
    #: Pixels around each changed box also redrawn (anti-aliasing and bold strokes spill over).
    MARGIN = 3

    def __init__(self, width: int, height: int, background: Color = WHITE) -> None:
        self.width = width
        self.height = height
        self.background = background
        self._ops: tuple[Op, ...] | None = None
        self._frame: np.ndarray | None = None
        self._buffer: np.ndarray | None = None  # the RGBX memory under ``_frame``
        # the memory of the frame before, and where ``_frame`` differs from it (reused once nobody holds it)
        self._spare: tuple[np.ndarray, list[Box]] | None = None
        self.frames_drawn = 0
        self.partial_frames = 0
        self.reused_buffers = 0  # partial frames drawn in the memory of a frame nobody held any more
        # (frame, the frame it was drawn over, the regions that differ), newest last
        self._history: deque[tuple[weakref.ref, weakref.ref | None, tuple[Box, ...]]] = deque(maxlen=16)

    def render(self, ops: tuple[Op, ...]) -> np.ndarray:
        """The frame for ``ops``: a read-only ``(height, width, 3)`` uint8 array (a view of RGBX memory)."""
        if self._frame is not None and ops == self._ops:
            return self._frame
        regions = self._damage(ops) if self._frame is not None else None
        if regions == []:
            self._ops = ops
            return self._frame
        previous = self._frame
        if regions is None:
            buffer = np.empty((self.height, self.width, 4), dtype=np.uint8)
            buffer.view(np.uint32).fill(_pixel(self.background))
            _draw_ops(_canvas(buffer), ops)
            regions = [(0, 0, self.width, self.height)]
        else:
            buffer = self._next_buffer()
            canvas = _canvas(buffer)
            for left, top, right, bottom in regions:
                patch = Image.new("RGBX", (right - left, bottom - top), self.background)
                box = (left, top, right, bottom)
                _draw_ops(patch, [op for op in ops if _touches(op[1], box, self.MARGIN)], left, top)
                canvas.paste(patch, (left, top))
            self.partial_frames += 1
        buffer.flags.writeable = False
        frame = buffer[..., :3]
        parent = weakref.ref(previous) if previous is not None else None
        self._history.append((weakref.ref(frame), parent, tuple(regions)))
        self._spare = (self._buffer, regions) if self._buffer is not None else None
        self._ops, self._frame, self._buffer = ops, frame, buffer
        self.frames_drawn += 1
        return frame

    def _next_buffer(self) -> np.ndarray:
        """Memory for the next frame, holding the current frame's pixels, which it must leave as they are.

        Frames are immutable: whoever holds one keeps it as it was. The frame before the current one
        gives its memory back once nothing refers to it any more (then only what changed since is
        copied into it); else the current frame's memory is copied whole.
        """
        spare, self._spare = self._spare, None
        if spare is not None and sys.getrefcount(spare[0]) == 2:  # (the tuple, the argument: no frame, no view)
            buffer, regions = spare
            buffer.flags.writeable = True
            for left, top, right, bottom in regions:
                buffer[top:bottom, left:right] = self._buffer[top:bottom, left:right]
            self.reused_buffers += 1
            return buffer
        return self._buffer.copy()

    def rgbx(self, frame: np.ndarray) -> np.ndarray | None:
        """The ``(height, width, 4)`` RGBX memory under ``frame`` if it is this renderer's current frame."""
        return self._buffer if frame is self._frame else None

    def changed_regions(self, old: np.ndarray, new: np.ndarray) -> tuple[Box, ...] | None:
        """Where ``new`` differs from ``old`` (frames of this renderer): boxes, () for nowhere, None if unknown.

        Regions of successive frames are listed each, not merged: a target that jumped from the
        top of the screen to the bottom changed two small boxes, not the screen between them.
        """
        if old is new:
            return ()
        regions: tuple[Box, ...] = ()
        target = new
        for frame_ref, parent_ref, boxes in reversed(self._history):
            if frame_ref() is not target:
                continue
            regions += boxes
            parent = parent_ref() if parent_ref is not None else None
            if parent is None:
                return None
            if parent is old:
                return regions
            target = parent
        return None

    def _damage(self, ops: tuple[Op, ...]) -> list[Box] | None:
        """The regions that differ between the last display list and ``ops`` (none: []), or None for all.

        Each changed box, widened by the margin, is its own region (boxes that overlap are
        merged), so a target that moves across the screen redraws where it was and where it
        is, not everything between. Regions never overlap, so their areas add up to what is
        redrawn; that only grows as boxes come in, so once it passes the share of a full
        redraw the rest is not looked at (the biggest boxes come first).
        """
        m, width, height = self.MARGIN, self.width, self.height
        boxes = set()
        for b in _changed_boxes(self._ops, ops):
            box = (max(0, b[0] - m), max(0, b[1] - m), min(width, b[2] + m), min(height, b[3] + m))
            if box[2] > box[0] and box[3] > box[1]:  # (else off screen)
                boxes.add(box)
        limit = self.FULL_REDRAW_SHARE * width * height
        area = 0
        regions: list[Box] = []
        for box in sorted(boxes, key=_area, reverse=True):
            merged = True
            while merged:  # absorb every region the box overlaps
                merged = False
                for other in regions:
                    if box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]:
                        regions.remove(other)
                        area -= _area(other)
                        box, merged = _union(box, other), True
                        break
            regions.append(box)
            area += _area(box)
            if area > limit:
                return None
        return regions


def _area(box: Box) -> int:
    return (box[2] - box[0]) * (box[3] - box[1])


def _changed_boxes(old: tuple[Op, ...], new: tuple[Op, ...]) -> list[Box]:
    """Boxes of the operations in one list and not the other.

    Inside a scrolling layer that kept its place, only the boxes of its own changed
    operations count (clipped to the layer), so editing one row does not redraw the list.
    The lists' common head and tail (the system bars, a keyboard that stayed) are passed over
    before the rest is counted.
    """
    end = min(len(old), len(new))
    head = 0
    while head < end and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < end - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    counts = Counter(old[head : len(old) - tail])
    added = []
    for op in new[head : len(new) - tail]:  # (each op of one list matched with one equal op of the other)
        left = counts.get(op)
        if left:
            counts[op] = left - 1
        else:
            added.append(op)
    layers = {}
    boxes = []
    for op, left in counts.items():  # what is left is gone
        if left and op[0] == "layer":
            layers[op[1]] = op
        elif left:
            boxes.append(op[1])
    for op in added:
        twin = layers.pop(op[1], None) if op[0] == "layer" else None
        if twin is None:
            boxes.append(op[1])
        else:
            clip = op[1]
            boxes += [_clip(b, clip) for b in _changed_boxes(twin[2], op[2])]
    boxes += [op[1] for op in layers.values()]
    return [b for b in boxes if b[2] > b[0] and b[3] > b[1]]


def _clip(box: Box, clip: Box) -> Box:
    return max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3])


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _touches(box: Box, region: Box, margin: int) -> bool:
    return (
        box[0] - margin < region[2]
        and box[2] + margin > region[0]
        and box[1] - margin < region[3]
        and box[3] + margin > region[1]
    )


def _pixel(color: Color) -> int:
    """An opaque RGBX pixel as the uint32 that fills a buffer fastest."""
    return int(np.frombuffer(bytes((*color[:3], 255)), dtype=np.uint32)[0])


def _canvas(buffer: np.ndarray) -> Image.Image:
    """A PIL image drawing straight into an ``(h, w, 4)`` uint8 RGBX array (no copy either way)."""
    height, width = buffer.shape[:2]
    image = Image.frombuffer("RGBX", (width, height), buffer, "raw", "RGBX", 0, 1)
    image.readonly = 0  # it is our buffer to draw in; PIL would otherwise copy it on the first write
    return image


def _draw_ops(image: Image.Image, ops: tuple[Op, ...] | list[Op], left: int = 0, top: int = 0) -> None:
    """Draw ``ops`` (screen coordinates) on ``image``, whose top-left pixel is the screen's ``(left, top)``."""
    draw = ImageDraw.Draw(image)
    for op in ops:
        _draw_op(image, draw, op, left, top)


def _draw_op(image: Image.Image, draw: ImageDraw.ImageDraw, op: Op, left: int, top: int) -> None:
    kind, box = op[0], op[1]
    x0, y0, x1, y1 = box[0] - left, box[1] - top, box[2] - left, box[3] - top
    if kind == "rect":
        if op[3] > 0:
            draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=op[3], fill=op[2])
        else:
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=op[2])
    elif kind == "text":
        _draw_text(image, (x0, y0, x1, y1), *op[2:])
    elif kind == "disc":
        draw.ellipse((x0, y0, x1 - 1, y1 - 1), fill=op[2])
    elif kind == "layer":
        _draw_layer(image, draw, (x0, y0, x1, y1), op[2], left, top)
    elif kind == "dim":  # black at an alpha over what is drawn (the screen behind a dialog)
        size = (x1 - x0, y1 - y0)
        if size[0] > 0 and size[1] > 0:
            image.paste((0, 0, 0), (x0, y0, x1, y1), _mask(size, op[2]))
    elif kind == "line":
        _, _, points, color, width = op
        draw.line([(x - left, y - top) for x, y in points], fill=color, width=width, joint="curve")
    elif kind == "image":  # a bitmap already at its box's size (ui.image scales it)
        image.paste(Image.frombytes("RGB", op[3], op[2]), (x0, y0))  # (paste converts it to RGBX)


def _draw_layer(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, inner: tuple[Op, ...], left: int, top: int
) -> None:
    """Draw a layer's operations clipped to its ``box`` (in ``image``'s pixels): scrolling content.

    An operation whose ink lies inside the box is drawn straight on ``image`` (which clips it to
    its own edges: a patch of the screen); one that crosses the box's edge is drawn on a copy of
    the part of ``image`` it covers inside the box, pasted back (which clips it); one outside the
    box or the image is left out. Drawing is the same wherever it happens, so this is the whole
    layer drawn on its own canvas and pasted, without copying the whole layer.
    """
    clip = (max(0, box[0]), max(0, box[1]), min(image.width, box[2]), min(image.height, box[3]))
    if clip[2] <= clip[0] or clip[3] <= clip[1]:
        return
    for op in inner:
        ink = _ink(op)
        if ink is None:
            continue
        x0, y0, x1, y1 = ink[0] - left, ink[1] - top, ink[2] - left, ink[3] - top
        part = (max(x0, clip[0]), max(y0, clip[1]), min(x1, clip[2]), min(y1, clip[3]))
        if part[2] <= part[0] or part[3] <= part[1]:
            continue
        if x0 >= box[0] and y0 >= box[1] and x1 <= box[2] and y1 <= box[3]:
            _draw_op(image, draw, op, left, top)
        else:
            piece = image.crop(part)
            _draw_op(piece, ImageDraw.Draw(piece), op, left + part[0], top + part[1])
            image.paste(piece, part[:2])


def _ink(op: Op) -> Box | None:
    """The screen pixels ``op`` may draw on (its box, a text's glyphs, a line's width), or None for none."""
    kind, box = op[0], op[1]
    if kind == "text":
        mask, (dx, dy) = text_mask(op[2], op[3], op[5] and op[3] >= 14, op[6], box[2] - box[0])
        if mask is None:
            return None
        x = (box[0] + box[2]) // 2 if op[6] == "center" else box[0]
        y = (box[1] + box[3]) // 2 + dy
        return x + dx, y, x + dx + mask.width, y + mask.height
    if kind == "line":
        xs, ys, width = [x for x, _ in op[2]], [y for _, y in op[2]], op[4]
        # (whole pixels: a clock hand's points are fractions, and a crop or paste takes integers)
        return floor(min(xs)) - width, floor(min(ys)) - width, ceil(max(xs)) + width + 1, ceil(max(ys)) + width + 1
    if kind == "image":
        return box[0], box[1], box[0] + op[3][0], box[1] + op[3][1]
    return box


@functools.lru_cache(maxsize=8)
def _mask(size: tuple[int, int], alpha: int) -> Image.Image:
    return Image.new("L", size, alpha)


def _draw_text(image: Image.Image, box: Box, text: str, size: int, color: Color, bold: bool, gravity: str) -> None:
    mask, (dx, dy) = text_mask(text, size, bold and size >= 14, gravity, box[2] - box[0])
    if mask is None:
        return
    cy = (box[1] + box[3]) // 2
    x = (box[0] + box[2]) // 2 if gravity == "center" else box[2] if gravity == "end" else box[0]
    image.paste(color, (x + dx, cy + dy, x + dx + mask.width, cy + dy + mask.height), mask)

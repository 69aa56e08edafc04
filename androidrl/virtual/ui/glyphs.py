"""Text as the renderer draws it: Pillow's bundled font, each label's coverage mask rendered once.

Screens repeat the same labels, so a label's mask is rendered once and pasted wherever it is
drawn; a large run of digits (a calculator's display, a big clock) is put together from its
characters' masks. The font has ASCII only: other text is drawn in its nearest ASCII (the UI
dump keeps the real text).
"""

from __future__ import annotations

import functools
import unicodedata

from PIL import Image, ImageFont


@functools.cache
def font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font at ``size_px`` (the same on every machine)."""
    return ImageFont.load_default(size=max(4, size_px))


def text_width(text: str, size_px: int) -> int:
    """How many pixels wide ``text`` draws at ``size_px`` (a cursor's place, a field's selection)."""
    return round(font(size_px).getlength(_drawable(text))) if text else 0


@functools.lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool, gravity: str, width: int) -> tuple[Image.Image | None, tuple[int, int]]:
    """A text's coverage mask and its offset from the anchor point (left or centre, middle).

    Rendering a line of text is the costliest drawing operation; screens repeat the same
    labels, so each is rendered once.
    """
    face = font(size)
    drawn = _drawable(text)
    if size >= _RUN_MIN_SIZE and len(drawn) > 1 and _RUN_CHARS.issuperset(drawn):
        run = _glyph_run(drawn, size, bold, gravity, width)
        if run is not None:
            return run
    text = _ellipsize(drawn, face, width)
    if not text:
        return None, (0, 0)
    anchor = "mm" if gravity == "center" else "rm" if gravity == "end" else "lm"
    stroke = 1 if bold else 0
    # The mask ``ImageDraw.text`` would draw (white, stroke and fill alike) onto a black canvas of the text's
    # box, taken as Pillow renders it: one layout instead of two, no canvas (the same bytes).
    core, (left, top) = face.getmask2(text, "L", stroke_width=stroke, stroke_filled=True, anchor=anchor)
    mask = Image.new("L", (max(1, core.size[0]), max(1, core.size[1])))
    if core.size[0] and core.size[1]:
        mask.im = core  # (the same mode and size: the image takes Pillow's rendering as its pixels)
    return mask, (left, top)


#: A large line of these (a calculator's display, a big clock) is put together from its glyphs' cached
#: masks: a number that changes with every key would otherwise be laid out and rasterised anew each time.
_RUN_CHARS = frozenset("0123456789.,:+-x/%()E")
_RUN_MIN_SIZE = 24


@functools.lru_cache(maxsize=1024)
def _advance(char: str, size: int) -> float:
    return font(size).getlength(char)


def _glyph_run(
    text: str, size: int, bold: bool, gravity: str, width: int
) -> tuple[Image.Image, tuple[int, int]] | None:
    """``text``'s mask made of its characters' masks, each at its advance; None when it does not fit ``width``."""
    advances = [_advance(ch, size) for ch in text]
    total = sum(advances)
    if total > width:
        return None
    placed, cursor = [], 0.0
    for ch, advance in zip(text, advances):
        glyph, (left, top) = text_mask(ch, size, bold, "start", 1 << 20)
        if glyph is not None:
            placed.append((glyph, round(cursor) + left, top))
        cursor += advance
    if not placed:
        return None, (0, 0)
    x0 = min(x for _, x, _ in placed)
    y0 = min(y for _, _, y in placed)
    x1 = max(x + g.width for g, x, _ in placed)
    y1 = max(y + g.height for g, _, y in placed)
    mask = Image.new("L", (x1 - x0, y1 - y0))
    for glyph, x, y in placed:
        mask.paste(255, (x - x0, y - y0, x - x0 + glyph.width, y - y0 + glyph.height), glyph)
    shift = round(total) if gravity == "end" else round(total / 2) if gravity == "center" else 0
    return mask, (x0 - shift, y0)


#: Characters the bundled font lacks, drawn as a lookalike it has (U+2212 minus, the calculator's operators, icons).
_LOOKALIKES = str.maketrans(
    {"•": "*", "ß": "ss", "–": "-", "—": "-", "’": "'", "“": '"', "”": '"', "·": ".", "−": "-", "×": "x", "÷": "/",
     "⚙": "*", "⌫": "<", "↵": ">"}
)  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _drawable(text: str) -> str:
    """``text`` in the characters the bundled font has: accents dropped (ä -> a), a few lookalikes.

    Format characters (a left-to-right mark) draw as nothing, as on Android.

    Pillow's bundled font is the same on every machine (frames are reproducible) but has
    ASCII only; the UI dump keeps the real text.
    """
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_LOOKALIKES))
    return "".join(c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Cf")


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

"""What the virtual phone's camera sees: a landscape drawn from a seed (sky, ground, sun, trees, houses).

The viewfinder draws a scene as display-list ops and a photo of it is the same scene drawn into a
JPEG, so what the shutter saves is what the screen showed. Scenes come from the phone's seeded
RNG (``Context.next_seed``), so a seed gives the same photos every run.
"""

from __future__ import annotations

import functools
import io

import numpy as np
from PIL import Image, ImageDraw

Shape = tuple[str, tuple[float, float, float, float], tuple[int, int, int]]  # kind, (x0, y0, x1, y1) in 0..1, rgb


@functools.lru_cache(maxsize=64)
def shapes(seed: int) -> tuple[Shape, ...]:
    """The scene of ``seed``, back to front, in coordinates from 0 to 1 of the frame."""
    rng = np.random.default_rng([seed, 0xCA11])

    def color(low: int, high: int) -> tuple[int, int, int]:
        return tuple(int(c) for c in rng.integers(low, high, 3))

    horizon = float(rng.uniform(0.45, 0.7))
    found: list[Shape] = [("rect", (0, 0, 1, horizon), color(90, 230)), ("rect", (0, horizon, 1, 1), color(40, 170))]
    x, y, r = float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.08, horizon - 0.15)), float(rng.uniform(0.05, 0.1))
    found.append(("disc", (x - r, y - r * 0.75, x + r, y + r * 0.75), color(200, 256)))
    for _ in range(int(rng.integers(2, 6))):
        left, width = float(rng.uniform(0, 0.85)), float(rng.uniform(0.08, 0.2))
        height = float(rng.uniform(0.1, 0.3))
        if rng.random() < 0.5:  # a tree: a trunk under a crown
            mid = left + width / 2
            found.append(("rect", (mid - 0.015, horizon - height * 0.5, mid + 0.015, horizon + 0.02), (101, 67, 33)))
            found.append(("disc", (left, horizon - height, left + width, horizon - height * 0.35), color(20, 140)))
        else:  # a house: a wall and a door
            found.append(("rect", (left, horizon - height * 0.6, left + width, horizon + 0.02), color(120, 250)))
            door = left + width * 0.4
            found.append(("rect", (door, horizon - height * 0.25, door + width * 0.2, horizon + 0.02), color(30, 110)))
    return tuple(found)


def scene_ops(seed: int, box: tuple[int, int, int, int]) -> list[tuple]:
    """The scene drawn into pixel ``box`` as display-list ops (``rect`` and ``disc``)."""
    left, top, right, bottom = box
    width, height = right - left, bottom - top
    ops = []
    for kind, (x0, y0, x1, y1), rgb in shapes(seed):
        rect = (left + round(x0 * width), top + round(y0 * height), left + round(x1 * width), top + round(y1 * height))
        ops.append(("rect", rect, rgb, 0) if kind == "rect" else ("disc", rect, rgb))
    return ops


@functools.lru_cache(maxsize=8)
def scene_jpeg(seed: int, width: int, height: int) -> bytes:
    """A JPEG photo of the scene, ``width`` x ``height`` pixels."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for op in scene_ops(seed, (0, 0, width, height)):
        box = (op[1][0], op[1][1], op[1][2] - 1, op[1][3] - 1)
        if op[0] == "rect":
            draw.rectangle(box, fill=op[2])
        else:
            draw.ellipse(box, fill=op[2])
    data = io.BytesIO()
    image.save(data, "JPEG", quality=85)
    return data.getvalue()

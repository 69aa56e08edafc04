"""A phone screen's bounds: the one definition of the sizes and densities androidrl accepts.

The virtual phone, device specs (``virtual:360x800@160``), training configs and the
command line all check a screen here, so they accept and refuse the same screens.
"""

from __future__ import annotations

#: Pixels a side: a 100000x100000 frame would not fit in memory.
MIN_SIDE, MAX_SIDE = 64, 4096
#: Dots per inch (160 = 1 px per dp).
MIN_DENSITY, MAX_DENSITY = 72, 1000


def check_screen(width: int, height: int, density: int) -> None:
    """Refuse a screen that is too small, too big to hold in memory, or of a density Android does not use.

    Raises:
        ValueError: Naming what was expected and what was got.
    """
    if not (MIN_SIDE <= int(width) <= MAX_SIDE and MIN_SIDE <= int(height) <= MAX_SIDE):
        raise ValueError(
            f"screen must be {MIN_SIDE}-{MAX_SIDE} pixels a side (a bigger frame would not fit in memory), "
            f"got {width}x{height}"
        )
    if not MIN_DENSITY <= int(density) <= MAX_DENSITY:
        raise ValueError(f"density must be {MIN_DENSITY}-{MAX_DENSITY} dpi, got {density}")

"""The screen's size and density: physical, as ``wm size``/``wm density`` override them, and in dp."""

from __future__ import annotations

import threading
from collections.abc import Callable

from androidrl.screen import check_screen as check_display  # the one definition of a screen's bounds

STATUS_BAR_DP = 24
NAV_BAR_DP = 48


class DisplayMetrics:
    """Size and density of the screen, and where the app area lies between the system bars.

    Args:
        width: Physical screen width in pixels.
        height: Physical screen height in pixels.
        density: Physical density in dpi (160 = 1 px per dp).
        lock: The phone's lock, held while an override changes.
        on_change: Runs after an override changes (the screen must be laid out again).

    Raises:
        ValueError: A screen :func:`androidrl.screen.check_screen` refuses.
    """

    def __init__(
        self,
        width: int,
        height: int,
        density: int,
        *,
        lock: threading.RLock,
        on_change: Callable[[], None],
    ) -> None:
        check_display(width, height, density)
        self.physical_size = (int(width), int(height))
        self.physical_density = int(density)
        self.override_size: tuple[int, int] | None = None
        self.override_density: int | None = None
        self._lock = lock
        self._on_change = on_change

    @property
    def size(self) -> tuple[int, int]:
        """Current (width, height) in pixels: the override size when one is set (``wm size``)."""
        return self.override_size or self.physical_size

    @property
    def width(self) -> int:
        """Current screen width in pixels."""
        return self.size[0]

    @property
    def height(self) -> int:
        """Current screen height in pixels."""
        return self.size[1]

    @property
    def density(self) -> int:
        """Current density in dpi (the override when set)."""
        return self.override_density or self.physical_density

    @property
    def scale(self) -> float:
        """Pixels per dp."""
        return self.density / 160.0

    def px(self, dp: float) -> int:
        """``dp`` in whole pixels."""
        return round(dp * self.scale)

    @property
    def app_area(self) -> tuple[int, int]:
        """Pixel rows (top, bottom) of the app area: below the status bar, above the navigation bar."""
        return self.px(STATUS_BAR_DP), self.height - self.px(NAV_BAR_DP)

    @property
    def content_height_dp(self) -> float:
        """Height of the app area between status bar and navigation bar, in dp."""
        top, bottom = self.app_area
        return (bottom - top) / self.scale

    @property
    def physical_frame(self) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of the logical display (``wm size``) on the panel: scaled to fit, centred."""
        (lw, lh), (pw, ph) = self.size, self.physical_size
        scale = min(pw / lw, ph / lh)
        fw, fh = round(lw * scale), round(lh * scale)
        left, top = (pw - fw) // 2, (ph - fh) // 2
        return left, top, left + fw, top + fh

    def set_override_size(self, size: tuple[int, int] | None) -> None:
        """``wm size WxH`` (or ``wm size reset`` with None): the screen renders at this size."""
        with self._lock:
            self.override_size = size
            self._on_change()

    def set_override_density(self, density: int | None) -> None:
        """``wm density N`` (or ``reset`` with None)."""
        with self._lock:
            self.override_density = density
            self._on_change()

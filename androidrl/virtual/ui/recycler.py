"""A list that makes views only for the rows on screen, as ``RecyclerView`` and ``ListView`` do.

A long list (hundreds of contacts, a call log) built row by row every frame would cost every
frame what its longest list costs; Android's lists attach only the rows that show, and so
``uiautomator dump`` lists only those. :class:`RecyclerList` is a
:class:`~androidrl.virtual.ui.views.ScrollingList` given a row count and a function that makes
row ``i``: at layout it measures one row of each *kind* (rows of a kind are as tall as each
other), places the rows at their offsets, and makes only the rows within the screen (and a
little around it), so a frame costs what the rows on screen cost.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from androidrl.virtual.ui import config
from androidrl.virtual.ui.views import Box, ScrollingList, View


class RecyclerList(ScrollingList):
    """A scrolling list of ``count`` rows made on demand (``RecyclerView`` with its adapter).

    Args:
        count: How many rows.
        make_row: Makes row ``i``'s view (called during layout, only for rows on screen).
        kind: The kind of row ``i``: rows of one kind are the same height (default: all one kind).
        **kwargs: As :class:`~androidrl.virtual.ui.views.ScrollingList` (``state``, ``resource_id``...).
    """

    #: How far beyond the screen rows are still made, as a share of the list's height.
    OVERSCAN = 0.25

    def __init__(
        self,
        count: int,
        make_row: Callable[[int], View],
        kind: Callable[[int], Hashable] | None = None,
        **kwargs,
    ) -> None:
        super().__init__([], **kwargs)
        self.count = count
        self.make_row = make_row
        self.kind = kind or (lambda index: 0)
        self._measured: tuple[int, float, list[int]] | None = None  # (width, scale, heights) of this frame
        self._made: dict[int, View] = {}  # the rows made to be measured, by index (layout places them)

    def content_height(self, width_px: int, scale: float) -> int:
        return sum(self._heights(width_px, scale))

    def _heights(self, width_px: int, scale: float) -> list[int]:
        """Every row's height in pixels, from one measured row of each kind (once a frame)."""
        if self._measured is not None and self._measured[:2] == (width_px, scale):
            return self._measured[2]
        measured: dict[Hashable, int] = {}
        heights = []
        for index in range(self.count):
            key = self.kind(index)
            if key not in measured:
                self._made[index] = row = self.make_row(index)
                measured[key] = row.measure_height(width_px, scale)
            heights.append(measured[key])
        self._measured = (width_px, scale, heights)
        return heights

    def layout(self, box: Box, clip: Box, scale: float) -> None:
        View.layout(self, box, clip, scale)
        width, height = box[2] - box[0], box[3] - box[1]
        heights = self._heights(width, scale)
        self.max_scroll = max(0, sum(heights) - height)
        self.scroll_y = min(max(0, self.scroll_y), self.max_scroll)
        self.scrollable = self.max_scroll > 0
        self.drag_axis = "y" if self.scrollable else ""
        if self.state is not None:
            self.glow = round(self.state.glow_px())
            config.animate_until(self.state.moving_until())
        margin = round(height * self.OVERSCAN)
        low, high = self.scroll_y - margin, self.scroll_y + height + margin
        self.children = []
        y = box[1] - self.scroll_y
        top = 0
        for index, row_height in enumerate(heights):
            if top + row_height > low and top < high:
                row = self._made.get(index) or self.make_row(index)
                row.layout((box[0], y, box[2], y + row_height), self.visible, scale)
                self.children.append(row)
            y += row_height
            top += row_height
        self._made = {}

"""Scrolling that goes on after the finger lifts: fling, and the edge effect of an overscroll.

A :class:`ScrollState` is a list's position as its activity keeps it (views hold no state): where
it rests, and — after a fast swipe — the fling it is in, which settles over the phone's clock
(the frame time of :mod:`~androidrl.virtual.ui.config`) along Android's fling curve. Dragging past
an end pulls an edge glow that recedes over the clock too.

The fling's distance and duration are ``SplineOverScroller``'s (frameworks/base
core/java/android/widget/OverScroller.java) with ``ViewConfiguration``'s friction and minimum
fling velocity, so a swipe of a given speed travels as far as on a phone of the same density.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from androidrl.virtual.ui import config

#: ViewConfiguration.SCROLL_FRICTION and MINIMUM_FLING_VELOCITY / MAXIMUM_FLING_VELOCITY (dp/s).
SCROLL_FRICTION = 0.015
MIN_FLING_DP_S = 50
MAX_FLING_DP_S = 8000
# OverScroller.SplineOverScroller: DECELERATION_RATE = ln(0.78) / ln(0.9), INFLEXION = 0.35.
DECELERATION_RATE = math.log(0.78) / math.log(0.9)
INFLEXION = 0.35
#: How long an edge glow takes to fade after the finger lifts (EdgeEffect.RECEDE_TIME, ms).
GLOW_SECONDS = 0.6


def fling_distance(velocity: float, scale: float) -> tuple[float, float]:
    """(pixels, seconds) a fling at ``velocity`` px/s travels and lasts, at ``scale`` px per dp.

    SplineOverScroller.getSplineFlingDistance/Duration, with its physical coefficient
    (gravity x inches per metre x the screen's ppi x 0.84).
    """
    speed = abs(velocity)
    if speed == 0:
        return 0.0, 0.0
    coefficient = SCROLL_FRICTION * 9.80665 * 39.37 * (160.0 * scale) * 0.84
    deceleration = math.log(INFLEXION * speed / coefficient)
    distance = coefficient * math.exp(DECELERATION_RATE / (DECELERATION_RATE - 1.0) * deceleration)
    seconds = math.exp(deceleration / (DECELERATION_RATE - 1.0))
    return math.copysign(distance, velocity), seconds


@dataclass
class ScrollState:
    """A list's scroll position, kept by its activity across rebuilds (``RecyclerView``'s scroll state).

    Attributes:
        offset: Pixels scrolled from the top when at rest, or where the running fling began.
        fling: Pixels the running fling adds in all (0 when at rest).
        fling_start: Frame time the fling began, in seconds.
        fling_seconds: How long the fling lasts.
        glow: Pixels pulled past an edge by the last drag (negative: the top edge).
        glow_start: Frame time the finger lifted from that pull.
    """

    offset: float = 0.0
    fling: float = 0.0
    fling_start: float = 0.0
    fling_seconds: float = 0.0
    glow: float = 0.0
    glow_start: float = 0.0

    def position(self, now: float | None = None) -> float:
        """Pixels scrolled at frame time ``now`` (default: the current frame's), before clamping."""
        if not self.fling:
            return self.offset
        now = config.current().time if now is None else now
        u = min(1.0, max(0.0, (now - self.fling_start) / self.fling_seconds)) if self.fling_seconds else 1.0
        return self.offset + self.fling * (1.0 - (1.0 - u) ** DECELERATION_RATE)

    def moving_until(self) -> float:
        """The frame time at which the running fling and glow are over (0 when nothing moves)."""
        return max(
            self.fling_start + self.fling_seconds if self.fling else 0.0,
            self.glow_start + GLOW_SECONDS if self.glow else 0.0,
        )

    def glow_px(self, now: float | None = None) -> float:
        """The edge glow's current depth in pixels (signed as :attr:`glow`), fading to 0."""
        if not self.glow:
            return 0.0
        now = config.current().time if now is None else now
        left = 1.0 - (now - self.glow_start) / GLOW_SECONDS
        return self.glow * left if left > 0 else 0.0

    def drag(self, dy: float, limit: float, velocity: float, scale: float) -> bool:
        """A finger dragged the content by ``dy`` pixels and lifted at ``velocity`` px/s.

        Both are positive towards what is below; ``limit`` is the furthest offset. The content
        follows the finger up to an end, the rest pulls the edge glow; a lift faster than the
        minimum fling velocity flings on from there. Returns whether anything changed.
        """
        now = config.current().time
        start = min(max(0.0, self.position(now)), limit)
        moved = start + dy
        end = min(max(0.0, moved), limit)
        self.offset, self.fling, self.glow, self.glow_start = end, 0.0, 0.0, now
        if moved != end:
            self.glow = moved - end
        speed = abs(velocity)
        if speed >= MIN_FLING_DP_S * scale and self.glow == 0.0:
            distance, seconds = fling_distance(min(speed, MAX_FLING_DP_S * scale) * (1 if velocity > 0 else -1), scale)
            self.fling = min(max(0.0, end + distance), limit) - end
            self.fling_start, self.fling_seconds = now, seconds
        return end != start or bool(self.glow) or bool(self.fling)

    def scroll_to(self, offset: float) -> None:
        """Jump to ``offset`` and stop any fling (``scrollToPosition``)."""
        self.offset, self.fling, self.glow = offset, 0.0, 0.0

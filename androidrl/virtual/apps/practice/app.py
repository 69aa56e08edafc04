"""``com.androidrl.practice``: tap a target that sits at a seeded random place.

Intent extras (``am start -n com.androidrl.practice/.TargetActivity --ei seed 7 ...``):
``seed`` fixes the target positions, ``size`` is the target's side in dp (default 96),
``grid`` snaps the target to the cells of a ``grid x grid`` layout of the play area (0 = any
position), ``instruction`` shows a line of text, ``--ez animate true`` keeps the screen
animating so that ``uiautomator dump`` cannot get an idle state (as on real phones).
Each hit moves the target; the score line reads ``Hits: H  Misses: M``.

``.WidgetsActivity`` is a gallery of the UI toolkit's widgets (:mod:`.widgets`).
"""

from __future__ import annotations

import numpy as np

from androidrl.virtual.apps.practice.widgets import STRINGS, WIDGETS, WidgetsActivity
from androidrl.virtual.system.framework.app import Activity, App
from androidrl.virtual.ui.views import Button, FrameLayout, LinearLayout, TextView, View

PACKAGE = "com.androidrl.practice"
MAIN = "com.androidrl.practice.TargetActivity"
SCORE_HEIGHT = 48  # dp


class TargetActivity(Activity):
    """A play area; the target is a red button, a tap elsewhere counts as a miss."""

    title = "Practice"

    def on_create(self) -> None:
        seed = self.intent.extra_int("seed")
        self.rng = np.random.default_rng(seed if seed is not None else self.context.next_seed())
        self.size = max(8, self.intent.extra_int("size", 96) or 96)
        self.grid = max(0, self.intent.extra_int("grid", 0) or 0)
        self.instruction = str(self.intent.extras.get("instruction", ""))
        self.animating = bool(self.intent.extras.get("animate", False))
        self.hits = 0
        self.misses = 0
        self.target = self._place()

    def _area(self) -> tuple[float, float]:
        """Play area (width, height) in dp: the content area below the score line."""
        metrics = self.context.metrics
        return metrics.width / metrics.scale, metrics.content_height_dp - SCORE_HEIGHT

    def _place(self) -> tuple[float, float]:
        width, height = self._area()
        if self.grid:
            cw, ch = width / self.grid, height / self.grid
            col, row = (int(v) for v in self.rng.integers(0, self.grid, size=2))
            side = min(self.size, cw, ch)
            return col * cw + (cw - side) / 2, row * ch + (ch - side) / 2
        side = min(self.size, width, height)
        x = float(self.rng.uniform(0, width - side))
        y = float(self.rng.uniform(0, height - side))
        return round(x, 1), round(y, 1)

    def build(self) -> View:
        rid = f"{PACKAGE}:id/"
        width, height = self._area()
        side = min(self.size, width, height) if not self.grid else min(self.size, width / self.grid, height / self.grid)
        label = f"Hits: {self.hits}  Misses: {self.misses}"
        if self.instruction:
            label = f"{self.instruction} | {label}"
        target = Button(
            "",
            resource_id=rid + "target",
            content_desc="Target",
            x=self.target[0],
            y=self.target[1],
            width=side,
            height=side,
            background=(234, 67, 53),
            corner=side / 2,
            on_click=self.hit,
        )
        area = FrameLayout(
            [target],
            resource_id=rid + "play_area",
            clickable=True,
            on_click=self.miss,
            background=(245, 245, 245),
            weight=1,
        )
        return LinearLayout(
            [TextView(label, resource_id=rid + "score", height=SCORE_HEIGHT, padding=12), area], height=-1
        )

    def hit(self) -> None:
        """The target was tapped: score and move it."""
        self.hits += 1
        self.log("Practice", f"target hit ({self.hits} hits, {self.misses} misses)")
        self.target = self._place()

    def miss(self) -> None:
        """The play area around the target was tapped."""
        self.misses += 1
        self.log("Practice", f"missed ({self.hits} hits, {self.misses} misses)")


def practice_app() -> App:
    """The practice package: the target, and the widget gallery."""
    return App(
        PACKAGE,
        "Practice",
        "+",
        (234, 67, 53),
        {MAIN: TargetActivity, WIDGETS: WidgetsActivity},
        MAIN,
        system=False,
        strings=STRINGS,
    )

"""The status bar and the navigation bar (Android's SystemUI), laid out over every app."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from androidrl.keycodes import KEYCODE_BACK, KEYCODE_HOME
from androidrl.virtual.system.framework.metrics import NAV_BAR_DP, STATUS_BAR_DP, DisplayMetrics
from androidrl.virtual.system.radios import Radios
from androidrl.virtual.ui.render import Op, display_list
from androidrl.virtual.ui.views import MATCH, TEXT, ImageView, LinearLayout, TextView, View

STATUS_BAR_COLOR = (232, 234, 237)
NAV_BAR_COLOR = (32, 33, 36)


class SystemBars:
    """Builds the bars from the radio state; the navigation buttons inject key presses.

    Args:
        metrics: Screen size and density.
        radios: Their state decides the status bar's icons.
        inject_key: Takes a key code, as BACK and HOME on the navigation bar press them.
        now: The phone's local time, for the status bar's clock.
        is_24_hour: Whether the clock shows 24-hour time (``settings system time_12_24``).
    """

    def __init__(
        self,
        metrics: DisplayMetrics,
        radios: Radios,
        inject_key: Callable[[int], None],
        now: Callable[[], dt.datetime],
        is_24_hour: Callable[[], bool],
    ) -> None:
        self.metrics = metrics
        self.radios = radios
        self.inject_key = inject_key
        self.now = now
        self.is_24_hour = is_24_hour
        self._cache: tuple | None = None  # (key, [status, nav], their display list)

    def layout(self, navigation: bool = True) -> tuple[list[View], tuple[Op, ...]]:
        """The laid-out status and navigation bars and their display list.

        Args:
            navigation: Whether the navigation bar shows (the keyguard hides it: the lock
                screen disables BACK, HOME and OVERVIEW).

        Rebuilt only when what they show changes: most refreshes only change the app.
        """
        metrics, radios = self.metrics, self.radios
        width, height, scale = metrics.width, metrics.height, metrics.scale
        clock = self._clock_text()
        key = (width, height, scale, radios.airplane_enabled, radios.wifi_enabled, radios.bluetooth_enabled, navigation)
        key += (clock,)
        if self._cache is None or self._cache[0] != key:
            top, bottom = metrics.app_area
            status = self._status_bar(clock)
            status.layout((0, 0, width, top), (0, 0, width, top), scale)
            bars, ops = [status], display_list(status, scale)
            if navigation:
                nav = self._nav_bar()
                nav.layout((0, bottom, width, height), (0, bottom, width, height), scale)
                bars, ops = [status, nav], ops + display_list(nav, scale)
            self._cache = (key, bars, ops)
        return self._cache[1], self._cache[2]

    def _clock_text(self) -> str:
        """SystemUI's status bar clock: ``9:05`` (12-hour, no AM/PM, as its default ``h:mm``) or ``09:05``."""
        now = self.now()
        return f"{now.hour:02d}:{now.minute:02d}" if self.is_24_hour() else f"{now.hour % 12 or 12}:{now.minute:02d}"

    def _status_bar(self, clock: str) -> View:
        icons = []
        if self.radios.airplane_enabled:
            icons.append(TextView("✈", width=16, text_size=11))
        if self.radios.wifi_enabled:
            icons.append(TextView("WiFi", width=30, text_size=11))
        if self.radios.bluetooth_enabled:
            icons.append(TextView("BT", width=20, text_size=11))
        return LinearLayout(
            [
                TextView(clock, width=MATCH, text_size=12, padding=8, text_color=TEXT),
                *icons,
                TextView("100%", width=40, text_size=11),
            ],
            vertical=False,
            background=STATUS_BAR_COLOR,
            height=STATUS_BAR_DP,
        )

    def _nav_bar(self) -> View:
        def button(glyph: str, desc: str, action) -> View:
            return ImageView(
                glyph=glyph,
                color=(95, 99, 104),
                content_desc=desc,
                clickable=True,
                width=MATCH,
                height=32,
                on_click=action,
            )

        return LinearLayout(
            [
                button("<", "Back", lambda: self.inject_key(KEYCODE_BACK)),
                button("O", "Home", lambda: self.inject_key(KEYCODE_HOME)),
                button("=", "Overview", lambda: None),
            ],
            vertical=False,
            background=NAV_BAR_COLOR,
            height=NAV_BAR_DP,
        )

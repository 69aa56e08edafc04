"""The Stopwatch tab (StopwatchFragment, LapsAdapter) and the stopwatch it shows (data/Stopwatch.java).

The stopwatch runs on the phone's uptime and lives in the app's data (StopwatchDAO's
SharedPreferences): state, the uptime it last started at, the time accumulated before, and the
laps, newest first. The page shows ``stopwatch_time_text`` (``Utils.getTimeString``: 1:02:03,
2:03 or 3) and ``stopwatch_hundredths_text``; once a lap is taken, the ``laps_list`` holds the
lap in progress, then the laps, each ``lap_number`` (# 3), ``lap_time`` and ``lap_total``. The
fab starts and pauses it; ``left_button`` resets it; ``right_button`` takes a lap while it runs
(at most 98) and shares when paused.
"""

from __future__ import annotations

from typing import Any

from androidrl.virtual.apps.deskclock import alarms, formats
from androidrl.virtual.apps.deskclock.widgets import RID, Fab, SideButton
from androidrl.virtual.ui import config
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import TEXT_SECONDARY, LinearLayout, ScrollingList, TextView, View

RESET, RUNNING, PAUSED = "RESET", "RUNNING", "PAUSED"
#: StopwatchFragment.canRecordMoreLaps: the laps list holds 99 rows at most.
MAX_LAPS = 98


class StopwatchTab:
    """The Stopwatch tab's views and actions, mixed into the DeskClock activity."""

    def stopwatch_create(self) -> None:
        self.laps_scroll = ScrollState()

    # ------------------------------------------------------------------ the stopwatch

    @property
    def stopwatch(self) -> dict[str, Any]:
        """The stopwatch (state, start, accumulated), kept in the app's data."""
        return self.app.data.setdefault("stopwatch", {"state": RESET, "start": 0, "accumulated": 0})

    @property
    def laps(self) -> list[dict[str, int]]:
        """The laps, newest first: ``number``, ``lap`` (its own time) and ``total`` (the time at its end), in ms."""
        return self.app.data.setdefault("laps", [])

    def _elapsed(self) -> int:
        return self.context.elapsed_realtime()

    def total_time(self) -> int:
        """``Stopwatch.getTotalTime``: what it has counted, in ms."""
        watch = self.stopwatch
        running = self._elapsed() - watch["start"] if watch["state"] == RUNNING else 0
        return watch["accumulated"] + running

    # ------------------------------------------------------------------ views

    def stopwatch_page(self) -> View:
        total = self.total_time()
        locale = self.context.locale()
        if self.stopwatch["state"] == RUNNING:  # the digits change at the next hundredth: draw again then
            config.redraw_at(self.context.elapsed_realtime() / 1000 + (10 - total % 10) / 1000)
        time = LinearLayout(
            [
                TextView(
                    formats.clock_time(total),
                    resource_id=RID + "stopwatch_time_text",
                    text_size=56,
                    gravity="center",
                    height=96,
                    width=0,
                    weight=3,
                ),
                TextView(
                    f"{total % 1000 // 10:02d}",
                    resource_id=RID + "stopwatch_hundredths_text",
                    text_size=28,
                    height=96,
                    width=0,
                    weight=1,
                ),
            ],
            vertical=False,
            resource_id=RID + "stopwatch_time_wrapper",
            height=200,
            padding=16,
        )
        children: list[View] = [time]
        if self.laps:
            longest = max([lap["lap"] for lap in self.laps] + [self.current_lap(total)])
            rows = [self.lap_row(len(self.laps) + 1, self.current_lap(total), total, longest, total, locale)]
            rows += [self.lap_row(lap["number"], lap["lap"], lap["total"], longest, total, locale) for lap in self.laps]
            children.append(ScrollingList(rows, state=self.laps_scroll, resource_id=RID + "laps_list", weight=1))
        return LinearLayout(children, weight=1)

    def lap_row(self, number: int, lap: int, total: int, longest: int, longest_total: int, locale: str) -> View:
        """lap_view.xml: the lap's number, its time and the time at its end."""
        key = "lap_number_single_digit" if len(self.laps) + 1 < 10 else "lap_number_double_digit"
        return LinearLayout(
            [
                TextView(
                    self.string(key, number),
                    resource_id=RID + "lap_number",
                    text_color=TEXT_SECONDARY,
                    width=0,
                    weight=1,
                    height=40,
                ),  # fmt: skip
                TextView(
                    formats.lap_time(longest, lap, locale), resource_id=RID + "lap_time", width=0, weight=2, height=40
                ),  # fmt: skip
                TextView(
                    formats.lap_time(longest_total, total, locale),
                    resource_id=RID + "lap_total",
                    width=0,
                    weight=2,
                    height=40,
                ),  # fmt: skip
            ],
            vertical=False,
            height=48,
            padding=4,
        )

    def current_lap(self, total: int) -> int:
        """``getCurrentLapTime``: the time since the last lap."""
        return total - (self.laps[0]["total"] if self.laps else 0)

    def stopwatch_fab(self) -> tuple[Fab | None, SideButton | None, SideButton | None]:
        s, state = self.string, self.stopwatch["state"]
        if state == RUNNING:
            fab = ("||", s("sw_pause_button"), self.toggle_stopwatch)
        else:
            fab = (">", s("sw_start_button"), self.toggle_stopwatch)
        if state == RESET:
            return fab, None, None
        reset = (s("sw_reset_button"), self.reset_stopwatch)
        if state == RUNNING:
            return fab, reset, (s("sw_lap_button"), self.lap) if len(self.laps) < MAX_LAPS else None
        return fab, reset, (s("sw_share_button"), self.share_stopwatch)

    # ------------------------------------------------------------------ what taps do

    def toggle_stopwatch(self) -> None:
        """The fab: ``startStopwatch`` or ``pauseStopwatch``."""
        watch = self.stopwatch
        if watch["state"] == RUNNING:
            watch.update(state=PAUSED, accumulated=self.total_time(), start=0)
            alarms.event(self.context, self.app, "Stopwatch", "Pause")
        else:
            watch.update(state=RUNNING, start=self._elapsed())
            alarms.event(self.context, self.app, "Stopwatch", "Start")

    def reset_stopwatch(self) -> None:
        """``left_button``: ``resetStopwatch`` (the laps go too)."""
        self.app.data["stopwatch"] = {"state": RESET, "start": 0, "accumulated": 0}
        self.app.data["laps"] = []
        alarms.event(self.context, self.app, "Stopwatch", "Reset")

    def lap(self) -> None:
        """``right_button`` while running: ``DataModel.addLap``."""
        total = self.total_time()
        self.laps.insert(0, {"number": len(self.laps) + 1, "lap": self.current_lap(total), "total": total})
        alarms.event(self.context, self.app, "Stopwatch", "Lap")

    def share_stopwatch(self) -> None:
        """``right_button`` while paused: the share sheet is not on the virtual phone; the event is logged."""
        alarms.event(self.context, self.app, "Stopwatch", "Share")

"""SystemUI's NotificationShade window: the keyguard when the phone is locked, the shade when pulled down.

On Android 12 and later one window, ``NotificationShade``, holds both the lock screen and the
pulled-down notifications; it covers the screen and takes the focus while either shows. Its
views carry SystemUI's resource ids (``keyguard_indication_text``,
``notification_stack_scroller``...) and the notifications' ``android:id/title``/``text``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.keyguard import Keyguard
from androidrl.virtual.system.notifications import NotificationManager, StatusBar
from androidrl.virtual.system.radios import Radios
from androidrl.virtual.ui.views import MATCH, WHITE, FrameLayout, LinearLayout, TextView, View

PACKAGE = "com.android.systemui"
SCRIM = (32, 33, 36)
CARD = (48, 49, 52)
LIGHT_TEXT = (232, 234, 237)
_ID = PACKAGE + ":id/"


class NotificationShade:
    """Builds the NotificationShade window's content from the keyguard, the panel and the notifications.

    Args:
        metrics: Screen size and density.
        keyguard: Whether the lock screen shows.
        status_bar: Whether (and how far) the shade is pulled down.
        notifications: What the shade lists.
        radios: What the quick settings show.
        local_time: The phone's local time (the lock screen's clock).
    """

    def __init__(
        self,
        metrics: DisplayMetrics,
        keyguard: Keyguard,
        status_bar: StatusBar,
        notifications: NotificationManager,
        radios: Radios,
        local_time: Callable[[], dt.datetime],
    ) -> None:
        self.metrics = metrics
        self.keyguard = keyguard
        self.status_bar = status_bar
        self.notifications = notifications
        self.radios = radios
        self.local_time = local_time

    @property
    def visible(self) -> bool:
        """Whether the window shows (and has the focus): the phone is locked or the shade is down."""
        return self.keyguard.showing or self.status_bar.expanded

    def layout(self, top: int) -> View | None:
        """The window's laid-out root, below the status bar's ``top`` pixels; None when it does not show."""
        if not self.visible:
            return None
        content = self._keyguard() if self.keyguard.showing else self._shade()
        root = FrameLayout([content], resource_id=_ID + "notification_panel", background=SCRIM)
        width, height = self.metrics.size
        root.layout((0, top, width, height), (0, top, width, height), self.metrics.scale)
        return root

    def _keyguard(self) -> View:
        now = self.local_time()
        clock, date = now.strftime("%H:%M"), f"{now:%a, %b} {now.day}"  # the lock screen's clock and date
        height_dp = self.metrics.height / self.metrics.scale
        return LinearLayout(
            [
                TextView(clock, resource_id=_ID + "keyguard_clock_container", text_size=64, height=120,
                         gravity="center", text_color=WHITE),
                TextView(date, resource_id=_ID + "keyguard_status_area", text_size=16, height=32,
                         gravity="center", text_color=LIGHT_TEXT),
                View(height=max(0.0, height_dp - 280)),
                TextView("Swipe up to open", resource_id=_ID + "keyguard_indication_text", text_size=14,
                         height=40, gravity="center", text_color=LIGHT_TEXT),
            ],
            resource_id=_ID + "keyguard_root_view",
            padding=16,
        )  # fmt: skip

    def _shade(self) -> View:
        rows: list[View] = []
        if self.status_bar.panel == "settings":
            radios = self.radios
            for name, on in (
                ("Internet", radios.wifi_enabled),
                ("Bluetooth", radios.bluetooth_enabled),
                ("Airplane mode", radios.airplane_enabled),
            ):
                rows.append(
                    TextView(f"{name}, {'On' if on else 'Off'}", resource_id=_ID + "tile_label", text_size=14,
                             height=48, padding=12, background=CARD, corner=16, text_color=WHITE)
                )  # fmt: skip
            header = "Quick settings"
        else:
            for notification in reversed(self.notifications.active()):  # newest first
                card = [TextView(notification.text, resource_id="android:id/text", text_size=14, text_color=LIGHT_TEXT)]
                if notification.title:
                    card.insert(0, TextView(notification.title, resource_id="android:id/title", bold=True,
                                            text_color=WHITE))  # fmt: skip
                rows.append(LinearLayout(card, resource_id=_ID + "expandableNotificationRow", padding=12,
                                         background=CARD, corner=16))  # fmt: skip
            if not rows:
                rows.append(TextView("No notifications", resource_id=_ID + "no_notifications", gravity="center",
                                     height=64, text_color=LIGHT_TEXT))  # fmt: skip
            header = "Notifications"
        title = TextView(header, resource_id=_ID + "header_label", text_size=18, height=48, padding=12,
                         text_color=WHITE, width=MATCH)  # fmt: skip
        return LinearLayout([title, *rows], resource_id=_ID + "notification_stack_scroller", padding=8)

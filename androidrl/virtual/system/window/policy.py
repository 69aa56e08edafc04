"""The window policy (PhoneWindowManager): what POWER, SLEEP, WAKEUP and MENU do, and where input goes.

It sees each key and touch before the windows do, as
``PhoneWindowManager.interceptKeyBeforeQueueing`` and SystemUI do on Android 14:

* POWER puts an awake phone to sleep and wakes a sleeping one; SLEEP and WAKEUP do what they say.
  None of the three reaches a window.
* A sleeping phone drops touches. A wake key (MENU, CAMERA) wakes it and goes no further; other
  injected keys still reach the focused window (``isInjected && !isWakeKey``).
* On the keyguard, MENU (KeyguardViewController's menu key), a swipe up and a long press on the lock
  icon unlock an insecure lock and bring up the PIN bouncer of a secure one; taps reach the lock
  screen's views, everything else stops there (HOME does not go home). On the bouncer, digits, DEL
  and ENTER reach its PIN field, taps reach its PIN pad, and BACK or a swipe down go back to the
  lock screen.
* With the shade down, BACK closes it, HOME closes it and goes home, a swipe up closes it, a swipe
  down pulls the notifications down to the full Quick Settings; taps and sideways swipes reach the
  shade's views (tiles, notifications). A swipe down from the status bar pulls it down.
* In lock task mode (a pinned task) HOME does nothing.
"""

from __future__ import annotations

from androidrl.keycodes import KEYCODE_BACK, KEYCODE_HOME, keycode_from_string
from androidrl.virtual.system.activity_manager import ActivityManager
from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.keyguard import Keyguard
from androidrl.virtual.system.notifications import StatusBar
from androidrl.virtual.system.power import Wakefulness

KEYCODE_POWER = keycode_from_string("POWER")
KEYCODE_SLEEP = keycode_from_string("SLEEP")
KEYCODE_WAKEUP = keycode_from_string("WAKEUP")
KEYCODE_MENU = keycode_from_string("MENU")
#: KeyEvent.isWakeKey: keys that wake a sleeping phone (POWER and WAKEUP have their own rules).
WAKE_KEYS = frozenset({KEYCODE_MENU, keycode_from_string("CAMERA")})
#: Keys the PIN bouncer takes: the digits, DEL and ENTER (and the keypad's).
BOUNCER_KEYS = frozenset(
    {*range(7, 17), keycode_from_string("DEL"), keycode_from_string("ENTER"), *range(144, 154), 160}
)
#: How far (a share of the screen's height) a swipe must travel to unlock or close the shade.
SWIPE_SHARE = 0.1


class WindowPolicy:
    """Intercepts keys and touches for the screen's power state, the keyguard, the shade and lock task mode.

    Args:
        wakefulness: Awake or asleep.
        keyguard: The lock screen.
        status_bar: The shade.
        activities: HOME's target, and lock task mode.
        metrics: Where the status bar ends; how far a swipe went.
    """

    def __init__(
        self,
        wakefulness: Wakefulness,
        keyguard: Keyguard,
        status_bar: StatusBar,
        activities: ActivityManager,
        metrics: DisplayMetrics,
    ) -> None:
        self.wakefulness = wakefulness
        self.keyguard = keyguard
        self.status_bar = status_bar
        self.activities = activities
        self.metrics = metrics

    def intercept_key(self, code: int) -> bool:
        """Handle a key before it is dispatched; True when the policy took it (no window sees it)."""
        power = self.wakefulness
        if code == KEYCODE_POWER:
            if power.awake:
                power.go_to_sleep()
            else:
                power.wake_up()
            return True
        if code == KEYCODE_SLEEP:
            power.go_to_sleep()
            return True
        if code == KEYCODE_WAKEUP:
            power.wake_up()
            return True
        if not power.awake:
            if code in WAKE_KEYS:
                power.wake_up()
                return True
            return self.keyguard.showing  # injected keys go to the focused window: the keyguard, if it shows
        if self.keyguard.showing:
            if code == KEYCODE_MENU:
                self.keyguard.dismiss()
            elif code == KEYCODE_BACK:
                self.keyguard.hide_bouncer()
            elif self.keyguard.bouncer and code in BOUNCER_KEYS:
                return False  # to the bouncer's PIN field, the focused view of the NotificationShade window
            return True
        if self.status_bar.expanded:
            self.status_bar.collapse()
            return code != KEYCODE_HOME  # HOME closes the shade and still goes home
        return code == KEYCODE_HOME and self.activities.locked_task is not None

    def intercept_touch(self, x1: float, y1: float, x2: float, y2: float) -> bool:
        """Handle a touch from ``(x1, y1)`` to ``(x2, y2)`` before the windows; True when the policy took it."""
        if not self.wakefulness.awake:
            return True
        travel = (y2 - y1) / max(1, self.metrics.height)
        if self.keyguard.showing:
            if self.keyguard.bouncer:
                if travel >= SWIPE_SHARE:
                    self.keyguard.hide_bouncer()
                    return True
                return abs(travel) >= SWIPE_SHARE  # taps reach the PIN pad
            if travel <= -SWIPE_SHARE:
                self.keyguard.dismiss()
            return abs(travel) >= SWIPE_SHARE or abs(x2 - x1) >= SWIPE_SHARE * self.metrics.width  # taps reach it
        if self.status_bar.expanded:
            if travel <= -SWIPE_SHARE:
                self.status_bar.collapse()
                return True
            if travel >= SWIPE_SHARE:
                self.status_bar.expand_settings()  # a second swipe down: the full Quick Settings
                return True
            return False  # taps and sideways swipes reach the shade's tiles and notifications
        if y1 < self.metrics.app_area[0] and travel >= SWIPE_SHARE:
            self.status_bar.expand_notifications()
            return True
        return False

    def takes_text(self) -> bool:
        """Whether typed text stops before the app: the screen is off, or the lock screen or shade is up."""
        if self.keyguard.bouncer:
            return not self.wakefulness.awake  # the bouncer's PIN field takes text
        return not self.wakefulness.awake or self.keyguard.showing or self.status_bar.expanded

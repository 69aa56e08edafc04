"""The window manager: which windows are on screen, in what order, where, and which one has focus.

Above the top activity's window (its decor: a white window and its ``android:id/content``) come,
in Android's z-order (WindowManagerPolicy.getWindowLayerFromTypeLw: application windows 2,
TYPE_TOAST 7, TYPE_INPUT_METHOD 13, TYPE_STATUS_BAR 15, TYPE_NOTIFICATION_SHADE 17,
TYPE_NAVIGATION_BAR 24): the dialogs and popups the activity shows, bottom first; the toast; the
soft keyboard; the status bar; SystemUI's NotificationShade window (the pulled-down shade, or
the keyguard over everything while the phone is locked); the navigation bar (hidden on the lock
screen). The window with focus — the NotificationShade while it shows, else the top focusable
dialog or popup, else the activity's — gets the keys and typed text, and is what ``uiautomator
dump`` reports (DumpCommand dumps ``getRootInActiveWindow()``: the focused window; toasts, the
keyboard, the bars and the floating text toolbar take no focus and never show in it).

It also applies the phone's configuration (font scale, dark theme, locale) while windows are
built and drawn, keeps time for what moves on the clock (toasts, snackbars, flings), and
answers BACK for what sits over the activity: the keyboard first, then the top dialog or popup.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass

from androidrl.virtual.system.activity_manager import ActivityManager
from androidrl.virtual.system.clock import Clock
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.metrics import NAV_BAR_DP, DisplayMetrics
from androidrl.virtual.system.input_method import InputMethod
from androidrl.virtual.system.settings_provider import SettingsStore
from androidrl.virtual.system.window.notification_shade import PACKAGE as SYSTEMUI
from androidrl.virtual.system.window.notification_shade import NotificationShade
from androidrl.virtual.system.window.system_bars import SystemBars
from androidrl.virtual.ui import config
from androidrl.virtual.ui.config import Configuration
from androidrl.virtual.ui.dialogs import popup_frame
from androidrl.virtual.ui.glyphs import text_width
from androidrl.virtual.ui.notices import TOAST_LONG, TOAST_SHORT, snackbar_view, toast_view
from androidrl.virtual.ui.render import Op, display_list, night
from androidrl.virtual.ui.views import WHITE, Box, Density, EditText, FrameLayout, View
from androidrl.virtual.ui.window import TouchBlocker, Window, decor

DIALOG_CORNER_DP = 28  # Material 3 dialogs
POPUP_CORNER_DP = 4
TOAST_OFFSET_DP = 64  # above the navigation bar


@dataclass(frozen=True)
class Composition:
    """One frame's windows, laid out.

    Attributes:
        focus: The root of the window with focus: keys and text go to it, the dump shows it.
        package: Whose window that is.
        windows: Window roots to hit-test, top-most first.
        ops: The display list of them all, back to front.
    """

    focus: View
    package: str
    windows: tuple[View, ...]
    ops: tuple[Op, ...]


class WindowManager:
    """Stacks, lays out and times the windows over the top activity, and knows which has focus.

    Args:
        metrics: Screen size and density.
        activities: Whose top activity (and its dialogs and popups) is in front.
        clock: The phone's clock (toasts, snackbars and flings move on it).
        settings: ``system font_scale`` and ``secure ui_night_mode`` (the configuration).
        props: ``persist.sys.locale`` (the locale).
        ime: The soft keyboard.
        bars: The status and navigation bars.
        shade: SystemUI's NotificationShade window: the keyguard, or the pulled-down shade.
        lock: The phone's lock.
    """

    def __init__(
        self,
        metrics: DisplayMetrics,
        activities: ActivityManager,
        clock: Clock,
        settings: SettingsStore,
        props: Mapping[str, str],
        ime: InputMethod,
        bars: SystemBars,
        shade: NotificationShade,
        *,
        lock: threading.RLock,
    ) -> None:
        self.metrics = metrics
        self.activities = activities
        self.clock = clock
        self.settings = settings
        self.props = props
        self.ime = ime
        self.bars = bars
        self.shade = shade
        self._lock = lock
        self._toasts: list[tuple[str, float]] = []  # (text, seconds), the one showing first
        self._toast_since: float | None = None  # uptime the first one showed at
        self._touch: tuple[float, float] | None = None  # the last touch (where a context menu shows)
        self._wake = math.inf  # uptime at which the screen must be composed again (a toast or snackbar goes)
        self._composed_at = 0.0  # uptime of the last composition
        self._moving_until = -math.inf  # until when something on screen moves (a fling)
        self._raw_configuration: tuple = (None, None)  # (settings as read, as parsed)
        self._under_shade: tuple | None = None  # the app's windows as composed when the shade came over them

    # ------------------------------------------------------------------ state

    def state(self) -> dict:
        """What a snapshot keeps (the activities keep their own windows and snackbars)."""
        return {
            "toasts": list(self._toasts),
            "toast_since": self._toast_since,
            "touch": self._touch,
            "ime": self.ime.state(),
        }

    def restore(self, state: dict) -> None:
        """Put back what :meth:`state` gave."""
        self._toasts, self._toast_since, self._touch = list(state["toasts"]), state["toast_since"], state["touch"]
        self.ime.restore(state["ime"])
        self._wake = -math.inf  # compose at once
        self._under_shade = None

    def configuration(self) -> Configuration:
        """The phone's configuration now: font scale, night mode, locale and the time."""
        raw = (
            self.settings.get("system", "font_scale"),
            self.settings.get("secure", "ui_night_mode"),
            self.locale(),
        )
        if raw != self._raw_configuration[0]:  # (parsed once per change: this runs every frame and event)
            try:
                font_scale = min(max(float(raw[0] or 1.0), 0.25), 4.0)
            except ValueError:
                font_scale = 1.0  # a value Android could not parse either: the default
            self._raw_configuration = (raw, (font_scale, raw[1] == "2", raw[2]))
        return Configuration(*self._raw_configuration[1], self.clock.uptime())

    def locale(self) -> str:
        """The locale (``persist.sys.locale``), without the rest of the configuration (apps ask it for every string)."""
        return self.props.get("persist.sys.locale") or self.props.get("ro.product.locale") or "en-US"

    def frame(self) -> AbstractContextManager[Configuration]:
        """A context for an input event's callbacks: the phone's configuration (a fling starts at its time)."""
        return config.applied(self.configuration())

    def due(self) -> bool:
        """Whether something on screen moved on with the clock since the last composition."""
        now = self.clock.uptime()
        return now >= self._wake or (self._composed_at < self._moving_until and now > self._composed_at)

    # ------------------------------------------------------------------ services to apps and input

    def toast(self, text: str, long: bool = False) -> None:
        """Queue a toast; each shows for its duration, one after the other (NotificationManagerService)."""
        with self._lock:
            self._toasts.append((text, TOAST_LONG if long else TOAST_SHORT))
            self._wake = -math.inf

    def toasts(self) -> list[str]:
        """The texts of the toasts showing and queued, the one showing first."""
        return [text for text, _ in self._toasts]

    def touched(self, x: float, y: float) -> bool:
        """A touch went down at ``(x, y)``: remember it, and close the non-modal popups it misses.

        Returns:
            Whether that changed what the screen shows: a popup closed, or one showing where the
            last touch was (a context menu) now goes where this one is.
        """
        self._touch = (x, y)
        changed = False
        for window in self.activities.top_activity.windows:
            if window.showing and not window.modal and not _inside(window.frame, x, y):
                window.cancel()
                changed = True
            elif window.showing and window.anchor is None:
                changed = True
        return changed

    def clicked(self, view: View) -> None:
        """A view was tapped: a text field that takes it shows the soft keyboard."""
        if isinstance(view, EditText) and view.enabled:
            self.ime.show(numeric=getattr(view, "numeric", False))

    def back(self) -> bool:
        """BACK, for what sits over the activity: hides the keyboard, else cancels the top dialog or popup.

        Returns:
            Whether BACK was used (else it goes to the activity).
        """
        if self.ime.hide():
            return True
        windows = [w for w in self.activities.top_activity.windows if w.showing]
        if not windows:
            return False
        top = windows[-1]
        if top.cancelable:
            top.cancel()
        return True

    # ------------------------------------------------------------------ composition

    def compose(self) -> Composition:
        """Build and lay out the windows as they are now.

        While SystemUI's NotificationShade window shows it covers the app's windows: they are composed
        once when it comes and kept as they were until it goes (nothing of them shows or takes input).
        """
        # SystemUI's windows: the shade starts below the status bar, so drawing both bars after it
        # gives the z-order status bar < NotificationShade < navigation bar.
        shade = self.shade.layout(self.metrics.app_area[0])
        if shade is None or self._under_shade is None:
            self._under_shade = self._compose_apps() if shade is not None else None
        if shade is not None:  # (nothing under the shade moves on the clock until it goes)
            self._wake, self._moving_until = math.inf, -math.inf
        apps, hit, focus_root, package = self._under_shade or self._compose_apps()
        overlays, bar_ops = self.bars.layout(navigation=not self.shade.keyguard.showing)
        shade_ops = display_list(shade, self.metrics.scale) if shade is not None else ()
        windows = (*reversed(overlays), *([shade] if shade is not None else []), *hit)
        if shade is not None:
            return Composition(shade, SYSTEMUI, windows, apps + shade_ops + bar_ops)
        return Composition(focus_root, package, windows, apps + bar_ops)

    def _compose_apps(self) -> tuple[tuple[Op, ...], tuple[View, ...], View, str]:
        """The top activity's windows, and the toast and keyboard over them.

        Returns:
            Their display list, their hit roots top-most first, the focused root and its package.
        """
        with config.applied(self.configuration()) as configuration:
            now = configuration.time
            activity = self.activities.top_activity
            activity.windows[:] = [w for w in activity.windows if w.showing]
            content = activity.build()
            built = [(w, w.build()) for w in activity.windows]
            focus = next((w for w, _ in reversed(built) if w.focusable), None)
            focus_tree = dict(built)[focus] if focus is not None else content
            if self.ime.shown and not any(v.focused for v in focus_tree.walk() if isinstance(v, EditText)):
                self.ime.hide()  # no text field has focus: the keyboard goes (InputMethodManagerService)
            scale = self._scale(configuration)
            bottom = self.ime.top() if self.ime.shown else self.metrics.app_area[1]  # above the keyboard
            ops: list[Op] = []
            beneath = self.activities.beneath(activity) if activity.translucent else None
            if beneath is not None:  # (a translucent activity: the one behind shows, and takes no input)
                ops += display_list(self._app_window(beneath, beneath.build(), now, scale, bottom), scale)
            app = self._app_window(activity, content, now, scale, bottom, opaque=beneath is None)
            ops += display_list(app, scale)
            hit: list[View] = [app]
            focus_root = app
            for window, tree in built:
                root, window_ops = self._lay_out(window, tree, app, bottom, scale)
                ops += window_ops
                hit.insert(0, root)
                if window is focus:
                    focus_root = root.children[0] if isinstance(root, TouchBlocker) else root
            ops += self._toast_ops(now, scale)
            if self.ime.shown:
                keyboard, keyboard_ops = self.ime.window()
                ops += keyboard_ops
                hit.insert(0, keyboard)
            self._wake = min(self._snackbar_end(activity), self._toast_end(), config.redraw_time())
            self._composed_at, self._moving_until = now, config.animating_until()
        apps = night(tuple(ops)) if configuration.night else tuple(ops)  # (SystemUI's windows keep their colours)
        return apps, tuple(hit), focus_root, activity.app.package

    def decor(self, activity: Activity) -> View:
        """``activity``'s window laid out as it is now, its snackbar aside (``dumpsys activity``'s view hierarchy)."""
        with config.applied(self.configuration()) as configuration:
            top = activity is self.activities.top_activity
            bottom = self.ime.top() if top and self.ime.shown else self.metrics.app_area[1]
            return self._decor([activity.build()], self._scale(configuration), bottom)

    def _scale(self, configuration: Configuration) -> float:
        """Pixels per dp, carrying the font scale when it is not 1 (sp text follows it: a Density)."""
        scale = self.metrics.scale
        return Density(scale, configuration.font_scale) if configuration.font_scale != 1.0 else scale

    def _app_window(
        self, activity: Activity, content: View, now: float, scale: float, bottom: int, opaque: bool = True
    ) -> View:
        """The activity's window: its content (and snackbar) in the decor, down to ``bottom``."""
        width = self.metrics.width
        top = self.metrics.app_area[0]
        children = [content]
        bar = activity.snackbar
        if bar is not None and bar.shown_at is not None and now >= bar.shown_at + bar.seconds:
            activity.snackbar = bar = None  # its time is up
        if bar is not None:
            if bar.shown_at is None:
                bar.shown_at = now
            view = snackbar_view(bar, activity.app.package, self._snackbar_action)
            view.x, view.width = 8, width / scale - 16
            view.y = (bottom - top) / scale - 8 - view.measure_height(width - round(16 * scale), scale) / scale
            children.append(view)
        return self._decor(children, scale, bottom, opaque)

    def _decor(self, children: list[View], scale: float, bottom: int, opaque: bool = True) -> View:
        """A white (translucent: clear) window over the screen, its ``android:id/content`` holding ``children``."""
        width, height = self.metrics.width, self.metrics.height
        top = self.metrics.app_area[0]
        frame = FrameLayout(children, resource_id="android:id/content")
        window = FrameLayout([frame], background=WHITE if opaque else None)
        window.bounds = window.visible = (0, 0, width, height)
        frame.layout((0, top, width, bottom), (0, top, width, bottom), scale)
        return window

    def _snackbar_action(self) -> None:
        activity = self.activities.top_activity
        bar = activity.snackbar
        activity.snackbar = None
        if bar is not None and bar.on_action is not None:
            bar.on_action()

    def _lay_out(self, window: Window, tree: View, app: View, bottom: int, scale: float) -> tuple[View, tuple[Op, ...]]:
        """Place a dialog (centred) or a popup (at its anchor); its hit root and display list."""
        metrics = self.metrics
        width = metrics.width
        top = metrics.app_area[0]
        dialog = window.kind == "dialog"
        root = decor(tree, dialog)
        root.background = WHITE
        root.corner = DIALOG_CORNER_DP if dialog else POPUP_CORNER_DP
        anchor = self._anchor(window, app)
        width_dp = window.width_dp(width / scale)
        w = (anchor[2] - anchor[0]) if width_dp < 0 and anchor is not None else round(width_dp * scale)
        h = min(root.measure_height(w, scale), bottom - top - round(48 * scale))
        if dialog:
            left, y = (width - w) // 2, top + (bottom - top - h) // 2
            box = (left, y, left + w, y + h)
        elif window.kind == "toolbar" and anchor is not None:  # above the text, else below it
            left = min(max(0, anchor[0]), width - w)
            y = anchor[1] - h if anchor[1] - h >= top else anchor[3]
            box = (left, y, left + w, y + h)
        else:
            box = popup_frame(anchor, w, h, (0, top, width, bottom))
        root.layout(box, box, scale)
        window.frame = box
        ops = display_list(root, scale)
        if not window.modal:
            return root, ops
        blocker = TouchBlocker(window, (0, 0, width, metrics.height), dim=dialog)
        blocker.children = [root]
        return blocker, tuple(blocker.paint(scale)) + ops

    def _anchor(self, window: Window, app: View) -> Box | None:
        anchor = window.anchor
        if isinstance(anchor, str):
            view = next((v for v in app.walk() if v.resource_id == anchor and v.is_shown()), None)
            return view.bounds if view is not None else None
        if isinstance(anchor, tuple) and len(anchor) == 4:
            return tuple(round(v) for v in anchor)
        point = anchor if isinstance(anchor, tuple) else self._touch
        if point is None:
            return None
        x, y = round(point[0]), round(point[1])
        return x, y, x, y

    def _toast_ops(self, now: float, scale: float) -> tuple[Op, ...]:
        text = None
        while self._toasts:  # the first toast shows for its time, then the next from when it ended
            if self._toast_since is None:
                self._toast_since = now
            if now < self._toast_since + self._toasts[0][1]:
                text = self._toasts[0][0]
                break
            ended = self._toast_since + self._toasts.pop(0)[1]
            self._toast_since = ended if self._toasts else None
        if text is None:
            return ()
        metrics = self.metrics
        width = metrics.width
        view = toast_view(text)
        w = min(width - round(48 * scale), text_width(text, round(view.children[0].text_px(scale))) + round(48 * scale))
        h = view.measure_height(w, scale)
        bottom = metrics.height - metrics.px(NAV_BAR_DP) - metrics.px(TOAST_OFFSET_DP)
        left = (width - w) // 2
        view.layout((left, bottom - h, left + w, bottom), (0, 0, width, metrics.height), scale)
        return display_list(view, scale)

    def _toast_end(self) -> float:
        return self._toast_since + self._toasts[0][1] if self._toasts and self._toast_since is not None else math.inf

    @staticmethod
    def _snackbar_end(activity: Activity) -> float:
        bar = activity.snackbar
        return bar.shown_at + bar.seconds if bar is not None and bar.shown_at is not None else math.inf


def _inside(box: Box | None, x: float, y: float) -> bool:
    return box is not None and box[0] <= x < box[2] and box[1] <= y < box[3]

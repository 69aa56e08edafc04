"""SystemUI's NotificationShade window: the keyguard when the phone is locked, the shade when pulled down.

On Android 12 and later one window, ``NotificationShade``, holds the lock screen (and its PIN
bouncer) and the pulled-down shade; it covers the screen below the status bar and takes the focus
while either shows. Pulled down once, the shade shows the QuickQSPanel (the first four tiles) over
the notifications; pulled down again (or ``cmd statusbar expand-settings``) the full QSPanel with
the brightness slider. Its views carry SystemUI's resource ids (``quick_qs_panel``,
``quick_settings_panel``, ``tile_label``, ``notification_stack_scroller``, ``keyguard_indication_text``,
``pinEntry``...) and the notification template's (``android:id/app_name_text``, ``title``, ``text``).
A tap on a notification sends its content intent and closes the shade; a sideways swipe dismisses
it; a tap on a tile switches it, a long press opens its Settings page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from androidrl.virtual.system.framework.brightness import GAMMA_SPACE_MAX, setting_from_slider, slider_from_setting
from androidrl.virtual.system.framework.intent import Intent
from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.keyguard import Keyguard
from androidrl.virtual.system.notifications import Notification, NotificationManager, StatusBar
from androidrl.virtual.system.settings_provider import SettingsStore
from androidrl.virtual.system.window.quick_settings import QuickSettings, TileState, words
from androidrl.virtual.ui.controls import SeekBar, dismissible
from androidrl.virtual.ui.views import (
    MATCH,
    WHITE,
    Drag,
    FrameLayout,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)

PACKAGE = "com.android.systemui"
SCRIM = (32, 33, 36)
CARD = (48, 49, 52)
TILE_ON = (168, 199, 250)
LIGHT_TEXT = (232, 234, 237)
DARK_TEXT = (32, 33, 36)
_ID = PACKAGE + ":id/"
#: The labels of system packages that post but are no app of the phone's (their manifests' android:label).
SYSTEM_LABELS = {"com.android.shell": "Shell", "android": "Android System", PACKAGE: "System UI"}


class NotificationShade:
    """Builds the NotificationShade window's content from the keyguard, the panel and the notifications.

    Args:
        metrics: Screen size and density.
        keyguard: Whether the lock screen (and its bouncer) shows.
        status_bar: Whether (and how far) the shade is pulled down.
        notifications: What the shade lists.
        quick_settings: The tiles.
        settings: ``system screen_brightness`` (the brightness slider).
        local_time: The phone's local time (the lock screen's clock, the shade's date).
        language: The locale's language (SystemUI's strings).
        start_activity: Starts an intent (a notification's content intent, a tile's Settings page).
        app_label: The label of a package (the notification's app name).
    """

    def __init__(
        self,
        metrics: DisplayMetrics,
        keyguard: Keyguard,
        status_bar: StatusBar,
        notifications: NotificationManager,
        quick_settings: QuickSettings,
        settings: SettingsStore,
        local_time: Callable[[], dt.datetime],
        language: Callable[[], str] = lambda: "en",
        start_activity: Callable[[Intent], object] = lambda intent: None,
        app_label: Callable[[str], str] = lambda package: package,
    ) -> None:
        self.metrics = metrics
        self.keyguard = keyguard
        self.status_bar = status_bar
        self.notifications = notifications
        self.quick_settings = quick_settings
        self.settings = settings
        self.local_time = local_time
        self.language = language
        self.start_activity = start_activity
        self.app_label = app_label
        self.stack_scroll = 0  # how far the notifications are scrolled

    @property
    def visible(self) -> bool:
        """Whether the window shows (and has the focus): the phone is locked or the shade is down."""
        return self.keyguard.showing or self.status_bar.expanded

    def layout(self, top: int) -> View | None:
        """The window's laid-out root, below the status bar's ``top`` pixels; None when it does not show."""
        if not self.visible:
            return None
        text = words(self.language())
        if self.keyguard.bouncer:
            content = self._bouncer(text)
        elif self.keyguard.showing:
            content = self._keyguard(text)
        else:
            content = self._shade(text)
        root = FrameLayout([content], resource_id=_ID + "notification_panel", background=SCRIM)
        # The window takes every touch that lands on it: nothing under it sees one.
        root.clickable, root.on_click = True, self._tap_outside
        root.drag_axis, root.on_drag = "xy", self._drag_outside
        width, height = self.metrics.size
        root.layout((0, top, width, height), (0, top, width, height), self.metrics.scale)
        return root

    # ------------------------------------------------------------------ the lock screen

    def _keyguard(self, text: dict[str, str]) -> View:
        now = self.local_time()
        clock, date = now.strftime("%H:%M"), f"{now:%a, %b} {now.day}"  # the lock screen's clock and date
        height_dp = self.metrics.height / self.metrics.scale
        return LinearLayout(
            [
                TextView(clock, resource_id=_ID + "keyguard_clock_container", text_size=64, height=120,
                         gravity="center", text_color=WHITE),
                TextView(date, resource_id=_ID + "keyguard_status_area", text_size=16, height=32,
                         gravity="center", text_color=LIGHT_TEXT),
                View(height=max(0.0, height_dp - 352)),
                self._lock_icon(text),
                TextView(text["swipe_up"], resource_id=_ID + "keyguard_indication_text", text_size=14,
                         height=40, gravity="center", text_color=LIGHT_TEXT),
            ],
            resource_id=_ID + "keyguard_root_view",
            padding=16,
        )  # fmt: skip

    def _lock_icon(self, text: dict[str, str]) -> View:
        """LockIconView, above the indication: the padlock, open while the lock is insecure.

        LockIconViewController describes it "Unlocked" (accessibility_unlock_button) when the lock
        screen can be dismissed without a credential, else "Device locked"; a long press
        (config_lockIconLongPress) shows the primary bouncer, which an insecure lock skips: it
        unlocks. A tap does nothing. With accessibility on (as while ``uiautomator`` dumps) the view
        is clickable; it is reported long-clickable here too, so that an element action may long-press it.
        """
        label = text["locked"] if self.keyguard.secure else text["unlocked"]
        left = (self.metrics.width / self.metrics.scale - 32) / 2 - 32  # (centred in the content's 16 dp padding)
        icon = ImageView(glyph="", color=CARD, content_desc=label, resource_id=_ID + "lock_icon_view", width=64,
                         height=64, corner=32, x=left, y=4, clickable=True, long_clickable=True, focusable=True,
                         on_long_click=self.keyguard.dismiss)  # fmt: skip
        return FrameLayout([icon], height=72)

    def _bouncer(self, text: dict[str, str]) -> View:
        """KeyguardPINView (keyguard_pin_view.xml): the message, the PIN field and the PIN pad."""
        keyguard = self.keyguard
        message = text["wrong_pin"] if keyguard.message else text["enter_pin"]
        entry = TextView("•" * len(keyguard.entry), cls="android.widget.EditText", resource_id=_ID + "pinEntry",
                         content_desc=text["pin_area"], text_size=28, height=56, gravity="center",
                         text_color=WHITE, focusable=True, focused=True, password=True)  # fmt: skip
        entry.on_text = keyguard.type
        entry.on_key = self._pin_key
        rows = []
        for keys in (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("delete", "0", "enter")):
            row = []
            for key in keys:
                if key == "delete":
                    button = self._pad_key("⌫", "delete_button", text["delete"], keyguard.delete)
                elif key == "enter":
                    button = self._pad_key("↵", "key_enter", text["enter"], keyguard.enter)
                else:
                    button = self._pad_key(key, "key" + key, key, lambda k=key: keyguard.type(k))
                row.append(button)
            rows.append(LinearLayout(row, vertical=False, height=72))
        return LinearLayout(
            [
                TextView(message, resource_id=_ID + "bouncer_message_area", text_size=18, height=64,
                         gravity="center", text_color=WHITE),
                entry,
                LinearLayout(rows, resource_id=_ID + "container", padding=16),
            ],
            resource_id=_ID + "keyguard_pin_view",
            padding=16,
        )  # fmt: skip

    @staticmethod
    def _pad_key(glyph: str, rid: str, desc: str, action: Callable[[], object]) -> View:
        return TextView(glyph, cls="android.view.ViewGroup", resource_id=_ID + rid, content_desc=desc, text_size=26,
                        gravity="center", height=64, weight=1, width=0, clickable=True, focusable=True,
                        text_color=WHITE, on_click=action)  # fmt: skip

    def _pin_key(self, code: int) -> bool:
        if code == 67:  # KEYCODE_DEL
            self.keyguard.delete()
            return True
        if code in (66, 160):  # KEYCODE_ENTER, NUMPAD_ENTER
            self.keyguard.enter()
            return True
        return False

    # ------------------------------------------------------------------ the shade

    def _shade(self, text: dict[str, str]) -> View:
        tiles = self.quick_settings.tiles(self.language())
        now = self.local_time()
        date = TextView(f"{now:%a, %b} {now.day}", resource_id=_ID + "date", text_size=14, height=32, padding=4,
                        text_color=LIGHT_TEXT, width=MATCH)  # fmt: skip
        if self.status_bar.panel == "settings":
            panel = LinearLayout(
                [self._brightness(text), *self._grid(tiles)], resource_id=_ID + "quick_settings_panel", padding=4
            )
            footer = ImageView(glyph="⚙", color=CARD, glyph_color=WHITE, content_desc=text["open_settings"],
                               resource_id=_ID + "settings_button_container", width=48, height=48, clickable=True,
                               focusable=True, on_click=self._open_settings)  # fmt: skip
            return LinearLayout([date, panel, footer], resource_id=_ID + "qs_frame", padding=8)
        quick = LinearLayout(self._grid(tiles[:4]), resource_id=_ID + "quick_qs_panel", padding=4)
        posted = list(reversed(self.notifications.active()))  # newest first
        rows: list[View] = [self._notification(n) for n in posted]
        if rows:
            rows.append(TextView(text["clear_all"], cls="android.widget.Button", resource_id=_ID + "dismiss_text",
                                 text_size=14, height=40, gravity="center", width=120, clickable=True,
                                 focusable=True, text_color=LIGHT_TEXT, background=CARD, corner=20,
                                 on_click=self.notifications.cancel_all))  # fmt: skip
        else:
            rows.append(TextView(text["no_notifications"], resource_id=_ID + "no_notifications", gravity="center",
                                 height=64, text_color=LIGHT_TEXT))  # fmt: skip
        # NotificationStackScrollLayout fills the panel below the tiles; to accessibility it is a ScrollView,
        # scrollable while its notifications overflow it (updateScrollability: getScrollRange() > 0).
        stack = ScrollingList(rows, scroll_y=self.stack_scroll, on_scroll=self._on_stack_scroll,
                              cls="android.widget.ScrollView", resource_id=_ID + "notification_stack_scroller",
                              padding=4, weight=1)  # fmt: skip
        return LinearLayout([date, quick, stack], resource_id=_ID + "qs_frame", padding=8, height=MATCH)

    def _on_stack_scroll(self, offset: int) -> None:
        self.stack_scroll = offset

    def _grid(self, tiles: list[TileState]) -> list[View]:
        """The tiles two to a row (QSTileViewImpl: a Switch to accessibility, its label and state under it).

        Each tile sits at its cell's offset in one frame (as the TileLayout places them), which costs no
        measuring.
        """
        width = (self.metrics.width / self.metrics.scale - 24 - 8) / 2  # two columns, 8 dp apart
        views = []
        for i, tile in enumerate(tiles):
            fg = DARK_TEXT if tile.on else LIGHT_TEXT
            view = LinearLayout(
                [
                    TextView(tile.label, resource_id=_ID + "tile_label", text_size=14, height=24, bold=True,
                             text_color=fg),
                    TextView(tile.secondary, resource_id=_ID + "app_label", text_size=12, height=20, text_color=fg),
                ],
                cls="android.widget.Switch", content_desc=tile.label, checkable=True, checked=tile.on,
                clickable=True, long_clickable=bool(tile.settings_action), focusable=True, background=TILE_ON
                if tile.on else CARD, corner=20, padding=10, x=(i % 2) * (width + 8), y=(i // 2) * 76,
                width=width, height=68, on_click=lambda s=tile.spec: self.quick_settings.toggle(s),
                on_long_click=lambda a=tile.settings_action: self._open(Intent(action=a)),
            )  # fmt: skip
            views.append(view)
        return [FrameLayout(views, height=76 * ((len(views) + 1) // 2))]

    def _brightness(self, text: dict[str, str]) -> View:
        """BrightnessSliderView: its ToggleSeekBar runs over the gamma space (BrightnessController)."""
        try:
            current = int(self.settings.get("system", "screen_brightness") or 102)
        except ValueError:
            current = 102
        slider = SeekBar(slider_from_setting(current), GAMMA_SPACE_MAX, on_change=self._set_brightness,
                         resource_id=_ID + "slider", content_desc=text["brightness"])  # fmt: skip
        return FrameLayout([slider], resource_id=_ID + "brightness_slider", height=56, padding=4)

    def _set_brightness(self, gamma: int) -> None:
        self.settings.put("system", "screen_brightness", str(setting_from_slider(gamma)))

    def _notification(self, notification: Notification) -> View:
        """An ExpandableNotificationRow: the app's name, the title and the text (its template's)."""
        card: list[View] = [
            TextView(SYSTEM_LABELS.get(notification.package) or self.app_label(notification.package),
                     resource_id="android:id/app_name_text", text_size=12,
                     height=20, text_color=LIGHT_TEXT),
        ]  # fmt: skip
        if notification.title:
            card.append(TextView(notification.title, resource_id="android:id/title", bold=True, height=24,
                                 text_color=WHITE))  # fmt: skip
        card.append(TextView(notification.text, resource_id="android:id/text", text_size=14, text_color=LIGHT_TEXT))
        row = LinearLayout(card, cls="android.widget.FrameLayout", resource_id=_ID + "expandableNotificationRow",
                           padding=12, background=CARD, corner=16, clickable=True, focusable=True,
                           on_click=lambda: self._open_notification(notification))  # fmt: skip
        return dismissible(row, lambda direction: self.notifications.cancel(notification.key))

    # ------------------------------------------------------------------ actions

    def _open_notification(self, notification: Notification) -> None:
        """A tap sends the content intent (if it has one) and closes the shade."""
        if notification.opens:
            package, _, cls = notification.opens.partition("/")
            self._open(Intent(component=(package, cls)))

    def _open_settings(self) -> None:
        self._open(Intent(action="android.settings.SETTINGS"))

    def _open(self, intent: Intent) -> None:
        if not intent.action and intent.component is None:
            return
        self.status_bar.collapse()
        self.start_activity(intent)

    def _tap_outside(self) -> None:
        """A tap on the shade's empty space: the window takes it, nothing under it sees it."""

    def _drag_outside(self, drag: Drag) -> None:
        """A drag on the shade's empty space goes no further (the windows under it never see it)."""

"""Display (``Settings$DisplaySettingsActivity``, display_settings.xml) and Display size and text.

- Brightness level (BrightnessLevelPreferenceController): the summary is the slider's position in
  percent; a tap opens SystemUI's brightness dialog (BrightnessDialog: ``brightness_slider`` with
  its SeekBar ``slider``), whose slider runs in gamma space and writes ``system screen_brightness``
  (:mod:`~androidrl.virtual.system.framework.brightness`).
- Screen timeout: a single-choice dialog of ``screen_timeout_entries`` writing ``system
  screen_off_timeout`` in milliseconds (``screen_timeout_values``).
- Dark theme (``secure ui_night_mode`` 2/1, as UiModeManager.setNightModeActivated) and
  Auto-rotate screen (``system accelerometer_rotation``): switches.
- Display size and text (``Settings$TextReadingSettingsActivity``, TextReadingPreferenceFragment):
  the Font size slider over ``entryvalues_font_size`` with its − and + buttons, writing ``system
  font_scale`` as ``Settings.System.putFloat`` does, above a preview.
"""

from __future__ import annotations

from androidrl.virtual.apps.settings.base import RID, SettingsPage, get_int, get_setting, put_setting
from androidrl.virtual.system.framework.brightness import (
    GAMMA_SPACE_MAX,
    percent,
    setting_from_slider,
    slider_from_setting,
)
from androidrl.virtual.ui.controls import SeekBar
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.views import PRIMARY, TEXT, FrameLayout, ImageView, LinearLayout, TextView, View

TEXT_READING = "com.android.settings.Settings$TextReadingSettingsActivity"
#: screen_timeout_values (ms) and the string keys of screen_timeout_entries (Settings res/values/arrays.xml).
TIMEOUTS = (
    (15000, "timeout_15s"), (30000, "timeout_30s"), (60000, "timeout_1m"), (120000, "timeout_2m"),
    (300000, "timeout_5m"), (600000, "timeout_10m"), (1800000, "timeout_30m"),
)  # fmt: skip
#: entryvalues_font_size of Android 14 (non-linear font scaling up to 200%).
FONT_SCALES = (0.85, 1.0, 1.15, 1.3, 1.5, 1.8, 2.0)
SYSTEMUI_ID = "com.android.systemui:id/"


def timeout_index(millis: int) -> int:
    """The entry a timeout shows as: the largest value not above it (ScreenTimeoutSettings' closest)."""
    index = 0
    for i, (value, _) in enumerate(TIMEOUTS):
        if value <= millis:
            index = i
    return index


def font_index(scale: float) -> int:
    """The Font size step nearest ``scale`` (FontSizeData.getInitialIndex)."""
    return min(range(len(FONT_SCALES)), key=lambda i: abs(FONT_SCALES[i] - scale))


class DisplayActivity(SettingsPage):
    """Display: brightness, screen timeout, dark theme, display size and text, auto-rotate."""

    title_key = "display"

    def rows(self) -> list[View]:
        s = self.string
        brightness = get_int(self, "system", "screen_brightness", 102)
        timeout = get_int(self, "system", "screen_off_timeout", 60000)
        dark = get_setting(self, "secure", "ui_night_mode") == "2"
        rotate = get_setting(self, "system", "accelerometer_rotation") == "1"
        return [
            self.category("brightness"),
            self.row("brightness_level", f"{percent(brightness)}%", on_click=self.show_brightness),
            self.row("adaptive_brightness", s("off")),
            self.category("lock_display"),
            self.row("lock_screen"),
            self.row(
                "screen_timeout",
                s("screen_timeout_summary", s(TIMEOUTS[timeout_index(timeout)][1])),
                on_click=self.show_timeouts,
            ),  # fmt: skip
            self.category("appearance"),
            self.switch(
                "dark_theme",
                dark,
                self.toggle_dark,
                summary=s("dark_theme_summary_on" if dark else "dark_theme_summary_off"),
            ),  # fmt: skip
            self.row("display_size_text", on_click=self.open_text_reading),
            self.category("other_display"),
            self.switch("auto_rotate", rotate, self.toggle_rotate),
            self.row("screen_saver", s("off")),
        ]

    # ------------------------------------------------------------------ brightness

    def show_brightness(self) -> None:
        self.show(AlertDialog(view=self.brightness_slider))

    def brightness_slider(self) -> View:
        """SystemUI's BrightnessDialog content: the slider over the gamma space."""
        value = slider_from_setting(get_int(self, "system", "screen_brightness", 102))
        slider = SeekBar(value, GAMMA_SPACE_MAX, on_change=self.set_brightness, resource_id=SYSTEMUI_ID + "slider",
                         content_desc=self.string("brightness_level"))  # fmt: skip
        return FrameLayout([slider], resource_id=SYSTEMUI_ID + "brightness_slider", height=56)

    def set_brightness(self, gamma: int) -> None:
        put_setting(self, "system", "screen_brightness", setting_from_slider(gamma))

    # ------------------------------------------------------------------ screen timeout

    def show_timeouts(self) -> None:
        s = self.string
        current = timeout_index(get_int(self, "system", "screen_off_timeout", 60000))
        self.show(
            AlertDialog(
                s("screen_timeout"),
                items=[s(key) for _, key in TIMEOUTS],
                checked=current,
                on_item=self.set_timeout,
                negative=(s("cancel"), None),
            )
        )

    def set_timeout(self, index: int) -> None:
        """A ListPreference's choice: saved at once, and the dialog goes."""
        put_setting(self, "system", "screen_off_timeout", TIMEOUTS[index][0])
        for window in self.windows:
            window.dismiss()

    # ------------------------------------------------------------------ switches

    def toggle_dark(self) -> None:
        dark = get_setting(self, "secure", "ui_night_mode") == "2"
        put_setting(self, "secure", "ui_night_mode", 1 if dark else 2)

    def toggle_rotate(self) -> None:
        rotate = get_setting(self, "system", "accelerometer_rotation") == "1"
        put_setting(self, "system", "accelerometer_rotation", 0 if rotate else 1)

    def open_text_reading(self) -> None:
        self.open(TEXT_READING)


class TextReadingActivity(SettingsPage):
    """Display size and text: a preview, then the Font size slider with its − and + buttons."""

    title_key = "display_size_text"

    def rows(self) -> list[View]:
        s = self.string
        scale = float(get_setting(self, "system", "font_scale") or 1.0)
        index = font_index(scale)
        preview = LinearLayout(
            [
                TextView(s("preview"), resource_id="android:id/title", text_size=14, height=28, bold=True),
                TextView(s("preview_text"), resource_id=RID + "preview_text", text_size=16),
            ],
            resource_id=RID + "preview_pager",
            padding=16,
            background=(241, 243, 244),
            corner=16,
        )
        seekbar = SeekBar(index, len(FONT_SCALES) - 1, on_change=self.set_font, resource_id=RID + "seekbar",
                          content_desc=s("font_size"), weight=1, width=0)  # fmt: skip
        buttons = LinearLayout(
            [
                self.step_button("−", "icon_start", "make_smaller", index - 1),
                seekbar,
                self.step_button("+", "icon_end", "make_larger", index + 1),
            ],
            vertical=False,
            height=56,
        )
        return [
            preview,
            LinearLayout(
                [
                    TextView(s("font_size"), resource_id="android:id/title", text_size=16, height=28),
                    TextView(s("font_size_summary"), resource_id="android:id/summary", text_size=14, height=24),
                    buttons,
                ],
                padding=12,
            ),
            self.row("display_size", s("display_size_summary")),
            self.row("bold_text", switch=False),
            self.row("reset_settings", on_click=self.reset),
        ]

    def step_button(self, glyph: str, rid: str, desc_key: str, index: int) -> View:
        usable = 0 <= index < len(FONT_SCALES)
        return ImageView(glyph=glyph, color=PRIMARY if usable else (218, 220, 224), glyph_color=TEXT,
                         resource_id=RID + rid, content_desc=self.string(desc_key), width=48, height=48,
                         clickable=True, focusable=True, enabled=usable,
                         on_click=(lambda: self.set_font(index)) if usable else None)  # fmt: skip

    def set_font(self, index: int) -> None:
        scale = FONT_SCALES[min(max(index, 0), len(FONT_SCALES) - 1)]
        put_setting(self, "system", "font_scale", repr(float(scale)))  # Settings.System.putFloat: "1.15"

    def reset(self) -> None:
        self.set_font(FONT_SCALES.index(1.0))

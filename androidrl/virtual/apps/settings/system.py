"""System (``Settings$SystemDashboardActivity``): Languages, Date & time, Reset options.

- Languages (``Settings$LocalePickerActivity``, LocaleListEditor): picking a language calls
  ``LocalePicker.updateLocales``, which on Android 14 sets ``persist.sys.locale`` and ``settings
  system system_locales`` (``context.set_locale``); the apps redraw in it at once.
- Date & time (``Settings$DateTimeSettingsActivity``, TimeFormatPreferenceController): "Use locale
  default" (``system time_12_24`` unset) and "Use 24-hour format" (``time_12_24`` ``24`` or ``12``),
  the second usable only with the first off.
- Reset options: the reset rows.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.settings.base import SettingsPage, delete_setting, get_setting, put_setting
from androidrl.virtual.ui.controls import radio_group
from androidrl.virtual.ui.views import View
from androidrl.virtual.ui.widgets import list_row

LANGUAGES = "com.android.settings.Settings$LocalePickerActivity"
DATE_TIME = "com.android.settings.Settings$DateTimeSettingsActivity"
RESET = "com.android.settings.Settings$ResetDashboardActivity"
#: The system languages offered: (BCP 47 tag, string key of its name in its own language).
LOCALES = (("en-US", "lang_en"), ("de-DE", "lang_de"))


def locale_index(tag: str) -> int:
    """Which offered language ``tag`` is (by its language; English for any other)."""
    language = tag.replace("_", "-").split("-")[0].lower()
    return next((i for i, (t, _) in enumerate(LOCALES) if t.split("-")[0] == language), 0)


class SystemActivity(SettingsPage):
    """System: Languages, Gestures, Date & time, Backup, Reset options."""

    title_key = "system"

    def rows(self) -> list[View]:
        s = self.string
        current = s(LOCALES[locale_index(self.context.locale())][1])
        return [
            self.row("languages", current, on_click=partial(self.open, LANGUAGES)),
            self.row("gestures"),
            self.row("date_time", "GMT+00:00", on_click=partial(self.open, DATE_TIME)),
            self.row("backup", s("off")),
            self.row("reset_options", on_click=partial(self.open, RESET)),
        ]


class LanguagesActivity(SettingsPage):
    """System languages: one of English and Deutsch, picked with a tap."""

    title_key = "system_languages"

    def rows(self) -> list[View]:
        s = self.string
        names = [s(key) for _, key in LOCALES]
        return [radio_group(names, locale_index(self.context.locale()), self.pick, resource_id="android:id/list")]

    def pick(self, index: int) -> None:
        tag = LOCALES[index][0]
        if locale_index(self.context.locale()) != index:
            self.context.set_locale(tag)
            self.log("Settings", f"locale {tag}")


class DateTimeActivity(SettingsPage):
    """Date & time: automatic time and zone, and the time format switches."""

    title_key = "date_time"

    def rows(self) -> list[View]:
        s = self.string
        auto = get_setting(self, "system", "time_12_24") not in ("12", "24")
        is24 = self.context.is_24_hour()
        return [
            self.row("set_time_auto", switch=True),
            self.row("time_zone", "GMT+00:00 Coordinated Universal Time"),
            self.category("time_format"),
            self.switch("auto_24h", auto, self.toggle_auto),
            list_row(
                s("use_24h"),
                "13:00" if is24 else "1:00 PM",
                on_click=None if auto else self.toggle_24h,
                switch=is24,
                enabled=not auto,
            ),  # fmt: skip
        ]

    def toggle_auto(self) -> None:
        if get_setting(self, "system", "time_12_24") in ("12", "24"):
            delete_setting(self, "system", "time_12_24")
        else:  # off: the locale's format, now written down
            put_setting(self, "system", "time_12_24", "24" if self.context.is_24_hour() else "12")

    def toggle_24h(self) -> None:
        put_setting(self, "system", "time_12_24", "12" if self.context.is_24_hour() else "24")


class ResetActivity(SettingsPage):
    """Reset options: what can be reset."""

    title_key = "reset_options"

    def rows(self) -> list[View]:
        return [self.row("reset_network"), self.row("reset_apps"), self.row("erase_all")]

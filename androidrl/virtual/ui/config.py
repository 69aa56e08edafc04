"""The configuration a frame is drawn in (Android's ``Configuration``): font scale, night mode, locale, time.

The window manager applies the phone's configuration around each build, layout and draw
(:func:`applied`), as Android hands every view its context's ``Resources``, and views read it
with :func:`current`: the dark theme maps the palette (``render.night``), the framework's own
strings (dialog buttons, "More options", the pickers) come in the locale's language
(:func:`framework_string`), and what moves on the clock (a fling, an edge glow, a clock's
digits) reads the frame's time and says how long it moves (:func:`animate_until`) or when it
changes next (:func:`redraw_at`). (The font scale reaches layout through the ``scale`` it is
given, a :class:`~androidrl.virtual.ui.views.Density`, so sp text sizes scale.) It is
thread-local, as Android's animation clock is, so phones on other threads draw in their own
configuration.
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass

#: The font scales a phone takes (Android's settings offer 0.85 to 2.0; ``settings put`` takes more).
MIN_FONT_SCALE, MAX_FONT_SCALE = 0.5, 3.0
#: A locale tag as ``persist.sys.locale`` holds it: a language, optionally with a region (``de``, ``de-DE``).
LOCALE = re.compile(r"[a-z]{2,3}(-[A-Z]{2})?")


@dataclass(frozen=True)
class Configuration:
    """What decides how a frame looks besides its views.

    Attributes:
        font_scale: ``settings system font_scale``: how much bigger ``sp`` text is than ``dp``.
        night: The dark theme (``cmd uimode night yes``, ``secure ui_night_mode`` 2).
        locale: A BCP 47 tag (``persist.sys.locale``), e.g. ``en-US`` or ``de-DE``.
        time: The frame's time, in seconds of uptime (Android's animation clock).
    """

    font_scale: float = 1.0
    night: bool = False
    locale: str = "en-US"
    time: float = 0.0

    @property
    def language(self) -> str:
        """The locale's language subtag (``de`` of ``de-DE``)."""
        return self.locale.replace("_", "-").split("-")[0].lower() or "en"


DEFAULT = Configuration()


def check_configuration(font_scale: float, locale: str) -> None:
    """Refuse a device configuration Android would not take.

    Raises:
        ValueError: A font scale outside 0.5-3.0, or a locale that is not ``language[-REGION]``.
    """
    number = isinstance(font_scale, (int, float)) and not isinstance(font_scale, bool)
    if not number or not MIN_FONT_SCALE <= font_scale <= MAX_FONT_SCALE:
        raise ValueError(
            f"font_scale: expected a number from {MIN_FONT_SCALE} to {MAX_FONT_SCALE} (Android offers 0.85-2.0), "
            f"got {font_scale!r}"
        )
    if not isinstance(locale, str) or not LOCALE.fullmatch(locale):
        raise ValueError(f"locale: expected a language tag such as en-US or de-DE, got {locale!r}")


_local = threading.local()


def current() -> Configuration:
    """The configuration of the frame being built, laid out or drawn on this thread (default outside one)."""
    return getattr(_local, "config", DEFAULT)


def applied(config: Configuration) -> _Applied:
    """A context in which to build, lay out and draw in ``config`` (the previous one comes back after)."""
    return _Applied(config)


class _Applied:
    """:func:`applied`'s context manager (a class: it runs for every frame and every input event)."""

    __slots__ = ("before", "config")

    def __init__(self, config: Configuration) -> None:
        self.config = config

    def __enter__(self) -> Configuration:
        self.before = getattr(_local, "config", DEFAULT), getattr(_local, "until", -math.inf), redraw_time()
        _local.config, _local.until, _local.wake = self.config, -math.inf, math.inf
        return self.config

    def __exit__(self, *exc: object) -> None:
        _local.config, _local.until, _local.wake = self.before


def animate_until(time: float) -> None:
    """Say that what the frame shows moves on until ``time`` (a fling, a glow).

    Until then every frame is built again (``postInvalidateOnAnimation``).
    """
    if time > current().time:
        _local.until = max(animating_until(), time)


def animating_until() -> float:
    """The latest time a view of the frame being built moves until (-inf: nothing moves)."""
    return getattr(_local, "until", -math.inf)


def redraw_at(time: float) -> None:
    """Say that what the frame shows changes at ``time`` (a clock's next minute, a timer's next second).

    The screen is composed again then, once (``postInvalidateDelayed``).
    """
    if time > current().time:
        _local.wake = min(redraw_time(), time)


def redraw_time() -> float:
    """The earliest time a view of the frame being built asked to be drawn again at (inf: none)."""
    return getattr(_local, "wake", math.inf)


# Framework strings (frameworks/base core/res/res/values/strings.xml and values-de/strings.xml).
FRAMEWORK_STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "ok": "OK",
        "cancel": "Cancel",
        "more_options": "More options",
        "cut": "Cut",
        "copy": "Copy",
        "paste": "Paste",
        "select_all": "Select all",
        "am": "AM",
        "pm": "PM",
        "time_picker_header_text": "Set time",
        "time_picker_prompt_label": "Type in time",
        "time_picker_hour_label": "hour",
        "time_picker_minute_label": "minute",
        "time_picker_input_error": "Enter a valid time",
        "time_picker_text_input_mode_description": "Switch to text input mode for the time input.",
        "time_picker_radial_mode_description": "Switch to clock mode for the time input.",
        "date_picker_prev_month_button": "Previous month",
        "date_picker_next_month_button": "Next month",
        "date_picker_title": "Select date",
        "navigate_up": "Navigate up",
    },
    "de": {
        "ok": "OK",
        "cancel": "Abbrechen",
        "more_options": "Weitere Optionen",
        "cut": "Ausschneiden",
        "copy": "Kopieren",
        "paste": "Einfügen",
        "select_all": "Alle auswählen",
        "am": "AM",
        "pm": "PM",
        "time_picker_header_text": "Uhrzeit festlegen",
        "time_picker_prompt_label": "Uhrzeit eingeben",
        "time_picker_hour_label": "Stunde",
        "time_picker_minute_label": "Minute",
        "time_picker_input_error": "Gib eine gültige Uhrzeit ein",
        "time_picker_text_input_mode_description": "In den Texteingabemodus wechseln, um die Uhrzeit einzugeben.",
        "time_picker_radial_mode_description": "In den Uhrzeitmodus wechseln, um die Uhrzeit einzugeben.",
        "date_picker_prev_month_button": "Vorheriger Monat",
        "date_picker_next_month_button": "Nächster Monat",
        "date_picker_title": "Datum auswählen",
        "navigate_up": "Nach oben",
    },
}

MONTHS = {
    "en": [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    "de": [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ],
}
WEEKDAYS = {  # Monday first, abbreviated as the date picker's header shows them
    "en": ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
    "de": ["Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa.", "So."],
}


def framework_string(key: str) -> str:
    """The framework string ``key`` in the current locale's language (English when it has none).

    Raises:
        KeyError: No framework string of that name.
    """
    strings = FRAMEWORK_STRINGS.get(current().language, FRAMEWORK_STRINGS["en"])
    return strings.get(key) or FRAMEWORK_STRINGS["en"][key]


def localized(table: dict[str, list[str]]) -> list[str]:
    """The entry of ``table`` (months, weekdays) for the current language, English when it has none."""
    return table.get(current().language, table["en"])

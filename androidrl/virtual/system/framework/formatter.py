"""Sizes and times as Android's ``android.text.format`` writes them, in English and German.

``format_file_size`` is ``Formatter.formatFileSize`` (frameworks/base core/java/android/text/
format/Formatter.java: SI units, a unit step at 900, two decimals below 100 of a unit, the
locale's decimal mark); ``format_time`` is ``DateUtils.formatDateTime`` with the flags file lists
use (DocumentsUI ``Shared.formatTime``: the time for today, the abbreviated date for this year,
with the year before), as ICU spells them in ``en`` and ``de``.
"""

from __future__ import annotations

import datetime as dt

_UNITS = ("B", "kB", "MB", "GB", "TB", "PB")
_MONTHS_SHORT = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "de": ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."),
}


def _language(locale: str) -> str:
    return locale.replace("_", "-").split("-")[0].lower()


def format_file_size(size: int, locale: str = "en-US") -> str:
    """``Formatter.formatFileSize``: ``12 B``, ``1.23 kB``, ``268 MB`` (German: ``12 Byte``, ``1,23 kB``)."""
    value, unit = float(abs(size)), 0
    while value > 900 and unit < len(_UNITS) - 1:
        value, unit = value / 1000, unit + 1
    digits = 0 if unit == 0 or value >= 100 else 2
    number = f"{-value if size < 0 else value:.{digits}f}"
    german = _language(locale) == "de"
    if german:
        number = number.replace(".", ",")
    name = "Byte" if german and unit == 0 else _UNITS[unit]
    return f"{number} {name}"


def format_clock(when: dt.datetime, is24: bool) -> str:
    """A time of day as ``DateFormat.getTimeFormat`` shows it: ``9:05 AM`` or ``09:05``."""
    if is24:
        return when.strftime("%H:%M")
    hour = when.hour % 12 or 12
    return f"{hour}:{when.minute:02d} {'AM' if when.hour < 12 else 'PM'}"


def format_date(when: dt.datetime, locale: str = "en-US", year: bool = True) -> str:
    """An abbreviated date (``FORMAT_ABBREV_ALL``): ``Jun 15, 2026`` / ``15. Juni 2026``, without the year if asked."""
    language = _language(locale)
    month = _MONTHS_SHORT.get(language, _MONTHS_SHORT["en"])[when.month - 1]
    if language == "de":
        return f"{when.day}. {month}" + (f" {when.year}" if year else "")
    return f"{month} {when.day}" + (f", {when.year}" if year else "")


def format_time(when: dt.datetime, now: dt.datetime, locale: str = "en-US", is24: bool = False) -> str:
    """DocumentsUI's ``Shared.formatTime``: the time if ``when`` is today, else its date (the year if not this one)."""
    if when.year != now.year:
        return format_date(when, locale, year=True)
    if when.timetuple().tm_yday != now.timetuple().tm_yday:
        return format_date(when, locale, year=False)
    return format_clock(when, is24)

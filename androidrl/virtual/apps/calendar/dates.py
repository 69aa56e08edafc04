"""Time zones, days and the date and time texts the Calendar app shows, in English and German.

The texts follow what ``DateUtils.formatDateRange``/``formatDateTime`` give for the flags the app
passes (AOSP Calendar: CalendarViewAdapter for the view menu, EditEventView.setDate/setTime,
Utils.getDisplayedDatetime for the event's details), with ICU's patterns for en-US and de-DE;
spaces are plain spaces (ICU 72's narrow no-break space before "AM" would not survive typing).
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo

from androidrl.virtual.ui.config import MONTHS, WEEKDAYS
from androidrl.virtual.ui.date_picker import FIRST_WEEKDAY

DAY_MS = 86_400_000
DASH = "–"  # ICU's interval separator (an en dash)

WEEKDAY_NAMES = {  # Monday first
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "de": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"],
}
#: ICU's abbreviated months (``MMM``) in German; English cuts the name to three letters.
DE_MONTHS_SHORT = ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."]


def language(locale: str) -> str:
    """``de`` for a German locale, else ``en`` (the app's two languages)."""
    return "de" if locale.replace("_", "-").split("-")[0].lower() == "de" else "en"


@functools.cache
def zone(name: str) -> dt.tzinfo:
    """The time zone ``name`` (an Olson id); UTC when empty or unknown, as Android falls back to GMT."""
    if not name or name in ("UTC", "GMT"):
        return dt.timezone.utc
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


def local(millis: int, tz: dt.tzinfo) -> dt.datetime:
    """``millis`` since the epoch as an aware local time."""
    return dt.datetime.fromtimestamp(millis / 1000, tz)


def millis(when: dt.datetime) -> int:
    """An aware time in ms since the epoch."""
    return round(when.timestamp() * 1000)


def day_start(day: dt.date, tz: dt.tzinfo) -> int:
    """The first millisecond of ``day`` in ``tz``."""
    return millis(dt.datetime.combine(day, dt.time(), tz))


def first_weekday(lang: str) -> int:
    """The week's first day (Python's weekday: 0 Monday, 6 Sunday), as ``Calendar.getFirstDayOfWeek``."""
    return FIRST_WEEKDAY.get(lang, 0)


def week_start(day: dt.date, lang: str) -> dt.date:
    """The first day of the week ``day`` is in."""
    return day - dt.timedelta(days=(day.weekday() - first_weekday(lang)) % 7)


def add_months(day: dt.date, months: int) -> dt.date:
    """The first of the month ``months`` after ``day``'s (negative: before)."""
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


# ---------------------------------------------------------------------------- texts


def month_name(month: int, lang: str) -> str:
    """``June`` / ``Juni`` (month 1-12)."""
    return MONTHS[lang][month - 1]


def month_short(month: int, lang: str) -> str:
    """``Jun`` / ``Juni``."""
    return DE_MONTHS_SHORT[month - 1] if lang == "de" else MONTHS["en"][month - 1][:3]


def weekday_name(day: dt.date, lang: str) -> str:
    """``Monday`` / ``Montag``."""
    return WEEKDAY_NAMES[lang][day.weekday()]


def weekday_short(weekday: int, lang: str) -> str:
    """``Mon`` / ``Mo.`` (Python's weekday), as ``DateUtils.getDayOfWeekString(LENGTH_MEDIUM)``."""
    return WEEKDAYS[lang][weekday]


def month_year(day: dt.date, lang: str) -> str:
    """``June 2026`` / ``Juni 2026`` (FORMAT_SHOW_DATE | FORMAT_NO_MONTH_DAY | FORMAT_SHOW_YEAR)."""
    return f"{month_name(day.month, lang)} {day.year}"


def month_day(day: dt.date, lang: str) -> str:
    """``June 15`` / ``15. Juni`` (FORMAT_SHOW_DATE | FORMAT_NO_YEAR)."""
    return f"{day.day}. {month_name(day.month, lang)}" if lang == "de" else f"{month_name(day.month, lang)} {day.day}"


def full_date(day: dt.date, lang: str) -> str:
    """``June 15, 2026`` / ``15. Juni 2026`` (FORMAT_SHOW_DATE | FORMAT_SHOW_YEAR)."""
    return f"{month_day(day, lang)} {day.year}" if lang == "de" else f"{month_day(day, lang)}, {day.year}"


def short_date(day: dt.date, lang: str, year: bool = True) -> str:
    """``Mon, Jun 15, 2026`` / ``Mo., 15. Juni 2026`` (weekday, date and year, abbreviated: the editor's)."""
    weekday = weekday_short(day.weekday(), lang)
    if lang == "de":
        return f"{weekday}, {day.day}. {month_short(day.month, lang)}" + (f" {day.year}" if year else "")
    return f"{weekday}, {month_short(day.month, lang)} {day.day}" + (f", {day.year}" if year else "")


def weekday_date(day: dt.date, lang: str, year: bool) -> str:
    """``Monday, June 15`` (``, 2026`` with ``year``) / ``Montag, 15. Juni`` (FORMAT_SHOW_DATE | SHOW_WEEKDAY)."""
    text = f"{weekday_name(day, lang)}, {month_day(day, lang)}"
    if year:
        text += f" {day.year}" if lang == "de" else f", {day.year}"
    return text


def week_range(start: dt.date, lang: str) -> str:
    """The week from ``start``: ``Jun 14 – 20``, ``Jun 28 – Jul 4`` / ``14.–20. Juni`` (CalendarViewAdapter)."""
    end = start + dt.timedelta(days=6)
    if lang == "de":
        if start.month == end.month:
            return f"{start.day}.{DASH}{end.day}. {month_name(end.month, lang)}"
        return f"{start.day}. {month_short(start.month, lang)} {DASH} {end.day}. {month_short(end.month, lang)}"
    if start.month == end.month:
        return f"{month_short(start.month, lang)} {start.day} {DASH} {end.day}"
    return f"{month_short(start.month, lang)} {start.day} {DASH} {month_short(end.month, lang)} {end.day}"


def time_text(hour: int, minute: int, is24: bool, am_pm: bool = True) -> str:
    """``10:00 AM`` (``10:00`` without ``am_pm``) or ``10:00`` in 24-hour format (FORMAT_SHOW_TIME)."""
    if is24:
        return f"{hour:02d}:{minute:02d}"
    text = f"{(hour % 12) or 12}:{minute:02d}"
    return f"{text} {'AM' if hour < 12 else 'PM'}" if am_pm else text


def time_range(start: dt.datetime, end: dt.datetime, is24: bool, lang: str) -> str:
    """``10:00 – 11:00 AM``, ``11:00 AM – 1:00 PM``, ``10:00 – 11:00`` / ``10:00–11:00`` (ICU's intervals)."""
    if is24:
        first, last = time_text(start.hour, start.minute, True), time_text(end.hour, end.minute, True)
        return f"{first}{DASH}{last}" if lang == "de" else f"{first} {DASH} {last}"
    if start == end:
        return time_text(start.hour, start.minute, False)
    same_half = (start.hour < 12) == (end.hour < 12) and start.date() == end.date()
    first = time_text(start.hour, start.minute, False, am_pm=not same_half)
    return f"{first} {DASH} {time_text(end.hour, end.minute, False)}"


def when_text(start: dt.datetime, end: dt.datetime, is24: bool, lang: str) -> str:
    """A span over days (``Mon, Jun 15, 10:00 AM – Tue, Jun 16, 11:00 AM``)."""
    return (
        f"{short_date(start.date(), lang, False)}, {time_text(start.hour, start.minute, is24)} {DASH} "
        f"{short_date(end.date(), lang, False)}, {time_text(end.hour, end.minute, is24)}"
    )


def hour_label(hour: int, is24: bool) -> str:
    """The day view's hour label: ``8 AM`` / ``08:00``."""
    if is24:
        return f"{hour:02d}:00"
    return f"{(hour % 12) or 12} {'AM' if hour < 12 else 'PM'}"

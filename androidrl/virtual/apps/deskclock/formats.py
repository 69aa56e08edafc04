"""How DeskClock writes times, dates, weekdays and durations, in English and German.

The patterns are what ICU's ``DateFormat.getBestDateTimePattern`` gives DeskClock's skeletons
(``hma``/``Hm`` for a time, ``EEEMMMd`` for the date, ``Ehma``/``EHm`` for an alarm's day and
time) in those locales; weekdays are ``Weekdays`` bits (Monday 0x01 .. Sunday 0x40,
data/Weekdays.java) and ``java.util.Calendar`` day numbers (Sunday 1 .. Saturday 7).
"""

from __future__ import annotations

import datetime as dt
import functools

#: Calendar.SUNDAY .. Calendar.SATURDAY.
SUNDAY, MONDAY, SATURDAY = 1, 2, 7
#: ``Weekdays`` bit of each Calendar day.
DAY_BITS = {MONDAY: 0x01, 3: 0x02, 4: 0x04, 5: 0x08, 6: 0x10, SATURDAY: 0x20, SUNDAY: 0x40}
ALL_DAYS = 0x7F

# DateFormatSymbols, indexed by Calendar day - 1 (Sunday first).
_WEEKDAYS = {
    "en": {
        "narrow": ("S", "M", "T", "W", "T", "F", "S"),
        "short": ("Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"),
        "long": ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"),
    },
    "de": {
        "narrow": ("S", "M", "D", "M", "D", "F", "S"),
        "short": ("So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."),
        "long": ("Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"),
    },
}
_LONG_MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"),
}  # fmt: skip
_MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "de": ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."),
}
#: Regions whose week starts on Sunday (CLDR's firstDay), as ``Calendar.getFirstDayOfWeek`` answers.
_SUNDAY_FIRST = {"", "US", "CA", "JP", "BR", "MX", "IL", "PH", "IN", "ZA", "KR", "TW", "HK"}


def language(locale: str) -> str:
    """``de`` of ``de-DE``; a language without tables of its own writes as English."""
    code = locale.replace("_", "-").split("-")[0].lower()
    return code if code in _WEEKDAYS else "en"


def calendar_day(when: dt.datetime) -> int:
    """The ``Calendar.DAY_OF_WEEK`` of a date (Sunday 1 .. Saturday 7)."""
    return (when.weekday() + 1) % 7 + 1


def weekday(day: int, locale: str, width: str = "short") -> str:
    """The name of Calendar day ``day``: ``narrow`` (``ccccc``: M), ``short`` (Mon) or ``long`` (Monday)."""
    return _WEEKDAYS[language(locale)][width][day - 1]


def week_order(locale: str) -> list[int]:
    """The Calendar days in the order the locale's week runs (``Weekdays.Order`` from the first day of week)."""
    region = locale.replace("_", "-").partition("-")[2].upper()
    if language(locale) == "en" and region in _SUNDAY_FIRST:
        return [SUNDAY, 2, 3, 4, 5, 6, SATURDAY]
    return [2, 3, 4, 5, 6, SATURDAY, SUNDAY]


def time_text(hour: int, minute: int, is24: bool) -> str:
    """A time as ``TextTime``/``TextClock`` shows it: ``8:30 AM`` (``h:mm a``) or ``08:30`` (``HH:mm``)."""
    if is24:
        return f"{hour:02d}:{minute:02d}"
    return f"{hour % 12 or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def date_text(when: dt.datetime, locale: str) -> str:
    """The clock's date (skeleton ``EEEMMMd``): ``Mon, Jun 15``; German ``Mo., 15. Juni``."""
    lang = language(locale)
    day, month = weekday(calendar_day(when), locale), _MONTHS[lang][when.month - 1]
    return f"{day}, {when.day}. {month}" if lang == "de" else f"{day}, {month} {when.day}"


def long_date_text(when: dt.datetime, locale: str) -> str:
    """The date as spoken (skeleton ``EEEEMMMMd``, the date's content-desc): ``Monday, June 15``."""
    lang = language(locale)
    day, month = weekday(calendar_day(when), locale, "long"), _LONG_MONTHS[lang][when.month - 1]
    return f"{day}, {when.day}. {month}" if lang == "de" else f"{day}, {month} {when.day}"


def alarm_text(when: dt.datetime, locale: str, is24: bool) -> str:
    """An alarm's day and time (``AlarmUtils.getFormattedTime``, ``EHm``/``Ehma``): ``Tue 8:30 AM``."""
    separator = ", " if language(locale) == "de" and is24 else " "
    return f"{weekday(calendar_day(when), locale)}{separator}{time_text(when.hour, when.minute, is24)}"


@functools.lru_cache(maxsize=512)
def days_text(bits: int, locale: str, every_day: str, concat: str, long_names: bool = False) -> str:
    """``Weekdays.toString``: "" (no repeat), "Every day", one long name, or short names in week order.

    With ``long_names``, long names always (``toAccessibilityString``).
    """
    days = [day for day in week_order(locale) if bits & DAY_BITS[day]]
    if not days:
        return ""
    if bits & ALL_DAYS == ALL_DAYS:
        return every_day
    width = "long" if len(days) == 1 or long_names else "short"
    return concat.join(weekday(day, locale, width) for day in days)


def days_array(bits: int) -> str:
    """``Weekdays.toString()`` (the log's form): ``[M T W Th F]``."""
    letters = ("M", "T", "W", "Th", "F", "Sa", "Su")
    return "[" + " ".join(letter for i, letter in enumerate(letters) if bits & (1 << i)) + "]"


def clock_time(millis: int) -> str:
    """``Utils.getTimeString``: ``1:02:03``, ``2:03`` or ``3`` (hours and minutes only when there are some)."""
    hours, rest = divmod(max(0, millis) // 1000, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}" if minutes else str(seconds)


def lap_time(longest: int, millis: int, locale: str) -> str:
    """``LapsAdapter.formatTime``: minutes (hours once ``longest`` is an hour), LRM-space, seconds.hundredths.

    The decimal separator is the locale's (a comma in German).
    """
    hours, rest = divmod(max(0, millis), 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, rest = divmod(rest, 1000)
    separator = "\u200e "  # LRM_SPACE
    if longest < 600_000:
        head = f"{minutes:d}"
    elif longest < 3_600_000:
        head = f"{minutes:02d}"
    elif longest < 36_000_000:
        head = f"{hours:d}{separator}{minutes:02d}"
    else:
        head = f"{hours:02d}{separator}{minutes:02d}"
    decimal = "," if language(locale) == "de" else "."
    return f"{head}{separator}{seconds:02d}{decimal}{rest // 10:02d}"

"""Views the Phone app's screens share: the frame of a floating button, relative times."""

from __future__ import annotations

from collections.abc import Callable

from androidrl.virtual.apps.dialer.data import DAY_MS, HOUR_MS, MINUTE_MS, local_day
from androidrl.virtual.ui.config import current, localized

PACKAGE = "com.android.dialer"
RID = f"{PACKAGE}:id/"
_MONTHS = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "de": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
}


def relative_time(string: Callable[..., str], when: int, now: int, zone: str) -> str:
    """``DateUtils.getRelativeTimeSpanString(when, now, MINUTE_IN_MILLIS, FORMAT_ABBREV_RELATIVE)``.

    Minutes under an hour, hours under a day, "Yesterday" or days under a week (by calendar
    days in the phone's time zone), else the abbreviated date ("Jun 3").
    """
    duration = max(0, now - when)
    if duration < HOUR_MS:
        return string("minutes_ago", duration // MINUTE_MS)
    if duration < DAY_MS:
        return string("hours_ago", duration // HOUR_MS)
    if duration < 7 * DAY_MS:
        days = (local_day(now, zone) - local_day(when, zone)).days
        return string("yesterday") if days == 1 else string("days_ago", days)
    day = local_day(when, zone)
    month = localized(_MONTHS)[day.month - 1]
    return f"{day.day}. {month}" if current().language == "de" else f"{month} {day.day}"

"""Views the Phone app's screens share: a letter tile, the frame of a floating button, relative times."""

from __future__ import annotations

import functools
from collections.abc import Callable

from androidrl.virtual.apps.dialer.data import DAY_MS, HOUR_MS, MINUTE_MS, local_day
from androidrl.virtual.ui.config import current, localized
from androidrl.virtual.ui.views import WHITE, Color, ImageView

PACKAGE = "com.android.dialer"
RID = f"{PACKAGE}:id/"
#: LetterTileDrawable's colours (the contacts library's ``letter_tile_colors``).
TILE_COLORS: tuple[Color, ...] = (
    (219, 68, 55),
    (233, 30, 99),
    (156, 39, 176),
    (103, 58, 183),
    (63, 81, 181),
    (66, 133, 244),
    (3, 155, 229),
    (0, 151, 167),
    (0, 150, 136),
    (15, 157, 88),
    (104, 159, 56),
    (239, 108, 0),
    (255, 87, 34),
    (117, 117, 117),
)
DEFAULT_TILE: Color = (189, 189, 189)
_MONTHS = {
    "en": ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    "de": ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
}


@functools.lru_cache(maxsize=1024)
def java_hash(text: str) -> int:
    """``String.hashCode()`` (a name's tile colour is the one Android picks)."""
    h, data = 0, text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def letter_tile(name: str, size: float, **kwargs) -> ImageView:
    """A contact's photo: the letter tile of its name (LetterTileDrawable)."""
    letter = name.strip()[:1].upper() if name.strip()[:1].isalpha() else ""
    color = TILE_COLORS[abs(java_hash(name)) % len(TILE_COLORS)] if name else DEFAULT_TILE
    return ImageView(glyph=letter, color=color, glyph_color=WHITE, width=size, height=size, **kwargs)


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

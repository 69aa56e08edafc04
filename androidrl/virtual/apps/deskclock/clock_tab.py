"""The Clock tab (ClockFragment) and the world cities to show on it (worldclock/CitySelectionActivity).

The tab's list (``cities``) starts with the main clock (main_clock_frame.xml: ``digital_clock``,
the ``date`` and the next alarm, ``nextAlarm``, as AlarmManager.getNextAlarmClock gives it; both
in capitals, as ``textAllCaps`` shows them), then one world_clock_item.xml per chosen city
(``city_name``, ``hours_ahead``, its ``digital_clock``), by UTC offset. The fab ("Cities") opens
the city list: the chosen cities under "Selected Cities", then every city by name with its
index letter; each row a ``city_onoff`` check box (content-desc the city), ``city_name`` and
``city_time``. Its search field (AppCompat's SearchView: ``search_button``, ``search_src_text``,
``search_close_btn``) keeps the cities whose name starts with what is typed (``City.matches``).
The chosen cities are DeskClock's preferences (CityDAO): the app's data, ``cities``.
"""

from __future__ import annotations

import datetime as dt
import functools
import unicodedata
import zoneinfo
from functools import partial

from androidrl.virtual.apps.deskclock import alarms, formats
from androidrl.virtual.apps.deskclock.cities import CITIES, City
from androidrl.virtual.apps.deskclock.widgets import RID, Fab, SideButton, hairline
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui import config
from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.controls import CheckBox
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import (
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    ImageView,
    LinearLayout,
    ScrollingList,
    TextView,
    View,
)

CITY_SELECTION = f"{alarms.PACKAGE}.worldclock.CitySelectionActivity"


def city_time(context, city: City) -> dt.datetime:
    """The time in ``city`` now."""
    return context.local_time().astimezone(_zone(city.timezone))


@functools.cache
def _zone(name: str) -> dt.tzinfo:
    """The time zone ``name`` (every city's is in the tz database; UTC should one be missing)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


def name_key(name: str) -> str:
    """A collation key for city names (accents ignored, case-insensitive)."""
    return "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c)).casefold()


def selected_cities(app) -> list[City]:
    """The chosen cities (CityDAO), in the app's data."""
    return [CITIES[city_id] for city_id in app.data.get("cities", []) if city_id in CITIES]


class ClockTab:
    """The Clock tab's views, mixed into the DeskClock activity."""

    def clock_create(self) -> None:
        self.clock_scroll = ScrollState()

    def clock_page(self) -> View:
        s = self.string
        locale, is24 = self.context.locale(), self.context.is_24_hour()
        current = alarms.now(self.context)
        # The time changes at the next minute: draw again then (TextClock's tick).
        config.redraw_at(self.context.elapsed_realtime() / 1000 + 60 - current.second - current.microsecond / 1e6)
        lang = formats.language(locale)
        date = TextView(
            formats.date_text(current, locale).upper(),
            resource_id=RID + "date",
            content_desc=formats.long_date_text(current, locale),
            text_color=TEXT_SECONDARY,
            height=28,
        )
        info: list[View] = [date]
        following = self.context.alarms.next_alarm_clock()
        if following is not None and following.alarm_clock is not None:
            when = self.context.local_time(following.alarm_clock)
            text = formats.alarm_text(when, locale, is24)
            info += [
                TextView("A", resource_id=RID + "nextAlarmIcon", text_color=TEXT_SECONDARY, height=28, width=24),
                TextView(
                    text.upper(),
                    resource_id=RID + "nextAlarm",
                    content_desc=s("next_alarm_description", text),
                    text_color=TEXT_SECONDARY,
                    height=28,
                ),
            ]
        main = LinearLayout(
            [
                TextView(
                    formats.time_text(current.hour, current.minute, is24),
                    cls="android.widget.TextClock",
                    resource_id=RID + "digital_clock",
                    text_size=56,
                    height=96,
                ),
                LinearLayout(info, vertical=False, height=32),
                hairline(),
            ],
            padding=16,
        )
        here = current.utcoffset() or dt.timedelta(0)
        chosen = sorted(
            selected_cities(self.app),
            key=lambda city: (city_time(self.context, city).utcoffset(), name_key(city.name(lang))),
        )
        rows = [main] + [self.world_clock_item(city, current, here, is24, lang) for city in chosen]
        return ScrollingList(rows, state=self.clock_scroll, resource_id=RID + "cities", weight=1)

    def world_clock_item(self, city: City, current: dt.datetime, here: dt.timedelta, is24: bool, lang: str) -> View:
        """world_clock_item.xml: the city, how far ahead or behind it is, and its time."""
        s = self.string
        there = city_time(self.context, city)
        delta = int(((there.utcoffset() or dt.timedelta(0)) - here).total_seconds() // 60)
        hours, minutes = int(delta / 60), delta % 60 if delta >= 0 else -((-delta) % 60)
        texts: list[View] = [TextView(city.name(lang), resource_id=RID + "city_name", text_size=18, height=28)]
        if delta:
            ahead = delta > 0
            if minutes and hours:
                short = [alarms.quantity(self.app, lang, "hours_short", abs(hours)),
                         alarms.quantity(self.app, lang, "minutes_short", abs(minutes))]  # fmt: skip
                text = s("world_hours_minutes_ahead" if ahead else "world_hours_minutes_behind", *short)
            else:
                amount = alarms.quantity(self.app, lang, "minutes" if minutes else "hours", abs(minutes or hours))
                text = s("world_time_ahead" if ahead else "world_time_behind", amount)
            if there.weekday() != current.weekday():
                text = s("world_hours_tomorrow" if ahead else "world_hours_yesterday", text)
            texts.append(TextView(text, resource_id=RID + "hours_ahead", text_color=TEXT_SECONDARY, height=24))
        clock = TextView(
            formats.time_text(there.hour, there.minute, is24),
            cls="android.widget.TextClock",
            resource_id=RID + "digital_clock",
            text_size=28,
            height=56,
            width=150,
        )
        return LinearLayout([LinearLayout(texts, width=0, weight=1), clock], vertical=False, height=72, padding=16)

    def clock_fab(self) -> tuple[Fab | None, SideButton | None, SideButton | None]:
        return ("@", self.string("button_cities"), self.open_cities), None, None

    def open_cities(self) -> None:
        """The fab: the city list (CitySelectionActivity)."""
        self.start(CITY_SELECTION)


class CitySelectionActivity(Activity):
    """``worldclock.CitySelectionActivity``: choose the cities the Clock tab shows; a search narrows the list."""

    def on_create(self) -> None:
        self.original = sorted(selected_cities(self.app), key=lambda city: name_key(city.name(self.language)))
        self.query = TextState()
        self.searching = False
        self.scroll = ScrollState()

    @property
    def language(self) -> str:
        return formats.language(self.context.locale())

    @property
    def title(self) -> str:  # (the window's)
        return self.string("cities_activity_title")

    def build(self) -> View:
        s = self.string
        up = ImageView(glyph="<", color=SURFACE, glyph_color=TEXT, cls="android.widget.ImageButton",
                       content_desc=framework_string("navigate_up"),
                       clickable=True, focusable=True, width=48, height=48, on_click=self.finish)  # fmt: skip
        if self.searching:
            field = edit_text(self, self.query, True, self.focus_search, hint=s("abc_search_hint"),
                              resource_id=RID + "search_src_text", width=240)  # fmt: skip
            close = ImageView(glyph="x", color=SURFACE, glyph_color=TEXT_SECONDARY,
                              resource_id=RID + "search_close_btn", content_desc=s("abc_searchview_description_clear"),
                              clickable=True, focusable=True, width=48, height=48,
                              on_click=self.clear_search)  # fmt: skip
            bar = [up, field, close]
        else:
            title = TextView(self.title, resource_id="android:id/title", text_size=20, height=56, width=0, weight=1)
            search = ImageView(glyph="?", color=SURFACE, glyph_color=TEXT, resource_id=RID + "search_button",
                               content_desc=s("search_go"), clickable=True, focusable=True, width=48, height=48,
                               on_click=self.open_search)  # fmt: skip
            bar = [up, title, search]
        toolbar = LinearLayout(bar, vertical=False, resource_id=RID + "toolbar", height=56, background=SURFACE)
        rows = ScrollingList(self.rows(), state=self.scroll, resource_id=RID + "cities_list", weight=1)
        return LinearLayout([toolbar, rows], height=-1)

    def rows(self) -> list[View]:
        lang, chosen = self.language, set(self.app.data.get("cities", []))
        original = {city.id for city in self.original}
        unselected = sorted(
            (city for city in CITIES.values() if city.id not in original),
            key=lambda city: (city.index(lang), name_key(city.name(lang))),
        )
        query = "".join(c for c in self.query.text.upper() if c not in " -.'")
        rows: list[View] = []
        if query:  # (a search looks at the cities not chosen when the list opened, with no index)
            matches = [
                c
                for c in unselected
                if "".join(ch for ch in c.name(lang).upper() if ch not in " -.'").startswith(query)
            ]
            return [self.city_row(city, city.id in chosen, None) for city in matches]
        if self.original:
            rows.append(TextView(self.string("selected_cities_label"), text_size=20, height=48, padding=12))
            rows += [self.city_row(city, city.id in chosen, None) for city in self.original]
        previous = None
        for city in unselected:
            index = city.index(lang)
            rows.append(self.city_row(city, city.id in chosen, index if index != previous else None))
            previous = index
        return rows

    def city_row(self, city: City, checked: bool, index: str | None) -> View:
        """city_list_item.xml: the index letter (first of its section only), the check box, name and time."""
        lang, is24 = self.language, self.context.is_24_hour()
        there = city_time(self.context, city)
        name = city.name(lang)
        children: list[View] = [
            TextView(index or "", resource_id=RID + "index", text_color=PRIMARY, text_size=20, width=36, height=40)
            if index
            else View(width=36, height=40),
            CheckBox("", checked, resource_id=RID + "city_onoff", content_desc=name, clickable=False, width=40),
            LinearLayout(
                [
                    TextView(name, resource_id=RID + "city_name", text_size=16, height=24),
                    TextView(
                        formats.time_text(there.hour, there.minute, is24),
                        resource_id=RID + "city_time",
                        text_color=TEXT_SECONDARY,
                        height=20,
                    ),  # fmt: skip
                ],
                width=0,
                weight=1,
            ),
        ]
        return LinearLayout(children, vertical=False, clickable=True, focusable=True, height=56, padding=4,
                            background=None, on_click=partial(self.toggle_city, city.id))  # fmt: skip

    def toggle_city(self, city_id: str) -> None:
        """A tap on a city: it is chosen or not (``onCheckedChanged``; CityDAO saves the choice)."""
        chosen = list(self.app.data.get("cities", []))
        if city_id in chosen:
            chosen.remove(city_id)
        else:
            chosen.append(city_id)
        self.app.data["cities"] = chosen
        self.log(alarms.EVENTS, f"[Clock] [{'Create' if city_id in chosen else 'Delete'}] [DeskClock]")

    def open_search(self) -> None:
        self.searching = True

    def focus_search(self) -> None:
        self.searching = True

    def clear_search(self) -> None:
        """The close button: an empty query clears it; an empty one closes the search."""
        if self.query.text:
            self.query.set("")
        else:
            self.searching = False

    def on_back(self) -> bool:
        if self.searching:  # BACK closes the search first (the action view collapses)
            self.searching = False
            self.query.set("")
            return True
        return False

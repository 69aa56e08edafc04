"""Seeded content: the contacts, events, messages, calls, files, photos and alarms a phone starts with.

``VirtualPhone(seed=7, content={"contacts": 20, "messages": 15})`` fills the providers (through
the content resolver, as ``content insert`` would) and ``/sdcard`` from the seed alone, so the
same seed always gives the same phone. People come from :mod:`androidrl.pools`; their numbers are
``+1 555-0200`` to ``+1 555-0999`` (task generators use ``+1 555-01xx``, so a task's people never
collide with the seeded ones). Times are drawn around the phone's clock, taken to the hour:
messages and calls from the last two weeks, events over the next two weeks.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Mapping
from typing import Any

import numpy as np

from androidrl import pools
from androidrl.virtual.system.content.calendar import EVENTS
from androidrl.virtual.system.content.calllog import CALLS
from androidrl.virtual.system.content.contacts import AUTHORITY as CONTACTS
from androidrl.virtual.system.content.contacts import MIME_EMAIL, MIME_NAME, MIME_PHONE
from androidrl.virtual.system.content.deskclock import ALARMS
from androidrl.virtual.system.content.media import FILES, IMAGES
from androidrl.virtual.system.content.telephony import SMS
from androidrl.virtual.system.framework.content import ContentResolver, ProviderError

#: The kinds of seeded content, each with the most a phone may ask for.
KINDS = {"contacts": 800, "events": 1000, "messages": 1000, "calls": 1000, "files": 200, "photos": 100, "alarms": 50}
DAY_MS = 86_400_000


def check_content(content: Mapping[str, Any]) -> dict[str, int]:
    """The counts of a ``content`` setting, checked.

    Raises:
        TypeError: It is not a mapping.
        ValueError: An unknown kind, or a count that is not a whole number within the kind's bounds.
    """
    if not isinstance(content, Mapping):
        raise TypeError(f"content must be a mapping of kind to count, got {type(content).__name__}")
    counts = {}
    for kind, count in content.items():
        if kind not in KINDS:
            raise ValueError(f"content.{kind}: unknown kind of content; expected one of {', '.join(KINDS)}")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= KINDS[kind]:
            raise ValueError(f"content.{kind}: expected a whole number from 0 to {KINDS[kind]}, got {count!r}")
        counts[kind] = count
    return counts


class _Seeder:
    """Draws and inserts one phone's content."""

    def __init__(self, resolver: ContentResolver, files: Any, now: float, seed: int) -> None:
        self.resolver = resolver
        self.files = files
        self.rng = np.random.default_rng([seed, 0x5EED])
        self.now_ms = int(now // 3600 * 3600) * 1000  # to the hour: the same for a phone made a moment later
        self.people: list[dict[str, str]] = []
        self.known = 0  # how many of the people are contacts (the first ones)

    def pick(self, items: Any) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def person(self) -> dict[str, str]:
        """A new person, distinct by name and number from the ones drawn before."""
        names = {p["name"] for p in self.people}
        numbers = {p["phone"] for p in self.people}
        while True:
            first, last = self.pick(pools.GIVEN_NAMES), self.pick(pools.FAMILY_NAMES)
            phone = f"+1 555-{int(self.rng.integers(200, 1000)):04d}"
            if f"{first} {last}" not in names and phone not in numbers:
                break
        email = f"{first}.{last}@example.com".lower().replace(" ", "")
        person = {"first": first, "last": last, "name": f"{first} {last}", "phone": phone, "email": email}
        self.people.append(person)
        return person

    def contacts(self, count: int) -> None:
        for _ in range(count):
            person = self.person()
            starred = int(self.rng.random() < 0.15)
            raw = self.resolver.insert(f"content://{CONTACTS}/raw_contacts", {"starred": starred})
            raw_id = int(str(raw).rsplit("/", 1)[1])
            rows = [
                {"mimetype": MIME_NAME, "data1": person["name"], "data2": person["first"], "data3": person["last"]},
                {"mimetype": MIME_PHONE, "data1": person["phone"], "data2": self.pick((1, 2, 3))},
                {"mimetype": MIME_EMAIL, "data1": person["email"], "data2": self.pick((1, 2))},
            ]
            for row in rows:
                self.resolver.insert(f"content://{CONTACTS}/data", {"raw_contact_id": raw_id, **row})

    def someone(self) -> dict[str, str]:
        """A seeded contact most of the time, else a stranger (not in the contacts)."""
        known = self.people[: self.known]
        return self.pick(known) if known and self.rng.random() < 0.75 else self.person()

    def past(self, days: int = 14) -> int:
        return self.now_ms - int(self.rng.integers(60_000, days * DAY_MS))

    def messages(self, count: int) -> None:
        for _ in range(count):
            sender = self.someone()
            kind = self.pick((1, 1, 2))  # received twice as often as sent
            words = [self.pick(pools.WORDS) for _ in range(int(self.rng.integers(3, 12)))]
            body = " ".join(words).capitalize() + self.pick((".", "?", "!"))
            read = 1 if kind == 2 else int(self.rng.random() < 0.7)
            values = {"address": sender["phone"], "body": body, "type": kind, "read": read, "seen": read,
                      "date": self.past()}  # fmt: skip
            self.resolver.insert(SMS, values)

    def calls(self, count: int) -> None:
        for _ in range(count):
            caller = self.someone()
            kind = self.pick((1, 2, 3))  # incoming, outgoing, missed
            known = caller in self.people[: self.known]
            date = self.past()
            values = {"number": caller["phone"], "date": date, "last_modified": date, "type": kind,
                      "new": int(kind == 3), "is_read": int(kind != 3),
                      "duration": 0 if kind == 3 else int(self.rng.integers(5, 1800)),
                      "name": caller["name"] if known else None}  # fmt: skip
            self.resolver.insert(CALLS, values)

    def events(self, count: int) -> None:
        today = self.now_ms - self.now_ms % DAY_MS
        for _ in range(count):
            day = today + int(self.rng.integers(-3, 15)) * DAY_MS
            start = day + (int(self.rng.integers(8, 20)) * 60 + self.pick((0, 30))) * 60_000
            end = start + self.pick((30, 60, 90)) * 60_000
            values = {"calendar_id": 1, "title": self.pick(pools.EVENT_TITLES), "dtstart": start, "dtend": end,
                      "eventTimezone": "UTC", "allDay": 0}  # fmt: skip
            self.resolver.insert(EVENTS, values)

    def alarms(self, count: int) -> None:
        for _ in range(count):
            days = self.pick((0, 0, 31, 96, 127))  # once, weekdays, weekends, every day (Weekdays bits)
            values = {"hour": int(self.rng.integers(5, 23)), "minutes": self.pick((0, 15, 30, 45)), "daysofweek": days,
                      "enabled": int(self.rng.random() < 0.5), "vibrate": 1,
                      "label": self.pick(pools.LABELS) if self.rng.random() < 0.5 else ""}  # fmt: skip
            self.resolver.insert(ALARMS, values)

    def documents(self, count: int) -> None:
        for _ in range(count):
            folder = self.pick(("Documents", "Download"))
            name = "_".join(self.pick(pools.WORDS) for _ in range(2)) + self.pick((".txt", ".md", ".csv"))
            text = " ".join(self.pick(pools.WORDS) for _ in range(int(self.rng.integers(8, 40)))) + "\n"
            self.files.mkdir(f"/sdcard/{folder}", parents=True)
            self.files.write(f"/sdcard/{folder}/{name}", text.encode())
            self.resolver.insert(FILES, {"_display_name": name, "relative_path": f"{folder}/"})

    def photos(self, count: int) -> None:
        from PIL import Image, ImageDraw  # (Pillow: only when a phone has photos)

        self.files.mkdir("/sdcard/DCIM/Camera", parents=True)
        for _ in range(count):
            taken = self.past(60) // 1000 * 1000
            name = dt.datetime.fromtimestamp(taken / 1000, dt.timezone.utc).strftime("IMG_%Y%m%d_%H%M%S.jpg")
            sky, ground = (tuple(int(c) for c in self.rng.integers(40, 230, 3)) for _ in range(2))
            image = Image.new("RGB", (320, 240), sky)
            draw = ImageDraw.Draw(image)
            draw.rectangle((0, int(self.rng.integers(110, 190)), 320, 240), fill=ground)
            x, y, r = (int(v) for v in self.rng.integers((30, 20, 12), (290, 100, 40)))
            draw.ellipse((x - r, y - r, x + r, y + r), fill=tuple(int(c) for c in self.rng.integers(150, 256, 3)))
            data = io.BytesIO()
            image.save(data, "JPEG", quality=85)
            self.files.write(f"/sdcard/DCIM/Camera/{name}", data.getvalue())
            values = {"_display_name": name, "relative_path": "DCIM/Camera/", "mime_type": "image/jpeg",
                      "date_taken": taken, "width": 320, "height": 240}  # fmt: skip
            self.resolver.insert(IMAGES, values)


def seed_content(resolver: ContentResolver, files: Any, clock: Any, seed: int, content: Mapping[str, Any]) -> None:
    """Fill a phone's providers and files with ``content``'s counts of each kind, drawn from ``seed``.

    Args:
        resolver: The phone's content resolver.
        files: The phone's file system.
        clock: The phone's clock (times are drawn around ``clock.now()``).
        seed: The phone's seed.
        content: Kind -> count (:data:`KINDS`).

    Raises:
        TypeError, ValueError: A bad ``content`` (:func:`check_content`).
        ValueError: The phone has no provider for a kind asked for.
    """
    counts = check_content(content)
    seeder = _Seeder(resolver, files, clock.now(), seed)
    steps = (("contacts", seeder.contacts), ("messages", seeder.messages), ("calls", seeder.calls),
             ("events", seeder.events), ("alarms", seeder.alarms), ("files", seeder.documents),
             ("photos", seeder.photos))  # fmt: skip
    for kind, fill in steps:
        if counts.get(kind):
            try:
                fill(counts[kind])
            except ProviderError as err:
                raise ValueError(f"content.{kind}: this phone cannot hold it ({err})") from None
        if kind == "contacts":
            seeder.known = len(seeder.people)

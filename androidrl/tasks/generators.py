"""Parameter generators: what a task file's ``params`` draw each episode, from the env's seeded RNG.

A parameter is a mapping with one kind key and, optionally, ``split``::

    params:
      target: {person: {ascii: true}}
      others: {people: {count: "{n}", distinct_from: target}}
      time: {time: {hours: [5, 11], minutes: [0, 15, 30, 45]}, split: hash}

Kinds (each a small, general library; a family that needs more gets a new general kind):

* ``choice: [...]`` one of the values; ``randint: [lo, hi]`` an int (inclusive);
  ``number: {range: [lo, hi], step}``.
* ``word``/``words: {count}``/``sentence: {words: [min, max]}`` from a named pool
  (``pool: common | labels | event_titles``); ``filename: {ext, words}``; ``code: {digits}``.
* ``person``/``people: {count, include}`` -> ``{first, last, name, phone, email}`` from fixed name
  pools, phones unique in the ``+1 555-01xx`` range; ``ascii: true`` for names that must be typed.
* ``time``/``times: {count}`` -> ``{hour, minute, text ("7:30 AM"), text24 ("07:30")}``, and the
  parts a 12-hour picker takes: ``hour12`` (7), ``mm`` ("05"), ``ampm`` ("AM").
* ``date: {within_days: [lo, hi], weekdays_only, days_of_month}`` -> ``{year, month, day, weekday, month_name,
  text ("Mon, Nov 30"), iso, millis}``, days from the *phone's* today (read over adb).
* ``pick``/``sample: {from, k}``/``shuffle: {from}`` over an earlier list parameter.
* ``note: {title_words, words}`` -> ``{title, body}`` (a capitalised title, a sentence for a body).
* Typed record lists for reset inserts: ``alarms``, ``contacts``, ``events``, ``messages``,
  ``calls`` (``type``: one call type for all), ``files``, ``notes`` — rows in the columns of AOSP's
  providers (and of Notes'), ``include: PARAM`` putting a target among the distractors;
  ``messages``/``calls`` ``from`` a people parameter (``each: N``: N rows per person), a message's
  ``body`` given or a sentence, ``sent: true`` for sent texts.

``distinct_from: PARAM`` (or a list of them) keeps a value (each element, for lists) different
from earlier parameters' values. Counts and other numbers may be placeholders of earlier
parameters (``count: "{n}"``). ``split: hash`` puts a value in the test split when a stable hash
of it says so (about a quarter of the values); ``split: {train: [...], test: [...]}`` lists the
values of each split. An episode of split ``train`` (``test``) only draws values of that split.
"""

from __future__ import annotations

import datetime as dt
import json
import unicodedata
import zlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, Field, ValidationError, model_validator

from androidrl import pools
from androidrl.errors import TaskError
from androidrl.tasks import placeholders
from androidrl.tasks.schema import Model
from androidrl.tasks.steps import CHILDREN, PARENT_ID
from androidrl.validation import format_errors

#: Draws before a generator gives up looking for a value that is distinct and of the wanted split.
MAX_ATTEMPTS = 200
#: One in this many values falls in the test split under ``split: hash``.
HASH_TEST_SHARE = 4
#: The instant the docs' example instructions are drawn at (the virtual phone's default clock).
DEFAULT_NOW = dt.datetime(2026, 6, 15, 9, 0, tzinfo=dt.timezone.utc)

#: A count: a number, or a placeholder of an earlier int parameter (``"{n}"``).
Count = Annotated[int, Field(ge=0, le=1000)] | Annotated[str, Field(pattern=r"^\{.*\}$")]
ParamName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=64)]
#: A randint bound (NumPy draws from int64; a bound beyond a quintillion is a typo).
RandBound = Annotated[int, Field(ge=-(10**18), le=10**18)]
Refs = ParamName | tuple[ParamName, ...] | None


# ---------------------------------------------------------------------------- kind arguments


class _Args(Model):
    """Arguments every kind takes."""

    distinct_from: Refs = None


class NumberArgs(_Args):
    """``number``: ``lo``, ``lo + step``, ... up to ``hi``."""

    range: tuple[float, float]
    step: float = Field(default=1, gt=0)

    @model_validator(mode="after")
    def _order(self) -> NumberArgs:
        if self.range[0] > self.range[1]:
            raise ValueError(f"range low > high: {list(self.range)}")
        if (self.range[1] - self.range[0]) / self.step > 1e6:
            raise ValueError("range / step allows more than a million values")
        return self


class WordArgs(_Args):
    """``word``: one word of a pool."""

    pool: Literal["common", "labels", "event_titles"] = "common"


class WordsArgs(WordArgs):
    """``words``: ``count`` distinct words of a pool, joined by spaces."""

    count: Count = 2


class SentenceArgs(WordArgs):
    """``sentence``: a capitalised run of ``words`` words (a range) ending with a full stop."""

    words: tuple[Annotated[int, Field(ge=1, le=30)], Annotated[int, Field(ge=1, le=30)]] = (3, 6)


class FilenameArgs(_Args):
    """``filename``: words joined by ``_`` and an extension (one of ``ext``)."""

    ext: tuple[Annotated[str, Field(pattern=r"^[a-z0-9]{1,8}$")], ...] = Field(default=("txt",), min_length=1)
    words: int = Field(default=2, ge=1, le=4)


class CodeArgs(_Args):
    """``code``: a string of ``digits`` digits."""

    digits: int = Field(default=4, ge=1, le=12)


class PersonArgs(_Args):
    """``person``: a name from the pools with a unique phone number and an email."""

    ascii: bool = False


class PeopleArgs(PersonArgs):
    """``people``: ``count`` distinct persons."""

    count: Count = 3
    include: ParamName | None = None  # a person parameter among them (at a random place)


Hour = Annotated[int, Field(ge=0, le=23)]
Minute = Annotated[int, Field(ge=0, le=59)]


class _TimeRange(_Args):
    """An hour in ``hours`` (inclusive range) and a minute of ``minutes`` (the choices)."""

    hours: tuple[Hour, Hour] = (0, 23)
    minutes: tuple[Minute, ...] = Field(default=tuple(range(0, 60, 5)), min_length=1)

    @model_validator(mode="after")
    def _order(self) -> _TimeRange:
        if self.hours[0] > self.hours[1]:
            raise ValueError(f"hours low > high: {list(self.hours)}")
        return self


class TimeArgs(_TimeRange):
    """``time``: a time of the range; or, with ``from``, an earlier time parameter moved ``plus`` minutes."""

    from_: ParamName | None = Field(default=None, alias="from")
    plus: int = Field(default=0, ge=-1440, le=1440)


class TimesArgs(_TimeRange):
    """``times``: ``count`` distinct times."""

    count: Count = 3


Days = Annotated[int, Field(ge=-3650, le=3650)]


class DateArgs(_Args):
    """``date``: a day ``within_days`` (inclusive range) of the phone's today (and ``days_of_month``, if given)."""

    within_days: tuple[Days, Days] = (1, 30)
    weekdays_only: bool = False
    days_of_month: tuple[Annotated[int, Field(ge=1, le=31)], Annotated[int, Field(ge=1, le=31)]] = (1, 31)

    @model_validator(mode="after")
    def _order(self) -> DateArgs:
        if self.within_days[0] > self.within_days[1]:
            raise ValueError(f"within_days low > high: {list(self.within_days)}")
        return self


class FromArgs(_Args):
    """``pick``/``shuffle``: an earlier list parameter."""

    from_: ParamName = Field(alias="from")


class SampleArgs(FromArgs):
    """``sample``: ``k`` distinct elements of an earlier list parameter."""

    k: Count


class AlarmsArgs(TimesArgs):
    """``alarms``: DeskClock alarm rows (AOSP ``ClockContract.AlarmsColumns``)."""

    include: ParamName | None = None  # a time parameter: one alarm at that time
    labels: bool = False  # a label from the ``labels`` pool, else none
    enabled: bool | None = None  # None: each alarm on or off at random


class ContactsArgs(PeopleArgs):
    """``contacts``: contact rows (a raw contact with name, phone and email data rows)."""

    from_: ParamName | None = Field(default=None, alias="from")  # exactly these persons (a people parameter)


class EventsArgs(DateArgs):
    """``events``: Calendar event rows (AOSP ``CalendarContract.Events``)."""

    count: Count = 3
    include: ParamName | None = None  # a date parameter: one event that day
    on_day: ParamName | None = None  # a date parameter: every event that day (a day's agenda)
    # The included event's title and start (a time parameter); without ``include``, every event's.
    # Other titles are drawn from the pool, each once while it lasts, never the given one (nor the
    # value of a text parameter in ``distinct_from``).
    title: str | None = Field(default=None, min_length=1, max_length=200)
    at: ParamName | None = None
    hours: tuple[Hour, Hour] = (8, 18)
    calendar_id: int = Field(default=1, ge=1)


class _LogArgs(_Args):
    """Rows with a person and a time: ``count`` of them from ``from`` (people) or new persons."""

    count: Count = 3
    from_: ParamName | None = Field(default=None, alias="from")
    each: int | None = Field(default=None, ge=1, le=20)  # every person of ``from`` has this many (count unused)
    within_days: tuple[Days, Days] = (-30, 0)

    @model_validator(mode="after")
    def _each_needs_from(self) -> _LogArgs:
        if self.each is not None and self.from_ is None:
            raise ValueError("each needs from: the people who each have that many rows")
        return self


class MessagesArgs(_LogArgs):
    """``messages``: SMS rows (AOSP ``Telephony.Sms``), received (``type`` 1) or ``sent`` (2), read."""

    body: str | None = Field(default=None, min_length=1)  # every message's text (else a sentence each)
    sent: bool = False


class CallsArgs(_LogArgs):
    """``calls``: call log rows (AOSP ``CallLog.Calls``)."""

    type: int | None = Field(default=None, ge=1, le=7)  # CallLog.Calls.*_TYPE; None: incoming, outgoing or missed


class NoteArgs(SentenceArgs):
    """``note``: a title of ``title_words`` words of the pool, capitalised, and a sentence of ``words`` for a body."""

    title_words: int = Field(default=1, ge=1, le=4)


class NotesArgs(NoteArgs):
    """``notes``: rows of Notes' provider (``content://com.androidrl.notes/notes``), titles distinct."""

    count: Count = 3
    include: ParamName | None = None  # a note parameter among them


class FilesArgs(FilenameArgs):
    """``files``: files to write (``{path, content}``), for the ``file`` reset step."""

    count: Count = 3
    dir: str = Field(default="/sdcard/Download", pattern=r"^/[A-Za-z0-9_./-]+$")
    include: ParamName | None = None  # a filename parameter among them


# ---------------------------------------------------------------------------- the context


@dataclass
class Draw:
    """What a generator draws with: the RNG, the values so far, the split, the phone's clock.

    Args:
        rng: The env's seeded RNG.
        split: ``train`` or ``test``: the values a split parameter may take.
        now: The phone's current time (read over adb once, when a generator first needs it).
        values: The parameters drawn so far, by name.
    """

    rng: np.random.Generator
    split: Literal["train", "test"] = "train"
    now: Callable[[], dt.datetime] = field(default=lambda: DEFAULT_NOW)
    values: dict[str, Any] = field(default_factory=dict)

    def index(self, n: int) -> int:
        """A uniform index in ``0..n-1``."""
        return int(self.rng.integers(n))

    def pick(self, items: Any) -> Any:
        """A uniform element of a sequence."""
        return items[self.index(len(items))]


# ---------------------------------------------------------------------------- one value of each kind


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _one_number(args: NumberArgs, draw: Draw) -> int | float:
    low, high = args.range
    steps = int((high - low) // args.step)
    value = low + args.step * int(draw.rng.integers(steps + 1))
    return int(value) if all(float(v).is_integer() for v in (low, args.step)) else round(value, 10)


def _one_word(args: WordArgs, draw: Draw) -> str:
    return draw.pick(pools.POOLS[args.pool])


def _one_sentence(args: SentenceArgs, draw: Draw) -> str:
    low, high = sorted(args.words)
    n = int(draw.rng.integers(low, high + 1))
    words = [draw.pick(pools.POOLS[args.pool]) for _ in range(n)]
    text = " ".join(words)
    return text[:1].upper() + text[1:] + "."


def _one_filename(args: FilenameArgs, draw: Draw) -> str:
    words = [draw.pick(pools.WORDS) for _ in range(args.words)]
    return "_".join(words) + "." + draw.pick(args.ext)


def _one_code(args: CodeArgs, draw: Draw) -> str:
    return "".join(str(d) for d in draw.rng.integers(0, 10, size=args.digits).tolist())


def _one_person(args: PersonArgs, draw: Draw) -> dict[str, str]:
    names = [n for n in pools.GIVEN_NAMES if not args.ascii or n.isascii()]
    families = [n for n in pools.FAMILY_NAMES if not args.ascii or n.isascii()]
    first, last = draw.pick(names), draw.pick(families)
    number = f"+1 555-01{draw.index(100):02d}"
    email = f"{_ascii(first)}.{_ascii(last)}@example.com".lower().replace(" ", "")
    return {"first": first, "last": last, "name": f"{first} {last}", "phone": number, "email": email}


def _one_note(args: NoteArgs, draw: Draw) -> dict[str, str]:
    title = " ".join(draw.pick(pools.POOLS[args.pool]) for _ in range(args.title_words))
    return {"title": title[:1].upper() + title[1:], "body": _one_sentence(args, draw)}


def time_value(hour: int, minute: int) -> dict[str, Any]:
    """A time as the generators give it: ``{hour, minute, text ("7:30 AM"), text24 ("07:30")}``.

    Also the parts a 12-hour time picker takes one by one: ``hour12`` (7), ``mm`` ("05") and ``ampm``.
    """
    twelve, half = hour % 12 or 12, "AM" if hour < 12 else "PM"
    return {
        "hour": hour,
        "minute": minute,
        "text": f"{twelve}:{minute:02d} {half}",
        "text24": f"{hour:02d}:{minute:02d}",
        "hour12": twelve,
        "mm": f"{minute:02d}",
        "ampm": half,
    }


def _one_time(args: TimeArgs | TimesArgs, draw: Draw) -> dict[str, Any]:
    base = getattr(args, "from_", None)
    if base is not None:  # a time relative to another: "30 minutes before the event"
        value = draw.values[base]
        if not isinstance(value, dict) or not {"hour", "minute"} <= set(value):
            raise TaskError(f"time from {base!r}: {base} is {value!r}, not a time")
        minutes = (value["hour"] * 60 + value["minute"] + args.plus) % 1440
        return time_value(minutes // 60, minutes % 60)
    low, high = args.hours
    return time_value(int(draw.rng.integers(low, high + 1)), draw.pick(args.minutes))


def date_value(day: dt.date, tz: dt.tzinfo) -> dict[str, Any]:
    """A date as the generators give it; ``millis`` is the day's local midnight since the epoch."""
    midnight = dt.datetime(day.year, day.month, day.day, tzinfo=tz)
    return {
        "year": day.year,
        "month": day.month,
        "day": day.day,
        "weekday": day.strftime("%A"),
        "month_name": day.strftime("%B"),
        "text": f"{day.strftime('%a')}, {day.strftime('%b')} {day.day}",
        "iso": day.isoformat(),
        "millis": int(midnight.timestamp()) * 1000,
    }


def _one_date(args: DateArgs, draw: Draw) -> dict[str, Any]:
    now = draw.now()
    low, high = args.within_days
    first, last = args.days_of_month
    offsets = [
        d
        for d in range(low, high + 1)
        if (not args.weekdays_only or (now + dt.timedelta(days=d)).weekday() < 5)
        and first <= (now + dt.timedelta(days=d)).day <= last
    ]
    if not offsets:
        what = "weekday" if args.weekdays_only else "day"
        raise TaskError(
            f"no {what} within {list(args.within_days)} days of {now.date().isoformat()}"
            + (f" on days {first} to {last} of a month" if (first, last) != (1, 31) else "")
        )
    return date_value(now.date() + dt.timedelta(days=draw.pick(offsets)), now.tzinfo or dt.timezone.utc)


def _list_param(draw: Draw, name: str, kind: str) -> list[Any]:
    value = draw.values[name]
    if not isinstance(value, (list, tuple)):
        raise TaskError(f"{kind} from {name!r}: {name} is {value!r}, not a list")
    return list(value)


def _one_pick(args: FromArgs, draw: Draw) -> Any:
    items = _list_param(draw, args.from_, "pick")
    if not items:
        raise TaskError(f"pick from {args.from_!r}: the list is empty")
    return draw.pick(items)


def _one_sample(args: SampleArgs, draw: Draw) -> list[Any]:
    items = _list_param(draw, args.from_, "sample")
    if args.k > len(items):
        raise TaskError(f"sample of {args.k} from {args.from_!r}: the list has {len(items)}")
    return [items[i] for i in draw.rng.permutation(len(items))[: args.k].tolist()]


def _one_shuffle(args: FromArgs, draw: Draw) -> list[Any]:
    items = _list_param(draw, args.from_, "shuffle")
    return [items[i] for i in draw.rng.permutation(len(items)).tolist()]


# ---------------------------------------------------------------------------- records


def _alarm_row(time: dict[str, Any], args: AlarmsArgs, draw: Draw) -> dict[str, Any]:
    enabled = args.enabled if args.enabled is not None else bool(draw.index(2))
    label = draw.pick(pools.LABELS) if args.labels else ""
    return {
        "hour": time["hour"],
        "minutes": time["minute"],
        "enabled": int(enabled),
        "daysofweek": 0,
        "vibrate": 1,
        "label": label,
    }


#: Where contacts go: a raw contact, then its data rows (``$parent_id`` is the raw contact's ``_id``).
CONTACTS_DATA = "content://com.android.contacts/data"


def contact_row(person: dict[str, str]) -> dict[str, Any]:
    """The insert row of a contact: a ``raw_contacts`` row whose ``_children`` are its name, phone and email."""
    parent = PARENT_ID
    data = [
        {
            "raw_contact_id": parent,
            "mimetype": "vnd.android.cursor.item/name",
            "data1": person["name"],
            "data2": person["first"],
            "data3": person["last"],
        },
        {
            "raw_contact_id": parent,
            "mimetype": "vnd.android.cursor.item/phone_v2",
            "data1": person["phone"],
            "data2": 2,
        },
        {
            "raw_contact_id": parent,
            "mimetype": "vnd.android.cursor.item/email_v2",
            "data1": person["email"],
            "data2": 1,
        },
    ]
    return {"account_name": None, "account_type": None, CHILDREN: [{"uri": CONTACTS_DATA, "rows": data}]}


def _event_rows(days: list[dict[str, Any]], target: int | None, args: EventsArgs, draw: Draw) -> list[dict]:
    """One event per day; the ``target``-th (every one when None) with the given title and start, if any."""
    low, high = args.hours
    given = [i for i in range(len(days)) if target is None or i == target]
    at = draw.values[args.at] if args.at is not None else None
    if at is not None and not (isinstance(at, dict) and {"hour", "minute"} <= set(at)):
        raise TaskError(f"events at {args.at!r}: {args.at} is {at!r}, not a time")
    taken = {args.title} | {v for r in _refs(args.distinct_from) if isinstance(v := draw.values[r], str)}
    left = [t for t in pools.EVENT_TITLES if t not in taken]  # (distinct_from a text: no event has it as title)
    rows = []
    for i, date in enumerate(days):
        minutes = int(draw.rng.integers(low, high + 1)) * 60 + draw.pick((0, 30))
        if at is not None and i in given:
            minutes = at["hour"] * 60 + at["minute"]
        if args.title is not None and i in given:
            title = args.title
        else:
            title = left.pop(draw.index(len(left))) if left else draw.pick(pools.EVENT_TITLES)
        start = date["millis"] + minutes * 60_000
        rows.append({
            "calendar_id": args.calendar_id,
            "title": title,
            "dtstart": start,
            "dtend": start + draw.pick((30, 60, 90)) * 60_000,
            "eventTimezone": "UTC",
            "allDay": 0,
        })  # fmt: skip
    return rows


def _when(args: _LogArgs, draw: Draw) -> int:
    """Milliseconds since the epoch, uniform within ``within_days`` of the phone's now."""
    low, high = args.within_days
    return (int(draw.now().timestamp()) + int(draw.rng.integers(low * 86_400, high * 86_400 + 1))) * 1000


def _sender(args: _LogArgs, draw: Draw) -> dict[str, str]:
    if args.from_ is not None:
        return draw.pick(_list_param(draw, args.from_, "messages"))
    return _one_person(PersonArgs(), draw)


def _message_row(person: dict[str, str], args: MessagesArgs, draw: Draw) -> dict[str, Any]:
    body = args.body if args.body is not None else _one_sentence(SentenceArgs(), draw)
    kind = 2 if args.sent else 1  # Telephony.Sms.MESSAGE_TYPE_SENT, _INBOX
    return {"address": person["phone"], "body": body, "type": kind, "read": 1, "date": _when(args, draw)}


def _call_row(person: dict[str, str], args: CallsArgs, draw: Draw) -> dict[str, Any]:
    return {
        "number": person["phone"],
        "name": person["name"],
        "type": args.type if args.type is not None else draw.pick((1, 2, 3)),  # incoming, outgoing, missed
        "duration": int(draw.rng.integers(0, 1200)),
        "date": _when(args, draw),
    }


def _file_row(name: str, args: FilesArgs, draw: Draw) -> dict[str, str]:
    return {"path": f"{args.dir.rstrip('/')}/{name}", "content": _one_sentence(SentenceArgs(), draw) + "\n"}


# ---------------------------------------------------------------------------- the kinds


def _canonical(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def identity(value: Any) -> str:
    """What names a value for splits and ``distinct_from``: a mapping's ``name``/``text``/``path``, else its text."""
    if isinstance(value, dict):
        for key in ("name", "text", "path"):
            if key in value:
                return str(value[key])
    return _canonical(value)


def _keys(value: Any) -> set[Hashable]:
    """The keys two values must not share to be distinct (a person: neither name nor phone)."""
    if isinstance(value, dict) and "phone" in value:
        return {("name", value["name"]), ("phone", value["phone"])}
    if isinstance(value, dict) and set(value) == {"title", "body"}:  # a note: known by its title
        return {("title", value["title"])}
    return {identity(value)}


@dataclass(frozen=True)
class Kind:
    """A generator kind: its arguments, how it draws one value, and what a value offers to placeholders.

    ``element`` draws one value; a kind with ``listed`` draws ``count`` distinct ones (and, with
    ``row``, turns each into a provider row, after putting its ``include`` among them).
    """

    args: type[BaseModel]
    element: Callable[[Any, Draw], Any]
    fields: frozenset[str] | None = frozenset()  # the keys of a value's mapping (None: a list, or unknown)
    listed: bool = False
    row: Callable[[Any, Any, Draw], Any] | None = None
    repeats: bool = False  # (listed) elements may repeat: a sender writes several messages
    #: (listed) the rows made together, from the elements and the included one's index (events: titles apart).
    rows: Callable[[list[Any], int | None, Any, Draw], list[Any]] | None = None


_PERSON = frozenset({"first", "last", "name", "phone", "email"})
_TIME = frozenset({"hour", "minute", "text", "text24", "hour12", "mm", "ampm"})
_DATE = frozenset({"year", "month", "day", "weekday", "month_name", "text", "iso", "millis"})

KINDS: dict[str, Kind] = {
    "number": Kind(NumberArgs, _one_number),
    "word": Kind(WordArgs, _one_word),
    "words": Kind(WordsArgs, _one_word, listed=True),  # (joined into one string)
    "sentence": Kind(SentenceArgs, _one_sentence),
    "filename": Kind(FilenameArgs, _one_filename),
    "code": Kind(CodeArgs, _one_code),
    "person": Kind(PersonArgs, _one_person, _PERSON),
    "people": Kind(PeopleArgs, _one_person, listed=True, fields=None),
    "time": Kind(TimeArgs, _one_time, _TIME),
    "times": Kind(TimesArgs, _one_time, listed=True, fields=None),
    "date": Kind(DateArgs, _one_date, _DATE),
    "pick": Kind(FromArgs, _one_pick, fields=None),
    "sample": Kind(SampleArgs, _one_sample, fields=None),
    "shuffle": Kind(FromArgs, _one_shuffle, fields=None),
    "alarms": Kind(AlarmsArgs, _one_time, listed=True, row=_alarm_row, fields=None),
    "contacts": Kind(ContactsArgs, _one_person, None, listed=True, row=lambda person, args, draw: contact_row(person)),
    "events": Kind(EventsArgs, _one_date, listed=True, rows=_event_rows, fields=None),
    "messages": Kind(MessagesArgs, _sender, None, listed=True, row=_message_row, repeats=True),
    "calls": Kind(CallsArgs, _sender, None, listed=True, row=_call_row, repeats=True),
    "files": Kind(FilesArgs, _one_filename, listed=True, row=_file_row, fields=None),
    "note": Kind(NoteArgs, _one_note, frozenset({"title", "body"})),
    "notes": Kind(NotesArgs, _one_note, listed=True, row=lambda note, args, draw: dict(note), fields=None),
}


# ---------------------------------------------------------------------------- a parameter


class ExplicitSplit(Model):
    """The values of each split, as lists (compared by :func:`identity`)."""

    train: tuple[Any, ...] | None = None
    test: tuple[Any, ...] = Field(min_length=1)


class Param(Model):
    """A random parameter: exactly one kind (see the module's docs), and an optional ``split``."""

    choice: tuple[str | int | float | bool | dict[str, Any] | list[Any], ...] | None = Field(default=None, min_length=1)
    randint: tuple[RandBound, RandBound] | None = None
    number: NumberArgs | None = None
    word: WordArgs | None = None
    words: WordsArgs | None = None
    sentence: SentenceArgs | None = None
    filename: FilenameArgs | None = None
    code: CodeArgs | None = None
    person: PersonArgs | None = None
    people: PeopleArgs | None = None
    time: TimeArgs | None = None
    times: TimesArgs | None = None
    date: DateArgs | None = None
    pick: FromArgs | None = None
    sample: SampleArgs | None = None
    shuffle: FromArgs | None = None
    alarms: AlarmsArgs | None = None
    contacts: ContactsArgs | None = None
    events: EventsArgs | None = None
    messages: MessagesArgs | None = None
    calls: CallsArgs | None = None
    files: FilesArgs | None = None
    note: NoteArgs | None = None
    notes: NotesArgs | None = None
    split: Literal["hash"] | ExplicitSplit | None = None

    @model_validator(mode="after")
    def _one(self) -> Param:
        kinds = [name for name in ("choice", "randint", *KINDS) if getattr(self, name) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a param needs exactly one of choice, randint, {', '.join(KINDS)}; got {kinds or 'none'}")
        if self.randint is not None and self.randint[0] > self.randint[1]:
            raise ValueError(f"randint low > high: {list(self.randint)}")
        if isinstance(self.split, ExplicitSplit) and self.choice is not None:
            known = {identity(c) for c in self.choice}
            for name in ("train", "test"):
                values = getattr(self.split, name) or ()
                if values and not known & {identity(v) for v in values}:
                    raise ValueError(f"split.{name}: none of {list(values)} is a choice")
        if self.split == "hash" and self.kind in ("choice", "randint"):
            values = self.choice if self.choice is not None else range(self.randint[0], self.randint[1] + 1)
            for which in ("train", "test"):  # (an episode of an empty split could never be drawn)
                if not any(in_split(v, "hash", which) for v in values[:10_000]):
                    raise ValueError(
                        f"split: hash puts none of the {len(values)} values in the {which} split; "
                        "list them instead: split: {train: [...], test: [...]}"
                    )
        return self

    @property
    def kind(self) -> str:
        """Which kind of value this is (``choice``, ``person``...)."""
        return next(name for name in ("choice", "randint", *KINDS) if getattr(self, name) is not None)

    @property
    def args(self) -> Any:
        """The kind's arguments (the choices, the randint bounds, or its arguments model)."""
        return getattr(self, self.kind)

    def references(self) -> list[str]:
        """The earlier parameters this one reads (``distinct_from``, ``include``, ``from``, placeholders)."""
        if self.kind in ("choice", "randint"):
            return []
        args = self.args
        refs = args.distinct_from if isinstance(args.distinct_from, tuple) else (args.distinct_from,)
        names = [r for r in refs if r]
        names += [v for k in ("include", "from_", "on_day", "at") if isinstance(v := getattr(args, k, None), str)]
        names += [p.name for _, text in placeholders.strings(args.model_dump()) for p in placeholders.find(text)]
        return list(dict.fromkeys(names))

    def fields(self) -> frozenset[str] | None:
        """The keys placeholders may read from a value (None: unknown, checked when filled)."""
        if self.choice is not None:
            maps = [c for c in self.choice if isinstance(c, dict)]
            return (
                frozenset.intersection(*(frozenset(c) for c in maps)) if len(maps) == len(self.choice) else frozenset()
            )
        if self.randint is not None:
            return frozenset()
        return KINDS[self.kind].fields


def in_split(value: Any, split: Literal["hash"] | ExplicitSplit | None, which: str) -> bool:
    """Whether ``value`` belongs to split ``which`` (``train``/``test``) under a parameter's ``split``."""
    if split is None:
        return True
    name = identity(value)
    if split == "hash":
        test = zlib.crc32(name.encode()) % HASH_TEST_SHARE == 0
    else:
        test = name in {identity(v) for v in split.test}
        if which == "train" and split.train is not None:
            return name in {identity(v) for v in split.train}
    return test == (which == "test")


def draw_param(name: str, param: Param, draw: Draw) -> Any:
    """One value of ``param`` (named ``name`` in messages), drawn with ``draw``.

    Raises:
        TaskError: No value of the episode's split (or distinct enough) in :data:`MAX_ATTEMPTS` draws,
            or arguments that do not fit once their placeholders are filled.
    """
    for _ in range(MAX_ATTEMPTS):
        value = _draw_once(name, param, draw)
        if in_split(value, param.split, draw.split):
            return value
    raise TaskError(f"params.{name}: no value of the {draw.split} split in {MAX_ATTEMPTS} draws")


def _draw_once(name: str, param: Param, draw: Draw) -> Any:
    if param.choice is not None:
        return draw.pick(param.choice)
    if param.randint is not None:
        low, high = param.randint
        return int(draw.rng.integers(low, high + 1))
    kind, args = KINDS[param.kind], _filled_args(name, param, draw)
    avoid = set().union(*(_avoided(draw, ref) for ref in _refs(args.distinct_from)))
    if not kind.listed:
        return _distinct(name, lambda: kind.element(args, draw), avoid)
    include = getattr(args, "include", None)
    if param.kind == "words":
        return " ".join(_distinct_list(name, kind, args, draw, avoid, args.count))
    at = None  # where the included element is
    if getattr(args, "from_", None) is not None and not kind.repeats:  # the rows of exactly these values
        elements = _list_param(draw, args.from_, param.kind)
    elif getattr(args, "each", None) is not None:  # each of these persons, ``each`` times
        elements = [p for p in _list_param(draw, args.from_, param.kind) for _ in range(args.each)]
    elif getattr(args, "on_day", None) is not None:  # every row on that one value (a day's events)
        elements = [draw.values[args.on_day]] * args.count
    elif include is not None:
        target = draw.values[include]
        avoid |= _keys(target)
        others = _distinct_list(name, kind, args, draw, avoid, max(0, args.count - 1))
        elements = [*others[: (at := draw.index(len(others) + 1))], target, *others[at:]]
    else:
        elements = _distinct_list(name, kind, args, draw, avoid, args.count)
    if kind.rows:
        return kind.rows(elements, at, args, draw)
    return [kind.row(e, args, draw) for e in elements] if kind.row else elements


def _refs(refs: Any) -> tuple[str, ...]:
    return refs if isinstance(refs, tuple) else (refs,) if refs else ()


def _avoided(draw: Draw, ref: str) -> set[Hashable]:
    value = draw.values[ref]
    items = value if isinstance(value, (list, tuple)) else [value]
    return set().union(*(_keys(item) for item in items)) if items else set()


def _distinct(name: str, one: Callable[[], Any], avoid: set[Hashable]) -> Any:
    for _ in range(MAX_ATTEMPTS):
        value = one()
        if not _keys(value) & avoid:
            return value
    raise TaskError(f"params.{name}: no value distinct from the others in {MAX_ATTEMPTS} draws")


def _distinct_list(name: str, kind: Kind, args: Any, draw: Draw, avoid: set[Hashable], count: int) -> list[Any]:
    """``count`` elements of ``kind``, none sharing a key with ``avoid`` or (unless it repeats) each other."""
    elements: list[Any] = []
    seen = set(avoid)
    for _ in range(count):
        value = _distinct(name, lambda: kind.element(args, draw), seen)
        if not kind.repeats:
            seen |= _keys(value)
        elements.append(value)
    return elements


def _filled_args(name: str, param: Param, draw: Draw) -> Any:
    """The kind's arguments with placeholders of earlier parameters filled (``count: "{n}"``)."""
    args = param.args
    data = args.model_dump(by_alias=True, exclude_unset=True)
    if not placeholders.has_placeholders(data):
        return args
    try:
        return type(args).model_validate(placeholders.fill(data, draw.values))
    except ValidationError as err:
        raise TaskError(f"params.{name}.{param.kind}: {format_errors(err)}") from None


def draw_params(params: dict[str, Param], draw: Draw) -> dict[str, Any]:
    """Every parameter, in order (each may read the earlier ones), into ``draw.values``."""
    for name, param in params.items():
        draw.values[name] = draw_param(name, param, draw)
    return draw.values

"""Side effects: watched state that must stay as it was at reset, except what the goal changes.

A task lists the sources its apps can touch::

    side_effects:
      - {content: content://com.android.deskclock/alarms, columns: [hour, minutes, enabled, label],
         except: "hour={time.hour} AND minutes={time.minute}"}
      - {settings: global, except: [wifi_on]}
      - {files: /sdcard/Download, except: ["*.tmp"]}

Each source is read right after the reset steps and again at every step; a difference outside
its ``except`` selector fails the episode, and ``info["side_effect"]`` says what changed.
``content`` rows are projected to ``columns``, and ``except`` is SQL the provider evaluates
(rows it selects are not watched); ``settings`` and ``files`` take globs of keys or names.
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from androidrl.tasks import state
from androidrl.tasks.schema import IDENTIFIER, Model, parse_by_key, parse_list
from androidrl.ui import Snapshot


class ContentSource(Model):
    """Rows of a content provider, projected to ``columns``; rows ``except`` selects are not watched."""

    content: str = Field(pattern=r"^content://\S+$")
    columns: tuple[Annotated[str, Field(pattern=IDENTIFIER)], ...] = Field(min_length=1)
    except_: str | None = Field(default=None, alias="except", min_length=1)

    @property
    def label(self) -> str:
        """How a message names the source."""
        return self.content

    def command(self) -> str:
        """The ``content query`` that reads the watched rows."""
        where = f"NOT COALESCE(({self.except_}), 0)" if self.except_ else None
        return state.content_query_command(self.content, self.columns, where)

    def read(self, output: str) -> Counter:
        """The watched rows, as a multiset of value tuples in ``columns`` order."""
        rows = state.parse_rows(output, self.columns)
        return Counter(tuple(row.get(c, "NULL") for c in self.columns) for row in rows)

    def change(self, before: Counter, after: Counter) -> str:
        """What differs ("" if nothing)."""
        added, removed = after - before, before - after
        for rows, what in ((added, "a row appeared"), (removed, "a row disappeared or changed")):
            if rows:
                row = next(iter(sorted(rows)))
                return f"{self.label}: {what}: " + ", ".join(f"{c}={v}" for c, v in zip(self.columns, row))
        return ""


class SettingsSource(Model):
    """A ``settings`` namespace; keys matching an ``except`` glob are not watched."""

    settings: Literal["system", "secure", "global"]
    except_: tuple[str, ...] = Field(default=(), alias="except")

    @property
    def label(self) -> str:
        """How a message names the source."""
        return f"settings {self.settings}"

    def command(self) -> str:
        """``settings list NAMESPACE``."""
        return state.settings_list_command(self.settings)

    def read(self, output: str) -> dict[str, str]:
        """The watched keys and their values."""
        return _unexcepted(state.parse_settings(output), self.except_)

    def change(self, before: dict[str, str], after: dict[str, str]) -> str:
        """What differs ("" if nothing)."""
        for key in sorted(set(before) | set(after)):
            if before.get(key) != after.get(key):
                return f"{self.label}: {key} changed from {before.get(key, 'unset')} to {after.get(key, 'unset')}"
        return ""


class FilesSource(Model):
    """The files of a folder (names, sizes, times); names matching an ``except`` glob are not watched."""

    files: str = Field(pattern=r"^/\S*$")
    except_: tuple[str, ...] = Field(default=(), alias="except")

    @property
    def label(self) -> str:
        """How a message names the source."""
        return f"files {self.files}"

    def command(self) -> str:
        """``ls -l DIR``."""
        return state.listing_command(self.files)

    def read(self, output: str) -> dict[str, str]:
        """The watched files and their ``size date time``."""
        return _unexcepted(state.parse_listing(output), self.except_)

    def change(self, before: dict[str, str], after: dict[str, str]) -> str:
        """What differs ("" if nothing)."""
        for name in sorted(set(before) | set(after)):
            if name not in before:
                return f"{self.label}: {name} appeared"
            if name not in after:
                return f"{self.label}: {name} disappeared"
            if before[name] != after[name]:
                return f"{self.label}: {name} changed"
        return ""


def _unexcepted(values: dict[str, str], globs: tuple[str, ...]) -> dict[str, str]:
    return {k: v for k, v in values.items() if not any(fnmatch.fnmatchcase(k, g) for g in globs)}


_SOURCE_KINDS = {"content": ContentSource, "settings": SettingsSource, "files": FilesSource}
Source = ContentSource | SettingsSource | FilesSource


#: The ``side_effects`` field of a task: its sources, each picked by its key.
Sources = Annotated[
    tuple[Source, ...],
    BeforeValidator(
        lambda value: parse_list(value, lambda v: parse_by_key(v, _SOURCE_KINDS, "a side-effect source"), "sources")
    ),
]


@dataclass
class Watch:
    """The watched sources of one episode: their state at reset, and what changed since.

    Args:
        sources: The episode's sources (placeholders filled).
    """

    sources: tuple[Source, ...]
    baseline: tuple[Any, ...] = ()
    #: The sources' outputs at reset: an output that reads the same needs no parsing to show no change.
    outputs: tuple[str, ...] = ()

    def read(self, snapshot: Snapshot) -> tuple[Any, ...]:
        """The sources' current state (each command once per snapshot)."""
        return tuple(source.read(output) for source, output in zip(self.sources, self._outputs(snapshot)))

    def _outputs(self, snapshot: Snapshot) -> tuple[str, ...]:
        return tuple(snapshot.shell(source.command()).text for source in self.sources)

    def start(self, snapshot: Snapshot) -> None:
        """Take the state at reset."""
        self.outputs = self._outputs(snapshot)
        self.baseline = tuple(source.read(output) for source, output in zip(self.sources, self.outputs))

    def change(self, snapshot: Snapshot) -> str:
        """The first difference from the state at reset, named ("" when nothing changed)."""
        for source, before, then, now in zip(self.sources, self.baseline, self.outputs, self._outputs(snapshot)):
            changed = source.change(before, source.read(now)) if now != then else ""
            if changed:
                return changed
        return ""

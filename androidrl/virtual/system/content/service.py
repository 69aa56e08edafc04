"""The providers of the installed packages, by authority (ActivityManagerService's ``ContentProviderHelper``).

Each provider an installed package declares (``App.providers``) is made once per phone and
attached to its owner; it lives while the package is installed (an update keeps it), goes with
an uninstall, and is wiped by ``pm clear`` of the owner. A snapshot holds every provider's
state, and loading one puts back the providers of the packages the snapshot had. The answers of
queries are kept while their provider's data stays the same (:meth:`ContentService.query_answer`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from androidrl.virtual.system.framework.app import App
from androidrl.virtual.system.framework.content import (
    ILLEGAL_STATE,
    ContentProvider,
    ContentResolver,
    KeptAnswers,
    ProviderError,
    ProviderHost,
    Uri,
)

T = TypeVar("T")
#: Answers kept per provider (a bound, so a caller asking ever new queries cannot grow the memory).
_KEPT_ANSWERS = 256


class ContentService:
    """Registers, finds, wipes and snapshots the phone's content providers.

    Args:
        apps: The installed packages (shared with the package manager).
        lock: The phone's lock, held while providers change and during every resolver call.
        now_ms: The phone's wall time in milliseconds.
        log: ``log(package, tag, message, priority)`` writes to the log from a package's process.
        on_change: Runs after data changed (the screen must be rebuilt).
        files: The file system, handed to providers that keep files.
        settings: The settings store, handed to the settings provider.
    """

    def __init__(
        self,
        apps: dict[str, App],
        *,
        lock: threading.RLock,
        now_ms: Callable[[], int],
        log: Callable[[str, str, str, str], None],
        on_change: Callable[[], None],
        files: Any = None,
        settings: Any = None,
    ) -> None:
        self.apps = apps
        self._lock = lock
        self._now_ms = now_ms
        self._log = log
        self._on_change = on_change
        self._files = files
        self._settings = settings
        self._providers: dict[str, tuple[str, ContentProvider]] = {}  # authority -> (owner, provider)
        self._answers = KeptAnswers(_KEPT_ANSWERS)  # the `content` tool's answers (query, form)
        #: The resolver apps and the shell use.
        self.resolver = ContentResolver(self.acquire, lock)

    # ------------------------------------------------------------------ finding

    def provider(self, authority: str) -> ContentProvider | None:
        """The provider of ``authority``, or None."""
        entry = self._providers.get(authority)
        return entry[1] if entry else None

    def acquire(self, authority: str) -> ContentProvider:
        """The provider of ``authority``.

        Raises:
            ProviderError: ``IllegalStateException: Could not find provider: AUTHORITY``.
        """
        provider = self.provider(authority)
        if provider is None:
            raise ProviderError(ILLEGAL_STATE, f"Could not find provider: {authority}")
        return provider

    def query_answer(
        self,
        authority: str,
        uri: Uri,
        projection: Sequence[str] | None,
        where: str | None,
        sort: str | None,
        form: Hashable,
        answer: Callable[[ContentProvider], T],
    ) -> T:
        """``answer(provider)`` of a query (no selection arguments), kept while the provider's data stays the same.

        ``answer`` runs the query and shapes the cursor (``form`` names the shape, e.g. the
        ``content`` tool's output); its result is returned again, without running, while the
        provider's :meth:`~ContentProvider.query_version` stays the same, so it must not be mutated.

        Raises:
            ProviderError: No provider has ``authority``, or the provider refused the query (never kept).
        """
        with self._lock:
            provider = self.acquire(authority)
            key = (uri.text, None if projection is None else tuple(projection), where, sort, form)
            return self._answers.get(provider, uri, (projection, where, sort), key, lambda: answer(provider))

    def notify_change(self, uri: str) -> None:
        """Data under ``uri`` changed (``ContentResolver.notifyChange``): the screen is rebuilt, and apps read anew."""
        self.resolver.generation += 1
        self._on_change()

    # ------------------------------------------------------------------ packages

    def sync(self) -> None:
        """Match the providers to the installed packages: make the new ones, drop those whose package went."""
        with self._lock:
            wanted = {cls.authority: (app.package, cls) for app in self.apps.values() for cls in app.providers}
            for authority in [a for a, (owner, p) in self._providers.items() if wanted.get(a) != (owner, type(p))]:
                del self._providers[authority]
            for authority, (owner, cls) in wanted.items():
                if authority not in self._providers:
                    self._providers[authority] = (owner, self._make(owner, cls))
            self.resolver.generation += 1

    def clear(self, package: str) -> None:
        """``pm clear PACKAGE``: wipe the data of its providers."""
        with self._lock:
            for owner, provider in self._providers.values():
                if owner == package:
                    provider.wipe()
                    provider.notify(f"content://{provider.authority}")

    def _make(self, owner: str, cls: type[ContentProvider]) -> ContentProvider:
        provider = cls()
        provider.attach(
            ProviderHost(
                package=owner,
                now_ms=self._now_ms,
                log=lambda tag, message, priority="I": self._log(owner, tag, message, priority),
                notify_change=self.notify_change,
                files=self._files,
                settings=self._settings,
            )
        )
        return provider

    # ------------------------------------------------------------------ snapshots

    def state(self) -> dict[str, tuple[str, type[ContentProvider], Any]]:
        """Every provider's owner, class and state."""
        with self._lock:
            return {a: (owner, type(p), p.state()) for a, (owner, p) in self._providers.items()}

    def restore(self, state: dict[str, tuple[str, type[ContentProvider], Any]]) -> None:
        """Put back the providers :meth:`state` described, with their data."""
        with self._lock:
            kept = {}
            for authority, (owner, cls, data) in state.items():
                entry = self._providers.get(authority)
                provider = entry[1] if entry and entry[0] == owner and type(entry[1]) is cls else self._make(owner, cls)
                provider.restore(data)
                kept[authority] = (owner, provider)
            self._providers = kept
            self.resolver.generation += 1

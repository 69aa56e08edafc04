"""Intents and intent filters: how a request to start an activity is spelled, and what an activity answers.

An :class:`Intent` is what ``am start``, a launcher tap or an app asks for: an action, categories,
a data URI and MIME type, a package or component, and typed extras. An :class:`IntentFilter` is
what an app declares an activity answers (``<intent-filter>`` in a manifest); implicit intents are
matched against the filters as ``IntentFilter.match`` does (frameworks/base
core/java/android/content/IntentFilter.java): the action must be one of the filter's, every
category of the intent one of the filter's (``startActivity`` asks for ``DEFAULT``), and the data
must fit the filter's schemes and MIME types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ACTION_MAIN = "android.intent.action.MAIN"
ACTION_VIEW = "android.intent.action.VIEW"
ACTION_INSERT = "android.intent.action.INSERT"
ACTION_EDIT = "android.intent.action.EDIT"
ACTION_SENDTO = "android.intent.action.SENDTO"
ACTION_SEND = "android.intent.action.SEND"
ACTION_DIAL = "android.intent.action.DIAL"
ACTION_BOOT_COMPLETED = "android.intent.action.BOOT_COMPLETED"
CATEGORY_DEFAULT = "android.intent.category.DEFAULT"
CATEGORY_LAUNCHER = "android.intent.category.LAUNCHER"
CATEGORY_HOME = "android.intent.category.HOME"
CATEGORY_BROWSABLE = "android.intent.category.BROWSABLE"
#: ``Intent.FLAG_ACTIVITY_NEW_TASK``: ``am start`` adds it before it starts the intent.
FLAG_ACTIVITY_NEW_TASK = 0x10000000
#: ``Intent.FLAG_ACTIVITY_CLEAR_TOP``: an activity of the class already in the task finishes, with
#: every activity above it, and the new one takes its place (a standard launch mode's).
FLAG_ACTIVITY_CLEAR_TOP = 0x04000000

# Uri.toSafeString: these schemes' data is masked in logs and messages (digits become x).
_MASKED_SCHEMES = ("tel", "sip", "sms", "smsto", "mailto", "nfc")


@dataclass
class Intent:
    """An Android intent as ``am start`` builds it.

    Attributes:
        action: ``android.intent.action.VIEW``...
        categories: ``android.intent.category.LAUNCHER``...
        package: Limits resolution to one package (``-p``).
        component: ``(package, fully.qualified.Class)`` of an explicit intent (``-n``).
        data: The data URI (``-d``): ``content://...``, ``smsto:555``, ``file:///sdcard/x.txt``.
        type: The MIME type (``-t``): ``vnd.android.cursor.dir/contact``, ``text/plain``.
        flags: ``Intent.FLAG_*`` bits (``-f``).
        extras: Typed extras by key (``--es``, ``--ei``...): str, int, float, bool, None, or a list of them.
    """

    action: str | None = None
    categories: tuple[str, ...] = ()
    package: str | None = None
    component: tuple[str, str] | None = None  # (package, fully qualified class)
    data: str | None = None
    flags: int = 0
    extras: dict[str, Any] = field(default_factory=dict)
    type: str | None = None

    def __str__(self) -> str:
        """Android's ``Intent.toString()``: ``Intent { act=... cat=[...] dat=... typ=... cmp=pkg/.Cls }``."""
        return "Intent { " + self.short() + " }"

    def short(self) -> str:
        """The fields as ``toShortString`` writes them (``act=... cmp=pkg/.Cls``), as in the log's START lines."""
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={safe_uri(self.data)}")
        if self.type:
            parts.append(f"typ={self.type}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return " ".join(parts)

    def extra_int(self, key: str, default: int | None = None) -> int | None:
        """An integer extra (``--ei``), or ``default``."""
        value = self.extras.get(key, default)
        return int(value) if value is not None else None

    @property
    def scheme(self) -> str | None:
        """The data URI's scheme (``content``, ``smsto``...), or None without data."""
        if self.data is None:
            return None
        head, sep, _ = self.data.partition(":")
        return head.lower() if sep and head and "/" not in head else ""


@dataclass(frozen=True)
class IntentFilter:
    """What one activity of an app answers (an ``<intent-filter>``).

    Attributes:
        activity: The fully qualified class of the activity it starts.
        actions: The actions it accepts (at least one).
        categories: The categories it has; an intent's categories must all be among them, and
            ``startActivity`` resolves only filters with ``android.intent.category.DEFAULT``.
        schemes: The data schemes it accepts (``content``, ``smsto``, ``file``...); none: no data URI,
            or (with MIME types) a ``content:``/``file:`` one.
        mime_types: The MIME types it accepts (``vnd.android.cursor.dir/contact``, ``image/*``, ``*/*``);
            none: intents without a type.
        priority: Higher wins when several activities match (Android would ask the user).
    """

    activity: str
    actions: tuple[str, ...]
    categories: tuple[str, ...] = (CATEGORY_DEFAULT,)
    schemes: tuple[str, ...] = ()
    mime_types: tuple[str, ...] = ()
    priority: int = 0

    def matches(self, intent: Intent, resolved_type: str | None = None) -> bool:
        """Whether ``startActivity(intent)`` may start this filter's activity.

        Args:
            intent: The intent.
            resolved_type: Its MIME type: its own, or the one its ``content:`` data's provider gives.
        """
        if CATEGORY_DEFAULT not in self.categories:  # startActivity resolves with MATCH_DEFAULT_ONLY
            return False
        if intent.action is not None and intent.action not in self.actions:
            return False
        if not all(category in self.categories for category in intent.categories):
            return False
        return self._data_matches(intent.scheme, intent.data, resolved_type or intent.type)

    def _data_matches(self, scheme: str | None, data: str | None, mime: str | None) -> bool:
        # IntentFilter.matchData
        if not self.mime_types and not self.schemes:
            return mime is None and data is None
        if self.schemes:
            if (scheme or "") not in self.schemes:
                return False
        elif scheme not in (None, "", "content", "file"):
            return False
        if self.mime_types:
            return mime is not None and any(_mime_matches(pattern, mime) for pattern in self.mime_types)
        return mime is None


def _mime_matches(pattern: str, mime: str) -> bool:
    """``IntentFilter.findMimeType``: ``*/*`` and ``image/*`` match by their parts (case-insensitively)."""
    pattern, mime = pattern.lower(), mime.lower()
    if pattern == mime or pattern == "*/*":
        return True
    base, _, sub = pattern.partition("/")
    return sub == "*" and mime.partition("/")[0] == base


def safe_uri(uri: str) -> str:
    """``Uri.toSafeString()``: the URI as logs and ``Intent.toString()`` show it (phone numbers masked)."""
    scheme, sep, rest = uri.partition(":")
    if not sep or "/" in scheme:
        return uri
    ssp = rest.split("#", 1)[0]
    lowered = scheme.lower()
    if lowered in _MASKED_SCHEMES:
        return scheme + ":" + "".join(c if c in "-@." else "x" for c in ssp)
    if lowered in ("http", "https", "ftp", "rtsp"):
        host = ssp[2:].split("/", 1)[0].split("?", 1)[0] if ssp.startswith("//") else ""
        return f"{scheme}://{host}/..."
    return scheme + ":" + ssp


def short_component(package: str, cls: str) -> str:
    """``ComponentName.flattenToShortString()``: ``pkg/.Cls`` when the class is in the package."""
    if cls.startswith(package + "."):
        return f"{package}/{cls[len(package) :]}"
    return f"{package}/{cls}"

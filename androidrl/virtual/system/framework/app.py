"""Apps and activities of the virtual phone, and the context through which they use the system.

An :class:`App` is an installed package: a label, an icon, its activities and its private
data (what ``pm clear`` wipes). An :class:`Activity` is one screen; it keeps its own state
and rebuilds its view tree from it in :meth:`Activity.build` whenever the phone redraws.
Activities reach the phone only through their :class:`Context`, as Android apps do, so no
app depends on how the phone is put together.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from androidrl.virtual.system.framework.content import ContentProvider, ContentResolver
from androidrl.virtual.system.framework.intent import (
    ACTION_MAIN,
    CATEGORY_DEFAULT,
    CATEGORY_LAUNCHER,
    Intent,
    IntentFilter,
)
from androidrl.virtual.system.framework.metrics import DisplayMetrics
from androidrl.virtual.system.radios import Radios
from androidrl.virtual.ui.views import Color, View


@dataclass(frozen=True, eq=False)
class Context:
    """The system services an app may use (Android's ``Context``); one per phone.

    Attributes:
        apps: Installed packages by name (what the launcher lists).
        metrics: Screen size and density.
        radios: Wi-Fi, Bluetooth and airplane mode.
        getprop: A system property, or "" when unset.
        start_activity: Starts what an intent names (``Context.startActivity``).
        finish_activity: Closes an activity (``Activity.finish``).
        invalidate: Asks for the screen to be rebuilt.
        next_seed: A seed for an app's own RNG, drawn from the phone's seeded RNG.
        content: The content resolver: every provider's data by URI (``context.content.query(uri, ...)``).
        log: ``log(package, tag, message)`` writes to the phone's log from the app's process.
    """

    apps: dict[str, App]
    metrics: DisplayMetrics
    radios: Radios
    getprop: Callable[[str], str]
    start_activity: Callable[[Intent], str]
    finish_activity: Callable[[Activity], None]
    invalidate: Callable[[], None]
    next_seed: Callable[[], int]
    content: ContentResolver
    log: Callable[[str, str, str], None] = lambda package, tag, message: None


class Activity:
    """One screen of an app. Subclasses keep state and implement :meth:`build`."""

    #: Title shown in the app bar; also the window title.
    title: str = ""
    #: A continuously animating screen never goes idle: ``uiautomator dump`` fails on it.
    animating: bool = False

    def log(self, tag: str, message: str) -> None:
        """Write to the phone's log under ``tag`` (``Log.i``), from the app's process."""
        self.context.log(self.app.package, tag, message)

    def __init__(self, context: Context, app: App, cls: str, intent: Intent) -> None:
        self.context = context
        self.app = app
        self.cls = cls
        self.intent = intent
        self.on_create()

    @property
    def component(self) -> str:
        """``package/fully.qualified.Class``."""
        return f"{self.app.package}/{self.cls}"

    def on_create(self) -> None:
        """Set up state from ``self.intent``."""

    def build(self) -> View:
        """The content view tree for the current state."""
        raise NotImplementedError

    def on_back(self) -> bool:
        """Handle BACK; return False to let the phone finish this activity."""
        return False

    def finish(self) -> None:
        """Close this activity, as ``Activity.finish()``."""
        self.context.finish_activity(self)

    def start(self, cls: str, **extras: Any) -> None:
        """Start another activity of the same app."""
        self.context.start_activity(Intent(component=(self.app.package, cls), extras=extras))

    def invalidate(self) -> None:
        """Ask the phone to rebuild this screen (state changed outside an input event)."""
        self.context.invalidate()


@dataclass
class App:
    """An installed package.

    Attributes:
        package: Package name, e.g. ``com.android.settings``.
        label: Name under the launcher icon.
        glyph: Letter drawn on the icon.
        color: Icon colour.
        activities: Fully qualified class name -> activity class.
        main: Class name of the launcher activity (None for apps without an icon).
        actions: Intent action -> class name, for implicit intents (a filter with the action and
            ``android.intent.category.DEFAULT``, no data).
        system: Whether it is a system app (``pm list packages -s``).
        data: The app's saved data: it survives ``am force-stop`` and ``pm clear`` wipes it.
        filters: The intent filters of its activities (actions, categories, data schemes, MIME types).
        providers: The content providers it owns, by class (each with its ``authority``); the
            system makes one of each while the package is installed, and ``pm clear`` wipes them.
    """

    package: str
    label: str
    glyph: str
    color: Color
    activities: dict[str, type[Activity]]
    main: str | None
    actions: dict[str, str] = field(default_factory=dict)
    system: bool = True
    data: dict[str, Any] = field(default_factory=dict)
    filters: tuple[IntentFilter, ...] = ()
    providers: tuple[type[ContentProvider], ...] = ()

    def __deepcopy__(self, memo: dict) -> App:
        """A copy for a snapshot: its own data; the manifest (activities, filters, providers...) shared."""
        clone = copy.copy(self)
        memo[id(self)] = clone
        clone.data = copy.deepcopy(self.data, memo)
        return clone

    def intent_filters(self) -> list[IntentFilter]:
        """Every filter its activities have: the launcher activity's (MAIN), ``actions``', then ``filters``."""
        found = [IntentFilter(self.main, (ACTION_MAIN,), (CATEGORY_LAUNCHER, CATEGORY_DEFAULT))] if self.main else []
        found += [IntentFilter(cls, (action,)) for action, cls in self.actions.items()]
        return found + list(self.filters)

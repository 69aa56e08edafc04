"""Apps, activities and intents of the virtual phone, plus the widgets apps share.

An :class:`App` is an installed package: a label, an icon, its activities and its private
data (what ``pm clear`` wipes). An :class:`Activity` is one screen; it keeps its own state
and rebuilds its view tree from it in :meth:`Activity.build` whenever the phone redraws.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from androidrl.virtual.views import (
    DIVIDER,
    MATCH,
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    Color,
    EditText,
    ImageView,
    LinearLayout,
    Switch,
    TextView,
    View,
)

if TYPE_CHECKING:
    from androidrl.virtual.phone import VirtualPhone

ACTION_MAIN = "android.intent.action.MAIN"
CATEGORY_LAUNCHER = "android.intent.category.LAUNCHER"
CATEGORY_HOME = "android.intent.category.HOME"


@dataclass
class Intent:
    """An Android intent as ``am start`` builds it."""

    action: str | None = None
    categories: tuple[str, ...] = ()
    package: str | None = None
    component: tuple[str, str] | None = None  # (package, fully qualified class)
    data: str | None = None
    flags: int = 0
    extras: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        """Android's ``Intent.toString()``: ``Intent { act=... cat=[...] cmp=pkg/.Cls }``."""
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={self.data}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"

    def extra_int(self, key: str, default: int | None = None) -> int | None:
        """An integer extra (``--ei``), or ``default``."""
        value = self.extras.get(key, default)
        return int(value) if value is not None else None


def short_component(package: str, cls: str) -> str:
    """``ComponentName.flattenToShortString()``: ``pkg/.Cls`` when the class is in the package."""
    if cls.startswith(package + "."):
        return f"{package}/{cls[len(package) :]}"
    return f"{package}/{cls}"


class Activity:
    """One screen of an app. Subclasses keep state and implement :meth:`build`."""

    #: Title shown in the app bar; also the window title.
    title: str = ""
    #: A continuously animating screen never goes idle: ``uiautomator dump`` fails on it.
    animating: bool = False

    def __init__(self, phone: VirtualPhone, app: App, cls: str, intent: Intent) -> None:
        self.phone = phone
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
        self.phone.finish_activity(self)

    def start(self, cls: str, **extras: Any) -> None:
        """Start another activity of the same app."""
        self.phone.start_activity(Intent(component=(self.app.package, cls), extras=extras))

    def invalidate(self) -> None:
        """Ask the phone to rebuild this screen (state changed outside an input event)."""
        self.phone.invalidate()


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
        actions: Intent action -> class name, for implicit intents.
        system: Whether it is a system app (``pm list packages -s``).
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


# ------------------------------------------------------------------------ shared widgets


def app_bar(title: str, on_up: Callable[[], None] | None = None, large: bool = False) -> View:
    """A top app bar with an optional "Navigate up" arrow."""
    children: list[View] = []
    if on_up is not None:
        children.append(
            ImageView(
                glyph="<",
                color=DIVIDER,
                glyph_color=TEXT,
                content_desc="Navigate up",
                width=48,
                height=40,
                clickable=True,
                focusable=True,
                on_click=on_up,
            )
        )
    children.append(
        TextView(
            title,
            resource_id="android:id/title" if not large else "",
            text_size=28 if large else 20,
            height=56 if not large else 96,
            padding=16 if on_up is None else 8,
            width=MATCH,
        )
    )
    return LinearLayout(children, vertical=False, height=96 if large else 56, background=SURFACE)


def list_row(
    title: str,
    summary: str = "",
    on_click: Callable[[], None] | None = None,
    switch: bool | None = None,
    icon: tuple[str, Color] | None = None,
    enabled: bool = True,
) -> View:
    """A settings-style row: optional icon, title over summary, optional switch."""
    texts = LinearLayout(
        [TextView(title, resource_id="android:id/title", text_size=16, height=28)]
        + (
            [TextView(summary, resource_id="android:id/summary", text_size=14, text_color=TEXT_SECONDARY, height=24)]
            if summary
            else []
        ),
        weight=1,
        width=0,
    )
    children: list[View] = []
    if icon is not None:
        children.append(ImageView(glyph=icon[0], color=icon[1], resource_id="android:id/icon", width=56, height=32))
    children.append(texts)
    if switch is not None:
        children.append(Switch(switch, resource_id="android:id/switch_widget", enabled=enabled))
    return LinearLayout(
        children,
        vertical=False,
        height=72,
        padding=12,
        clickable=on_click is not None,
        focusable=True,
        on_click=on_click,
        enabled=enabled,
    )


def divider() -> View:
    """A thin horizontal rule."""
    return View(height=1, background=DIVIDER)


def text_field(
    text: str,
    focused: bool,
    on_focus: Callable[[], None],
    on_text: Callable[[str], None],
    on_key: Callable[[int], bool],
    hint: str = "",
    resource_id: str = "",
) -> EditText:
    """An EditText wired to activity state (text and focus live in the activity)."""
    return EditText(
        text,
        hint=hint,
        resource_id=resource_id,
        focused=focused,
        on_click=on_focus,
        on_text=on_text,
        on_key=on_key,
        padding=8,
    )


def primary_button(text: str, on_click: Callable[[], None], resource_id: str = "", width: float = 160) -> View:
    """A filled button."""
    from androidrl.virtual.views import Button

    return Button(text, resource_id=resource_id, on_click=on_click, width=width, background=PRIMARY)

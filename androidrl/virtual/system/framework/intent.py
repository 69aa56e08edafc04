"""Intents: how a request to start an activity is spelled (``am start``, launcher taps, apps)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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
        return "Intent { " + self.short() + " }"

    def short(self) -> str:
        """The fields as ``toShortString`` writes them (``act=... cmp=pkg/.Cls``), as in the log's START lines."""
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
        return " ".join(parts)

    def extra_int(self, key: str, default: int | None = None) -> int | None:
        """An integer extra (``--ei``), or ``default``."""
        value = self.extras.get(key, default)
        return int(value) if value is not None else None


def short_component(package: str, cls: str) -> str:
    """``ComponentName.flattenToShortString()``: ``pkg/.Cls`` when the class is in the package."""
    if cls.startswith(package + "."):
        return f"{package}/{cls[len(package) :]}"
    return f"{package}/{cls}"

"""Serialise a view tree the way ``uiautomator dump`` does (AccessibilityNodeInfoDumper).

One line, no indentation, Android's XML header, attributes in Android's order, only
nodes that are visible to the user, bounds clipped to the screen, ``index`` counting
every child (shown or not), and ``NAF="true"`` on clickable nodes with no text at all.
"""

from __future__ import annotations

import re

from androidrl.virtual.views import View

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
_INVALID = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
_NEEDS_ESCAPE = re.compile('[&<>"\t\n\r]')
_NAF_EXEMPT = ("GridView", "GridLayout", "ListView", "TableLayout")


def _attr(value: str) -> str:
    value = _INVALID.sub(".", value)
    return _NEEDS_ESCAPE.sub(lambda m: _ESCAPES[m.group()], value)


def _flag(value: bool) -> str:
    return "true" if value else "false"


def dump_hierarchy(root: View, package: str, rotation: int = 0) -> str:
    """The XML ``uiautomator dump`` writes for the window whose root view is ``root``."""
    parts = [HEADER, f'<hierarchy rotation="{rotation}">']
    _node(root, 0, package, parts)
    parts.append("</hierarchy>")
    return "".join(parts)


def _has_text_below(view: View) -> bool:
    return any(child.text or child.content_desc or _has_text_below(child) for child in view.children)


def _node(view: View, index: int, package: str, parts: list[str]) -> None:
    left, top, right, bottom = view.visible
    naf = (
        view.clickable
        and view.enabled
        and not view.text
        and not view.content_desc
        and not view.cls.endswith(_NAF_EXEMPT)
        and not _has_text_below(view)
    )
    parts.append(
        "<node"
        + (' NAF="true"' if naf else "")
        + f' index="{index}" text="{_attr("•" * len(view.text) if view.password else view.text)}"'
        f' resource-id="{_attr(view.resource_id)}" class="{view.cls}" package="{package}"'
        f' content-desc="{_attr(view.content_desc)}" checkable="{_flag(view.checkable)}"'
        f' checked="{_flag(view.checked)}" clickable="{_flag(view.clickable)}"'
        f' enabled="{_flag(view.enabled)}" focusable="{_flag(view.focusable)}"'
        f' focused="{_flag(view.focused)}" scrollable="{_flag(view.scrollable)}"'
        f' long-clickable="{_flag(view.long_clickable)}" password="{_flag(view.password)}"'
        f' selected="{_flag(view.selected)}" bounds="[{left},{top}][{right},{bottom}]"'
    )
    shown = [(i, child) for i, child in enumerate(view.children) if child.is_shown()]
    if not shown:
        parts.append(" />")
        return
    parts.append(">")
    for i, child in shown:
        _node(child, i, package, parts)
    parts.append("</node>")

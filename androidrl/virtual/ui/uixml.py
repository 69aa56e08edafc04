"""Serialise a view tree the way ``uiautomator dump`` does (AccessibilityNodeInfoDumper).

One line, no indentation, Android's XML header, attributes in Android's order, only
nodes that are visible to the user, bounds clipped to the screen, ``index`` counting
every child (shown or not), ``NAF="true"`` on clickable nodes with no text at all, and an
empty field's hint as its text (``TextView.getTextForAccessibility`` gives the hint when the
text is empty; a password field gives neither).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from androidrl.virtual.ui.views import View

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
_INVALID = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
_NEEDS_ESCAPE = re.compile('[&<>"\t\n\r]')
_NAF_EXEMPT = ("GridView", "GridLayout", "ListView", "TableLayout")


def _escape(value: str) -> str:
    return _NEEDS_ESCAPE.sub(lambda m: _ESCAPES[m.group()], value) if _NEEDS_ESCAPE.search(value) else value


def _flag(value: bool) -> str:
    return "true" if value else "false"


def dump_hierarchy(root: View, package: str, rotation: int = 0) -> str:
    """The XML ``uiautomator dump`` writes for the window whose root view is ``root``."""
    parts = [HEADER, f'<hierarchy rotation="{rotation}">']
    _node(root, 0, package, parts)
    parts.append("</hierarchy>")
    return "".join(parts)


def hierarchy_tree(root: View, package: str, rotation: int = 0) -> ET.Element:
    """What parsing :func:`dump_hierarchy`'s XML gives, built from the views directly (no XML text)."""
    tree = ET.Element("hierarchy", {"rotation": str(rotation)})
    _element(tree, root, 0, package)
    return tree


#: The attributes of a dump's ``<node>`` in the dump's order (after ``NAF`` on nodes that have it).
ATTRIBUTES = (
    "index", "text", "resource-id", "class", "package", "content-desc", "checkable", "checked", "clickable",
    "enabled", "focusable", "focused", "scrollable", "long-clickable", "password", "selected", "bounds",
)  # fmt: skip
_TEMPLATE = "".join(f' {name}="%s"' for name in ATTRIBUTES)
_TEXTS = tuple(ATTRIBUTES.index(name) for name in ("text", "resource-id", "content-desc"))  # escaped in XML


def _values(view: View, index: int, package: str) -> tuple[bool, list[str]]:
    """Whether the node is marked NAF, and its attribute values in :data:`ATTRIBUTES` order (not escaped)."""
    left, top, right, bottom = view.visible
    return _naf(view), [
        str(index),
        _clean("•" * len(view.text) if view.password else view.text or view.hint),
        _clean(view.resource_id),
        view.cls,
        package,
        _clean(view.content_desc),
        _flag(view.checkable),
        _flag(view.checked),
        _flag(view.clickable),
        _flag(view.enabled),
        _flag(view.focusable),
        _flag(view.focused),
        _flag(view.scrollable),
        _flag(view.long_clickable),
        _flag(view.password),
        _flag(view.selected),
        f"[{left},{top}][{right},{bottom}]",
    ]


def _clean(value: str) -> str:
    """Control characters as the dump replaces them (with ".")."""
    return value if value.isprintable() else _INVALID.sub(".", value)


def _naf(view: View) -> bool:
    """Not Accessibility Friendly: clickable with no text anywhere (lists and grids are exempt)."""
    return (
        view.clickable
        and view.enabled
        and not (view.text or view.hint)
        and not view.content_desc
        and not view.cls.endswith(_NAF_EXEMPT)
        and not _has_text_below(view)
    )


def _has_text_below(view: View) -> bool:
    return any(child.text or child.content_desc or _has_text_below(child) for child in view.children)


def _node(view: View, index: int, package: str, parts: list[str]) -> None:
    naf, values = _values(view, index, package)
    for i in _TEXTS:
        values[i] = _escape(values[i])
    parts.append(('<node NAF="true"' if naf else "<node") + _TEMPLATE % tuple(values))
    shown = [(i, child) for i, child in enumerate(view.children) if child.is_shown()]
    if not shown:
        parts.append(" />")
        return
    parts.append(">")
    for i, child in shown:
        _node(child, i, package, parts)
    parts.append("</node>")


def _element(parent: ET.Element, view: View, index: int, package: str) -> None:
    # (the values of _values, spelt out as a dict: this runs for every node of every window a task looks at)
    left, top, right, bottom = view.visible
    text = "•" * len(view.text) if view.password else view.text or view.hint
    attributes = {
        "index": _INDEX[index] if index < 100 else str(index),
        "text": text if text.isprintable() else _INVALID.sub(".", text),
        "resource-id": _clean(view.resource_id),
        "class": view.cls,
        "package": package,
        "content-desc": _clean(view.content_desc),
        "checkable": "true" if view.checkable else "false",
        "checked": "true" if view.checked else "false",
        "clickable": "true" if view.clickable else "false",
        "enabled": "true" if view.enabled else "false",
        "focusable": "true" if view.focusable else "false",
        "focused": "true" if view.focused else "false",
        "scrollable": "true" if view.scrollable else "false",
        "long-clickable": "true" if view.long_clickable else "false",
        "password": "true" if view.password else "false",
        "selected": "true" if view.selected else "false",
        "bounds": f"[{left},{top}][{right},{bottom}]",
    }
    if view.clickable and _naf(view):
        attributes = {"NAF": "true", **attributes}
    node = ET.SubElement(parent, "node", attributes)
    for i, child in enumerate(view.children):
        left, top, right, bottom = child.visible
        if right > left and bottom > top:  # (child.is_shown())
            _element(node, child, i, package)


_INDEX = tuple(str(i) for i in range(100))

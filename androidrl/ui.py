"""The UI of a screen: the ``uiautomator dump`` XML, its nodes, and the per-step snapshot that reads them once.

A :class:`Snapshot` is what the device shows after one action. The env, its task and its
wrappers all read the screen through the same snapshot, so a step takes the screenshot,
dumps the UI and parses it at most once, whoever asks first — and only if someone asks.
Who needs only the nodes gets them straight from a device that can build them
(:meth:`~androidrl.device.base.Device.ui_tree`: the in-process phone), without XML text.
"""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np

from androidrl.device.base import CommandResult, Device
from androidrl.errors import TaskError

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")


def parse_ui(xml: str) -> ET.Element:
    """The root element of a UI dump.

    Raises:
        TaskError: The text is not XML.
    """
    try:
        return ET.fromstring(xml)
    except ET.ParseError as err:
        raise TaskError(f"the UI dump is not valid XML ({err}): {xml[:120]!r}") from None


def node_bounds(node: ET.Element) -> tuple[int, int, int, int] | None:
    """A node's ``bounds`` as (left, top, right, bottom) pixels, or None if it has none."""
    match = _BOUNDS.fullmatch(node.attrib.get("bounds", ""))
    return None if match is None else tuple(int(v) for v in match.groups())


def node_center(node: ET.Element) -> tuple[int, int]:
    """The centre pixel of a node's bounds.

    Raises:
        TaskError: The node has no bounds.
    """
    bounds = node_bounds(node)
    if bounds is None:
        raise TaskError(f"node has no bounds: {node.attrib}")
    left, top, right, bottom = bounds
    return (left + right) // 2, (top + bottom) // 2


@dataclass(frozen=True)
class UIElement:
    """One node of a UI dump, with the attributes agents act on."""

    bounds: tuple[int, int, int, int]
    text: str
    content_desc: str
    resource_id: str
    class_name: str
    clickable: bool
    long_clickable: bool
    scrollable: bool
    label: str  # what to call it: its text, or its first descendant's, or its id or class

    @property
    def center(self) -> tuple[int, int]:
        """The centre pixel."""
        return (self.bounds[0] + self.bounds[2]) // 2, (self.bounds[1] + self.bounds[3]) // 2


def ui_elements(xml: str | ET.Element) -> list[UIElement]:
    """Every node of a UI dump (text or parsed root) with a non-empty area, in document (drawing) order.

    Raises:
        TaskError: The text is not XML.
    """
    root = parse_ui(xml) if isinstance(xml, str) else xml
    elements = []
    for node in root.iter("node"):
        bounds = node_bounds(node)
        if bounds is None or bounds[2] <= bounds[0] or bounds[3] <= bounds[1]:
            continue
        a = node.attrib
        texts = (d.attrib.get("text") or d.attrib.get("content-desc") for d in node.iter("node"))
        label = next((t for t in texts if t), "") or a.get("resource-id", "").rpartition("/")[2] or a.get("class", "")
        elements.append(
            UIElement(
                bounds,
                a.get("text", ""),
                a.get("content-desc", ""),
                a.get("resource-id", ""),
                a.get("class", ""),
                a.get("clickable") == "true",
                a.get("long-clickable") == "true",
                a.get("scrollable") == "true",
                label,
            )
        )
    return elements


class Snapshot:
    """The device's screen after an action, read lazily and at most once.

    Args:
        device: The device to read.
        previous: The last step's snapshot: when the UI dump is the same, its parse is reused.

    Example:
        >>> snap = Snapshot(device)
        >>> 'text="Wi-Fi"' in snap.xml  # dumps the UI now; later reads reuse it
    """

    def __init__(self, device: Device, previous: Snapshot | None = None) -> None:
        self.device = device
        # The last parse (XML text, tree, elements), reused when the UI comes back the same (most
        # actions change a few pixels or nothing; the virtual phone even hands back the same string
        # or tree). Only the parse is kept, never the snapshot: a chain of them would keep every
        # frame of the episode alive.
        self._reusable = previous._parse_for_next() if previous is not None else None
        self._xml: str | None = None
        self._hierarchy: ET.Element | None = None
        self._elements: list[UIElement] | None = None
        self._frame: np.ndarray | None = None
        self._shell: dict[str, CommandResult] = {}
        #: Milliseconds spent reading each part ("screenshot", "xml", "ui": nodes without XML text).
        self.timings_ms: dict[str, float] = {}

    def preload(self, frame: np.ndarray | None, xml: str | None) -> None:
        """Take the frame and the XML already read (with the action, in one round trip); None: read lazily.

        Their timings are 0: the time to read them is the action's.
        """
        if frame is not None:
            self._frame = frame
            self.timings_ms["screenshot"] = 0.0
        if xml is not None:
            self._take_xml(xml)
            self.timings_ms["xml"] = 0.0

    @property
    def xml(self) -> str:
        """The UI hierarchy XML (``uiautomator dump``)."""
        if self._xml is None:
            start = time.perf_counter()
            xml = self.device.dump_ui()
            self.timings_ms["xml"] = round((time.perf_counter() - start) * 1000, 3)
            self._take_xml(xml)
        return self._xml

    def _take_xml(self, xml: str) -> None:
        self._xml = xml
        reusable, self._reusable = self._reusable, None
        if reusable is not None and reusable[0] == xml:  # the same UI: its parse too
            self._hierarchy, self._elements = reusable[1], reusable[2]

    def _parse_for_next(self) -> tuple[str | None, ET.Element | None, list[UIElement] | None] | None:
        """What the next step's snapshot may reuse: this step's parse, or the one it was handed."""
        if self._xml is None and self._hierarchy is None:
            return self._reusable
        return self._xml, self._hierarchy, self._elements

    @property
    def frame(self) -> np.ndarray:
        """The screenshot as an RGB uint8 array."""
        if self._frame is None:
            start = time.perf_counter()
            self._frame = self.device.screenshot()
            self.timings_ms["screenshot"] = round((time.perf_counter() - start) * 1000, 3)
        return self._frame

    @property
    def hierarchy(self) -> ET.Element:
        """The parsed XML (its root element; shared, read-only).

        Raises:
            TaskError: The dump is not valid XML.
        """
        if self._hierarchy is None and self._xml is None:
            start = time.perf_counter()
            tree = self.device.ui_tree()
            if tree is not None:
                self.timings_ms["ui"] = round((time.perf_counter() - start) * 1000, 3)
                reusable, self._reusable = self._reusable, None
                if reusable is not None and reusable[1] is tree:
                    self._elements = reusable[2]
                self._hierarchy = tree
        if self._hierarchy is None:
            xml = self.xml  # (reading it may reuse the last step's parse: look again)
            if self._hierarchy is None:
                self._hierarchy = parse_ui(xml)
        return self._hierarchy

    @property
    def elements(self) -> list[UIElement]:
        """The UI elements of :attr:`hierarchy` (parsed once, shared by every reader)."""
        if self._elements is None:
            hierarchy = self.hierarchy  # (reading it may reuse the last step's elements: look again)
            if self._elements is None:
                self._elements = ui_elements(hierarchy)
        return self._elements

    def shell(self, command: str) -> CommandResult:
        """Output of a shell command, run once per snapshot."""
        if command not in self._shell:
            self._shell[command] = self.device.execute(command)
        return self._shell[command]

    @property
    def has_xml(self) -> bool:
        """Whether the XML was already read this step."""
        return self._xml is not None

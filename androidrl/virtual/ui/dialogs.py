"""Dialogs and popup menus as Android's framework lays them out.

:class:`AlertDialog` follows ``alert_dialog_material.xml`` (frameworks/base core/res/res/layout):
``android:id/parentPanel`` holding the title (``android:id/alertTitle``), the message
(``android:id/message``) or the list (``android:id/select_dialog_listview``, items
``android:id/text1``), a custom view (``android:id/custom``) and the button bar
(``android:id/buttonPanel``: ``button3`` neutral, ``button2`` negative, ``button1`` positive).
:class:`ListPopup` is a ``ListPopupWindow``: a popup menu (overflow, ``PopupMenu``, a long-press
context menu; items ``android:id/title``) or a Spinner's dropdown (items ``CheckedTextView``
``android:id/text1``). A list's items are clickable, as ``AbsListView`` reports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from androidrl.virtual.ui.config import framework_string
from androidrl.virtual.ui.controls import CheckBox, RadioButton
from androidrl.virtual.ui.views import (
    PRIMARY,
    TEXT_SECONDARY,
    WRAP,
    Box,
    FrameLayout,
    ImageView,
    LinearLayout,
    TextView,
    View,
)
from androidrl.virtual.ui.window import Window, check_callback

Button = tuple[str, Callable[[], None] | None]  # (label, what a tap does besides dismissing)


def text_button(label: str, resource_id: str, on_click: Callable[[], None]) -> View:
    """A dialog's text button (``android.widget.Button``)."""
    return TextView(
        label,
        cls="android.widget.Button",
        resource_id=resource_id,
        clickable=True,
        focusable=True,
        gravity="center",
        text_color=PRIMARY,
        bold=True,
        width=max(64, 9 * len(label) + 24),
        height=40,
        on_click=on_click,
    )


class AlertDialog(Window):
    """``android.app.AlertDialog``: a title, a message or a list or a custom view, and up to three buttons.

    Args:
        title: The title (none when empty).
        message: The message (none when empty).
        items: A list instead of a message. A tap on an item calls ``on_item(index)`` and,
            for a plain list, dismisses the dialog; with ``checked`` the list is a choice list
            and the dialog stays (as ``setSingleChoiceItems``/``setMultiChoiceItems``).
        checked: An int: a single-choice list with that item checked (-1: none); a list of
            bools: a multi-choice list, tapping toggles and calls ``on_item(index, checked)``.
        on_item: What a tap on an item does.
        positive: ``(label, callback)`` of ``android:id/button1`` (every button also dismisses).
        negative: ``(label, callback)`` of ``android:id/button2``.
        neutral: ``(label, callback)`` of ``android:id/button3``.
        view: Builds a custom view (``setView``) from the activity's state each frame, e.g. an EditText.
        cancelable: BACK and a touch outside cancel it (``setCancelable``).
        on_cancel: Runs when it is cancelled (before ``on_dismiss``).
        on_dismiss: Runs when it goes, whatever the reason.

    Raises:
        TypeError: A callback that is a closure (see :func:`~androidrl.virtual.ui.window.check_callback`).
    """

    def __init__(
        self,
        title: str = "",
        message: str = "",
        *,
        items: Sequence[str] = (),
        checked: int | list[bool] | None = None,
        on_item: Callable[..., None] | None = None,
        positive: Button | None = None,
        negative: Button | None = None,
        neutral: Button | None = None,
        view: Callable[[], View] | None = None,
        cancelable: bool = True,
        on_cancel: Callable[[], None] | None = None,
        on_dismiss: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(on_dismiss)
        for name, callback in (("on_item", on_item), ("view", view), ("on_cancel", on_cancel)):
            check_callback("AlertDialog", name, callback)
        for name, button in (("positive", positive), ("negative", negative), ("neutral", neutral)):
            if button is not None:
                check_callback("AlertDialog", name, button[1])
        if isinstance(checked, list) and len(checked) != len(items):
            raise ValueError(f"AlertDialog checked: expected {len(items)} flags (one per item), got {len(checked)}")
        self.title, self.message, self.items = title, message, list(items)
        self.checked = list(checked) if isinstance(checked, list) else checked
        self.on_item, self.view, self.on_cancel = on_item, view, on_cancel
        self.buttons = {"button3": neutral, "button2": negative, "button1": positive}
        self.cancelable = self.cancel_on_touch_outside = cancelable

    def build(self) -> View:
        panels: list[View] = []
        if self.title:
            title = TextView(self.title, resource_id="android:id/alertTitle", text_size=22, height=WRAP)
            template = LinearLayout([title], resource_id="android:id/title_template", vertical=False, padding=24)
            panels.append(LinearLayout([template], resource_id="android:id/topPanel"))
        if self.message:
            message = TextView(
                self.message,
                resource_id="android:id/message",
                text_color=TEXT_SECONDARY,
                text_size=16,
                padding=24,
                height=WRAP,
            )
            scroll = FrameLayout(
                [LinearLayout([message])],
                cls="android.widget.ScrollView",
                resource_id="android:id/scrollView",
                height=WRAP,
            )
            panels.append(LinearLayout([scroll], resource_id="android:id/contentPanel"))
        if self.items:
            panels.append(LinearLayout([self._list()], resource_id="android:id/contentPanel"))
        if self.view is not None:
            custom = FrameLayout([self.view()], resource_id="android:id/custom", height=WRAP, padding=20)
            panels.append(FrameLayout([custom], resource_id="android:id/customPanel", height=WRAP))
        bar: list[View] = []
        for rid, button in self.buttons.items():
            if button is not None:
                bar.append(text_button(button[0], "android:id/" + rid, lambda r=rid: self.click_button(r)))
            if rid == "button3":
                bar.append(View(width=-1, height=0, weight=1))  # the bar's Space: neutral left, others right
        if any(self.buttons.values()):
            panels.append(
                LinearLayout(bar, resource_id="android:id/buttonPanel", vertical=False, padding=12, height=64)
            )
        return LinearLayout(panels, resource_id="android:id/parentPanel")

    def _list(self) -> View:
        rows: list[View] = []
        for i, label in enumerate(self.items):
            if isinstance(self.checked, list):
                rows.append(
                    CheckBox(
                        label,
                        self.checked[i],
                        resource_id="android:id/text1",
                        padding=20,
                        cls="android.widget.CheckedTextView",
                        on_click=lambda i=i: self.click_item(i),
                    )
                )
            elif self.checked is not None:
                rows.append(
                    RadioButton(
                        label,
                        i == self.checked,
                        resource_id="android:id/text1",
                        padding=20,
                        cls="android.widget.CheckedTextView",
                        on_click=lambda i=i: self.click_item(i),
                    )
                )
            else:
                rows.append(
                    TextView(
                        label,
                        resource_id="android:id/text1",
                        clickable=True,
                        focusable=True,
                        text_size=16,
                        padding=24,
                        height=48,
                        on_click=lambda i=i: self.click_item(i),
                    )
                )
        return LinearLayout(rows, cls="android.widget.ListView", resource_id="android:id/select_dialog_listview")

    def click_item(self, index: int) -> None:
        """An item was tapped."""
        if isinstance(self.checked, list):
            self.checked[index] = not self.checked[index]
            if self.on_item is not None:
                self.on_item(index, self.checked[index])
            return
        if self.checked is not None:
            self.checked = index
        if self.on_item is not None:
            self.on_item(index)
        if self.checked is None:
            self.dismiss()

    def click_button(self, resource_id: str) -> None:
        """A button was tapped: its callback, then the dialog goes."""
        button = self.buttons[resource_id]
        if button is not None and button[1] is not None:
            button[1]()
        self.dismiss()

    def cancel(self) -> None:
        if self.showing and self.on_cancel is not None:
            self.on_cancel()
        self.dismiss()


class ListPopup(Window):
    """A ``ListPopupWindow``: a popup menu (items ``android:id/title``) or a dropdown of choices.

    Args:
        items: The entries.
        checked: With ``checkable``, the entry shown checked (a Spinner's selection).
        on_select: Called with the index of the entry tapped; the popup then goes.
        anchor: Where it shows (see :class:`~androidrl.virtual.ui.window.Window`): a box (a
            Spinner's, the overflow button's) it drops down from, a point, a resource id, or
            None for the last touch (a context menu).
        checkable: Entries are ``CheckedTextView``s (a Spinner's dropdown) instead of menu items.
        title: A context menu's header (``ContextMenu.setHeaderTitle``), if any.
        on_dismiss: Runs when it goes.
    """

    kind = "popup"

    def __init__(
        self,
        items: Sequence[str],
        checked: int | None = None,
        on_select: Callable[[int], None] | None = None,
        anchor: str | tuple | None = None,
        checkable: bool = False,
        title: str = "",
        on_dismiss: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(on_dismiss, anchor)
        check_callback("ListPopup", "on_select", on_select)
        self.items, self.checked, self.on_select = list(items), checked, on_select
        self.checkable, self.title = checkable, title

    def width_dp(self, screen_dp: float) -> float:
        if isinstance(self.anchor, tuple) and len(self.anchor) == 4 and self.checkable:
            return -1  # a dropdown is as wide as its Spinner
        return super().width_dp(screen_dp)

    def build(self) -> View:
        rows: list[View] = []
        if self.title:
            rows.append(TextView(self.title, text_color=TEXT_SECONDARY, padding=16, height=48))
        for i, label in enumerate(self.items):
            if self.checkable:
                rows.append(
                    TextView(
                        label,
                        cls="android.widget.CheckedTextView",
                        resource_id="android:id/text1",
                        checkable=True,
                        checked=i == self.checked,
                        clickable=True,
                        focusable=True,
                        text_size=16,
                        padding=16,
                        height=48,
                        on_click=lambda i=i: self.select(i),
                    )
                )
            else:
                title = TextView(label, resource_id="android:id/title", text_size=16, padding=16, height=48)
                rows.append(
                    LinearLayout(
                        [title], clickable=True, focusable=True, height=48, on_click=lambda i=i: self.select(i)
                    )
                )
        return LinearLayout(rows, cls="android.widget.ListView")

    def select(self, index: int) -> None:
        """An entry was tapped."""
        self.dismiss()
        if self.on_select is not None:
            self.on_select(index)


def overflow_menu(host, items: Sequence[str], on_select: Callable[[int], None]) -> View:
    """The app bar's "More options" button: a tap shows ``items`` in a popup menu from it.

    Args:
        host: The activity (it shows the menu).
        items: The menu's entries.
        on_select: Called with the index of the entry chosen (a bound method of the activity).
    """
    button = ImageView(
        glyph=":",
        color=(255, 255, 255),
        glyph_color=(32, 33, 36),
        content_desc=framework_string("more_options"),
        clickable=True,
        focusable=True,
        width=48,
        height=48,
    )
    button.on_click = lambda: host.show(ListPopup(items, on_select=on_select, anchor=button.bounds))
    return button


def spinner(host, items: Sequence[str], selected: int, on_select: Callable[[int], None], resource_id: str = "") -> View:
    """``android.widget.Spinner``: shows the selected item; a tap drops the items down from it.

    Args:
        host: The activity (it shows the dropdown).
        items: The choices.
        selected: Index of the chosen one.
        on_select: Called with the index chosen: a bound method of the activity (or a
            ``functools.partial`` of one), as every window callback.
        resource_id: The spinner's resource id.
    """
    text = items[selected] if 0 <= selected < len(items) else ""
    view = _SpinnerView(
        [TextView(text, resource_id="android:id/text1", weight=1, width=0, padding=12, text_size=16)],
        vertical=False,
        cls="android.widget.Spinner",
        resource_id=resource_id,
        clickable=True,
        focusable=True,
        height=48,
    )
    view.on_click = lambda: host.show(ListPopup(items, selected, on_select, anchor=view.bounds, checkable=True))
    return view


def picker_buttons(on_cancel: Callable[[], None], on_ok: Callable[[], None]) -> View:
    """A picker dialog's Cancel and OK (``button2``, ``button1``), at the end of its bottom row."""
    return LinearLayout(
        [
            View(width=-1, height=0, weight=1),
            text_button(framework_string("cancel"), "android:id/button2", on_cancel),
            text_button(framework_string("ok"), "android:id/button1", on_ok),
        ],
        resource_id="android:id/buttonPanel",
        vertical=False,
        height=56,
        padding=8,
        weight=1,
        width=0,
    )


class _SpinnerView(LinearLayout):
    """A Spinner's frame: its selected item, and the dropdown arrow drawn at its end."""

    def paint(self, scale: float) -> list[tuple]:
        left, top, right, bottom = self.bounds
        x, y, size = right - round(20 * scale), (top + bottom) // 2, round(5 * scale)
        arrow = ((x - size, y - size // 2), (x, y + size // 2), (x + size, y - size // 2))
        return [("line", (x - size, y - size, x + size, y + size), arrow, TEXT_SECONDARY, max(1, round(2 * scale)))]


def popup_frame(anchor: Box | None, width: int, height: int, screen: Box) -> Box:
    """Where a popup of ``width`` x ``height`` pixels goes on ``screen``.

    Below its anchor box (or point), left-aligned with it; above it when there is no room below.
    """
    left, top, right, bottom = screen
    if anchor is None:
        ax0 = ax1 = (left + right) // 2
        ay0 = ay1 = (top + bottom) // 2
    else:
        ax0, ay0, ax1, ay1 = anchor
    x = ax0 if ax0 + width <= right else max(left, ax1 - width)
    y = ay1 if ay1 + height <= bottom else max(top, ay0 - height)
    return x, y, min(right, x + width), min(bottom, y + height)

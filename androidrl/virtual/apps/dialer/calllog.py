"""The Recents tab: the call log as Dialer's CallLogFragment shows it (app/res/layout/call_log_list_item.xml).

Rows are CallLogGroupBuilder's groups — consecutive calls with the same number on the same
day — under "Today", "Yesterday" and "Older" (``call_log_day_group_label``). A row
(``primary_action_view``, described as CallLogListItemHelper.getCallDescription does: "Missed
call from NAME, Mobile, 5 min. ago, .") holds the ``quick_contact_photo``, the ``name`` (the
contact's, else the number), ``call_type_icons`` and ``call_location_and_date`` ("Mobile, 5
min. ago", with "(3) " for a group), and ``primary_action_button`` ("Call NAME") that calls
back. A tap on the row shows its actions: ``create_new_contact_action`` (for a number no
contact has) and ``send_message_action``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import partial

from androidrl.virtual.apps.dialer.data import INCOMING, MISSED, OUTGOING, Call, Caller, Directory, local_day
from androidrl.virtual.apps.dialer.widgets import RID, relative_time
from androidrl.virtual.ui.views import (
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    ImageView,
    LinearLayout,
    TextView,
    View,
)
from androidrl.virtual.ui.widgets import letter_tile

#: The glyph CallTypeIconsView draws for each call type (an arrow in, out, or the missed one).
TYPE_GLYPHS = {INCOMING: "<", OUTGOING: ">", MISSED: "!"}
MISSED_RED = (217, 48, 37)
#: A row of a lazily made list: its kind (rows of a kind are as tall as each other) and what makes its view.
Row = tuple[Hashable, Callable[[], View]]


@dataclass(frozen=True)
class Group:
    """CallLogGroupBuilder's group: calls in a row from one number on one day."""

    calls: tuple[Call, ...]
    day: int  # 0 today, 1 yesterday, 2 older

    @property
    def first(self) -> Call:
        return self.calls[0]


def groups(calls: list[Call], now: int, zone: str) -> list[Group]:
    """The call log's rows: consecutive calls of the same number and day group in one."""
    today = local_day(now, zone)
    found: list[Group] = []
    for call in calls:
        days = (today - local_day(call.date, zone)).days
        day = 0 if days <= 0 else 1 if days == 1 else 2
        last = found[-1] if found else None
        if last is not None and last.day == day and last.first.number == call.number and call.type != 4:
            found[-1] = Group((*last.calls, call), day)
        else:
            found.append(Group((call,), day))
    return found


def rows(host, calls: list[Call], phones: list[dict], now: int, zone: str, expanded: int | None) -> list[Row]:
    """The Recents tab's rows, each ``(kind, make)`` (``host`` is the activity: its strings and what taps do)."""
    s = host.string
    views: list[Row] = []
    last_day = None
    directory = Directory(phones)
    for group in groups(calls, now, zone):
        caller = directory.lookup(group.first.number)
        label = None
        if group.day != last_day:
            key = ("call_log_header_today", "call_log_header_yesterday", "call_log_header_other")[group.day]
            label = s(key)
            last_day = group.day
        open_ = expanded == group.first.id
        kind = (label is not None, open_, open_ and caller is None, open_ and bool(group.first.number))
        views.append((kind, partial(row, host, group, caller, label, now, zone, open_)))
    return views


def row(host, group: Group, caller: Caller | None, day_label: str | None, now: int, zone: str, open_: bool) -> View:
    """One call log row (``call_log_list_item``): its day label if it starts a day, the call, its actions if open."""
    s = host.string
    call = group.first
    name = caller.name if caller is not None and caller.name else call.name or call.number or s("unknown")
    type_label = host.type_label(caller.type) if caller is not None else ""
    when = relative_time(s, call.date, now, zone)
    location = ", ".join(p for p in (type_label or (call.number if caller else ""), when) if p)
    if len(group.calls) > 1:
        location = s("call_log_item_count_and_date", len(group.calls), location)
    key = {MISSED: "description_incoming_missed_call", INCOMING: "description_incoming_answered_call"}.get(
        call.type, "description_outgoing_call"
    )
    description = s(key, name, type_label, when, "")
    if len(group.calls) > 1:
        description = s("description_num_calls", len(group.calls)) + description
    missed = call.type == MISSED
    texts = LinearLayout(
        [
            TextView(
                name,
                resource_id=RID + "name",
                text_size=16,
                height=26,
                bold=missed and call.new,
                text_color=MISSED_RED if missed else TEXT,
            ),
            LinearLayout(
                [
                    ImageView(
                        glyph=TYPE_GLYPHS.get(call.type, ""),
                        color=WHITE,
                        glyph_color=MISSED_RED if missed else TEXT_SECONDARY,
                        resource_id=RID + "call_type_icons",
                        width=20,
                        height=20,
                    ),
                    TextView(
                        location,
                        resource_id=RID + "call_location_and_date",
                        text_color=TEXT_SECONDARY,
                        weight=1,
                        width=0,
                    ),
                ],
                vertical=False,
                resource_id=RID + "call_type",
                height=22,
            ),
        ],
        weight=1,
        width=0,
        padding=4,
    )
    call_back = ImageView(
        glyph="C",
        color=WHITE,
        glyph_color=PRIMARY,
        resource_id=RID + "primary_action_button",
        content_desc=s("description_call_action", name),
        clickable=True,
        focusable=True,
        width=48,
        height=48,
        on_click=partial(host.call, call.number),
    )
    primary = LinearLayout(
        [
            letter_tile(
                caller.name if caller else "",
                40,
                cls="android.widget.QuickContactBadge",
                resource_id=RID + "quick_contact_photo",
            ),
            texts,
            call_back,
        ],
        vertical=False,
        resource_id=RID + "primary_action_view",
        content_desc=description,
        clickable=True,
        focusable=True,
        long_clickable=True,
        height=72,
        padding=12,
        on_click=partial(host.expand, call.id),
    )
    card: list[View] = [primary]
    if open_:
        card += actions(host, call.number, caller)
    children: list[View] = []
    if day_label:
        children.append(
            TextView(
                day_label,
                resource_id=RID + "call_log_day_group_label",
                text_color=TEXT_SECONDARY,
                bold=True,
                padding=12,
                height=40,
            )
        )
    children.append(LinearLayout(card, cls="android.widget.FrameLayout", resource_id=RID + "call_log_row"))
    return LinearLayout(children, resource_id=RID + "call_log_list_item")


def actions(host, number: str, caller: Caller | None) -> list[View]:
    """The row's actions (call_log_list_item_actions.xml), those that apply to the number."""
    s = host.string
    items = []
    if caller is None and number:
        items.append(
            (
                "create_new_contact_action",
                s("search_shortcut_create_new_contact"),
                "+",
                partial(host.create_contact, number),
            )
        )
    if number:
        items.append(("send_message_action", s("call_log_action_send_message"), "T", partial(host.text, number)))
    return [
        LinearLayout(
            [
                ImageView(glyph=glyph, color=SURFACE, glyph_color=TEXT_SECONDARY, width=56, height=32),
                TextView(label, text_size=15, weight=1, width=0),
            ],
            vertical=False,
            cls="android.widget.LinearLayout",
            resource_id=RID + rid,
            clickable=True,
            focusable=True,
            height=56,
            padding=12,
            on_click=action,
        )
        for rid, label, glyph, action in items
    ]

"""``MainActivity``: the Phone app's tabs, and the dialpad over them.

As Dialer's main_activity.xml and OldMainActivityPeer lay it out: the search bar
(``search_box_start_search``), the tab's list, the floating ``fab`` ("key pad") that opens the
dialpad, and the ``bottom_nav_bar`` (BottomNavBar: ``speed_dial_tab`` Favorites,
``call_log_tab`` Recents, ``contacts_tab`` Contacts; each a ``bottom_nav_item_text`` under its
``bottom_nav_item_image``). The tab shown last comes back (its preference). With the dialpad
up the tabs give way to it (see :mod:`~androidrl.virtual.apps.dialer.dialpad`); the dial button
places the call (``ACTION_CALL tel:``, which Telecom hands to the in-call screen), or with no
digits brings back the last number dialled (DialpadFragment.handleDialButtonPressed). BACK
closes the dialpad first.

``DIAL`` (with or without ``tel:NUMBER``) opens the dialpad with the number in it, ``VIEW``
of ``tel:`` too, and ``VIEW`` of ``vnd.android.cursor.dir/calls`` the Recents tab.
"""

from __future__ import annotations

from functools import partial
from urllib.parse import quote

from androidrl.keycodes import KEYCODE_DEL
from androidrl.virtual.apps.dialer import calllog, lists
from androidrl.virtual.apps.dialer.data import OUTGOING, calls, people, phones, tel_number
from androidrl.virtual.apps.dialer.dialpad import DIALABLE, dialpad
from androidrl.virtual.apps.dialer.widgets import PACKAGE, RID
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import (
    ACTION_DIAL,
    ACTION_INSERT,
    ACTION_SENDTO,
    ACTION_VIEW,
    FLAG_ACTIVITY_NEW_TASK,
    Intent,
)
from androidrl.virtual.ui.recycler import RecyclerList
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.views import (
    PRIMARY,
    SURFACE,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    BottomEnd,
    ImageView,
    LinearLayout,
    TextView,
    View,
)
from androidrl.virtual.ui.widgets import floating_action_button

MAIN = f"{PACKAGE}.main.impl.MainActivity"
ACTION_CALL = "android.intent.action.CALL"
TAG = "Dialer"
SPEED_DIAL, CALL_LOG, CONTACTS = 0, 1, 2  # BottomNavBar.TabIndex
#: (resource id, title string, icon glyph) of the tabs, in BottomNavBar's order.
TABS = (
    ("speed_dial_tab", "tab_title_speed_dial", "*"),
    ("call_log_tab", "tab_title_call_history", "R"),
    ("contacts_tab", "tab_all_contacts", "P"),
)


def encoded(number: str) -> str:
    """A number as ``Uri.fromParts("tel", number, null)`` writes it (``+`` and spaces escaped)."""
    return quote(number, safe="-_.!~*'()")


class MainActivity(Activity):
    """The Phone app."""

    def on_create(self) -> None:
        intent = self.intent
        self.tab = int(self.app.data.get("last_tab", SPEED_DIAL))
        self.dialpad_open = False
        self.digits = ""
        self.expanded: int | None = None  # the call log row whose actions show
        self.scrolls = [ScrollState(), ScrollState(), ScrollState()]
        if intent.action == ACTION_DIAL or (intent.action == ACTION_VIEW and intent.scheme == "tel"):
            self.dialpad_open = True
            self.digits = "".join(c for c in tel_number(intent.data) if c in DIALABLE)
        elif intent.action == ACTION_VIEW and intent.type == "vnd.android.cursor.dir/calls":
            self.tab = CALL_LOG

    @property
    def title(self) -> str:  # (the window's, in the phone's locale)
        return self.string("applicationLabel")

    def build(self) -> View:
        if self.dialpad_open:
            pad = dialpad(
                self.digits, self.string, self.press, self.delete, self.clear, self.dial, self.typed, self.key
            )
            return LinearLayout([View(weight=1, height=0), pad], resource_id=RID + "root_layout", height=-1)
        s = self.string
        search = LinearLayout(
            [
                ImageView(
                    glyph="?",
                    color=WHITE,
                    glyph_color=TEXT_SECONDARY,
                    resource_id=RID + "search_magnifying_glass",
                    width=40,
                    height=40,
                ),
                TextView(
                    s("dialer_hint_find_contact"),
                    resource_id=RID + "search_box_start_search",
                    text_color=TEXT_SECONDARY,
                    text_size=16,
                    weight=1,
                    width=0,
                ),
            ],
            vertical=False,
            resource_id=RID + "search_box_collapsed",
            background=WHITE,
            corner=24,
            height=48,
            padding=4,
        )
        bar = LinearLayout([search], resource_id=RID + "toolbar", background=SURFACE, height=64, padding=8)
        fab = floating_action_button("#", RID + "fab", s("dialpad_button_content_description"), self.open_dialpad)
        body = BottomEnd([self.tab_content(), fab], resource_id=RID + "coordinator_layout", weight=1)
        return LinearLayout([bar, body, self.nav_bar()], resource_id=RID + "root_layout", height=-1)

    def tab_content(self) -> View:
        content = self.context.content
        rid = "recycler_view"
        if self.tab == CALL_LOG:
            log = calls(content)
            if not log:
                empty = partial(
                    TextView,
                    self.string("call_log_all_empty"),
                    resource_id=RID + "empty_list_view_message",
                    text_color=TEXT_SECONDARY,
                    gravity="center",
                    height=96,
                )
                rows = [("empty", empty)]
            else:
                now, zone = self.context.current_time_millis(), self.context.timezone()
                rows = calllog.rows(self, log, phones(content), now, zone, self.expanded)
        elif self.tab == CONTACTS:
            rows = lists.contacts(self, people(content))
        else:
            rows, rid = lists.favorites(self, people(content)), "speed_dial_recycler_view"
        return RecyclerList(
            len(rows),
            lambda i: rows[i][1](),
            kind=lambda i: rows[i][0],
            state=self.scrolls[self.tab],
            resource_id=RID + rid,
        )

    def nav_bar(self) -> View:
        """BottomNavBar: a BottomNavItem per tab (the selected one marked ``selected``)."""
        items = []
        for index, (rid, title, glyph) in enumerate(TABS):
            on = index == self.tab
            items.append(
                LinearLayout(
                    [
                        ImageView(
                            glyph=glyph,
                            color=(210, 227, 252) if on else SURFACE,
                            glyph_color=TEXT,
                            resource_id=RID + "bottom_nav_item_image",
                            width=56,
                            height=30,
                        ),
                        TextView(
                            self.string(title),
                            resource_id=RID + "bottom_nav_item_text",
                            gravity="center",
                            text_size=12,
                            height=20,
                            bold=on,
                            text_color=PRIMARY if on else TEXT_SECONDARY,
                        ),
                    ],
                    resource_id=RID + rid,
                    selected=on,
                    clickable=True,
                    focusable=True,
                    weight=1,
                    width=0,
                    height=64,
                    padding=6,
                    on_click=partial(self.select_tab, index),
                )
            )
        return LinearLayout(items, vertical=False, resource_id=RID + "bottom_nav_bar", height=64, background=SURFACE)

    def type_label(self, kind: int) -> str:
        """``Phone.getTypeLabel`` of a number type ("" for none or a custom one)."""
        try:
            return self.string(f"phoneType{kind}") if kind else ""
        except KeyError:
            return self.string("phoneType7")

    # ------------------------------------------------------------------ tabs and rows

    def select_tab(self, index: int) -> None:
        self.tab, self.expanded = index, None
        self.app.data["last_tab"] = index
        self.log(TAG, f"tab {TABS[index][0]}")

    def expand(self, call_id: int) -> None:
        """A tap on a call log row shows (or hides) its actions."""
        self.expanded = None if self.expanded == call_id else call_id

    def open_contact(self, contact_id: int) -> None:
        """A contact row: its details in Contacts (QuickContact.showQuickContact)."""
        self.launch(
            Intent(
                action="com.android.contacts.action.QUICK_CONTACT",
                data=f"content://com.android.contacts/contacts/{contact_id}",
                type="vnd.android.cursor.item/contact",
                flags=FLAG_ACTIVITY_NEW_TASK,
            )
        )

    def new_contact(self) -> None:
        self.launch(
            Intent(action=ACTION_INSERT, data="content://com.android.contacts/contacts", flags=FLAG_ACTIVITY_NEW_TASK)
        )

    def create_contact(self, number: str) -> None:
        """IntentUtil.getNewContactIntent: the Contacts editor with the number in it."""
        intent = Intent(
            action=ACTION_INSERT, data="content://com.android.contacts/contacts", flags=FLAG_ACTIVITY_NEW_TASK
        )
        intent.extras["phone"] = number
        self.launch(intent)

    def text(self, number: str) -> None:
        """IntentUtil.getSendSmsIntent: ``SENDTO`` of ``sms:`` and the number as it is (Uri.parse, not encoded)."""
        self.launch(Intent(action=ACTION_SENDTO, data=f"sms:{number}", flags=FLAG_ACTIVITY_NEW_TASK))

    def call(self, number: str) -> None:
        """Place a call (TelecomManager.placeCall): the in-call screen takes it."""
        if number:
            self.log(TAG, f"placing call to {number}")
            self.launch(Intent(action=ACTION_CALL, data=f"tel:{encoded(number)}", flags=FLAG_ACTIVITY_NEW_TASK))

    def launch(self, intent: Intent) -> None:
        self.context.start_activity(intent)

    # ------------------------------------------------------------------ the dialpad

    def open_dialpad(self) -> None:
        self.dialpad_open = True

    def press(self, character: str) -> None:
        """A key of the dialpad: its character goes into the digits."""
        self.digits += character

    def typed(self, text: str) -> None:
        self.digits += "".join(c for c in text if c in DIALABLE)

    def key(self, code: int) -> bool:
        if code == KEYCODE_DEL:
            self.delete()
            return True
        return False

    def delete(self) -> None:
        self.digits = self.digits[:-1]

    def clear(self) -> None:
        self.digits = ""

    def dial(self) -> None:
        """The dial button: call the digits, or with none fill in the last number called."""
        if not self.digits:
            rows = self.context.content.query(
                "content://call_log/calls", ["number"], "type = ?", [OUTGOING], "date DESC"
            )
            self.digits = str(rows[0]["number"]) if rows else ""
            return
        number, self.digits = self.digits, ""
        self.dialpad_open = False
        self.call(number)

    def on_back(self) -> bool:
        if self.dialpad_open:
            self.dialpad_open = False
            return True
        return False

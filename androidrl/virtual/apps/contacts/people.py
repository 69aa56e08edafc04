"""``PeopleActivity``: the contact list, its search, and the button that creates a contact.

As packages/apps/Contacts DefaultContactBrowseListFragment shows it: a ``PinnedHeaderListView``
(``android:id/list``, an ``android.widget.ListView``) of ``ContactListItemView`` rows — the
starred contacts first under a star (FavoritesAndContactsLoader), then every contact by name
with the first row of each letter carrying the letter (ContactsSectionIndexer). A row holds the
header, the ``QuickContactBadge`` and the name (``cliv_name_textview``). The toolbar's search item
(``menu_search``) turns it into ``search_bar_expanded.xml``'s field (``search_view``) that filters
the list; the floating button (``floating_action_button``) opens the editor.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.contacts import data
from androidrl.virtual.apps.contacts.widgets import RID, action_item, toolbar
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.system.framework.intent import ACTION_INSERT, Intent
from androidrl.virtual.ui.recycler import RecyclerList
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import (
    PRIMARY,
    TEXT,
    TEXT_SECONDARY,
    WHITE,
    BottomEnd,
    FrameLayout,
    ImageView,
    LinearLayout,
    TextView,
    View,
)
from androidrl.virtual.ui.widgets import floating_action_button, letter_tile

PACKAGE = "com.android.contacts"
PEOPLE = f"{PACKAGE}.activities.PeopleActivity"
QUICK_CONTACT = f"{PACKAGE}.quickcontact.QuickContactActivity"
EDITOR = f"{PACKAGE}.activities.ContactEditorActivity"
#: QuickContact.ACTION_QUICK_CONTACT, what a tap on a row starts.
ACTION_QUICK_CONTACT = "com.android.contacts.action.QUICK_CONTACT"
STAR = (233, 30, 99)  # material_star_pink
ROW_DP = 56


def quick_contact_intent(contact_id: int) -> Intent:
    """The intent that shows a contact's details (ImplicitIntentsUtil.composeQuickContactIntent)."""
    return Intent(
        action=ACTION_QUICK_CONTACT,
        component=(PACKAGE, QUICK_CONTACT),
        data=f"{data.CONTACTS}/{contact_id}",
        type="vnd.android.cursor.item/contact",
    )


class PeopleActivity(Activity):
    """The list of contacts (the launcher's Contacts)."""

    #: The toolbar's title (a string key) and whether the floating "Create new contact" button shows.
    title_key, fab = "applicationLabel", True
    #: Whether a row's photo is a QuickContactBadge (a picker's is a plain photo: setQuickContactEnabled(false)).
    quick_contact = True

    def on_create(self) -> None:
        self.scroll = ScrollState()
        self.searching = False
        self.query = TextState()
        self.focused = False  # the search field has focus

    @property
    def title(self) -> str:  # (the window's, in the phone's locale)
        return self.string(self.title_key)

    def build(self) -> View:
        s = self.string
        if self.searching:
            entries = [(c, None) for c in data.search(self.context.content, self.query.text)]
        else:
            entries = self.entries(data.contacts(self.context.content))
        if entries:
            body: View = RecyclerList(
                len(entries),
                lambda i: self.row(*entries[i]),
                state=self.scroll,
                cls="android.widget.ListView",
                resource_id="android:id/list",
            )
        else:
            body = TextView(s("listFoundAllContactsZero"), text_color=TEXT_SECONDARY, gravity="center", height=96)
        if self.fab and not self.searching:
            fab = FrameLayout(
                [
                    floating_action_button(
                        "+", RID + "floating_action_button", s("action_menu_add_new_contact_button"), self.create
                    )
                ],
                resource_id=RID + "floating_action_button_container",
                width=56,
                height=56,
            )
            body = BottomEnd([body, fab], resource_id=RID + "contacts_list_container")
        body.weight = 1
        return LinearLayout([self.bar(), body], height=-1)

    def bar(self) -> View:
        s = self.string
        if not self.searching:
            title = TextView(self.title, text_size=20, padding=16, height=56, weight=1, width=0)
            search = action_item(RID + "menu_search", s("hint_findContacts"), "?", self.start_search)
            return toolbar([title, search])
        back = ImageView(
            glyph="<",
            color=WHITE,
            glyph_color=TEXT,
            cls="android.widget.ImageButton",
            resource_id=RID + "search_back_button",
            content_desc=s("action_menu_back_from_search"),
            clickable=True,
            focusable=True,
            width=48,
            height=48,
            on_click=self.stop_search,
        )
        field = edit_text(
            self,
            self.query,
            self.focused,
            self.focus_search,
            hint=s("hint_findContacts"),
            resource_id=RID + "search_view",
            on_change=self.scroll_to_top,
            on_action=self.unfocus_search,
        )
        field.weight, field.width = 1, 0
        children: list[View] = [back, field]
        if self.query.text:
            children.append(
                ImageView(
                    glyph="x",
                    color=WHITE,
                    glyph_color=TEXT_SECONDARY,
                    resource_id=RID + "search_close_button",
                    content_desc=s("description_clear_search"),
                    clickable=True,
                    focusable=True,
                    width=48,
                    height=48,
                    on_click=self.clear_search,
                )
            )
        bar = LinearLayout(children, vertical=False, resource_id=RID + "search_box_expanded", height=56)
        return toolbar([bar], background=WHITE)

    def entries(self, people: list[data.Summary]) -> list[tuple[data.Summary, str | None]]:
        """The rows: the favourites under a star, then everyone under their letters (FavoritesAndContactsLoader)."""
        starred = [p for p in people if p.starred]
        rows: list[tuple[data.Summary, str | None]] = [(p, "star" if i == 0 else None) for i, p in enumerate(starred)]
        last = None
        for person in people:
            letter = data.bucket(person.name)
            rows.append((person, letter if letter != last else None))
            last = letter
        return rows

    def row(self, person: data.Summary, header: str | None) -> View:
        """A ``ContactListItemView``: section header, photo badge, name."""
        s = self.string
        name = person.name or s("missing_name")
        if header == "star":
            head: View = ImageView(
                glyph="*", color=WHITE, glyph_color=STAR, content_desc=s("contactsFavoritesLabel"), width=40, height=40
            )
        elif header:
            head = TextView(header, content_desc=header, gravity="center", text_color=PRIMARY, bold=True, width=40)
        else:
            head = View(width=40, height=0)
        opened = partial(self.open, person.id)
        if self.quick_contact:
            badge = letter_tile(
                person.name,
                40,
                cls="android.widget.QuickContactBadge",
                content_desc=s("description_quick_contact_for", name),
                clickable=True,
                focusable=True,
                on_click=opened,
            )
        else:
            badge = letter_tile(person.name, 40)
        label = TextView(
            name,
            resource_id=RID + "cliv_name_textview",
            content_desc=name,
            text_size=16,
            padding=12,
            weight=1,
            width=0,
        )
        return LinearLayout(
            [head, badge, label],
            vertical=False,
            cls="android.view.ViewGroup",
            clickable=True,
            long_clickable=True,
            focusable=True,
            height=ROW_DP,
            padding=8,
            on_click=opened,
        )

    # ------------------------------------------------------------------ what taps do

    def open(self, contact_id: int) -> None:
        """Show a contact's details."""
        self.context.start_activity(quick_contact_intent(contact_id))

    def create(self) -> None:
        """The floating button: a new contact in the editor."""
        intent = Intent(action=ACTION_INSERT, component=(PACKAGE, EDITOR), type="vnd.android.cursor.dir/contact")
        self.context.start_activity(intent)

    def start_search(self) -> None:
        self.searching, self.focused = True, True
        self.query.set("")
        self.scroll_to_top()

    def focus_search(self) -> None:
        self.focused = True

    def unfocus_search(self) -> None:
        """The keyboard's search key: the keyboard goes, the results stay."""
        self.focused = False

    def clear_search(self) -> None:
        self.query.set("")
        self.scroll_to_top()

    def stop_search(self) -> None:
        self.searching, self.focused = False, False
        self.query.set("")
        self.scroll_to_top()

    def scroll_to_top(self) -> None:
        self.scroll.scroll_to(0)

    def on_back(self) -> bool:
        """BACK leaves the search first (PeopleActivity.onBackPressed)."""
        if self.searching:
            self.stop_search()
            return True
        return False

"""``com.androidrl.practice/.WidgetsActivity``: a gallery of the toolkit's widgets, one of each.

Three pages behind a bottom navigation bar: *Controls* (tabs, a CheckBox, a RadioGroup, a
Switch, a SeekBar, a Spinner, and buttons that open an AlertDialog, a single-choice and a
multi-choice dialog, a dialog with a text field, a popup menu, the time and date pickers, a
toast and a snackbar), *List* (a RecyclerView of 40 rows that flings,
swipe-to-dismiss with Undo, a long-press context menu) and *Text* (two fields with the
clipboard's cut, copy and paste). The ``state`` line sums up every value, and each change is
logged under the tag ``Widgets`` (the Alert dialog's answer too: "deleted all" or "kept all"),
so tests (and agents) can check what a gesture did. Extras set where the values start:
``--es size small|medium|large``, ``--es color Red|Green|Blue`` (the Spinner's) and ``--es days Mon,Wed``
(the days Repeat has checked).
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui.controls import CheckBox, SeekBar, bottom_navigation, dismissible, radio_group, tab_layout
from androidrl.virtual.ui.date_picker import DatePickerDialog
from androidrl.virtual.ui.dialogs import AlertDialog, ListPopup, overflow_menu, spinner
from androidrl.virtual.ui.scroll import ScrollState
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.time_picker import TimePickerDialog
from androidrl.virtual.ui.views import SURFACE, Button, LinearLayout, ScrollingList, TextView, View
from androidrl.virtual.ui.widgets import list_row

PACKAGE = "com.androidrl.practice"
WIDGETS = "com.androidrl.practice.WidgetsActivity"
SIZES = ("small", "medium", "large")
COLORS = ("Red", "Green", "Blue")
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
SORTS = ("name", "date")
#: The gallery's strings: default (English) and German, as res/values and res/values-de.
STRINGS = {
    "": {
        "title": "Widgets",
        "controls": "Controls",
        "list": "List",
        "text": "Text",
        "remember": "Remember me",
        "small": "Small",
        "medium": "Medium",
        "large": "Large",
        "alert": "Alert",
        "choose": "Choose",
        "time": "Time",
        "date": "Date",
        "toast": "Toast",
        "snackbar": "Snackbar",
        "delete_all": "Delete all?",
        "delete": "Delete",
        "cancel": "Cancel",
        "deleted": "{0} deleted",
        "undo": "Undo",
        "hello": "Hello!",
        "saved": "Saved",
        "refresh": "Refresh",
        "about": "About",
        "first": "First",
        "second": "Second",
        "third": "Third",
        "size": "Size",
        "name": "Name",
        "copy_here": "Paste here",
        "rename": "Rename",
        "repeat": "Repeat",
        "label": "Label",
        "sort": "Sort",
        "by_name": "By name",
        "by_date": "By date",
    },
    "de": {
        "title": "Steuerelemente",
        "controls": "Bedienung",
        "list": "Liste",
        "text": "Text",
        "remember": "Angemeldet bleiben",
        "small": "Klein",
        "medium": "Mittel",
        "large": "Groß",
        "alert": "Warnung",
        "choose": "Auswählen",
        "time": "Uhrzeit",
        "date": "Datum",
        "toast": "Toast",
        "snackbar": "Snackbar",
        "delete_all": "Alles löschen?",
        "delete": "Löschen",
        "cancel": "Abbrechen",
        "deleted": "{0} gelöscht",
        "undo": "Rückgängig",
        "hello": "Hallo!",
        "saved": "Gespeichert",
        "refresh": "Aktualisieren",
        "about": "Über",
        "first": "Erster",
        "second": "Zweiter",
        "third": "Dritter",
        "size": "Größe",
        "name": "Name",
        "copy_here": "Hier einfügen",
        "rename": "Umbenennen",
        "repeat": "Wiederholen",
        "label": "Label",
        "sort": "Sortieren",
        "by_name": "Nach Name",
        "by_date": "Nach Datum",
    },
}


class WidgetsActivity(Activity):
    """The widget gallery; every value it shows lives here and is rebuilt into views each frame."""

    def on_create(self) -> None:
        extras = self.intent.extras
        self.page, self.tab = 0, 0
        self.remember, self.size, self.wifi, self.volume, self.color = False, 1, False, 40, 0
        if extras.get("size") in SIZES:
            self.size = SIZES.index(extras["size"])
        if extras.get("color") in COLORS:
            self.color = COLORS.index(extras["color"])
        self.hour, self.minute, self.date = 7, 30, (2026, 6, 15)
        self.rows = [f"Item {i}" for i in range(1, 41)]
        self.removed: tuple[int, str] | None = None  # the last row swiped away, for Undo
        self.scroll = ScrollState()
        self.name, self.copy = TextState(), TextState()
        self.focus = ""  # which text field has focus: "name", "copy", "label" or none
        self.days = [day in str(extras.get("days") or "").split(",") for day in DAYS]
        self.label, self.label_draft = TextState(), TextState()
        self.sort = 0

    @property
    def title(self) -> str:  # (the app bar's, in the phone's locale)
        return self.string("title")

    def state_line(self) -> str:
        """Every value on one line (the ``state`` TextView)."""
        year, month, day = self.date
        return (
            f"remember={int(self.remember)} size={SIZES[self.size]} wifi={int(self.wifi)} volume={self.volume} "
            f"color={COLORS[self.color]} time={self.hour:02d}:{self.minute:02d} date={year}-{month:02d}-{day:02d} "
            f"tab={self.tab} rows={len(self.rows)} name={self.name.text} "
            f"days={','.join(d for d, on in zip(DAYS, self.days) if on) or '-'} label={self.label.text or '-'} "
            f"sort={SORTS[self.sort]}"
        )

    def build(self) -> View:
        s, rid = self.string, f"{PACKAGE}:id/"
        bar = LinearLayout(
            [
                TextView(s("title"), resource_id="android:id/title", text_size=20, height=56, padding=16, width=-1),
                overflow_menu(self, [s("refresh"), s("about")], self.menu),
            ],
            vertical=False,
            height=56,
            background=SURFACE,
        )
        pages = (self.controls, self.list_page, self.text_page)
        state = TextView(self.state_line(), resource_id=rid + "state", text_size=11, height=32, padding=8)
        nav = bottom_navigation(
            [("page_controls", s("controls"), "C"), ("page_list", s("list"), "L"), ("page_text", s("text"), "T")],
            self.page,
            self.go,
            PACKAGE,
            resource_id=rid + "navigation",
        )
        return LinearLayout([bar, state, pages[self.page](), nav], height=-1)

    # ------------------------------------------------------------------ pages

    def controls(self) -> View:
        s, rid = self.string, f"{PACKAGE}:id/"
        buttons = [
            ("alert", self.alert),
            ("choose", self.choose),
            ("time", self.pick_time),
            ("date", self.pick_date),
            ("toast", self.make_toast),
            ("snackbar", self.make_snackbar),
            ("repeat", self.pick_days),
            ("label", self.edit_label),
            ("sort", self.sort_menu),
        ]
        grid = [
            LinearLayout(
                [
                    Button(s(key), resource_id=rid + key, on_click=action, weight=1, width=0, height=40, text_size=12)
                    for key, action in buttons[i : i + 3]
                ],
                vertical=False,
                height=48,
                padding=4,
            )
            for i in (0, 3, 6)
        ]
        rows: list[View] = [
            tab_layout([s("first"), s("second"), s("third")], self.tab, self.select_tab, resource_id=rid + "tabs"),
            CheckBox(s("remember"), self.remember, resource_id=rid + "remember", on_click=self.toggle_remember),
            radio_group(
                [s(k) for k in SIZES], self.size, self.select_size, rid + "size", [rid + "size_" + k for k in SIZES]
            ),
            list_row("Wi-Fi", "", on_click=self.toggle_wifi, switch=self.wifi),
            SeekBar(self.volume, 100, self.set_volume, resource_id=rid + "volume"),
            spinner(self, COLORS, self.color, self.select_color, resource_id=rid + "color"),
            *grid,
        ]
        return ScrollingList(rows, state=self.scroll, resource_id=rid + "controls", weight=1)

    def list_page(self) -> View:
        rid = f"{PACKAGE}:id/"
        rows = []
        for i, text in enumerate(self.rows):
            row = TextView(
                text,
                resource_id=rid + "row",
                clickable=True,
                long_clickable=True,
                focusable=True,
                height=56,
                padding=16,
                on_click=partial(self.log, "Widgets", f"tapped {text}"),
                on_long_click=partial(self.row_menu, i),
            )
            rows.append(dismissible(row, partial(self.dismiss_row, i)))
        return ScrollingList(rows, state=self.scroll, resource_id=rid + "list", weight=1)

    def text_page(self) -> View:
        s, rid = self.string, f"{PACKAGE}:id/"
        return LinearLayout(
            [
                edit_text(
                    self,
                    self.name,
                    self.focus == "name",
                    partial(self.focus_on, "name"),
                    hint=s("name"),
                    resource_id=rid + "name",
                    on_action=self.save,
                ),
                edit_text(
                    self,
                    self.copy,
                    self.focus == "copy",
                    partial(self.focus_on, "copy"),
                    hint=s("copy_here"),
                    resource_id=rid + "paste",
                ),
                Button(s("rename"), resource_id=rid + "rename", on_click=self.rename, width=160),
            ],
            weight=1,
            padding=8,
        )

    # ------------------------------------------------------------------ what gestures do

    def changed(self, what: str) -> None:
        self.log("Widgets", what)

    def go(self, page: int) -> None:
        self.page, self.focus = page, ""
        self.scroll.scroll_to(0)

    def select_tab(self, tab: int) -> None:
        self.tab = tab
        self.changed(f"tab {tab}")

    def toggle_remember(self) -> None:
        self.remember = not self.remember
        self.changed(f"remember {self.remember}")

    def select_size(self, index: int) -> None:
        self.size = index
        self.changed(f"size {SIZES[index]}")

    def toggle_wifi(self) -> None:
        self.wifi = not self.wifi
        self.changed(f"wifi {self.wifi}")

    def set_volume(self, value: int) -> None:
        self.volume = value
        self.changed(f"volume {value}")

    def select_color(self, index: int) -> None:
        self.color = index
        self.changed(f"color {COLORS[index]}")

    def menu(self, index: int) -> None:
        self.toast(self.string(("refresh", "about")[index]))

    def alert(self) -> None:
        s = self.string
        self.show(
            AlertDialog(
                s("delete_all"),
                "40 items",
                positive=(s("delete"), self.delete_all),
                negative=(s("cancel"), self.keep_all),
            )
        )

    def delete_all(self) -> None:
        self.rows = []
        self.changed("deleted all")

    def keep_all(self) -> None:
        self.changed("kept all")

    def choose(self) -> None:
        s = self.string
        self.show(
            AlertDialog(
                s("size"),
                items=[s(k) for k in SIZES],
                checked=self.size,
                on_item=self.select_size,
                positive=("OK", None),
            )
        )

    def pick_time(self) -> None:
        self.show(TimePickerDialog(self, self.hour, self.minute, self.set_time, is24=self.context.is_24_hour()))

    def set_time(self, hour: int, minute: int) -> None:
        self.hour, self.minute = hour, minute
        self.changed(f"time {hour:02d}:{minute:02d}")

    def pick_date(self) -> None:
        self.show(DatePickerDialog(*self.date, self.set_date))

    def set_date(self, year: int, month: int, day: int) -> None:
        self.date = (year, month, day)
        self.changed(f"date {year}-{month:02d}-{day:02d}")

    def make_toast(self) -> None:
        self.toast(self.string("hello"))

    def make_snackbar(self) -> None:
        self.show_snackbar(self.string("saved"))

    def pick_days(self) -> None:
        s = self.string
        self.show(
            AlertDialog(
                s("repeat"), items=list(DAYS), checked=list(self.days), on_item=self.toggle_day, positive=("OK", None)
            )
        )

    def toggle_day(self, index: int, checked: bool) -> None:
        self.days[index] = checked
        self.changed(f"day {DAYS[index]} {checked}")

    def edit_label(self) -> None:
        self.label_draft.set(self.label.text)
        self.focus = "label"
        s = self.string
        self.show(
            AlertDialog(
                s("label"), view=self.label_field, positive=("OK", self.set_label), negative=(s("cancel"), None)
            )
        )

    def label_field(self) -> View:
        return edit_text(
            self,
            self.label_draft,
            self.focus == "label",
            partial(self.focus_on, "label"),
            resource_id=f"{PACKAGE}:id/label_input",
            on_action=self.set_label,
        )

    def set_label(self) -> None:
        self.label.set(self.label_draft.text)
        self.changed(f"label {self.label.text}")
        self.focus = ""
        for window in self.windows:
            window.dismiss()  # (ENTER in the field ends the dialog as OK does)

    def sort_menu(self) -> None:
        s = self.string
        self.show(ListPopup([s("by_name"), s("by_date")], on_select=self.set_sort, anchor=f"{PACKAGE}:id/sort"))

    def set_sort(self, index: int) -> None:
        self.sort = index
        self.changed(f"sort {SORTS[index]}")

    def row_menu(self, index: int) -> None:
        self.show(
            ListPopup([self.string("delete")], on_select=partial(self.menu_delete, index), title=self.rows[index])
        )

    def menu_delete(self, index: int, choice: int) -> None:
        self.dismiss_row(index, "menu")

    def dismiss_row(self, index: int, direction: str) -> None:
        text = self.rows.pop(index)
        self.removed = (index, text)
        self.changed(f"removed {text} ({direction})")
        self.show_snackbar(self.string("deleted", text), self.string("undo"), self.undo, long=True)

    def undo(self) -> None:
        if self.removed is not None:
            index, text = self.removed
            self.rows.insert(index, text)
            self.removed = None
            self.changed(f"restored {text}")

    def focus_on(self, field: str) -> None:
        self.focus = field

    def save(self) -> None:
        self.changed(f"name {self.name.text}")
        self.focus = ""

    def rename(self) -> None:
        self.rows[0] = self.name.text or self.rows[0]
        self.changed(f"renamed {self.rows[0]}")

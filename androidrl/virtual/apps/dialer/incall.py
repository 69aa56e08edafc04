"""``InCallActivity``: the in-call screen of an outgoing call, and the call log row its end writes.

An ``ACTION_CALL`` of ``tel:NUMBER`` (what the dialpad, the call log, Contacts and ``am start``
place; on Android Telecom takes it and starts this screen) shows the call as InCallUI's
frag_incall_voice.xml does: ``contactgrid_contact_name`` (the contact's name, else the
number), ``contactgrid_status_text`` ("Calling…" until the call connects, two seconds on the
phone's clock), then ``contactgrid_bottom_text`` (the number's type and number) and the
``contactgrid_bottom_timer`` chronometer, and ``incall_end_call`` ("End call").

Ending the call writes its row as Telecom's CallLogManager does: type OUTGOING, ``date`` when
it was placed (the wall clock), ``duration`` the whole seconds it was connected (Call.getAgeMillis,
on the elapsed-realtime clock as Telecom counts it: 0 if it never connected), and the caller's
cached name and number type. The chronometer, too, counts on elapsed realtime
(``Chronometer.setBase``), so a ``date -s`` during the call moves neither. BACK leaves the call going
on screen (the call is not the activity's to drop); End call is the way out.
"""

from __future__ import annotations

from androidrl.virtual.apps.dialer.data import OUTGOING, Caller, log_call, lookup, phones, tel_number
from androidrl.virtual.apps.dialer.widgets import RID
from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui import config
from androidrl.virtual.ui.views import WHITE, ImageView, LinearLayout, TextView, View
from androidrl.virtual.ui.widgets import letter_tile

INCALL = "com.android.incallui.InCallActivity"
TAG = "Dialer"
#: How long an outgoing call rings before it connects, in ms of the phone's clock.
CONNECT_MS = 2000
END_RED = (217, 48, 37)
BACKGROUND = (32, 33, 36)


def chronometer(seconds: int) -> str:
    """``Chronometer``'s text: ``MM:SS``, ``H:MM:SS`` from an hour on."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class InCallActivity(Activity):
    """The screen of one outgoing call."""

    def on_create(self) -> None:
        self.number = tel_number(self.intent.data)
        self.placed = self.context.current_time_millis()  # (the call log's date)
        self.started = self.context.elapsed_realtime()  # (what the connection and the chronometer count from)
        self.ended = False
        caller = lookup(phones(self.context.content), self.number) if self.number else None
        self.caller: Caller | None = caller
        self.log(TAG, f"call to {self.number} dialing")

    def build(self) -> View:
        s = self.string
        age = self.context.elapsed_realtime() - self.started
        connected = age >= CONNECT_MS
        self.animate(age, connected)
        name = self.caller.name if self.caller is not None and self.caller.name else self.number or s("unknown")
        self.title = name
        grid: list[View] = [
            TextView(
                "" if connected else s("incall_connecting"),
                resource_id=RID + "contactgrid_status_text",
                text_color=WHITE,
                gravity="center",
                height=28,
            ),
            letter_tile(self.caller.name if self.caller else "", 96, resource_id=RID + "contactgrid_avatar"),
            TextView(
                name,
                resource_id=RID + "contactgrid_contact_name",
                text_color=WHITE,
                text_size=30,
                gravity="center",
                height=56,
            ),
        ]
        if connected:
            label = self.caller_label()
            grid.append(
                LinearLayout(
                    [
                        TextView(
                            " ".join(p for p in (label, self.number) if p),
                            resource_id=RID + "contactgrid_bottom_text",
                            text_color=WHITE,
                            weight=1,
                            width=0,
                        ),
                        TextView(
                            chronometer((age - CONNECT_MS) // 1000),
                            resource_id=RID + "contactgrid_bottom_timer",
                            text_color=WHITE,
                            width=72,
                        ),
                    ],
                    vertical=False,
                    resource_id=RID + "contactgrid_bottom_text_switcher",
                    height=32,
                    padding=4,
                )
            )
        end = ImageView(
            glyph="X",
            color=END_RED,
            glyph_color=WHITE,
            cls="android.widget.ImageButton",
            resource_id=RID + "incall_end_call",
            content_desc=s("incall_content_description_end_call"),
            clickable=True,
            focusable=True,
            width=72,
            height=72,
            on_click=self.end_call,
        )
        return LinearLayout(
            [
                LinearLayout(grid, resource_id=RID + "incall_contact_grid", padding=24),
                View(weight=1, height=0),
                LinearLayout([View(weight=1, height=0), end, View(weight=1, height=0)], vertical=False, height=120),
            ],
            resource_id=RID + "incall_ui_container",
            background=BACKGROUND,
            height=-1,
        )

    def caller_label(self) -> str:
        """The number's type as the contact grid shows it (the contact's label for it)."""
        if self.caller is None or not self.caller.type:
            return ""
        try:
            return self.string(f"phoneType{self.caller.type}")
        except KeyError:
            return self.caller.label or ""

    def animate(self, age: int, connected: bool) -> None:
        """Ask for a frame at the next change (``age`` ms into the call): the connection, then each second."""
        if self.ended:
            return
        wait = CONNECT_MS - age if not connected else 1000 - (age - CONNECT_MS) % 1000
        config.redraw_at((self.started + age + wait) / 1000)

    def end_call(self) -> None:
        """End call: the call disconnects, its row goes into the call log, the screen closes."""
        if self.ended:
            return
        self.ended = True
        duration = max(0, self.context.elapsed_realtime() - self.started - CONNECT_MS) // 1000
        log_call(self.context.content, self.number, OUTGOING, self.placed, duration, self.caller)
        self.log(TAG, f"call to {self.number} ended after {duration} s")
        self.finish()

    def on_back(self) -> bool:
        return True  # (the call goes on; End call ends it)

"""``com.android.permissioncontroller``: GrantPermissionsActivity, the dialog of ``requestPermissions``.

From packages/modules/Permission (PermissionController): an app's ``requestPermissions`` starts
``ACTION_REQUEST_PERMISSIONS`` (``PackageManager.buildRequestPermissionsIntent``), which
``permission.ui.GrantPermissionsActivity`` answers. It is a translucent, dialog-themed activity over
the app: one dialog per permission group still denied (``grant_permissions.xml``: the group's
question in ``permission_message`` — "Allow **Camera** to take pictures and record video?" — and
its buttons: ``permission_allow_foreground_only_button`` "While using the app",
``permission_allow_one_time_button`` "Only this time" and ``permission_deny_button`` "Don't allow"
for the camera, microphone and location groups, ``permission_allow_button`` "Allow" for the others).
An answer grants or revokes every permission of the group the app asked for (``pm grant``'s state,
``dumpsys package``); BACK denies the group shown. When no group is left it returns the names and
their results to the app (``EXTRA_REQUEST_PERMISSIONS_NAMES``/``_RESULTS``). A touch outside the dialog
does nothing (``setFinishOnTouchOutside(false)``). "Only this time" grants until the app is stopped
in PermissionController; here it grants as "While using the app" does.
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.system.framework.app import (
    ACTION_REQUEST_PERMISSIONS,
    EXTRA_PERMISSION_NAMES,
    EXTRA_PERMISSION_RESULTS,
    PERMISSION_DENIED,
    PERMISSION_GRANTED,
    RESULT_OK,
    Activity,
    App,
)
from androidrl.virtual.system.framework.intent import Intent, IntentFilter
from androidrl.virtual.ui.views import PRIMARY, WHITE, FrameLayout, ImageView, LinearLayout, TextView, View
from androidrl.virtual.ui.window import DimBehind

PACKAGE = "com.android.permissioncontroller"
GRANT = f"{PACKAGE}.permission.ui.GrantPermissionsActivity"
RID = PACKAGE + ":id/"
CARD = (240, 242, 247)
#: Permission groups (the platform's ``android.permission-group.*``): their permissions, in the order
#: PermissionController asks them, and whether they offer "While using the app" (foreground-only).
GROUPS: tuple[tuple[str, tuple[str, ...], bool], ...] = (
    ("location", ("android.permission.ACCESS_FINE_LOCATION", "android.permission.ACCESS_COARSE_LOCATION"), True),
    ("camera", ("android.permission.CAMERA",), True),
    ("microphone", ("android.permission.RECORD_AUDIO",), True),
    ("contacts", ("android.permission.READ_CONTACTS", "android.permission.WRITE_CONTACTS"), False),
    ("calendar", ("android.permission.READ_CALENDAR", "android.permission.WRITE_CALENDAR"), False),
    ("sms", ("android.permission.SEND_SMS", "android.permission.READ_SMS", "android.permission.RECEIVE_SMS"), False),
    ("phone", ("android.permission.CALL_PHONE", "android.permission.READ_PHONE_STATE"), False),
    ("notifications", ("android.permission.POST_NOTIFICATIONS",), False),
)
STRINGS = {
    "": {
        "app_name": "Permission controller",
        "location": "Allow {0} to access this device's location?",
        "camera": "Allow {0} to take pictures and record video?",
        "microphone": "Allow {0} to record audio?",
        "contacts": "Allow {0} to access your contacts?",
        "calendar": "Allow {0} to access your calendar?",
        "sms": "Allow {0} to send and view SMS messages?",
        "phone": "Allow {0} to make and manage phone calls?",
        "notifications": "Allow {0} to send you notifications?",
        "allow": "Allow", "allow_foreground": "While using the app", "allow_one_time": "Only this time",
        "deny": "Don't allow",
    },
    "de": {
        "app_name": "Berechtigungs-Controller",
        "location": "{0} Zugriff auf den Gerätestandort erlauben?",
        "camera": "{0} erlauben, Bilder und Videos aufzunehmen?",
        "microphone": "{0} erlauben, Audioaufnahmen zu machen?",
        "contacts": "{0} Zugriff auf deine Kontakte erlauben?",
        "calendar": "{0} Zugriff auf deinen Kalender erlauben?",
        "sms": "{0} erlauben, SMS zu senden und abzurufen?",
        "phone": "{0} erlauben, Anrufe zu tätigen und zu verwalten?",
        "notifications": "{0} erlauben, dir Benachrichtigungen zu senden?",
        "allow": "Zulassen", "allow_foreground": "Bei Nutzung der App", "allow_one_time": "Nur dieses Mal",
        "deny": "Nicht zulassen",
    },
}  # fmt: skip


def group_of(permission: str) -> tuple[str, tuple[str, ...], bool] | None:
    """The permission group a runtime permission belongs to, or None (not a runtime permission it knows)."""
    return next((group for group in GROUPS if permission in group[1]), None)


class GrantPermissionsActivity(Activity):
    """The requesting app's permission groups still denied, asked one after the other."""

    translucent = True

    def on_create(self) -> None:
        self.names = [str(n) for n in self.intent.extras.get(EXTRA_PERMISSION_NAMES, [])]
        self.requester = self.calling_package or ""
        asked = [g for g in GROUPS if any(n in g[1] for n in self.names)]
        self.pending = [g[0] for g in asked if not all(self._granted(n) for n in self.names if n in g[1])]
        if not self.requester or not self.pending:
            self.done()

    def _granted(self, permission: str) -> bool:
        return self.context.check_permission(self.requester, permission)

    def build(self) -> View:
        if not self.pending:
            return FrameLayout([])
        name, _, foreground = next(g for g in GROUPS if g[0] == self.pending[0])
        s = self.string
        label = self.context.apps[self.requester].label if self.requester in self.context.apps else self.requester
        buttons = (
            [("permission_allow_foreground_only_button", s("allow_foreground"), True),
             ("permission_allow_one_time_button", s("allow_one_time"), True)]
            if foreground else [("permission_allow_button", s("allow"), True)]
        ) + [("permission_deny_button", s("deny"), False)]  # fmt: skip
        dialog = LinearLayout(
            [
                ImageView(glyph="", color=PRIMARY, resource_id=RID + "permission_icon", width=32, height=32),
                TextView(s(name, label), resource_id=RID + "permission_message", text_size=20, padding=8),
                LinearLayout(
                    [
                        TextView(
                            text,
                            cls="android.widget.Button",
                            resource_id=RID + rid,
                            clickable=True,
                            focusable=True,
                            gravity="center",
                            text_color=PRIMARY,
                            background=WHITE,
                            corner=20,
                            height=48,
                            on_click=partial(self.answer, grant),
                        )  # fmt: skip
                        for rid, text, grant in buttons
                    ],
                    resource_id=RID + "button_group",
                ),
            ],
            resource_id=RID + "grant_dialog",
            background=CARD,
            corner=28,
            padding=20,
            width=312,
        )
        height_dp = self.context.metrics.height / self.context.metrics.scale
        dialog.x = (self.context.metrics.width / self.context.metrics.scale - 312) / 2
        dialog.y = height_dp / 2 - 190
        return DimBehind([dialog], resource_id=RID + "grant_singleton")

    def answer(self, grant: bool) -> None:
        """A button: the group shown is granted or denied; then the next group, or the result."""
        name = self.pending.pop(0)
        group = next(g for g in GROUPS if g[0] == name)
        for permission in (n for n in self.names if n in group[1]):
            self.context.set_permission(self.requester, permission, grant)
        self.log("GrantPermissionsActivity", f"{self.requester}: {name} {'granted' if grant else 'denied'}")
        if not self.pending:
            self.done()

    def on_back(self) -> bool:
        if self.pending:
            self.answer(False)
        return True

    def done(self) -> None:
        """Return each name's result to the app, and go."""
        results = [PERMISSION_GRANTED if self._granted(n) else PERMISSION_DENIED for n in self.names]
        extras = {EXTRA_PERMISSION_NAMES: list(self.names), EXTRA_PERMISSION_RESULTS: results}
        self.set_result(RESULT_OK, Intent(extras=extras))
        self.finish()


def permissioncontroller_app() -> App:
    """The PermissionController package: no launcher icon; it answers ``ACTION_REQUEST_PERMISSIONS``."""
    return App(
        PACKAGE,
        STRINGS[""]["app_name"],
        "P",
        (26, 115, 232),
        {GRANT: GrantPermissionsActivity},
        None,
        filters=(IntentFilter(GRANT, (ACTION_REQUEST_PERMISSIONS,)),),
        strings=STRINGS,
    )

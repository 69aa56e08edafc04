"""About phone (``Settings$MyDeviceInfoActivity``, my_device_info.xml).

It shows the device name, model, Android version and build number.

Device name is DeviceNamePreferenceController: a tap opens its EditTextPreference dialog (the field
``android:id/edit``); OK writes ``settings global device_name`` (Settings.Global.DEVICE_NAME). The
rest comes from the system properties (``ro.product.model``, ``ro.build.version.release``,
``ro.build.display.id``).
"""

from __future__ import annotations

from androidrl.virtual.apps.settings.base import SettingsPage, get_setting, put_setting
from androidrl.virtual.ui.dialogs import AlertDialog
from androidrl.virtual.ui.text import TextState, edit_text
from androidrl.virtual.ui.views import View


class AboutActivity(SettingsPage):
    """About phone: the device name (editable), model, Android version and build number."""

    title_key = "about"

    def on_create(self) -> None:
        super().on_create()
        self.draft = TextState()
        self.editing = False

    def device_name(self) -> str:
        return get_setting(self, "global", "device_name") or self.context.getprop("ro.product.model")

    def rows(self) -> list[View]:
        prop = self.context.getprop
        return [
            self.row("device_name", self.device_name(), on_click=self.rename),
            self.row("emergency"),
            self.row("model", prop("ro.product.model")),
            self.row("android_version", prop("ro.build.version.release")),
            self.row("build_number", prop("ro.build.display.id")),
        ]

    def rename(self) -> None:
        """The Device name dialog, its field holding the name (all selected, as EditTextPreference does)."""
        name = self.device_name()
        self.draft = TextState(name, 0, len(name))
        self.editing = True
        s = self.string
        self.show(
            AlertDialog(
                s("device_name"),
                view=self.name_field,
                positive=(s("ok"), self.save_name),
                negative=(s("cancel"), None),
                on_dismiss=self.stop_editing,
            )
        )

    def name_field(self) -> View:
        return edit_text(
            self, self.draft, self.editing, self.focus_field, resource_id="android:id/edit", on_action=self.save_name
        )

    def focus_field(self) -> None:
        self.editing = True

    def stop_editing(self) -> None:
        self.editing = False

    def save_name(self) -> None:
        name = self.draft.text.strip()
        if name:  # ValidatedEditTextPreference keeps OK disabled for an empty name
            put_setting(self, "global", "device_name", name)
        for window in self.windows:
            window.dismiss()

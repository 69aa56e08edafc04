"""The Contacts app's strings, English and German, as AOSP's res/values*/strings.xml have them.

From packages/apps/Contacts res/values/strings.xml and res/values-de/strings.xml (the key is
AOSP's resource name), and the type labels from frameworks/base core/res/res/values*/strings.xml
(``phoneTypeMobile``..., as ``Phone.getTypeLabel`` and ``Email.getTypeLabel`` give them).
"""

from __future__ import annotations

import functools

from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui import config

#: ``Phone.TYPE_*`` the editor offers, in BaseAccountType.addDataKindPhone's order (Mobile first).
PHONE_TYPES = (2, 1, 3, 7)  # TYPE_MOBILE, TYPE_HOME, TYPE_WORK, TYPE_OTHER
#: ``Email.TYPE_*`` the editor offers, in BaseAccountType.addDataKindEmail's order.
EMAIL_TYPES = (1, 2, 3, 4)  # TYPE_HOME, TYPE_WORK, TYPE_OTHER, TYPE_MOBILE

STRINGS = {
    "": {
        "applicationLabel": "Contacts",
        "hint_findContacts": "Search contacts",
        "action_menu_add_new_contact_button": "Create new contact",
        "contactsFavoritesLabel": "Favorites",
        "missing_name": "(No name)",
        "listFoundAllContactsZero": "No contacts",
        "action_menu_back_from_search": "stop searching",
        "description_clear_search": "Clear search",
        "description_quick_contact_for": "Quick contact for {0}",
        "menu_addStar": "Add to favorites",
        "menu_removeStar": "Remove from favorites",
        "menu_editContact": "Edit",
        "menu_deleteContact": "Delete",
        "deleteConfirmation": "Delete this contact?",
        "deleteConfirmation_positive_button": "Delete",
        "contacts_deleted_one_named_toast": "{0} deleted",
        "call_other": "Call",
        "sms_custom": "Text {0}",
        "email_other": "Email",
        "missing_app": "No app was found to handle this action.",
        "contactInsertOrEditActivityTitle": "Add to contact",
        "header_entry_contact_list_adapter_header_title": "Create new contact",
        "contact_editor_title_new_contact": "Create new contact",
        "contact_editor_title_existing_contact": "Edit contact",
        "cancel_button_content_description": "Cancel",
        "menu_save": "Save",
        "name_given": "First name",
        "name_family": "Last name",
        "phoneLabelsGroup": "Phone",
        "emailLabelsGroup": "Email",
        "contactSavedToast": "Contact saved",
        "contactSavedNamedToast": "{0} saved",
        "cancel_confirmation_dialog_message": "Discard changes?",
        "cancel_confirmation_dialog_cancel_editing_button": "Discard",
        "cancel_confirmation_dialog_keep_editing_button": "Cancel",
        "description_minus_button": "delete",
        "cancel": "Cancel",
        "invalidContactMessage": "The contact doesn't exist.",
        "header_name_entry": "Name",
        "header_phone_entry": "Phone",
        "header_email_entry": "Email",
        # frameworks/base: Phone.getTypeLabel / Email.getTypeLabel
        "phoneType1": "Home",
        "phoneType2": "Mobile",
        "phoneType3": "Work",
        "phoneType4": "Work Fax",
        "phoneType5": "Home Fax",
        "phoneType6": "Pager",
        "phoneType7": "Other",
        "phoneType0": "Custom",
        "emailType1": "Home",
        "emailType2": "Work",
        "emailType3": "Other",
        "emailType4": "Mobile",
        "emailType0": "Custom",
    },
    "de": {
        "applicationLabel": "Kontakte",
        "hint_findContacts": "In Kontakten suchen",
        "action_menu_add_new_contact_button": "Neuen Kontakt erstellen",
        "contactsFavoritesLabel": "Favoriten",
        "missing_name": "(Kein Name)",
        "listFoundAllContactsZero": "Keine Kontakte",
        "action_menu_back_from_search": "Suche beenden",
        "description_clear_search": "Suche zurücksetzen",
        "description_quick_contact_for": "Schnellkontakt für {0}",
        "menu_addStar": "Zu Favoriten hinzufügen",
        "menu_removeStar": "Aus Favoriten entfernen",
        "menu_editContact": "Bearbeiten",
        "menu_deleteContact": "Löschen",
        "deleteConfirmation": "Diesen Kontakt löschen?",
        "deleteConfirmation_positive_button": "Löschen",
        "contacts_deleted_one_named_toast": "{0} gelöscht",
        "call_other": "Anruf",
        "sms_custom": "SMS an {0} senden",
        "email_other": "E-Mail an",
        "missing_app": "Für diese Aktion wurde keine App gefunden.",
        "contactInsertOrEditActivityTitle": "Zu Kontakt hinzufügen",
        "header_entry_contact_list_adapter_header_title": "Neuen Kontakt erstellen",
        "contact_editor_title_new_contact": "Neuer Kontakt",
        "contact_editor_title_existing_contact": "Kontakt bearbeiten",
        "cancel_button_content_description": "Abbrechen",
        "menu_save": "Speichern",
        "name_given": "Vorname",
        "name_family": "Nachname",
        "phoneLabelsGroup": "Telefon",
        "emailLabelsGroup": "E-Mail",
        "contactSavedToast": "Kontakt gespeichert",
        "contactSavedNamedToast": "{0} gespeichert",
        "cancel_confirmation_dialog_message": "Änderungen verwerfen?",
        "cancel_confirmation_dialog_cancel_editing_button": "Verwerfen",
        "cancel_confirmation_dialog_keep_editing_button": "Abbrechen",
        "description_minus_button": "Löschen",
        "cancel": "Abbrechen",
        "invalidContactMessage": "Dieser Kontakt existiert nicht.",
        "header_name_entry": "Name",
        "header_phone_entry": "Telefon",
        "header_email_entry": "E-Mail",
        "phoneType1": "Privat",
        "phoneType2": "Mobil",
        "phoneType3": "Geschäftlich",
        "phoneType4": "Fax (geschäftl.)",
        "phoneType5": "Fax (privat)",
        "phoneType6": "Pager",
        "phoneType7": "Sonstige",
        "phoneType0": "Benutzerdefiniert",
        "emailType1": "Privat",
        "emailType2": "Geschäftlich",
        "emailType3": "Sonstige",
        "emailType4": "Mobil",
        "emailType0": "Benutzerdefiniert",
    },
}


@functools.lru_cache(maxsize=8)
def table(locale: str) -> dict[str, str]:
    """Every string in ``locale``'s language, English where it has none (as ``values/`` backs ``values-de/``)."""
    language = locale.replace("_", "-").split("-")[0].lower()
    return {**STRINGS[""], **STRINGS.get(language, {})}


class LocalizedActivity(Activity):
    """An activity of the app whose strings come from one table per language (``getString``, fast in a frame)."""

    def string(self, key: str, *args: object) -> str:
        """The app's string ``key`` in the phone's locale, formatted with ``args``.

        In a frame (a build, an input event) the frame's configuration names the language; a
        table per language makes each look-up one dict access. Outside one it is the phone's.

        Raises:
            KeyError: The app has no string of that name.
        """
        frame = config.current()
        if frame is config.DEFAULT:
            return super().string(key, *args)
        try:
            text = table(frame.locale)[key]
        except KeyError:
            raise KeyError(f"{self.app.package} has no string {key!r}") from None
        return text.format(*args) if args else text

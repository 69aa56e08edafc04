"""The Phone app's strings, English and German, as AOSP Dialer's res/values*/strings.xml have them.

Keys are AOSP's resource names (java/com/android/dialer/{app,main/impl,main/impl/bottomnav,
main/impl/toolbar,dialpadview,calllogutils,speeddial,widget}/res and java/com/android/incallui/res);
a string with no German translation there falls back to English, as Android does
(``dialpad_button_content_description``). The number types are frameworks/base's
(``Phone.getTypeLabel``); the relative times are ``DateUtils.getRelativeTimeSpanString`` with
``FORMAT_ABBREV_RELATIVE`` (ICU's short relative units).
"""

from __future__ import annotations

import functools

from androidrl.virtual.system.framework.app import Activity
from androidrl.virtual.ui import config

STRINGS = {
    "": {
        "applicationLabel": "Phone",
        "tab_title_speed_dial": "Favorites",
        "tab_title_call_history": "Recents",
        "tab_all_contacts": "Contacts",
        "dialpad_button_content_description": "key pad",
        "description_delete_button": "backspace",
        "description_dial_button": "dial",
        "description_dialpad_back": "Navigate back",
        "dialer_hint_find_contact": "Search contacts",
        "description_call_action": "Call {0}",
        "search_shortcut_create_new_contact": "Create new contact",
        "search_shortcut_add_to_contact": "Add to a contact",
        "call_log_action_send_message": "Send a message",
        "call_log_action_details": "Call details",
        "call": "Call",
        "call_log_header_today": "Today",
        "call_log_header_yesterday": "Yesterday",
        "call_log_header_other": "Older",
        "description_incoming_missed_call": "Missed call from {0}, {1}, {2}, {3}.",
        "description_incoming_answered_call": "Answered call from {0}, {1}, {2}, {3}.",
        "description_outgoing_call": "Call to {0}, {1}, {2}, {3}.",
        "description_num_calls": "{0} calls.",
        "call_log_item_count_and_date": "({0}) {1}",
        "call_log_all_empty": "Your call history is empty",
        "all_contacts_empty": "You don't have any contacts yet",
        "all_contacts_empty_add_contact_action": "Create new contact",
        "favorites_header": "Favorites",
        "speed_dial_no_contacts_description": "You haven't added any favorites yet",
        "speed_dial_no_contacts_action_text": "Add favorite",
        "incall_content_description_end_call": "End call",
        "incall_connecting": "Calling…",
        "incall_call_ended": "Call ended",
        "unknown": "Unknown",
        "minutes_ago": "{0} min. ago",
        "hours_ago": "{0} hr. ago",
        "yesterday": "Yesterday",
        "days_ago": "{0} days ago",
        "phoneType1": "Home",
        "phoneType2": "Mobile",
        "phoneType3": "Work",
        "phoneType4": "Work Fax",
        "phoneType5": "Home Fax",
        "phoneType6": "Pager",
        "phoneType7": "Other",
    },
    "de": {
        "applicationLabel": "Telefon",
        "tab_title_speed_dial": "Kurzwahl",
        "tab_title_call_history": "Anrufliste",
        "tab_all_contacts": "Kontakte",
        "description_delete_button": "Rücktaste",
        "description_dial_button": "Wählen",
        "description_dialpad_back": "Zurück",
        "dialer_hint_find_contact": "In Kontakten suchen",
        "description_call_action": "{0} anrufen",
        "search_shortcut_create_new_contact": "Neuen Kontakt erstellen",
        "search_shortcut_add_to_contact": "Zu Kontakt hinzufügen",
        "call_log_action_send_message": "SMS senden",
        "call_log_action_details": "Anrufdetails",
        "call": "Anrufen",
        "call_log_header_today": "Heute",
        "call_log_header_yesterday": "Gestern",
        "call_log_header_other": "Ältere",
        "description_incoming_missed_call": "Anruf von {0}, {1}, {2}, {3} verpasst",
        "description_incoming_answered_call": "Anruf von {0}, {1}, {2}, {3} angenommen",
        "description_outgoing_call": "Ausgehender Anruf an {0}, {1}, {2}, {3}",
        "description_num_calls": "{0} Anrufe",
        "call_log_all_empty": "Deine Anrufliste ist leer",
        "all_contacts_empty": "Du hast noch keine Kontakte",
        "all_contacts_empty_add_contact_action": "Neuen Kontakt erstellen",
        "favorites_header": "Favoriten",
        "speed_dial_no_contacts_description": "Du hast noch keine Favoriten hinzugefügt",
        "speed_dial_no_contacts_action_text": "Favorit hinzufügen",
        "incall_content_description_end_call": "Anruf beenden",
        "incall_connecting": "Anruf wird getätigt…",
        "incall_call_ended": "Anruf beendet",
        "unknown": "Unbekannt",
        "minutes_ago": "vor {0} Min.",
        "hours_ago": "vor {0} Std.",
        "yesterday": "Gestern",
        "days_ago": "vor {0} Tagen",
        "phoneType1": "Privat",
        "phoneType2": "Mobil",
        "phoneType3": "Geschäftlich",
        "phoneType4": "Fax (geschäftl.)",
        "phoneType5": "Fax (privat)",
        "phoneType6": "Pager",
        "phoneType7": "Sonstige",
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

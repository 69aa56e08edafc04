"""Sound & vibration (``Settings$SoundSettingsActivity``, sound_settings.xml) and Do Not Disturb.

The volume sliders are VolumeSeekBarPreferences (their SeekBar ``com.android.settings:id/seekbar``,
described by the slider's title) over AudioService's streams: a move sets the stream's index, which
AudioService persists in ``settings system volume_<stream>_<device>`` (VolumeStreamState,
``getSettingNameForDevice``) — ``volume_music_speaker``, ``volume_voice_earpiece``,
``volume_ring_speaker`` (the notification stream is aliased to the ring stream on a phone, so it
moves with it) and ``volume_alarm_speaker`` — with the streams' maxima (AudioService.MAX_STREAM_VOLUME).
Do Not Disturb (``Settings$ZenModeSettingsActivity``, ZenModeButtonPreferenceController) turns
``global zen_mode`` to 1 (ZEN_MODE_IMPORTANT_INTERRUPTIONS) with "Turn on now", back to 0 with
"Turn off now".
"""

from __future__ import annotations

from functools import partial

from androidrl.virtual.apps.settings.base import RID, SettingsPage, get_int, get_setting, put_setting
from androidrl.virtual.ui.controls import SeekBar
from androidrl.virtual.ui.views import WRAP, Button, LinearLayout, TextView, View

ZEN = "com.android.settings.Settings$ZenModeSettingsActivity"
#: (title key, the settings the stream persists in, its maximum index, its default index).
STREAMS = (
    ("media_volume", ("volume_music_speaker",), 15, 5),
    ("call_volume", ("volume_voice_earpiece",), 5, 4),
    ("ring_volume", ("volume_ring_speaker", "volume_notification_speaker"), 7, 5),
    ("alarm_volume", ("volume_alarm_speaker",), 7, 6),
)


def zen_on(page: SettingsPage) -> bool:
    """Whether Do Not Disturb is on (``global zen_mode`` other than ZEN_MODE_OFF)."""
    return (get_setting(page, "global", "zen_mode") or "0") != "0"


class SoundActivity(SettingsPage):
    """Sound & vibration: the four volume sliders, then Do Not Disturb and the sounds."""

    title_key = "sound"

    def rows(self) -> list[View]:
        s = self.string
        rows: list[View] = [self.slider(*stream) for stream in STREAMS]
        rows += [
            self.row("dnd", s("zen_on") if zen_on(self) else s("zen_off"), on_click=partial(self.open, ZEN)),
            self.row("vibration"),
            self.row("ringtone", "Ring Ring"),
            self.row("notification_sound", "Beep-Beep"),
            self.row("alarm_sound", "Alarm Clock"),
        ]
        return rows

    def slider(self, key: str, settings: tuple[str, ...], maximum: int, default: int) -> View:
        """A VolumeSeekBarPreference: its title over the stream's slider."""
        title = self.string(key)
        index = min(max(get_int(self, "system", settings[0], default), 0), maximum)
        bar = SeekBar(index, maximum, on_change=partial(self.set_volume, settings), resource_id=RID + "seekbar",
                      content_desc=title)  # fmt: skip
        return LinearLayout(
            [TextView(title, resource_id="android:id/title", text_size=16, height=28), bar], padding=12, height=WRAP
        )

    def set_volume(self, settings: tuple[str, ...], index: int) -> None:
        """AudioManager.setStreamVolume: the index persisted for the stream (and its aliases)."""
        for name in settings:
            put_setting(self, "system", name, index)


class ZenModeActivity(SettingsPage):
    """Do Not Disturb: the Turn on now / Turn off now button over the mode's settings."""

    title_key = "dnd"

    def rows(self) -> list[View]:
        s = self.string
        on = zen_on(self)
        button = Button(
            s("turn_off_now") if on else s("turn_on_now"),
            resource_id=RID + ("zen_mode_settings_turn_off_button" if on else "zen_mode_settings_turn_on_button"),
            on_click=self.toggle,
            width=200,
        )
        return [
            self.row("people"),
            self.row("zen_apps"),
            self.row("alarms_other"),
            self.row("schedules"),
            LinearLayout([button], padding=16, height=80),
        ]

    def toggle(self) -> None:
        """NotificationManager.setZenMode: on as priority only, or off."""
        put_setting(self, "global", "zen_mode", 0 if zen_on(self) else 1)

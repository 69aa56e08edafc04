"""The ``settings`` provider: string values in the ``system``, ``secure`` and ``global`` tables.

Each row remembers, as SettingsState's ``Setting`` does, which package last wrote it, its
default value and whether that default is the system's, so ``settings reset`` can put rows
back (packages/SettingsProvider SettingsProvider.resetSettingsLocked).
"""

from __future__ import annotations

from collections.abc import Callable

NAMESPACES = ("system", "secure", "global")
#: The system's own writes (SettingsState.SYSTEM_PACKAGE_NAME): trusted, and the defaults' owner.
SYSTEM_PACKAGE = "android"
#: ``settings reset`` modes (Settings.RESET_MODE_*) by the names ``settings`` takes.
RESET_MODES = ("untrusted_defaults", "untrusted_clear", "trusted_defaults")

#: Values a new virtual phone starts with (an emulator's, where Android has one).
DEFAULTS: dict[str, dict[str, str]] = {
    "global": {
        "wifi_on": "1",
        "bluetooth_on": "1",
        "airplane_mode_on": "0",
        "airplane_mode_radios": "cell,bluetooth,uwb,wifi,wimax",
        "airplane_mode_toggleable_radios": "bluetooth,wifi",
        "adb_enabled": "1",
        "development_settings_enabled": "1",
        "device_name": "androidrl Virtual Phone",
        "stay_on_while_plugged_in": "7",
        "window_animation_scale": "1.0",
        "transition_animation_scale": "1.0",
        "animator_duration_scale": "1.0",
        "zen_mode": "0",
        "low_power": "0",
    },
    "secure": {
        "long_press_timeout": "400",
        "location_mode": "3",
        "android_id": "a1b2c3d4e5f60718",
        "ui_night_mode": "1",
        "default_input_method": "com.android.inputmethod.latin/.LatinIME",
        "flashlight_available": "1",
        "flashlight_enabled": "0",
    },
    "system": {
        "screen_brightness": "102",
        "screen_off_timeout": "60000",
        "font_scale": "1.0",
        "accelerometer_rotation": "0",
        # AudioService's persisted indexes on the speaker (VolumeStreamState.getSettingNameForDevice:
        # "volume_<stream>_speaker"), at AudioSystem.DEFAULT_STREAM_VOLUME.
        "volume_music_speaker": "5",
        "volume_ring_speaker": "5",
        "volume_notification_speaker": "5",
        "volume_alarm_speaker": "6",
        "volume_voice_earpiece": "4",
    },
}


class SettingsStore:
    """Three tables of string settings; ``on_change`` runs after every write.

    Each setting has an id, renewed by every write (``SettingsState.Setting``'s ``mId``, from the
    table's ``mNextId``): the ``_id`` column of ``content query --uri content://settings/...``.
    """

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self._tables: dict[str, dict[str, str | None]] = {ns: dict(values) for ns, values in DEFAULTS.items()}
        # key -> (package that wrote it, default value, whether the default is the system's)
        self._rows: dict[str, dict[str, tuple[str, str | None, bool]]] = {
            ns: {key: (SYSTEM_PACKAGE, value, True) for key, value in values.items()} for ns, values in DEFAULTS.items()
        }
        self._ids: dict[str, dict[str, int]] = {ns: {} for ns in DEFAULTS}  # of the values written since
        self._next_id = {ns: len(values) + 1 for ns, values in DEFAULTS.items()}
        self._on_change = on_change

    def state(self) -> tuple:
        """A copy of every table, for a snapshot (their values are strings and tuples: two levels copy it all)."""
        tables = (self._tables, self._rows, self._ids)
        return (*({ns: dict(table) for ns, table in each.items()} for each in tables), dict(self._next_id))

    def restore(self, state: tuple) -> None:
        """Put back what :meth:`state` gave (it stays unchanged: it can be restored again)."""
        tables, rows, ids, next_id = state
        self._tables = {ns: dict(table) for ns, table in tables.items()}
        self._rows = {ns: dict(table) for ns, table in rows.items()}
        self._ids = {ns: dict(table) for ns, table in ids.items()}
        self._next_id = dict(next_id)

    def setting_id(self, namespace: str, key: str) -> int | None:
        """The id of ``key``'s current value (a default's: its place among the defaults), or None when unset."""
        if key not in self._tables[namespace]:
            return None
        written = self._ids[namespace].get(key)
        return written if written is not None else list(DEFAULTS[namespace]).index(key) + 1

    def get(self, namespace: str, key: str) -> str | None:
        """The value of ``key``, or None when unset (``settings get`` prints ``null``)."""
        return self._tables[namespace].get(key)

    def put(
        self, namespace: str, key: str, value: str, package: str = SYSTEM_PACKAGE, make_default: bool = False
    ) -> None:
        """Set ``key`` to ``value``, written by ``package``; ``make_default`` makes it the default too."""
        self._tables[namespace][key] = value
        self._new_id(namespace, key)
        _, default, from_system = self._rows[namespace].get(key, (package, None, False))
        if make_default:
            default, from_system = value, package == SYSTEM_PACKAGE
        self._rows[namespace][key] = (package, default, from_system)
        self._changed()

    def delete(self, namespace: str, key: str) -> int:
        """Remove ``key``; the number of rows deleted (0 or 1)."""
        removed = key in self._tables[namespace]
        if removed:
            del self._tables[namespace][key]
            self._rows[namespace].pop(key, None)
            self._ids[namespace].pop(key, None)
            self._changed()
        return int(removed)

    def items(self, namespace: str) -> list[tuple[str, str | None]]:
        """All ``(key, value)`` pairs of a table, sorted by key as ``settings list`` prints them."""
        return sorted(self._tables[namespace].items())

    def rows(self, namespace: str) -> list[tuple[str, str | None, str, str | None, bool]]:
        """``(key, value, package, default, default from system)`` of each row, sorted by key (``dumpsys settings``)."""
        return [(key, value, *self._rows[namespace][key]) for key, value in self.items(namespace)]

    def reset(self, namespace: str, mode_or_package: str) -> None:
        """``settings reset NAMESPACE {PACKAGE | untrusted_defaults | untrusted_clear | trusted_defaults}``.

        A package's rows go back to their defaults; ``untrusted_defaults`` does that to every
        row an untrusted package (the shell, an app) wrote; ``untrusted_clear`` also deletes
        those without a system default; ``trusted_defaults`` resets every row with a system
        default and deletes the rest (SettingsProvider.resetSettingsLocked). Here every writer
        but the system itself is untrusted: apps change settings through system services.
        """
        table, rows = self._tables[namespace], self._rows[namespace]
        for key in list(table):
            package, default, from_system = rows[key]
            untrusted = package != SYSTEM_PACKAGE  # (the shell and root never count as the system)
            if mode_or_package in ("untrusted_defaults", "untrusted_clear", "trusted_defaults"):
                if mode_or_package != "trusted_defaults" and not untrusted:
                    continue
                if mode_or_package != "untrusted_defaults" and not from_system:
                    del table[key], rows[key]
                    self._ids[namespace].pop(key, None)
                    continue
            elif package != mode_or_package:
                continue
            if table[key] != default:  # (a value that changes is a write: it gets a new id)
                self._new_id(namespace, key)
            table[key] = default  # Setting.reset(): the default value (null when it has none)
            rows[key] = (SYSTEM_PACKAGE if from_system else package, default, from_system)
        self._changed()

    def _new_id(self, namespace: str, key: str) -> None:
        self._ids[namespace][key] = self._next_id[namespace]
        self._next_id[namespace] += 1

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

"""The ``settings`` provider: string values in the ``system``, ``secure`` and ``global`` tables."""

from __future__ import annotations

from collections.abc import Callable

NAMESPACES = ("system", "secure", "global")

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
    },
    "secure": {
        "long_press_timeout": "400",
        "location_mode": "3",
        "android_id": "a1b2c3d4e5f60718",
        "ui_night_mode": "1",
        "default_input_method": "com.android.inputmethod.latin/.LatinIME",
    },
    "system": {"screen_brightness": "102", "screen_off_timeout": "60000", "font_scale": "1.0"},
}


class SettingsStore:
    """Three tables of string settings; ``on_change`` runs after every write."""

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self._tables = {ns: dict(values) for ns, values in DEFAULTS.items()}
        self._on_change = on_change

    def get(self, namespace: str, key: str) -> str | None:
        """The value of ``key``, or None when unset (``settings get`` prints ``null``)."""
        return self._tables[namespace].get(key)

    def put(self, namespace: str, key: str, value: str) -> None:
        """Set ``key`` to ``value``."""
        self._tables[namespace][key] = value
        if self._on_change is not None:
            self._on_change()

    def delete(self, namespace: str, key: str) -> int:
        """Remove ``key``; the number of rows deleted (0 or 1)."""
        removed = self._tables[namespace].pop(key, None) is not None
        if removed and self._on_change is not None:
            self._on_change()
        return int(removed)

    def items(self, namespace: str) -> list[tuple[str, str]]:
        """All ``(key, value)`` pairs of a table, sorted by key as ``settings list`` prints them."""
        return sorted(self._tables[namespace].items())

"""SystemUI's Quick Settings tiles: what each shows and what a tap on it switches.

Each tile reads and writes the state Android keeps for it, the same that Settings shows and
``settings``/``svc``/``cmd`` reach (frameworks/base packages/SystemUI/src/com/android/systemui/qs/tiles/):
InternetTile (Wi-Fi), BluetoothTile, FlashlightTile (FlashlightControllerImpl mirrors the torch into
``secure flashlight_enabled``), DndTile (``global zen_mode``), AirplaneModeTile, RotationLockTile
(``system accelerometer_rotation``), BatterySaverTile (``global low_power``), UiModeNightTile
(``secure ui_night_mode``) and LocationTile (``secure location_mode``). Labels are SystemUI's
(res/values/strings.xml and values-de). A long press opens the tile's Settings page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from androidrl.virtual.system.radios import Radios
from androidrl.virtual.system.settings_provider import SettingsStore

#: Global ZEN_MODE_OFF and ZEN_MODE_IMPORTANT_INTERRUPTIONS (what DndTile and "Turn on now" set).
ZEN_OFF, ZEN_PRIORITY = "0", "1"
#: Secure LOCATION_MODE_OFF and LOCATION_MODE_ON (LocationManager.setLocationEnabledForUser).
LOCATION_OFF, LOCATION_ON = "0", "3"

#: SystemUI's words (strings.xml: quick_settings_*_label, the tiles' state texts), by language.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "internet": "Internet", "bt": "Bluetooth", "flashlight": "Flashlight", "dnd": "Do Not Disturb",
        "airplane": "Airplane mode", "rotation": "Auto-rotate", "battery": "Battery Saver", "dark": "Dark theme",
        "location": "Location", "on": "On", "off": "Off", "clear_all": "Clear all", "manage": "Manage",
        "no_notifications": "No notifications", "open_settings": "Open settings", "brightness": "Display brightness",
        "swipe_up": "Swipe up to open", "enter_pin": "Enter your PIN", "wrong_pin": "Wrong PIN", "delete": "Delete",
        "enter": "Enter", "pin_area": "PIN area", "unlocked": "Unlocked", "locked": "Device locked",
    },
    "de": {
        "internet": "Internet", "bt": "Bluetooth", "flashlight": "Taschenlampe", "dnd": "Bitte nicht stören",
        "airplane": "Flugmodus", "rotation": "Automatisch drehen", "battery": "Energiesparmodus",
        "dark": "Dunkles Design", "location": "Standort", "on": "An", "off": "Aus", "clear_all": "Alle löschen",
        "manage": "Verwalten", "no_notifications": "Keine Benachrichtigungen", "open_settings": "Einstellungen öffnen",
        "brightness": "Displayhelligkeit", "swipe_up": "Zum Öffnen nach oben wischen", "enter_pin": "PIN eingeben",
        "wrong_pin": "Falsche PIN", "delete": "Löschen", "enter": "Eingabe", "pin_area": "PIN-Bereich",
        "unlocked": "Entsperrt", "locked": "Gerät gesperrt",
    },
}  # fmt: skip

#: The tiles in SystemUI's default order (config_defaultQuickSettingsTiles), with the Settings
#: action a long press opens.
TILES: tuple[tuple[str, str], ...] = (
    ("internet", "android.settings.WIFI_SETTINGS"),
    ("bt", "android.settings.BLUETOOTH_SETTINGS"),
    ("flashlight", ""),
    ("dnd", "android.settings.ZEN_MODE_SETTINGS"),
    ("airplane", "android.settings.AIRPLANE_MODE_SETTINGS"),
    ("rotation", "android.settings.DISPLAY_SETTINGS"),
    ("battery", "android.settings.BATTERY_SAVER_SETTINGS"),
    ("dark", "android.settings.DARK_THEME_SETTINGS"),
    ("location", "android.settings.LOCATION_SOURCE_SETTINGS"),
)


def words(language: str) -> dict[str, str]:
    """SystemUI's strings in ``language`` (English when it has none)."""
    return WORDS.get(language, WORDS["en"])


@dataclass(frozen=True)
class TileState:
    """What a tile shows: its spec, label, whether it is on, and the line under the label."""

    spec: str
    label: str
    on: bool
    secondary: str
    settings_action: str


class QuickSettings:
    """The tiles over the phone's settings and radios.

    Args:
        settings: The settings provider's tables.
        radios: Wi-Fi, Bluetooth and airplane mode.
        log: ``log(tag, message)`` writes what a tile switched to the phone's log.
    """

    def __init__(self, settings: SettingsStore, radios: Radios, log: Callable[[str, str], None] | None = None) -> None:
        self.settings = settings
        self.radios = radios
        self._log = log or (lambda tag, message: None)

    def is_on(self, spec: str) -> bool:
        """Whether the tile ``spec`` is on."""
        get = self.settings.get
        states = {
            "internet": lambda: self.radios.wifi_enabled,
            "bt": lambda: self.radios.bluetooth_enabled,
            "flashlight": lambda: get("secure", "flashlight_enabled") == "1",
            "dnd": lambda: (get("global", "zen_mode") or "0") != ZEN_OFF,
            "airplane": lambda: self.radios.airplane_enabled,
            "rotation": lambda: get("system", "accelerometer_rotation") == "1",
            "battery": lambda: get("global", "low_power") == "1",
            "dark": lambda: get("secure", "ui_night_mode") == "2",
            "location": lambda: (get("secure", "location_mode") or LOCATION_OFF) != LOCATION_OFF,
        }
        return states[spec]()

    def tiles(self, language: str) -> list[TileState]:
        """Every tile as it shows now, in order."""
        text = words(language)
        found = []
        for spec, action in TILES:
            on = self.is_on(spec)
            secondary = text["on"] if on else text["off"]
            if spec == "internet" and on:
                secondary = "AndroidWifi"  # the emulator's network (InternetTile shows the SSID)
            found.append(TileState(spec, text[spec], on, secondary, action))
        return found

    def toggle(self, spec: str) -> None:
        """A tap on tile ``spec``: switch what it stands for."""
        on = not self.is_on(spec)
        put = self.settings.put
        if spec == "internet":
            self.radios.set_wifi(on)
        elif spec == "bt":
            self.radios.set_bluetooth(on)
        elif spec == "airplane":
            self.radios.set_airplane(on)
        elif spec == "flashlight":  # CameraManager.setTorchMode, mirrored by FlashlightControllerImpl
            put("secure", "flashlight_enabled", "1" if on else "0")
        elif spec == "dnd":
            put("global", "zen_mode", ZEN_PRIORITY if on else ZEN_OFF)
        elif spec == "rotation":  # RotationPolicy.setRotationLock
            put("system", "accelerometer_rotation", "1" if on else "0")
        elif spec == "battery":  # PowerManager.setPowerSaveModeEnabled
            put("global", "low_power", "1" if on else "0")
        elif spec == "dark":  # UiModeManager.setNightModeActivated
            put("secure", "ui_night_mode", "2" if on else "1")
        elif spec == "location":
            put("secure", "location_mode", LOCATION_ON if on else LOCATION_OFF)
        else:
            raise ValueError(f"no Quick Settings tile {spec!r}; tiles: {[s for s, _ in TILES]}")
        self._log("QSTileHost", f"tile {spec} {'on' if on else 'off'}")

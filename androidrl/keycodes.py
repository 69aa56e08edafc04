"""Android key codes (``android.view.KeyEvent``) and name lookup, as ``input keyevent`` does it."""

from __future__ import annotations

KEYCODE_UNKNOWN = 0
KEYCODE_HOME = 3
KEYCODE_BACK = 4
KEYCODE_ENTER = 66
KEYCODE_DEL = 67

#: Name (without ``KEYCODE_``) -> code, for the keys agents and tasks use.
KEYCODES: dict[str, int] = {
    "UNKNOWN": 0,
    "SOFT_LEFT": 1,
    "SOFT_RIGHT": 2,
    "HOME": 3,
    "BACK": 4,
    "CALL": 5,
    "ENDCALL": 6,
    **{str(d): 7 + d for d in range(10)},
    "STAR": 17,
    "POUND": 18,
    "DPAD_UP": 19,
    "DPAD_DOWN": 20,
    "DPAD_LEFT": 21,
    "DPAD_RIGHT": 22,
    "DPAD_CENTER": 23,
    "VOLUME_UP": 24,
    "VOLUME_DOWN": 25,
    "POWER": 26,
    "CAMERA": 27,
    "CLEAR": 28,
    **{chr(ord("A") + i): 29 + i for i in range(26)},
    "COMMA": 55,
    "PERIOD": 56,
    "ALT_LEFT": 57,
    "ALT_RIGHT": 58,
    "SHIFT_LEFT": 59,
    "SHIFT_RIGHT": 60,
    "TAB": 61,
    "SPACE": 62,
    "EXPLORER": 64,
    "ENVELOPE": 65,
    "ENTER": 66,
    "DEL": 67,
    "GRAVE": 68,
    "MINUS": 69,
    "EQUALS": 70,
    "LEFT_BRACKET": 71,
    "RIGHT_BRACKET": 72,
    "BACKSLASH": 73,
    "SEMICOLON": 74,
    "APOSTROPHE": 75,
    "SLASH": 76,
    "AT": 77,
    "PLUS": 81,
    "MENU": 82,
    "NOTIFICATION": 83,
    "SEARCH": 84,
    "MEDIA_PLAY_PAUSE": 85,
    "PAGE_UP": 92,
    "PAGE_DOWN": 93,
    "ESCAPE": 111,
    "FORWARD_DEL": 112,
    "CTRL_LEFT": 113,
    "CTRL_RIGHT": 114,
    "MOVE_HOME": 122,
    "MOVE_END": 123,
    "INSERT": 124,
    "VOLUME_MUTE": 164,
    "SETTINGS": 176,
    "APP_SWITCH": 187,
    "SLEEP": 223,
    "WAKEUP": 224,
}
_MAX_KEYCODE = 316  # KeyEvent.getMaxKeyCode() on Android 14


def keycode_from_string(name: str) -> int:
    """``KeyEvent.keyCodeFromString``: ``"3"``, ``"HOME"`` and ``"KEYCODE_HOME"`` give 3; unknown gives 0."""
    text = name.strip()
    if text.lstrip("-").isdigit():
        code = int(text)
        return code if 0 <= code <= _MAX_KEYCODE else KEYCODE_UNKNOWN
    if text.startswith("KEYCODE_"):  # names are case-sensitive, as on Android
        text = text[len("KEYCODE_") :]
    return KEYCODES.get(text, KEYCODE_UNKNOWN)

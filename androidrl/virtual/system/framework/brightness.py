"""Screen brightness as its sliders and ``settings system screen_brightness`` express it.

A brightness slider (SystemUI's BrightnessSliderView, Settings' Brightness level) runs in *gamma
space*, 0..65535, so equal moves look equally bright; the display stores a linear float, and
BrightnessSynchronizer mirrors it into the int setting ``screen_brightness`` (1..255). The maths
are AOSP's: frameworks/base packages/SettingsLib/src/com/android/settingslib/display/BrightnessUtils.java
(hybrid log-gamma) and core/java/com/android/internal/display/BrightnessSynchronizer.java.
"""

from __future__ import annotations

import math

GAMMA_SPACE_MIN = 0
GAMMA_SPACE_MAX = 65535
# BrightnessUtils' hybrid log-gamma constants.
_R, _A, _B, _C = 0.5, 0.17883277, 0.28466892, 0.55991073
#: The setting's range (PowerManager.BRIGHTNESS_OFF + 1 .. BRIGHTNESS_ON).
SETTING_MIN, SETTING_MAX = 1, 255
#: The slider's ends as display floats: config_screenBrightnessSettingMinimum (10) and the maximum (255).
FLOAT_MIN = (10 - SETTING_MIN) / (SETTING_MAX - SETTING_MIN)
FLOAT_MAX = 1.0


def int_to_float(value: int) -> float:
    """``BrightnessSynchronizer.brightnessIntToFloat``: 1..255 -> 0.0..1.0."""
    return (min(max(value, SETTING_MIN), SETTING_MAX) - SETTING_MIN) / (SETTING_MAX - SETTING_MIN)


def float_to_int(value: float) -> int:
    """``BrightnessSynchronizer.brightnessFloatToInt``: 0.0..1.0 -> 1..255."""
    return round(SETTING_MIN + min(max(value, 0.0), 1.0) * (SETTING_MAX - SETTING_MIN))


def gamma_to_linear(gamma: int, low: float = FLOAT_MIN, high: float = FLOAT_MAX) -> float:
    """``BrightnessUtils.convertGammaToLinearFloat``: a slider position to a display brightness."""
    normalized = (gamma - GAMMA_SPACE_MIN) / (GAMMA_SPACE_MAX - GAMMA_SPACE_MIN)
    ret = (normalized / _R) ** 2 if normalized <= _R else math.exp((normalized - _C) / _A) + _B
    return low + (high - low) * min(max(ret, 0.0), 12.0) / 12


def linear_to_gamma(value: float, low: float = FLOAT_MIN, high: float = FLOAT_MAX) -> int:
    """``BrightnessUtils.convertLinearToGammaFloat``: a display brightness to a slider position."""
    normalized = min(max((value - low) / (high - low), 0.0), 1.0) * 12
    ret = math.sqrt(normalized) * _R if normalized <= 1.0 else _A * math.log(normalized - _B) + _C
    return round(GAMMA_SPACE_MIN + (GAMMA_SPACE_MAX - GAMMA_SPACE_MIN) * ret)


def setting_from_slider(gamma: int) -> int:
    """The ``screen_brightness`` a slider at ``gamma`` writes."""
    return float_to_int(gamma_to_linear(gamma))


def slider_from_setting(setting: int) -> int:
    """Where a slider stands for ``screen_brightness`` ``setting``."""
    return linear_to_gamma(int_to_float(setting))


def percent(setting: int) -> int:
    """Brightness level's summary: the slider's position in percent (BrightnessLevelPreferenceController)."""
    return round(100 * (slider_from_setting(setting) - GAMMA_SPACE_MIN) / (GAMMA_SPACE_MAX - GAMMA_SPACE_MIN))

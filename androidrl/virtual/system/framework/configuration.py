"""``Configuration.toString()``: the configuration line Android prints in task lists and window dumps."""

from __future__ import annotations

from androidrl.virtual.system.framework.metrics import DisplayMetrics


def configuration_string(
    metrics: DisplayMetrics, font_scale: str = "1.0", locale: str = "en-US", night: bool = False
) -> str:
    """The configuration of a portrait phone screen, as android.content.res.Configuration.toString writes it.

    Args:
        metrics: Size, density and the app area (``mAppBounds``).
        font_scale: ``settings get system font_scale``.
        locale: ``persist.sys.locale`` (``en-US`` prints as ``[en_US]``).
        night: The dark theme (``uiMode`` UI_MODE_NIGHT_YES prints `` night`` after the orientation).
    """
    width, height = metrics.size
    top, bottom = metrics.app_area
    scale = metrics.scale
    w_dp, h_dp = round(width / scale), round((bottom - top) / scale)
    try:
        font = float(font_scale)
    except ValueError:
        font = 1.0
    bounds = f"Rect(0, 0 - {width}, {height})"
    window = (
        f"winConfig={{ mBounds={bounds} mAppBounds=Rect(0, {top} - {width}, {bottom}) mMaxBounds={bounds} "
        "mDisplayRotation=ROTATION_0 mWindowingMode=fullscreen mActivityType=undefined mAlwaysOnTop=undefined "
        "mRotation=ROTATION_0}"
    )
    ui_mode = " night" if night else ""  # (UI_MODE_TYPE_NORMAL and UI_MODE_NIGHT_NO print nothing)
    return (
        f"{{{font!r} 310mcc260mnc [{locale.replace('-', '_')}] ldltr sw{min(w_dp, h_dp)}dp w{w_dp}dp h{h_dp}dp "
        f"{metrics.density}dpi nrml long port{ui_mode} finger qwerty/v/v dpad/v {window} s.1 fontWeightAdjustment=0}}"
    )

"""``dumpsys window [policy|displays|windows|NAME]``: what WindowManagerService prints (frameworks/base).

Android 10 and later print the focus (``mCurrentFocus``, ``mFocusedApp``) and the display
policy's lock state (``mAwake``, ``mDreamingLockscreen``, ``isKeyguardShowing``) per display,
in ``dumpsys window displays`` (DisplayContent.dump, DisplayPolicy.dump), not in ``dumpsys
window windows``; ``dumpsys window policy`` is PhoneWindowManager.dump, whose keyguard part
(KeyguardServiceDelegate.dump) says ``showing=`` and ``interactiveState=``. Android 9 and
before print the focus at the end of the windows and the lock state in the policy
(``mScreenOnFully``, ``mDreamingLockscreen``, ``isStatusBarKeyguard``), and frames as
``containing=/content=``.
"""

from __future__ import annotations

from dataclasses import dataclass

from androidrl.virtual.shell.commands.dumpsys.common import (
    SYSTEMUI,
    SYSTEMUI_PID,
    SYSTEMUI_UID,
    activity_record,
    configuration,
    focused_window,
    identity,
    sdk,
    shade_window,
    window_name,
)
from androidrl.virtual.system.core import PhoneCore

_RULE = "-" * 79


@dataclass(frozen=True)
class _Window:
    title: str
    package: str
    uid: int
    pid: int
    kind: str  # the window type, as WindowManager.LayoutParams prints it
    visibility: int  # View.VISIBLE 0x0, INVISIBLE 0x4, GONE 0x8
    frame: tuple[int, int, int, int]
    record: str = ""  # the ActivityRecord of an activity's window
    task_id: int = 1


def windows(phone: PhoneCore) -> list[_Window]:
    """The windows on the display, top-most first: the bars, the NotificationShade, then the tasks' activities."""
    width, height = phone.size
    top, bottom = phone.metrics.app_area
    shade = phone.keyguard.showing or phone.status_bar.expanded
    ui = (SYSTEMUI, SYSTEMUI_UID, SYSTEMUI_PID)
    found = [_Window("NavigationBar0", *ui, "NAVIGATION_BAR", 0, (0, bottom, width, height))]
    if shade_window(phone) == "StatusBar":  # up to Android 10 the status bar's window grows to hold them
        found.append(_Window("StatusBar", *ui, "STATUS_BAR", 0, (0, 0, width, height if shade else top)))
    else:
        found.append(_Window("StatusBar", *ui, "STATUS_BAR", 0, (0, 0, width, top)))
        found.append(_Window("NotificationShade", *ui, "NOTIFICATION_SHADE", 0 if shade else 4, (0, 0, width, height)))
    for index, task in enumerate(reversed(phone.activities.tasks)):
        for depth, activity in enumerate(reversed(task)):
            package = activity.app.package
            found.append(
                _Window(
                    activity.component,
                    package,
                    phone.processes.uid(package),
                    phone.processes.pid(package) or 0,
                    "BASE_APPLICATION",
                    0 if index == 0 and depth == 0 else 8,  # a stopped activity's window is GONE
                    (0, 0, width, height),
                    activity_record(activity.component, task.task_id),
                    task.task_id,
                )
            )
    return found


def _rect(box: tuple[int, int, int, int]) -> str:
    left, top, right, bottom = box
    return f"[{left},{top}][{right},{bottom}]"


def _window_block(phone: PhoneCore, number: int, window: _Window) -> str:
    """WindowState.dump: the lines clients read (session, attributes, visibility, frames, surface)."""
    width, height = phone.size
    top, bottom = phone.metrics.app_area
    frame = _rect(window.frame)
    user = f"u0a{window.uid - 10000}"
    lines = [
        f"  Window #{number} {window_name(window.title)}:",
        f"    mDisplayId=0 rootTaskId={window.task_id} mSession=Session{{{identity('session ' + window.package)} "
        f"{window.pid}:{user}}} mClient=android.os.BinderProxy@{identity('client ' + window.title)}",
        f"    mOwnerUid={window.uid} showForAllUsers={str(window.package == SYSTEMUI).lower()} "
        f"package={window.package} appop=NONE",
        f"    mAttrs={{(0,0)(fillxfill) ty={window.kind} fmt=TRANSLUCENT}}",
        f"    Requested w={window.frame[2] - window.frame[0]} h={window.frame[3] - window.frame[1]} mLayoutSeq=42",
    ]
    if window.record:
        lines.append(f"    mActivityRecord={window.record}")
    shown = str(window.visibility == 0).lower()
    lines += [
        f"    mViewVisibility=0x{window.visibility:x} mHaveFrame=true mObscured=false",
        f"    mFullConfiguration={configuration(phone)}",
        f"    mHasSurface={shown} isReadyForDisplay()={shown} mWindowRemovalAllowed=false",
    ]
    if sdk(phone) >= 29:  # WindowFrames.dump
        lines.append(f"    Frames: parent={frame} display=[0,0][{width},{height}] frame={frame} last={frame} "
                     "insetsChanged=false")  # fmt: skip
    else:  # Android 9: containing, parent, display, content and visible frames
        content = _rect((0, top, width, bottom)) if window.record else frame
        lines += [
            f"    Frames: containing={frame} parent={frame}",
            f"        display=[0,0][{width},{height}] overscan=[0,0][{width},{height}]",
            f"        content={content} visible={content}",
            f"        decor=[0,0][{width},{height}]",
        ]
    lines += [f"    isOnScreen={shown}", f"    isVisible={shown}"]
    return "\n".join(lines) + "\n"


def dump_windows(phone: PhoneCore, only: str | None = None) -> str:
    """``dumpsys window windows`` (WindowManagerService.dumpWindowsLocked); ``only``: windows whose title has it."""
    shown = [(n, w) for n, w in enumerate(windows(phone)) if only is None or only in w.title]
    text = "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
    text += "".join(_window_block(phone, number, window) for number, window in shown)
    if only is not None:
        return text
    focus = focused_window(phone)
    if sdk(phone) < 29:  # Android 9 printed the focus here (moved to DisplayContent in 10)
        task = phone.activities.tasks[-1]
        record = activity_record(task[-1].component, task.task_id)
        token = f"Token{{{identity('token ' + record)} {record}}}"
        return (
            text + f"\n  mGlobalConfiguration={configuration(phone)}\n  mHasPermanentDpad=false\n"
            f"  mCurrentFocus={focus}\n  mFocusedApp=AppWindowToken{{{identity('app ' + record)} token={token}}}\n"
            "  mInTouchMode=true\n"
        )
    return (
        text + f"\n  mGlobalConfiguration={configuration(phone)}\n  mHasPermanentDpad=false\n"
        f"  mTopFocusedDisplayId=0\n  imeLayeringTarget in display# 0 {focus}\n"
        f"  imeInputTarget in display# 0 {focus}\n  imeControlTarget in display# 0 {focus}\n"
        "  mInTouchMode=true\n  mBlurEnabled=false\n  mLastDisplayFreezeDuration=0 due to new-config\n"
        "  mDisableSecureWindows=false\n  mHighResSnapshotScale=0.8\n  mSnapshotEnabled=true\n"
    )


def _lock_state(phone: PhoneCore) -> tuple[str, str, str]:
    """(awake, locked, interactive) as ``true``/``false`` strings and the KeyguardServiceDelegate state name."""
    awake = phone.wakefulness.awake
    interactive = "INTERACTIVE_STATE_AWAKE" if awake else "INTERACTIVE_STATE_SLEEP"
    return str(awake).lower(), str(phone.keyguard.showing).lower(), interactive


def _keyguard_delegate(phone: PhoneCore, prefix: str) -> str:
    """KeyguardServiceDelegate.dump, with its KeyguardStateMonitor (KeyguardServiceWrapper.dump)."""
    awake, locked, interactive = _lock_state(phone)
    inner = prefix + "  "
    return (
        f"{prefix}KeyguardServiceDelegate\n{inner}showing={locked}\n{inner}inputRestricted={locked}\n"
        f"{inner}occluded=false\n{inner}secure={str(phone.keyguard.secure).lower()}\n{inner}dreaming=false\n{inner}systemIsReady=true\n"
        f"{inner}deviceHasKeyguard=true\n{inner}enabled=true\n{inner}offReason=OFF_BECAUSE_OF_USER\n"
        f"{inner}currentUser=0\n{inner}bootCompleted=true\n"
        f"{inner}screenState={'SCREEN_STATE_ON' if awake == 'true' else 'SCREEN_STATE_OFF'}\n"
        f"{inner}interactiveState={interactive}\n"
        f"{inner}KeyguardStateMonitor\n{inner}  mIsShowing={locked}\n{inner}  mSimSecure=false\n"
        f"{inner}  mInputRestricted={locked}\n{inner}  mTrusted=false\n{inner}  mCurrentUserId=0\n"
    )


def dump_policy(phone: PhoneCore) -> str:
    """``dumpsys window policy``: PhoneWindowManager.dump with the prefix "    "."""
    p = "    "
    text = (
        "WINDOW MANAGER POLICY STATE (dumpsys window policy)\n"
        f"{p}mSafeMode=false mSystemReady=true mSystemBooted=true\n{p}mCameraLensCoverState=LENS_COVER_ABSENT\n"
        f"{p}mWakeGestureEnabledSetting=true\n"
    )
    if sdk(phone) < 29:  # Android 9: the screen and lock state were the phone policy's
        awake, locked, _ = _lock_state(phone)
        top = window_name(phone.top_activity.component)
        text += (
            f"{p}mAwake={awake} mScreenOnEarly={awake} mScreenOnFully={awake}\n"
            f"{p}mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n"
            f"{p}mShowingDream=false mDreamingLockscreen={locked} mDreamingSleepToken=null\n"
            f"{p}mStatusBar={window_name('StatusBar')} isStatusBarKeyguard={locked}\n"
            f"{p}mNavigationBar={window_name('NavigationBar0')}\n"
            f"{p}mFocusedWindow={focused_window(phone)}\n{p}mTopFullscreenOpaqueWindowState={top}\n"
        )
    text += (
        f"{p}mShortPressOnPowerBehavior=SHORT_PRESS_POWER_GO_TO_SLEEP\n"
        f"{p}mLongPressOnPowerBehavior=LONG_PRESS_POWER_GLOBAL_ACTIONS\n"
        f"{p}mShortPressOnSleepBehavior=SHORT_PRESS_SLEEP_GO_TO_SLEEP\n{p}mHasSoftInput=true\n"
        f"{p}mKeyguardOccluded=false mKeyguardOccludedChanged=false mPendingKeyguardOccluded=false\n"
        f"{p}mAllowLockscreenWhenOnDisplays=false mLockScreenTimeout=0 mLockScreenTimerActive=false\n"
    )
    return text + _keyguard_delegate(phone, p)


def _display_rotation() -> str:
    """``DisplayRotation.dump`` and its WindowOrientationListener (the phone stays in portrait)."""
    return (
        "    DisplayRotation\n      mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED\n"
        "      mLastOrientation=-1\n      mRotation=0 mDeferredRotationPauseCount=0\n"
        "      mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270\n"
        "      mPortraitRotation=ROTATION_0 mUpsideDownRotation=ROTATION_180\n"
        "      mSupportAutoRotation=true\n      WindowOrientationListener\n        mEnabled=false\n"
        "        mCurrentRotation=ROTATION_0\n        mSensorType=null\n        mSensor=null\n        mRate=2\n\n"
        "      mUserRotationMode=USER_ROTATION_LOCKED mUserRotation=ROTATION_0 mCameraRotationMode=0"
        " mAllowAllRotations=unknown\n      mFixedToUserRotation=false\n"
    )


def dump_displays(phone: PhoneCore) -> str:
    """``dumpsys window displays``: DisplayContent.dump, its DisplayPolicy and DisplayRotation."""
    (width, height), (pw, ph) = phone.size, phone.physical_size
    top, bottom = phone.metrics.app_area
    task = phone.activities.tasks[-1]
    text = (
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
        f"  Display: mDisplayId=0 rootTasks={len(phone.activities.tasks)}\n"
        f"    init={pw}x{ph} {phone.physical_density}dpi cur={width}x{height} app={width}x{bottom - top} "
        f"rng={width}x{bottom - top}-{height}x{width}\n"
        "    deferred=false mLayoutNeeded=false\n\n  mLayoutSeq=42\n"
    )
    if sdk(phone) >= 29:  # the focus is the display's from Android 10 on
        text += (
            f"  mCurrentFocus={focused_window(phone)}\n"
            f"  mFocusedApp={activity_record(task[-1].component, task.task_id)}\n"
        )
        awake, locked, _ = _lock_state(phone)
        text += (
            f"\n    DisplayPolicy\n      mCarDockEnablesAccelerometer=true mDeskDockEnablesAccelerometer=true\n"
            "      mDockMode=EXTRA_DOCK_STATE_UNDOCKED mLidState=LID_ABSENT\n"
            f"      mAwake={awake} mScreenOnEarly={awake} mScreenOnFully={awake}\n"
            "      mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n      mHdmiPlugged=false\n"
            f"      mShowingDream=false mDreamingLockscreen={locked}\n"
            f"      mStatusBar={window_name('StatusBar')}\n      mExpandedPanel={window_name(shade_window(phone))}\n"
            f"      isKeyguardShowing={locked}\n      mNavigationBar={window_name('NavigationBar0')}\n"
            f"      mFocusedWindow={focused_window(phone)}\n"
            f"      mTopFullscreenOpaqueWindowState={window_name(task[-1].component)}\n"
            "      mTopIsFullscreen=false\n"
        )
    return text + "\n" + _display_rotation()


def dump_window(phone: PhoneCore, args: list[str]) -> str:
    """``dumpsys window [-a] [policy|p|displays|d|windows|w|NAME]``; with no section, all of them."""
    words = [a for a in args if not a.startswith("-")]
    if "--dump-priority" in args:  # (its level is not a section)
        words = words[1:]
    section = words[0] if words else None
    if section in ("policy", "p"):
        return dump_policy(phone)
    if section in ("displays", "d"):
        return dump_displays(phone)
    if section in ("windows", "w"):
        return dump_windows(phone)
    if section is None:
        parts = (dump_policy(phone), dump_displays(phone), dump_windows(phone))
        return "".join(f"\n{_RULE}\n{part}" for part in parts)
    if any(section in w.title for w in windows(phone)):  # "dumpsys window NAME": the windows it names
        return dump_windows(phone, only=section)
    return f"Bad window command, or no windows match: {section}\nUse -h for help.\n"

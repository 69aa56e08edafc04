"""``dumpsys``: the state of the system services, in the sections and formats clients read.

``window``, ``activity`` (``activities``, ``top``, ``processes``), ``display``, ``input``,
``input_method``, ``location``, ``power``, ``battery`` and ``package PKG``; the ``activity``
sections follow the phone's Android release.
"""

from __future__ import annotations

import zlib

from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail, ok
from androidrl.virtual.system.core import PhoneCore
from androidrl.virtual.system.framework.intent import short_component
from androidrl.virtual.system.input.evdev import TOUCH_MAX
from androidrl.virtual.system.window.display import DISPLAY_UNIQUE_ID


def _hash(text: str) -> str:
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:x}"


def _sdk(phone: PhoneCore) -> int:
    return int(phone.getprop("ro.build.version.sdk") or 34)


@command("dumpsys")
def _dumpsys(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    phone = sh.phone
    service = argv[1] if len(argv) > 1 else ""
    package, cls = phone.foreground()
    short = short_component(package, cls)
    task_id = 10 + len(phone.activity_stack())
    record = f"ActivityRecord{{{_hash(short)} u0 {short} t{task_id}}}"
    pid = phone.processes.pid(package) or 0
    if service == "window":
        window = f"Window{{{_hash(package + cls)} u0 {package}/{cls}}}"
        return ok(
            "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
            f"  Window #0 {window}:\n"
            f"    mDisplayId=0 rootTaskId={task_id} mSession=Session{{{_hash(package)} {pid}:u0a10000}}\n"
            f"  mCurrentFocus={window}\n"
            f"  mFocusedApp={record}\n\n" + _display_rotation()
        )
    if service == "activity":
        return ok(_dumpsys_activity(phone, argv[2] if len(argv) > 2 else "activities", record, task_id, pid))
    if service == "display":
        (w, h), (left, top, right, bottom), (pw, ph) = phone.size, phone.metrics.physical_frame, phone.physical_size
        viewport = (
            f"DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
            f"uniqueId='local:{DISPLAY_UNIQUE_ID}', physicalPort=0, orientation=0, "
            f"logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect({left}, {top} - {right}, {bottom}), "
            f"deviceWidth={pw}, deviceHeight={ph}}}"
        )
        return ok(
            f"DISPLAY MANAGER (dumpsys display)\n  mViewports=[{viewport}]\n"
            f'  mDefaultViewport={viewport}\n  Display 0:\n    mBaseDisplayInfo=DisplayInfo{{"Built-in '
            f'Screen", displayId 0, real {w} x {h}, rotation 0, density {phone.density}}}\n'
        )
    if service == "location":  # LocationManagerService.dump: the gps provider's last location
        fix = phone.location
        last = "null"
        if fix is not None:
            millis = int(fix.uptime * 1000)
            elapsed = f"+{millis // 60_000}m{millis // 1000 % 60}s{millis % 1000}ms"
            last = (
                f"Location[gps {fix.latitude:.6f},{fix.longitude:.6f} hAcc=5.0 et={elapsed} "
                f"alt={fix.altitude} vAcc=0.5]"
            )
        return ok(f"Location Manager State:\n  gps provider:\n    last location={last}\n")
    if service == "power":
        return ok("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n  mHoldingDisplaySuspendBlocker=true\n")
    if service == "battery":  # BatteryService.dumpInternal
        return ok(
            "Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n"
            "  Dock powered: false\n  Max charging current: 500000\n  Max charging voltage: 5000000\n"
            "  Charge counter: 4000000\n  status: 2\n  health: 2\n  present: true\n  level: 100\n"
            "  scale: 100\n  voltage: 5000\n  temperature: 250\n  technology: Li-ion\n"
        )
    if service == "input":
        return ok(_dumpsys_input(phone))
    if service == "input_method":
        phone.display.refresh()  # (the keyboard goes when no field has focus any more)
        return ok(phone.ime.dump(f"Window{{{_hash(package + cls)} u0 {package}/{cls}}}"))
    app = phone.packages.get(argv[2]) if service == "package" and len(argv) > 2 else None
    if app is not None:
        permissions = "".join(f"      {p}: granted=true\n" for p in phone.packages.granted(app.package))
        return ok(
            f"Packages:\n  Package [{argv[2]}] ({_hash(argv[2])}):\n    userId={phone.processes.uid(argv[2])}\n"
            "    versionCode=1 minSdk=29 targetSdk=34\n    versionName=1.0\n"
            "    pkgFlags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ]\n"
            f"    User 0: ceDataInode=0 installed=true hidden=false suspended=false stopped=false "
            f"notLaunched=false enabled={1 if phone.packages.enabled(app) else 0}\n"
            f"    runtime permissions:\n{permissions}"
        )
    if not service:
        return ok(
            "Currently running services:\n  activity\n  battery\n  display\n  input\n  input_method\n  location\n"
            "  package\n  power\n  window\n"
        )
    return fail(f"Can't find service: {service}\n", 0)


def _display_rotation() -> str:
    """``dumpsys window``'s DisplayRotation section (DisplayRotation.dump, WindowOrientationListener.dump)."""
    return (
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n"
        "    DisplayRotation\n      mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED\n"
        "      mLastOrientation=-1\n      mRotation=0 mDeferredRotationPauseCount=0\n"
        "      mLandscapeRotation=ROTATION_90 mSeascapeRotation=ROTATION_270\n"
        "      mPortraitRotation=ROTATION_0 mUpsideDownRotation=ROTATION_180\n"
        "      mSupportAutoRotation=true\n      WindowOrientationListener\n        mEnabled=false\n"
        "        mCurrentRotation=ROTATION_0\n        mSensorType=null\n        mSensor=null\n        mRate=2\n\n"
        "      mUserRotationMode=USER_ROTATION_LOCKED mUserRotation=ROTATION_0 mCameraRotationMode=0"
        " mAllowAllRotations=unknown\n      mFixedToUserRotation=false\n"
    )


def _dumpsys_input(phone: PhoneCore) -> str:
    """``dumpsys input`` (InputManagerService.dump): its event hub and the touchscreen's viewport.

    The viewport line is ``DisplayViewport::toString()`` (frameworks/native
    include/input/DisplayViewport.h): the logical frame is the ``wm size`` the apps see, the
    physical frame where it lands on the panel.
    """
    (lw, lh), (pw, ph) = phone.size, phone.physical_size
    frame = ", ".join(map(str, phone.metrics.physical_frame))
    viewport = (
        f"Viewport INTERNAL: displayId=0, uniqueId=local:{DISPLAY_UNIQUE_ID}, port=0, orientation=0, "
        f"logicalFrame=[0, 0, {lw}, {lh}], physicalFrame=[{frame}], deviceSize=[{pw}, {ph}], isActive=[1]"
    )
    devices = list(enumerate(phone.evdev.devices, 1))  # EventHub numbers them as it opens them
    hub = "".join(f"    {i}: {d.name}\n      Classes: {d.classes}\n      Path: {d.path}\n" for i, d in devices)
    touch_id, touch = next((i, d) for i, d in devices if "TOUCH" in d.classes)
    return (
        "INPUT MANAGER (dumpsys input)\n\nInput Manager Service (Java) State:\n  Interactive: true\n\n"
        "Event Hub State:\n  BuiltInKeyboardId: -2\n  Devices:\n"
        "    -1: Virtual\n      Classes: KEYBOARD | ALPHAKEY\n      Path: <virtual>\n" + hub + "\n"
        f"Input Reader State (Nums of device: {len(devices)}):\n"
        f"  Device {touch_id}: {touch.name}\n    Sources: TOUCHSCREEN\n"
        "    Touch Input Mapper (mode - DIRECT):\n"
        f"      Raw Touch Axes:\n        X: min=0, max={TOUCH_MAX}, flat=0, fuzz=0, resolution=0\n"
        f"        Y: min=0, max={TOUCH_MAX}, flat=0, fuzz=0, resolution=0\n"
        f"      {viewport}\n      DisplayBounds: width={lw}, height={lh}\n"
        f"      PhysicalFrameInRotatedDisplay: [{frame}]\n      InputDeviceOrientation: 0\n"
    )


def _dumpsys_activity(phone: PhoneCore, section: str, record: str, task_id: int, pid: int) -> str:
    """``dumpsys activity activities|top|processes`` as the phone's Android release prints it."""
    package, cls = phone.foreground()
    short = short_component(package, cls)
    if section == "top":
        return f"TASK {task_id}:{package} id={task_id} userId=0\n  ACTIVITY {short} {_hash(short)} pid={pid}\n"
    if section == "processes":
        lines = ["ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)"]
        for p in phone.processes.table():
            if p.uid:
                lines.append(f"  *APP* UID {p.uid} ProcessRecord{{{_hash(p.name)} {p.pid}:{p.name}/{p.user}}}")
        return "\n".join(lines) + "\n"
    head = "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n"
    uid = phone.processes.uid(package)
    task = f"  * Task{{{_hash(str(task_id))} #{task_id} type=standard A={uid}:{package} U=0 visible=true}}\n"
    if _sdk(phone) >= 33:  # Android 13 and 14: the task's top resumed activity, then the global one
        return (
            head + task + f"    topResumedActivity={record}\n    * Hist  #0: {record}\n\n"
            f"  ResumedActivity: {record}\n  mFocusedApp={record}\n"
        )
    return (  # up to Android 12
        head + task + f"    * Hist #0: {record}\n\n  mResumedActivity: {record}\n"
        f"  ResumedActivity: {record}\n  mFocusedApp={record}\n"
    )

"""The virtual phone's system: its services, and the framework through which apps use them.

As Android's ``system_server``, :class:`~androidrl.virtual.system.core.PhoneCore` owns one
instance of each service and wires them together; apps, the shell's commands and the device
layer reach each service through its public methods, never into its fields.

Rooms:

* ``framework/``: what apps import — ``App``, ``Activity``, ``Context``, ``Intent``, the
  display metrics (Android's ``android.app``, ``android.content``, ``android.util``).
* ``activity_manager``, ``processes``: tasks of activities, and the processes they run in.
* ``app_context``: the ``Context`` the apps are handed, built on the core's services.
* ``alarm_manager``, ``broadcasts``: the alarms apps set (``dumpsys alarm``), and the broadcasts
  (a due alarm's, ``BOOT_COMPLETED``) sent to the receivers apps declare.
* ``packages``, ``apk``: installed packages (``pm``), and what an APK declares.
* ``window/``: the window manager (the activity's window and the dialogs, popups, toasts and
  keyboard over it, SystemUI's bars and NotificationShade window above them: z-order, focus,
  BACK), the display that composes them into frames, ``screencap`` bytes and the UI dump, and
  the window policy that sees keys and touches first (PhoneWindowManager).
* ``input/``: input dispatch to the windows, and the evdev hardware under it.
* ``input_method``, ``clipboard``: the soft keyboard (LatinIME) and the clipboard.
* ``power``: on, rebooting, off, and the screen's wakefulness; ``keyguard``: the lock screen.
* ``notifications``: the posted notifications and the status bar's panel (the shade).
* ``settings_provider``, ``radios``, ``props``, ``logd``, ``fs``: the ``settings`` tables,
  Wi-Fi/Bluetooth/airplane mode, system properties, the log buffers and the file system.
* ``content/``: the content providers of the installed packages (AOSP's contacts, call log,
  SMS, calendar, alarms, MediaStore and settings providers among them) and the seeded content.

New services get a module here, or a folder when they have parts
(as ``content/``); what apps see of them goes into ``Context``.
"""

"""The virtual phone's system: its services, and the framework through which apps use them.

As Android's ``system_server``, :class:`~androidrl.virtual.system.core.PhoneCore` owns one
instance of each service and wires them together; apps, the shell's commands and the device
layer reach each service through its public methods, never into its fields.

Rooms:

* ``framework/``: what apps import — ``App``, ``Activity``, ``Context``, ``Intent``, the
  display metrics (Android's ``android.app``, ``android.content``, ``android.util``).
* ``activity_manager``, ``processes``: tasks of activities, and the processes they run in.
* ``packages``, ``apk``: installed packages (``pm``), and what an APK declares.
* ``window/``: the windows the display composes (apps, system bars) and their frames,
  ``screencap`` bytes and UI dump.
* ``input/``: input dispatch to the windows, and the evdev hardware under it.
* ``power``: on, rebooting, off. ``settings_provider``, ``radios``, ``props``, ``logd``,
  ``fs``: the ``settings`` tables, Wi-Fi/Bluetooth/airplane mode, system properties, the
  log buffers and the file system.
* ``content/``: the content providers of the installed packages (AOSP's contacts, call log,
  SMS, calendar, alarms, MediaStore and settings providers among them) and the seeded content.

New services get a module here (notifications, clipboard, alarms, keyguard beside
``power``), or a folder when they have parts (as ``content/``); what apps see of them goes
into ``Context``.
"""

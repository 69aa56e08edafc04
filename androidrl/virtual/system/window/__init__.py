"""The window manager: the windows on the screen and what they show.

``window_manager`` stacks the top activity's window, the dialogs and popups it shows, the
toast, the soft keyboard, the system bars (``system_bars``, drawn as SystemUI draws them) and
SystemUI's NotificationShade window (``notification_shade``: the keyguard, or the pulled-down
shade) in Android's z-order, lays them out, knows which has focus (keys go to it, the UI dump
shows it) and answers BACK for them; ``display`` turns what it composes into frames,
``screencap`` bytes and the UI dump, at the size and density of
:mod:`~androidrl.virtual.system.framework.metrics`; ``policy`` is PhoneWindowManager, which
sees keys and touches before the windows do.
"""

"""The window manager: the windows on the screen and what they show.

``display`` composes the window in front with the system bars (``system_bars``, drawn as
SystemUI draws them) and SystemUI's NotificationShade window (``notification_shade``: the
keyguard, or the pulled-down shade) into frames, ``screencap`` bytes and the UI dump, at the
size and density of :mod:`~androidrl.virtual.system.framework.metrics`; ``policy`` is
PhoneWindowManager, which sees keys and touches before the windows do. Windows still to come
over the apps (dialogs, toasts, the soft keyboard) join them here.
"""

"""The window manager: the windows on the screen and what they show.

``display`` composes the window in front with the system bars (``system_bars``, drawn as
SystemUI draws them) into frames, ``screencap`` bytes and the UI dump, at the size and
density of :mod:`~androidrl.virtual.system.framework.metrics`. Windows that come over the
apps (the keyguard, the notification shade, dialogs, toasts, the soft keyboard) join them here.
"""

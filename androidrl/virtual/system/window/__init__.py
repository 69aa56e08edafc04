"""The window manager: the screen's metrics, the windows on it and what they show.

``metrics`` holds the size and density (``wm size``, ``wm density``); ``display`` composes
the window in front with the system bars (``system_bars``, drawn as SystemUI draws them)
into frames, ``screencap`` bytes and the UI dump. Windows that come over the apps (the
keyguard, the notification shade, dialogs, toasts, the soft keyboard) join them here.
"""

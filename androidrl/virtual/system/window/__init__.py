"""The window manager: the windows on the screen and what they show.

``window_manager`` stacks the top activity's window, the dialogs and popups it shows, the
toast and the soft keyboard in Android's z-order, lays them out, knows which has focus (keys
go to it, the UI dump shows it) and answers BACK for them; ``display`` composes its windows
with the system bars (``system_bars``, drawn as SystemUI draws them) into frames,
``screencap`` bytes and the UI dump, at the size and density of
:mod:`~androidrl.virtual.system.framework.metrics`.
"""

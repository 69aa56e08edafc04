"""The virtual phone's UI toolkit (Android's ``android.view`` and ``android.widget``).

``views`` holds the view tree — widget look-alikes with the attributes ``uiautomator``
reports, their layout and hit testing; ``widgets`` composes views into the Material pieces
apps share (app bar, list rows, text field, buttons); ``render`` draws a laid-out tree into
a frame; ``uixml`` writes it as ``uiautomator dump`` XML. The toolkit knows nothing of the
phone: the system's window manager and the apps build on it.
"""

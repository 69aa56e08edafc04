"""The virtual phone's UI toolkit (Android's ``android.view`` and ``android.widget``).

``views`` holds the view tree — widget look-alikes with the attributes ``uiautomator``
reports, their layout and hit testing; ``controls`` the selection and navigation widgets
(CheckBox, RadioGroup, SeekBar, tabs, bottom navigation, swipe-to-dismiss); ``scroll`` a
list's fling and edge glow; ``recycler`` a long list that makes only the rows on screen;
``text`` editable text with its clipboard toolbar; ``window`` the windows an activity shows
over its own, and ``dialogs``, ``time_picker``,
``date_picker`` and ``notices`` (snackbar, toast) the framework's; ``keyboard`` the soft
keyboard's look; ``widgets`` composes views into the Material pieces apps share (app bar,
list rows, text field, buttons); ``image`` shows image files (each size decoded once);
``config`` carries the configuration (font scale, dark theme, locale, time) a frame is
built in; ``render`` draws a laid-out tree into a frame; ``uixml`` writes it as
``uiautomator dump`` XML. The toolkit knows nothing of the phone: the system's window
manager and the apps build on it.
"""

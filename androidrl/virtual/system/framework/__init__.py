"""The app framework: the only part of the system that apps import.

``app`` holds :class:`App` (an installed package: its manifest and data),
:class:`Activity` (one screen) and :class:`Context` (the services an app may use);
``intent`` holds :class:`Intent`. Like Android's ``android.app`` and ``android.content``,
it is the apps' whole view of the system: types that apps share with the system (a
notification, a content row) belong here too.
"""

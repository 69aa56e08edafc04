"""The app framework: the only part of the system that apps import.

``app`` holds :class:`App` (an installed package: its manifest and data),
:class:`Activity` (one screen) and :class:`Context` (the services an app may use);
``intent`` holds :class:`Intent` and :class:`IntentFilter`; ``content`` the provider base class,
URIs, cursors and the :class:`ContentResolver` apps reach every provider with, and ``database``
the SQLite-backed :class:`SQLiteProvider` most providers are written with; ``metrics`` the
screen's size and density as apps read them (Android's ``DisplayMetrics``; ``wm size`` and
``wm density`` override them); ``storage`` shared storage (``/sdcard``) as apps with "All
files access" use it, keeping MediaStore in step; ``formatter`` sizes and times as
``android.text.format`` writes them. Like
Android's ``android.app``, ``android.content`` and ``android.util``, it is the apps' whole
view of the system: types that apps share with the system (a notification, a content row)
belong here too.
"""

"""The apps of the virtual phone, one package per app.

An app's ``app`` module declares it, as its manifest would: its package name, label, icon,
activities and the intent actions they answer, in a function that makes a fresh
:class:`~androidrl.virtual.system.framework.app.App`. An app with many screens keeps them
in modules of its own package beside ``app``.

Apps use the system only through the framework (``virtual.system.framework``: their
``Context``, ``Intent``) and build their screens with the UI toolkit (``virtual.ui``); they
never import the shell, adbd, another app, or a service's module. Only the composition,
:mod:`androidrl.virtual.phone`, imports them, to install them.
"""

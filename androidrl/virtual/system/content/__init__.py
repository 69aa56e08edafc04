"""Content providers: the service that keeps them, and Android's stock providers.

* ``service``: the providers of the installed packages, by authority (install, uninstall,
  ``pm clear``, snapshots), and the resolver apps and the ``content`` command use.
* ``settings``, ``contacts`` (with ``calllog``), ``telephony``, ``calendar``, ``media``,
  ``deskclock``: AOSP's providers in their URIs and columns; ``stock``: the packages that own them.
* ``seed``: the contacts, messages, events... a phone starts with (``VirtualPhone(content=...)``).

The base classes a provider is written with are the framework's (what apps see):
:mod:`androidrl.virtual.system.framework.content` and :mod:`androidrl.virtual.system.framework.database`.
"""

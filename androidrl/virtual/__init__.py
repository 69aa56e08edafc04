"""The virtual phone: an Android look-alike served by a real adbd protocol, for tests and fast training.

Its rooms, bottom to top (a room imports only itself and the rooms below it;
``tests/test_architecture.py`` checks it):

* ``ui/``: the UI toolkit (views, widgets, rendering, ``uiautomator`` XML); ``media/``: codecs.
* ``system/``: the services (activity and package managers, window, input, power, settings,
  radios, properties, processes, log, files) and ``system/framework/``, what apps see of them.
* ``apps/``: one package per app, on the framework and the toolkit only; ``shell/``: the
  shell's grammar and interpreter, one command registry, the commands by Android tool.
* ``phone.py``: :class:`~androidrl.virtual.phone.VirtualPhone`, the composition of them all.
* ``adbd/``, ``console.py``, ``faults.py``: the phone served over TCP — adbd, an emulator's
  console, and faults injected on the way.
"""

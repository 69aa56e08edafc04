"""Benchmarks of the hot paths, side by side with baselines in the same run, as ratios.

Every figure is measured for several contenders in interleaved rounds (A, B, C, A, B, C...),
so drift of the machine hits them alike; the table reports median and p90 per contender
and the ratio of the baseline's median to each contender's. Over adb, the virtual phone
runs in a separate process (``androidrl virtual``), as a device would, behind a private
adb server.

Contenders over adb:

* ``seed``: MetaGPT's way — one ``adb`` process per command through a shell,
  ``screencap -p`` to the phone's disk and ``adb pull``, ``uiautomator dump`` and pull.
* ``adbutils``: the popular client as a library user calls it (``screenshot()``,
  ``shell()``, ``dump_hierarchy()``).
* ``adbdevice``: :class:`~androidrl.device.adb.AdbDevice` (raw screencap over ``exec:``, no
  process per call).
* ``inprocess``: :class:`~androidrl.device.virtual.VirtualDevice`, the phone in this process.

Run ``python scripts/benchmark.py`` (or ``androidrl bench``); ``--quick`` for a short run,
``--json FILE`` to keep the numbers.
"""

from androidrl.bench.cli import SUITES, main

__all__ = ["SUITES", "main"]

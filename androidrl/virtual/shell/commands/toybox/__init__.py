"""Toybox, Android's small Unix tools.

``files``, ``disk`` (``df``), ``fileinfo`` (``du``, ``stat``), ``filters``, ``find``, ``sed``, ``strings``,
``text``, ``misc``, ``system`` (users, clock, processes) and ``net``.
"""

"""Toybox, Android's small Unix tools.

``files``, ``disk`` (``df``), ``text``, ``system`` (users, clock, processes) and ``net``.
"""

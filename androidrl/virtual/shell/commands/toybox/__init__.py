"""Toybox, Android's small Unix tools: ``files``, ``text``, ``system`` (users, clock, processes) and ``net``."""

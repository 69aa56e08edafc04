"""Input: the hardware under it and the dispatch over it.

``evdev`` is the hardware (``/dev/input``: what ``getevent`` shows and ``sendevent``
writes), ``dispatcher`` delivers touches and keys to the windows. An input method (the soft
keyboard) belongs beside them.
"""

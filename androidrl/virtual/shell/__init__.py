"""The phone's shell: ``/system/bin/sh`` and the tools it runs.

``syntax`` splits a command line as the shell's grammar does; ``interpreter`` runs it
(expansions, redirections, pipes) with the commands it is given; ``stdin`` is a client's
input as it arrives. ``registry`` is the one table of commands and its decorator, and
``commands/`` the tools themselves, one module per Android tool. The shell reaches the phone
only through :class:`~androidrl.virtual.system.core.PhoneCore` and its services' public
methods.
"""

"""The phone's shell: ``/system/bin/sh`` (MirBSD mksh's language) and the tools it runs.

The language, as mksh's sources split it: ``lexer`` (``lex.c``) and ``syntax`` (``syn.c``)
parse a program into ``tree`` nodes; ``expansion`` (``eval.c``), ``patterns`` and
``arithmetic`` (``expr.c``) turn words into fields; ``execution`` (``exec.c``), ``jobs``
(``jobs.c``) and ``conditions`` (``test``, ``[[ ]]``) run the nodes; ``interpreter`` is the
shell itself — its variables, options, input and output (``streams``, ``stdin``) — and
``control`` how it leaves what it runs. ``registry`` is the one table of commands and its
decorator, and ``commands/`` the tools themselves, grouped by Android tool (toybox's in
``commands/toybox/``). The shell reaches the phone only through
:class:`~androidrl.virtual.system.core.PhoneCore` and its services' public methods.
"""

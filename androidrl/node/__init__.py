"""``androidrl node``: this host as a Ray node advertising its Android devices (the command: :mod:`.command`).

Its parts: :mod:`.adb_owner` (one node per adb server), :mod:`.auth` (Ray's token
authentication), :mod:`.ports` (every port pinned; the list the docs give), :mod:`.ray_node`
(the ``ray start`` command, its directory and the record ``address: auto`` reads) and
:mod:`.processes` (stopping what it started, by process id). Importing this package is light:
the CLI reads the port flags from it.
"""

from androidrl.errors import AndroidRLError
from androidrl.node.processes import alive, descendants


class NodeError(AndroidRLError):
    """``androidrl node`` cannot start as asked (the message says why and what to do)."""


__all__ = ["NodeError", "alive", "descendants"]

"""The ``androidrl`` subcommands that are not training: one module a command (or a pair of close ones).

Each module has ``add(sub)``, which adds its parser (arguments, help) to the command line's
subparsers and names the function that runs it; :mod:`androidrl.cli` only gathers them.
The training commands (``train``, ``evaluate``, ``tune``, ``watch``, ``results``) live in
:mod:`androidrl.train`, the benchmarks in :mod:`androidrl.bench`.
Their argument types and exit codes are in :mod:`androidrl.arguments`.
"""

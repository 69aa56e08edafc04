"""``sh``: a new shell process (``/system/bin/sh``, MirBSD mksh), as mksh's ``main.c`` starts one.

``sh -c 'CMDS' [NAME [ARGS]]``, ``sh FILE [ARGS]`` (messages then say ``FILE[line]: ``),
``sh`` reading its commands from its input; ``-e``, ``-u``, ``-x``, ``-f``, ``-v`` and ``-o OPTION``
as ``set`` takes them. It gets the exported variables, the working directory and the input
and output of the shell that runs it.
"""

from __future__ import annotations

from androidrl.virtual.shell.commands.builtins import OPTIONS
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail


@command("sh")
def _sh(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args, options, from_string, from_stdin = argv[1:], set(), False, False
    while args and args[0][:1] in ("-", "+") and args[0] not in ("-", "--"):
        flag = args.pop(0)
        for letter in flag[1:]:
            if letter == "c":
                from_string = True
            elif letter == "s":
                from_stdin = True
            elif letter == "o" and args:
                name = args.pop(0)
                if name not in OPTIONS:
                    return fail(f"{argv[0]}: {name}: bad option\n")
                options.add(OPTIONS[name])
            elif letter in "euxfvC" and flag[0] == "-":
                options.add(letter)
            elif letter not in "euxfvCi":
                return fail(f"{argv[0]}: -{letter}: unknown option\n")
    if args[:1] in (["-"], ["--"]):
        args.pop(0)
    script = None
    if from_string:
        if not args:
            return fail(f"{argv[0]}: -c: option requires an argument\n")
        text, name, positional = args[0], (args[1] if len(args) > 1 else argv[0]), args[2:]
    elif args and not from_stdin:
        name = script = args[0]
        try:
            text = sh.phone.fs.read(sh.path(script)).decode("utf-8", "replace")
        except OSError as exc:
            return fail(f"{argv[0]}: {script}: {exc.strerror}\n", 127)
        positional = args[1:]
    else:
        text, name, positional = sh.read_stdin(stdin).decode("utf-8", "replace"), argv[0], args
    child = sh.spawn(name, script, positional)
    child.options = options
    return b"", b"", child.run_isolated(lambda shell: shell.run_program(text))

"""``awk``: Android's ``/system/bin/awk`` (one-true-awk), with the language :mod:`.parser` reads.

``awk [-F FS] [-v VAR=VALUE]... [-f PROGFILE | 'PROGRAM'] [FILE | VAR=VALUE]...``. Messages are
one-true-awk's (``awk: syntax error at source line 1``, exit status 2).
"""

from __future__ import annotations

from androidrl.virtual.shell.commands.awk.parser import AwkSyntaxError, Parser
from androidrl.virtual.shell.commands.awk.runtime import AwkError, Exit, Interpreter, Next, StrNum
from androidrl.virtual.shell.interpreter import Shell
from androidrl.virtual.shell.registry import Result, command, fail

VERSION = "awk version 20230909\n"


def _escaped(text: str) -> str:
    """A ``-v``/command-line value: its escapes done, as awk does."""
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape") if "\\" in text else text


@command("awk")
def _awk(sh: Shell, argv: list[str], stdin: bytes) -> Result:
    args, assignments, separator, program_text = argv[1:], [], None, None
    while args and args[0].startswith("-") and args[0] != "-":
        flag = args.pop(0)
        if flag == "--":
            break
        if flag in ("--version", "-version", "-V"):
            return VERSION.encode(), b"", 0
        letter, value = flag[1], flag[2:]
        if letter not in "Fvf":
            return fail(f"awk: unknown option {flag} ignored\n", 2)
        if not value:
            if not args:
                missing = {"F": "field separator", "v": "variable name", "f": "program filename"}[letter]
                return fail(f"awk: no {missing}\n", 2)
            value = args.pop(0)
        if letter == "F":
            separator = "\t" if value == "t" else _escaped(value)
        elif letter == "v":
            if "=" not in value:
                return fail(f"awk: invalid -v argument: {value}\n", 2)
            assignments.append(value)
        else:
            try:
                program_text = (program_text or "") + sh.phone.fs.read(sh.path(value)).decode("utf-8", "replace")
            except OSError:
                return fail(f"awk: can't open file {value}\n source line number 1\n", 2)
    if program_text is None:
        if not args:
            return fail("usage: awk [-F fs][-v var=value][-safe][-version] [prog | -f progfile][file ...]\n", 2)
        program_text = args.pop(0)
    try:
        items = Parser(program_text).program()
    except AwkSyntaxError as error:
        line = program_text.split("\n")[error.line - 1] if error.line <= program_text.count("\n") + 1 else ""
        if str(error) == "syntax error":
            message = f"awk: syntax error at source line {error.line}\n context is\n\t{line}\n"
            return fail(message + f"awk: bailing out at source line {error.line}\n", 2)
        return fail(f"awk: {error} at source line {error.line}\n", 2)

    def write_file(path: str, data: bytes, append: bool) -> None:
        sh.phone.fs.write(sh.path(path), data, append=append)

    def system(line: str, pending: str) -> int:
        sh.io.out.append(pending.encode())
        runner.out.clear()
        return sh.run_utility(["sh", "-c", line])

    environ = {k: v for k, v in sh.variables.items() if k in sh.exported}
    runner = Interpreter(items, write_file, system, environ)
    if separator is not None:
        runner.vars["FS"] = separator
    for assignment in assignments:
        name, _, value = assignment.partition("=")
        runner.vars[name] = StrNum(_escaped(value))
    errors, code = [], 0
    try:
        try:
            runner.run_items("BEGIN")
            if any(item[0] not in ("BEGIN",) for item in items):
                for operand in args or ["-"]:
                    if "=" in operand and operand.split("=", 1)[0].isidentifier():
                        name, _, value = operand.partition("=")
                        runner.vars[name] = StrNum(_escaped(value))
                        continue
                    data = _read(sh, operand, stdin, errors)
                    if data is None:
                        code = 2
                        continue
                    runner.vars["FILENAME"], runner.vars["FNR"] = "" if operand == "-" else operand, 0.0
                    lines = data.decode("utf-8", "replace").split("\n")
                    if lines and lines[-1] == "":
                        lines.pop()
                    for line in lines:
                        runner.vars["NR"] = runner.vars["NR"] + 1
                        runner.vars["FNR"] = runner.vars["FNR"] + 1
                        runner.set_record(line)
                        try:
                            runner.run_record()
                        except Next:
                            continue
        except Exit as stop:
            code = stop.code
        try:
            runner.run_items("END")
        except Exit as stop:
            code = stop.code
    except (AwkError, OSError) as error:
        message = error.strerror if isinstance(error, OSError) else str(error)
        out = "".join(runner.out).encode()
        return out, f"awk: {message}\n source line number 1\n".encode(), 2
    return "".join(runner.out).encode(), "".join(errors).encode(), code


def _read(sh: Shell, operand: str, stdin: bytes, errors: list[str]) -> bytes | None:
    if operand == "-":
        return sh.read_stdin(stdin)
    try:
        return sh.phone.fs.read(sh.path(operand))
    except OSError:
        errors.append(f"awk: can't open file {operand}\n source line number 1\n")
        return None

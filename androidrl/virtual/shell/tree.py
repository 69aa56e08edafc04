"""The parsed form of a shell program (mksh's ``tree.c``): words made of parts, and the commands built of words.

The parser (:mod:`~androidrl.virtual.shell.syntax`) builds these once per program text; the
interpreter runs them and the expander (:mod:`~androidrl.virtual.shell.expansion`) turns
their words into fields. Nodes are immutable, so a parsed program can be cached and run
again. Every part of a word knows whether it was quoted: quoted text is never split into
fields nor used as a glob pattern.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------------- words


@dataclass(frozen=True, slots=True)
class Lit:
    """Literal text; unquoted, its ``* ? [`` are pattern characters."""

    text: str
    quoted: bool


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter expansion: ``$name``, ``${name}``, ``${#name}`` or ``${name OP arg}``.

    ``op`` is ``""`` (plain), ``"len"`` (``${#v}``), one of ``- = + ?`` with or without a
    leading ``:``, ``# ## % %%`` (trim a pattern), ``/ //`` (replace: ``arg`` and ``repl``)
    or ``":"`` (substring: ``arg`` and ``repl`` hold offset and length). ``text`` is the
    source, for error messages.
    """

    name: str
    op: str
    arg: Word | None
    quoted: bool
    text: str
    repl: Word | None = None


@dataclass(frozen=True, slots=True)
class CommandSub:
    """``$(...)`` or a backquoted command: its output, trailing newlines removed."""

    body: tuple[Node, ...]
    quoted: bool


@dataclass(frozen=True, slots=True)
class ArithSub:
    """``$((expr))``: ``expr`` expanded as in double quotes, then evaluated (:mod:`~.arithmetic`)."""

    expr: Word
    quoted: bool


@dataclass(frozen=True, slots=True)
class Tilde:
    """An unquoted ``~`` or ``~user`` at the start of a word."""

    user: str


@dataclass(frozen=True, slots=True)
class BadSubst:
    """A ``${...}`` the shell cannot expand: an error when (and only when) it is expanded, as in mksh."""

    text: str


Part = Lit | Param | CommandSub | ArithSub | Tilde | BadSubst


@dataclass(frozen=True, slots=True)
class Word:
    """One word of the source: its parts, and its text as written.

    ``plain`` is the word's value when it needs no expansion at all (unquoted literal text
    without pattern characters): most words of most command lines.
    """

    parts: tuple[Part, ...]
    text: str
    plain: str | None = None

    @property
    def bare(self) -> str | None:
        """The text, when it is one unquoted literal (how reserved words and names are recognised)."""
        parts = self.parts
        return parts[0].text if len(parts) == 1 and type(parts[0]) is Lit and not parts[0].quoted else None


# ---------------------------------------------------------------------- commands


class HereDoc:
    """A here-document's body: read after the line that names it, so it is filled in after parsing that line."""

    __slots__ = ("body", "delimiter", "expand", "strip_tabs")

    def __init__(self, delimiter: str, expand: bool, strip_tabs: bool) -> None:
        self.delimiter, self.expand, self.strip_tabs = delimiter, expand, strip_tabs
        self.body: Word | None = None


@dataclass(frozen=True, slots=True)
class Redirect:
    """``[fd]op target``: ``< > >> >| <> <& >&`` with a word, ``<<``/``<<-`` with a here-doc, ``<<<`` a string."""

    fd: int
    op: str
    target: Word | None
    heredoc: HereDoc | None = None


@dataclass(frozen=True, slots=True)
class Simple:
    """A simple command: assignments, words and redirections."""

    assigns: tuple[tuple[str, Word, bool], ...]  # (name, value, append: ``+=``)
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...]
    line: int


@dataclass(frozen=True, slots=True)
class Pipeline:
    """Commands joined by ``|``, optionally negated with ``!``."""

    commands: tuple[Node, ...]
    negate: bool


@dataclass(frozen=True, slots=True)
class AndOr:
    """Pipelines joined by ``&&`` and ``||`` (``rest`` holds each operator and its pipeline)."""

    first: Pipeline
    rest: tuple[tuple[str, Pipeline], ...]


@dataclass(frozen=True, slots=True)
class Sequence:
    """A list: and-or lists separated by ``;``, ``&`` or newlines (``True`` runs it in the background)."""

    items: tuple[tuple[AndOr, bool], ...]


@dataclass(frozen=True, slots=True)
class Subshell:
    """``( list )``: the list in a copy of the shell."""

    body: Sequence


@dataclass(frozen=True, slots=True)
class Group:
    """``{ list; }``: the list in this shell."""

    body: Sequence


@dataclass(frozen=True, slots=True)
class If:
    """``if c; then b; [elif c; then b;]... [else b;] fi``."""

    clauses: tuple[tuple[Sequence, Sequence], ...]
    orelse: Sequence | None


@dataclass(frozen=True, slots=True)
class Loop:
    """``while c; do b; done`` (``until``: run while ``c`` fails)."""

    cond: Sequence
    body: Sequence
    until: bool


@dataclass(frozen=True, slots=True)
class For:
    """``for name [in words]; do body; done`` (without ``in``: the positional parameters)."""

    name: str
    words: tuple[Word, ...] | None
    body: Sequence


@dataclass(frozen=True, slots=True)
class CaseItem:
    """``pattern|pattern) body ;;`` (``end`` is ``;;``, ``;&`` fall through, or ``;|`` test the next)."""

    patterns: tuple[Word, ...]
    body: Sequence | None
    end: str


@dataclass(frozen=True, slots=True)
class Case:
    """``case word in items esac``."""

    word: Word
    items: tuple[CaseItem, ...]


@dataclass(frozen=True, slots=True)
class FunctionDef:
    """``name() command`` or ``function name { ...; }``."""

    name: str
    body: Node
    ksh: bool


@dataclass(frozen=True, slots=True)
class Arith:
    """``(( expr ))``: true when the expression is not 0."""

    expr: Word
    line: int


@dataclass(frozen=True, slots=True)
class DoubleBracket:
    """``[[ expression ]]``: operands (words) and operators (strings), unsplit and unglobbed."""

    items: tuple[Word | str, ...]
    line: int


@dataclass(frozen=True, slots=True)
class Redirected:
    """A compound command with redirections: ``while ...; done < file``."""

    command: Node
    redirects: tuple[Redirect, ...]


Node = (
    Simple
    | Pipeline
    | AndOr
    | Sequence
    | Subshell
    | Group
    | If
    | Loop
    | For
    | Case
    | FunctionDef
    | Arith
    | DoubleBracket
    | Redirected
)

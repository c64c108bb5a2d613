"""The statements no active rule can act on, which the pass skips whole (Rule.WORDS; docs/adding.md).

Every rule names the words besides TensorFlow's names whose presence in a statement's source can make
it act there. A statement, at any depth, whose source (strings and comments too) has none of the active
rules' WORDS and no name the module binds to TensorFlow, the platform SDK or the rules' ROOTS is
skipped with everything in it: libcst neither visits nor rebuilds it and no rule sees it. In TF1 code
dense in TensorFlow most top-level statements (defs, classes) name it somewhere, but nearly half of the
code is in the statements inside them that do not.

The pass meets the statements that start a line of their own (libcst's BaseStatement nodes: a line of
simple statements, a compound statement) in source order, nested ones after their parent; they are
numbered so here from Python's `ast`, where the statements after a `;` or in a one-line suite
(`if x: y`) belong to the one their line starts with.
"""

import ast
import re
import unicodedata
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from codemods.engine.names import NameTable
    from codemods.engine.rule import Rule

_WORD = re.compile(r"\w+")
# Python's tokenizer ends lines at these only (str.splitlines also splits at form feeds, \x1c ...)
_LINE_END = re.compile(r"\r\n|\r|\n")
# A backslash-newline inside a string literal joins its two halves into one word ("TF_\<newline>CONFIG").
_CONTINUATION = re.compile(r"\\(?:\r\n|\r|\n)")
# Escapes that can spell a word character in a string literal ("TF_\x43ONFIG" is "TF_CONFIG").
_WORD_ESCAPE = re.compile(r"\\(?:[0-7xuU]|N\{)")


def mentions(text: str, keys: frozenset[str]) -> bool:
    """May a rule find one of `keys` in `text`: as a word, joined across a backslash-newline in a
    string, NFKC-normalised as the ast has identifiers, or spelled by an escape in a string?"""
    if not keys.isdisjoint(_WORD.findall(text)):
        return True
    if "\\" in text:
        if _WORD_ESCAPE.search(text):
            return True
        if not keys.isdisjoint(_WORD.findall(_CONTINUATION.sub("", text))):
            return True
    return not text.isascii() and not keys.isdisjoint(_WORD.findall(unicodedata.normalize("NFKC", text)))


def _bodies(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists inside `stmt`, in source order."""
    for field in stmt._fields:
        value = getattr(stmt, field)
        if field in ("body", "orelse", "finalbody"):
            yield value
        elif field in ("handlers", "cases"):
            for part in value:
                yield part.body


class _Unnumbered(Exception):
    """A statement starts after a backslash-newline: which line it starts, ast does not say."""


class _Numbering:
    """The statements the pass meets, in its order: (the ast statements of each, how many statements it holds)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0, *(match.end() for match in _LINE_END.finditer(source)), len(source)]
        self.found: list[tuple[list[ast.stmt], int]] = []

    def line(self, number: int) -> str:
        return self.source[self.starts[number - 1] : self.starts[number]]

    def starts_line(self, stmt: ast.stmt) -> bool:
        line = self.line(stmt.lineno)
        before = line[: stmt.col_offset] if line.isascii() else line.encode("utf-8")[: stmt.col_offset].decode()
        if before and not before.isspace():
            return False  # after a `;`, or in a one-line suite
        if stmt.lineno > 1 and self.line(stmt.lineno - 1).rstrip("\r\n").endswith("\\"):
            raise _Unnumbered
        return True

    def number(self, stmts: Sequence[ast.stmt]) -> None:
        groups: list[list[ast.stmt]] = []
        for stmt in stmts:
            if self.starts_line(stmt):
                groups.append([stmt])
            elif groups:
                groups[-1].append(stmt)
            # else: the statements of a one-line suite, part of the compound statement's own line
        for group in groups:
            index = len(self.found)
            self.found.append((group, 0))
            for stmt in group:
                for body in _bodies(stmt):
                    self.number(body)
            self.found[index] = (group, len(self.found) - index)

    def text(self, group: list[ast.stmt]) -> str:
        first = min([group[0].lineno, *(d.lineno for d in getattr(group[0], "decorator_list", ()))])
        last = max(cast(int, stmt.end_lineno) for stmt in group)  # (set on every parsed statement)
        return self.source[self.starts[first - 1] : self.starts[last]]


def quiet_statements(
    rules: Sequence["Rule"], table: "NameTable", tree: ast.Module, source: str
) -> tuple[dict[int, int], int]:
    """({number of a quiet statement: how many statements it holds, itself included}, how many
    statements the pass meets), numbered in the pass's order. Nothing is quiet when a rule names no
    words, after `from tensorflow import *` (any bare name may be TensorFlow's) or when a statement
    starts after a backslash-newline."""
    words = [type(rule).WORDS for rule in rules]
    if any(w is None for w in words) or table.star:
        return {}, 0
    roots: frozenset[str] = frozenset().union(*(type(rule).ROOTS for rule in rules))
    keys: frozenset[str] = frozenset().union(*cast("list[frozenset[str]]", words), table.watched_names(roots))
    numbering = _Numbering(source)
    try:
        numbering.number(tree.body)
    except _Unnumbered:
        return {}, 0
    quiet: dict[int, int] = {}
    index = 0
    while index < len(numbering.found):
        group, size = numbering.found[index]
        if mentions(numbering.text(group), keys):
            index += 1  # visited: its own statements are decided in turn
        else:
            quiet[index] = size
            index += size
    return quiet, len(numbering.found)

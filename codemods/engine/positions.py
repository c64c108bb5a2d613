"""Line:col of report entries: from Python's `ast` where a node's source text identifies it, else libcst's.

libcst computes positions by generating code with bookkeeping for every node (PositionProvider).
On a TF1 file, where nearly every statement gets an entry, that cost a quarter of a migration.
Most entries are on names, attributes, calls, imports and assignments, which the `ast` the engine
parsed anyway holds with positions: a reported node is found as the ast node of the same kind
with the same source text in the same top-level statement. When a text repeats there, every
occurrence must be reported, each with the same entries (so which gets which position does not
matter). The other entries of the statement are positioned by generating its code, alone, up to
their last node, noting where PositionProvider would start each (_Locating), offset to its line.
tests/codemods/test_positions.py checks the result against libcst's positions of whole modules.
"""

import ast
import collections
import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata.position_provider import NEWLINE_RE

if TYPE_CHECKING:
    from codemods._report import Entry

# (a reported libcst node, one of its entries)
_Item = tuple[cst.CSTNode, "Entry"]
# (ast kind, source text) -> the (line, col) of each such node
_Spots = dict[tuple[type[ast.AST], str], list[tuple[int, int]]]

# libcst node -> the ast node with the same extent
_KINDS: dict[type[cst.CSTNode], type[ast.AST]] = {
    cst.Name: ast.Name,
    cst.Attribute: ast.Attribute,
    cst.Call: ast.Call,
    cst.Import: ast.Import,
    cst.ImportFrom: ast.ImportFrom,
    cst.Assign: ast.Assign,
}
_EMPTY = cst.Module(body=[])


def _groups(tree: ast.Module) -> list[list[ast.stmt]]:
    """The ast statements of each libcst top-level statement (`a; b` on one line is one)."""
    groups: list[list[ast.stmt]] = []
    end = 0
    for stmt in tree.body:
        # like libcst's positions, `lineno` of a decorated def/class is its `def`/`class` line
        if stmt.lineno > end or not groups:
            groups.append([])
        groups[-1].append(stmt)
        end = cast(int, stmt.end_lineno)  # (set on every parsed statement)
    return groups


def _source_text(node: cst.CSTNode) -> str:
    """The node's own source, without the parentheses around it or a statement's semicolon."""
    if getattr(node, "lpar", None) or getattr(node, "rpar", None):
        node = node.with_changes(lpar=(), rpar=())
    text = _EMPTY.code_for_node(node)
    return text.rstrip().rstrip(";").rstrip() if isinstance(node, cst.BaseSmallStatement) else text


class _Source:
    """The file's lines as UTF-8 bytes: ast offsets count bytes, entries count characters.

    Lines end where Python's tokenizer ends them (`\n`, `\r\n` or a lone `\r`: bytes.splitlines
    splits on exactly these) and keep their endings, so a segment is the source text itself.
    """

    def __init__(self, text: str) -> None:
        self.lines = text.encode("utf-8").splitlines(keepends=True)

    def segment(self, node: Any) -> str:  # an ast node with a position (a stmt or an expr)
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return self.lines[first][node.col_offset : node.end_col_offset].decode("utf-8")
        parts = [
            self.lines[first][node.col_offset :],
            *self.lines[first + 1 : last],
            self.lines[last][: node.end_col_offset],
        ]
        return b"".join(parts).decode("utf-8")

    def start(self, node: Any) -> tuple[int, int]:
        return node.lineno, len(self.lines[node.lineno - 1][: node.col_offset].decode("utf-8")) + 1


def _occurrences(stmts: list[ast.stmt], source: _Source, kinds: set[type[ast.AST]]) -> tuple[_Spots, list[str]]:
    """({(ast kind, source text): [(line, col), ...]} for the nodes of `kinds` under `stmts`, the
    source of the f-strings there, whose nodes are not counted)."""
    found: _Spots = collections.defaultdict(list)
    fstrings: list[str] = []
    stack: list[ast.AST] = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.JoinedStr):
            fstrings.append(source.segment(node))  # before Python 3.12, positions inside are not reliable
            continue
        if type(node) in kinds:
            found[(type(node), source.segment(node))].append(source.start(node))
        stack.extend(ast.iter_child_nodes(node))
    return found, fstrings


def _from_ast(items: list[_Item], stmts: list[ast.stmt], source: _Source) -> list[_Item]:
    """Set the entries' line:col from the ast where their node's text identifies it; return the
    items (node, entry) left unplaced."""
    # (ast kind, text) -> {node: its entries}
    wanted: collections.defaultdict[tuple[type[ast.AST], str], dict[cst.CSTNode, list[Entry]]]
    wanted = collections.defaultdict(dict)
    left = []
    for node, entry in items:
        kind = _KINDS.get(type(node))
        if kind is None:
            left.append((node, entry))
        else:
            wanted[(kind, _source_text(node))].setdefault(node, []).append(entry)
    found, fstrings = _occurrences(stmts, source, {kind for kind, _ in wanted}) if wanted else ({}, [])
    for key, nodes in wanted.items():
        spots = found.get(key, ())
        # which of the nodes gets which spot does not matter when each has the same entries
        same = {
            tuple((e.rule, e.message, e.severity, e.manual, e.level) for e in entries) for entries in nodes.values()
        }
        # (an occurrence in an f-string is not among the spots, and may be the one reported)
        if len(spots) != len(nodes) or len(same) > 1 or any(key[1] in text for text in fstrings):
            left.extend((node, entry) for node, entries in nodes.items() for entry in entries)
            continue
        for entries, (line, col) in zip(nodes.values(), sorted(spots)):
            for entry in entries:
                entry.line, entry.col = line, col
    return left


class _AllFound(Exception):
    pass


class _Locating(CodegenState):
    """libcst's code generation noting the start PositionProvider gives each wanted node (its syntactic
    start, else where its code begins), and stopping once it has them all. PositionProvider itself
    records a range for every node and splits every token: several times the cost of generating
    the code."""

    def __init__(self, module: cst.Module, wanted: Iterable[cst.CSTNode]) -> None:
        super().__init__(default_indent=module.default_indent, default_newline=module.default_newline)
        self.wanted = dict.fromkeys(wanted, True)  # node -> is it reported (else a start_node it needs)
        self.left = len(self.wanted)
        self.starts: dict = {}  # where their code begins
        self.found: dict = {}  # their start as PositionProvider gives it
        self.line, self.column, self._seen = 1, 0, 0

    def _here(self) -> tuple[int, int]:
        """(line, column) where the next token goes, counted as PositionProvider counts them."""
        for token in self.tokens[self._seen :]:
            if "\n" in token or "\r" in token:
                segments = NEWLINE_RE.split(token)
                self.line += len(segments) - 1
                self.column = len(segments[-1])
            else:
                self.column += len(token)
        self._seen = len(self.tokens)
        return self.line, self.column

    def _found(self, node: cst.CSTNode, start: tuple[int, int]) -> None:
        self.found[node] = start
        if self.wanted[node]:
            self.left -= 1
            if not self.left:
                raise _AllFound

    def before_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted:
            self.starts[node] = self._here()

    # libcst's nodes record their syntactic position once at most, so it is final when recorded
    @contextlib.contextmanager
    def record_syntactic_position(
        self, node: cst.CSTNode, *, start_node: cst.CSTNode | None = None, end_node: cst.CSTNode | None = None
    ) -> Iterator[None]:
        if node not in self.wanted:
            yield
        elif start_node is None:
            self._found(node, self._here())
            yield
        else:
            self.wanted.setdefault(start_node, False)  # its start is this node's
            yield
            self._found(node, self.found[start_node])

    def after_codegen(self, node: cst.CSTNode) -> None:
        if node in self.wanted and node not in self.found:
            self._found(node, self.starts[node])


def _from_codegen(items: list[_Item], module: cst.Module, stmt: cst.CSTNode, first_line: int) -> None:
    """Generate the code of the top-level statement `stmt` (with `module`'s indentation and newline)
    until every node of `items` has its start, as libcst's PositionProvider would give it, offset
    to the statement's first line."""
    state = _Locating(module, {stmt, *(node for node, _ in items)})
    try:
        module.with_changes(header=(), body=[stmt], footer=())._codegen(state)
    except _AllFound:
        pass
    offset = first_line - state.found[stmt][0]
    for node, entry in items:
        line, column = state.found[node]
        entry.line, entry.col = line + offset, column + 1


def positioned(
    module: cst.Module, tree: ast.Module, source: str, reports: Sequence[tuple[int, cst.CSTNode, "Entry"]]
) -> list["Entry"]:
    """The entries of `reports` ((top-level statement index, node, entry)), with line:col, in source order.

    `module` is the libcst tree and `tree` the ast of `source`.
    """
    if not reports:
        return []
    groups = _groups(tree)
    text = _Source(source)
    by_statement = collections.defaultdict(list)
    for top, node, entry in reports:
        by_statement[top].append((node, entry))
    for top, items in by_statement.items():
        left = _from_ast(items, groups[top], text)
        if left:
            _from_codegen(left, module, module.body[top], groups[top][0].lineno)
    entries = [entry for _, _, entry in reports]
    return sorted(entries, key=lambda e: (e.line, e.col))

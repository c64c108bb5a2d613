"""Line:col of report entries: from Python's `ast` where a node's source text identifies it, else libcst's.

libcst computes positions by generating code with bookkeeping for every node (PositionProvider).
On a TF1 file, where nearly every statement gets an entry, that cost a quarter of a migration.
Most entries are on names, attributes, calls, imports and assignments, which the `ast` the engine
parsed anyway holds with positions: a reported node is found as the ast node of the same kind
with the same source text in the same top-level statement. When a text repeats there, every
occurrence must be reported with equal entries (so which gets which position does not matter);
a statement with anything else is positioned by libcst, alone, and offset to its line.
tests/codemods/test_positions.py checks the result against libcst's positions of whole modules.
"""

import ast
import collections

import libcst as cst
from libcst.metadata import PositionProvider

# libcst node -> the ast node with the same extent
_KINDS = {
    cst.Name: ast.Name,
    cst.Attribute: ast.Attribute,
    cst.Call: ast.Call,
    cst.Import: ast.Import,
    cst.ImportFrom: ast.ImportFrom,
    cst.Assign: ast.Assign,
}
_EMPTY = cst.Module(body=[])


def _groups(tree):
    """The ast statements of each libcst top-level statement (`a; b` on one line is one)."""
    groups, end = [], 0
    for stmt in tree.body:
        # like libcst's positions, `lineno` of a decorated def/class is its `def`/`class` line
        if stmt.lineno > end or not groups:
            groups.append([])
        groups[-1].append(stmt)
        end = stmt.end_lineno
    return groups


def _source_text(node):
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

    def __init__(self, text):
        self.lines = text.encode("utf-8").splitlines(keepends=True)

    def segment(self, node):
        first, last = node.lineno - 1, node.end_lineno - 1
        if first == last:
            return self.lines[first][node.col_offset : node.end_col_offset].decode("utf-8")
        parts = [
            self.lines[first][node.col_offset :],
            *self.lines[first + 1 : last],
            self.lines[last][: node.end_col_offset],
        ]
        return b"".join(parts).decode("utf-8")

    def start(self, node):
        return node.lineno, len(self.lines[node.lineno - 1][: node.col_offset].decode("utf-8")) + 1


def _occurrences(stmts, source, kinds):
    """{(ast kind, source text): [(line, col), ...]} for the nodes of `kinds` under `stmts`."""
    found = collections.defaultdict(list)
    stack = list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.JoinedStr):
            continue  # before Python 3.12, positions inside f-strings are not reliable
        if type(node) in kinds:
            found[(type(node), source.segment(node))].append(source.start(node))
        stack.extend(ast.iter_child_nodes(node))
    return found


def _from_ast(items, stmts, source):
    """Set the entries' line:col from the ast; False (nothing set) when a node cannot be identified."""
    wanted = collections.defaultdict(list)
    for node, entry in items:
        kind = _KINDS.get(type(node))
        if kind is None:
            return False
        wanted[(kind, _source_text(node))].append(entry)
    found = _occurrences(stmts, source, {kind for kind, _ in wanted})
    for key, entries in wanted.items():
        spots = found.get(key, ())
        same = {(e.rule, e.message, e.severity, e.manual, e.level) for e in entries}
        if len(spots) != len(entries) or len(same) > 1:
            return False
    for key, entries in wanted.items():
        for entry, (line, col) in zip(entries, sorted(found[key])):
            entry.line, entry.col = line, col
    return True


def _from_libcst(items, stmt, first_line):
    """libcst's PositionProvider on one statement, offset to its line. Run directly: through
    MetadataWrapper.resolve the resolver also walks the tree for batchable providers, even when
    there are none (twice the cost)."""
    provider = PositionProvider()
    provider._gen_impl(cst.Module(body=[stmt]))
    positions = provider._computed
    offset = first_line - positions[stmt].start.line
    for node, entry in items:
        where = positions.get(node)
        if where is not None:
            entry.line, entry.col = where.start.line + offset, where.start.column + 1


def positioned(module, tree, source, reports):
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
        if not _from_ast(items, groups[top], text):
            _from_libcst(items, module.body[top], groups[top][0].lineno)
    entries = [entry for _, _, entry in reports]
    return sorted(entries, key=lambda e: (e.line, e.col))

"""One pass over a module applying every active rule, then the scheduled import edits once."""

import ast
import collections
import dataclasses
import functools

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import PositionProvider

from codemods import _imports, _names
from codemods._rule import Claims, FastInit, FileState, Rule


class _AddImports(FastInit, AddImportsVisitor):
    pass


class _RemoveImports(FastInit, RemoveImportsVisitor):
    pass


class _Dispatcher(cst.CSTTransformer):
    """Calls each rule's own visit_<Node>/leave_<Node> methods, in registry order."""

    def __init__(self, rules, state):
        super().__init__()
        self._state, self._depth = state, 0
        self._visit = collections.defaultdict(list)
        self._leave = collections.defaultdict(list)
        for rule in rules:
            for name in _own_methods(type(rule)):
                kind, _, node_type = name.partition("_")
                if kind in ("visit", "leave") and node_type and "_" not in node_type:
                    getattr(self, "_" + kind)[node_type].append(getattr(rule, name))

    def on_visit(self, node):
        if self._depth == 1 and isinstance(node, cst.BaseStatement):
            self._state.top += 1  # entering the next top-level statement (for report positions)
        self._depth += 1
        for method in self._visit.get(type(node).__name__, ()):
            method(node)
        return True

    # Rules have no visit_<Node>_<field> methods: skip libcst's per-field lookups (a third of a pass).
    def on_visit_attribute(self, node, attribute):
        pass

    def on_leave_attribute(self, original_node, attribute):
        pass

    def on_leave(self, original_node, updated_node):
        self._depth -= 1
        for method in self._leave.get(type(original_node).__name__, ()):
            updated_node = method(original_node, updated_node)
            if type(updated_node) is not type(original_node):
                break  # removed, flattened or replaced: later rules would not recognise it
        return updated_node


def _own_methods(cls):
    names = set()
    for klass in cls.__mro__:
        if klass is Rule:
            break
        names.update(klass.__dict__)
    return sorted(names)


@dataclasses.dataclass
class Applied:
    module: cst.Module
    entries: list


@functools.lru_cache(maxsize=None)
def claims_of(rules):
    """The Claims of a tuple of rule classes (the same few tuples for every file of a run)."""
    return Claims(prefix for rule in rules for prefix in rule.CLAIMS)


def apply_rules(module, rules, table=None, claims=None, tree=None):
    """Run `rules` (sharing one CodemodContext) over `module`; return the new module and the entries.

    `tree` is the module's `ast`, which the engine parsed already (else it is parsed here).
    """
    if tree is None:
        tree = ast.parse(module.code)
    if table is None:
        table = _names.scan([tree])
    if claims is None:
        from codemods.rules import RULES  # standalone rule: assume the full rule set claims its names

        claims = claims_of(RULES)
    state = FileState(names=_names.resolver(module, table), table=table, claims=claims)
    for rule in rules:
        rule.begin_file(state)
    new = module.visit(_Dispatcher(rules, state))
    context = rules[0].context
    new = _imports.add_plain_imports(new, context)
    for visitor in (_AddImports, _RemoveImports):
        if context.scratch.get(visitor.CONTEXT_KEY):
            new = visitor(context).transform_module(new)
    return Applied(new, _positioned(module, tree, state.reports))


def _statement_lines(tree):
    """First line of each top-level statement as libcst groups them (`a; b` is one line)."""
    lines, end = [], 0
    for stmt in tree.body:
        # like libcst's positions, `lineno` of a decorated def/class is its `def`/`class` line
        if stmt.lineno > end or not lines:
            lines.append(stmt.lineno)
        end = stmt.end_lineno
    return lines


def _positions(stmt):
    """libcst's PositionProvider run on one statement directly. Through MetadataWrapper.resolve it
    costs twice as much: the resolver also walks the tree for batchable providers, even when there
    are none. (tests/codemods/test_positions.py checks the result against the wrapper's.)"""
    provider = PositionProvider()
    provider._gen_impl(cst.Module(body=[stmt]))
    return provider._computed


def _positioned(module, tree, reports):
    """Give entries line:col. PositionProvider on the whole module costs about a code generation
    pass; instead each reported top-level statement is positioned alone and offset by the line
    Python's parser gives it."""
    if not reports:
        return []
    starts = _statement_lines(tree)
    by_statement = collections.defaultdict(list)
    for top, node, entry in reports:
        by_statement[top].append((node, entry))
    for top, items in by_statement.items():
        stmt = module.body[top]
        positions = _positions(stmt)
        offset = starts[top] - positions[stmt].start.line
        for node, entry in items:
            where = positions.get(node)
            if where is not None:
                entry.line, entry.col = where.start.line + offset, where.start.column + 1
    entries = [entry for _, _, entry in reports]
    return sorted(entries, key=lambda e: (e.line, e.col))

"""One pass over a module applying every active rule, then the scheduled import edits once."""

import ast
import collections
import dataclasses

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.metadata import MetadataWrapper, PositionProvider

from codemods import _imports, _names
from codemods._rule import FastInit, FileState, Rule


class _AddImports(FastInit, AddImportsVisitor):
    pass


class _RemoveImports(FastInit, RemoveImportsVisitor):
    pass


class _Dispatcher(cst.CSTTransformer):
    """Calls each rule's own visit_<Node>/leave_<Node> methods, in registry order."""

    def __init__(self, rules):
        super().__init__()
        self._visit = collections.defaultdict(list)
        self._leave = collections.defaultdict(list)
        for rule in rules:
            for name in _own_methods(type(rule)):
                kind, _, node_type = name.partition("_")
                if kind in ("visit", "leave") and node_type and "_" not in node_type:
                    getattr(self, "_" + kind)[node_type].append(getattr(rule, name))

    def on_visit(self, node):
        for method in self._visit.get(type(node).__name__, ()):
            method(node)
        return True

    def on_leave(self, original_node, updated_node):
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


def claims_of(rules):
    return tuple(prefix for rule in rules for prefix in rule.CLAIMS)


def apply_rules(module, rules, table=None, claims=None):
    """Run `rules` (sharing one CodemodContext) over `module`; return the new module and the entries."""
    if table is None:
        table = _names.scan([ast.parse(module.code)])
    if claims is None:
        from codemods.rules import RULES  # standalone rule: assume the full rule set claims its names

        claims = claims_of(RULES)
    state = FileState(names=_names.resolver(module, table), table=table, claims=claims)
    for rule in rules:
        rule.begin_file(state)
    new = module.visit(_Dispatcher(rules))
    context = rules[0].context
    new = _imports.add_plain_imports(new, context)
    for visitor in (_AddImports, _RemoveImports):
        if context.scratch.get(visitor.CONTEXT_KEY):
            new = visitor(context).transform_module(new)
    return Applied(new, _positioned(module, state.reports))


def _positioned(module, reports):
    if not reports:
        return []
    # Positions cost a code-generation pass: only files with something to report pay for it.
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    entries = []
    for node, entry in reports:
        where = positions.get(node)
        if where is not None:
            entry.line, entry.col = where.start.line, where.start.column + 1
        entries.append(entry)
    return sorted(entries, key=lambda e: (e.line, e.col))

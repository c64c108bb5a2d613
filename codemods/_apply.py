"""One pass over a module applying every active rule, then the scheduled import edits once."""

import ast
import collections
import dataclasses
import functools
from collections.abc import Sequence

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from codemods import _imports, _names, _positions
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
def claims_of(rules: tuple[type[Rule], ...]) -> Claims:
    """The Claims of a tuple of rule classes (the same few tuples for every file of a run)."""
    return Claims(prefix for rule in rules for prefix in rule.CLAIMS)


def apply_rules(
    module: cst.Module,
    rules: Sequence[Rule],
    claims: Claims,
    table: _names.NameTable | None = None,
    tree: ast.Module | None = None,
    source: str | None = None,
) -> Applied:
    """Run `rules` (sharing one CodemodContext) over `module`; return the new module and the entries.

    `claims` are the qualified-name prefixes the whole active rule set rewrites (`claims_of`): the
    catch-all rules leave those names to their owners, so a rule run alone says which it assumes.
    `source` is the module's text and `tree` its `ast`, which the engine has already (else both
    are made here); `table` is the module's NameTable (else scanned from `tree`).
    """
    if source is None:
        source = module.code
    if tree is None:
        tree = ast.parse(source)
    if table is None:
        table = _names.scan([tree])
    state = FileState(names=_names.resolver(module, table), table=table, claims=claims)
    for rule in rules:
        rule.begin_file(state)
    new = module.visit(_Dispatcher(rules, state))
    context = rules[0].context
    new = _imports.add_plain_imports(new, context, needs_compat=state.needs_compat)
    for visitor in (_AddImports, _RemoveImports):
        if context.scratch.get(visitor.CONTEXT_KEY):
            new = visitor(context).transform_module(new)
    return Applied(new, _positions.positioned(module, tree, source, state.reports))

"""One pass over a module applying every active rule, then the scheduled import edits once."""

import ast
import collections
import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import libcst as cst
from libcst.codemod import Codemod, CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from codemods._report import Entry
from codemods.engine import imports as _imports
from codemods.engine import names as _names
from codemods.engine import node_types as _node_types
from codemods.engine import positions as _positions
from codemods.engine import quiet as _quiet
from codemods.engine import tree as _tree
from codemods.engine.rule import Claims, FileState, Rule

# libcst's statement nodes: the pass numbers them as it meets them (codemods/engine/quiet.py)
_STATEMENTS = frozenset(
    {cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With, cst.Try}
    | {cst.TryStar, cst.Match}
)


class _Dispatcher(cst.CSTTransformer):
    """Calls each rule's own visit_<Node>/leave_<Node> methods, in ORDER; skips the quiet statements."""

    def __init__(self, rules: Sequence[Rule], state: FileState, quiet: Mapping[int, int] | None = None) -> None:
        super().__init__()
        self._state, self._depth, self._quiet = state, 0, quiet or {}
        self.statements = 0  # the statements met (numbered as codemods/engine/quiet.py numbers them)
        self._skipped: cst.CSTNode | None = None
        self._visit: collections.defaultdict[type, list[Callable[..., object]]] = collections.defaultdict(list)
        self._leave: collections.defaultdict[type, list[Callable[..., object]]] = collections.defaultdict(list)
        self._native: set[Callable[..., object]] = set()  # the native rules' leave_ methods
        self.native = False  # a native rule's leave_ method replaced a node: --level native converted something
        for rule in rules:
            for name in _own_methods(type(rule)):
                kind, _, node_type = name.partition("_")
                if kind in ("visit", "leave") and node_type and "_" not in node_type:
                    method = getattr(rule, name)
                    getattr(self, "_" + kind)[getattr(cst, node_type)].append(method)
                    if kind == "leave" and rule.LEVEL == "native":
                        self._native.add(method)
        # the pass does not descend into these: they hold no node a rule handles
        self._leaves = _node_types.holding_none_of(frozenset(self._visit) | frozenset(self._leave))

    def on_visit(self, node: cst.CSTNode) -> bool:
        if type(node) in _STATEMENTS:
            if self._depth == 1:
                self._state.top += 1  # entering the next top-level statement (for report positions)
            size = self._quiet.get(self.statements)
            if size is not None:
                self.statements += size
                self._skipped = node
                return False  # no rule sees any of it (libcst still calls on_leave)
            self.statements += 1
        self._depth += 1
        for method in self._visit.get(type(node), ()):
            method(node)
        return type(node) not in self._leaves  # (libcst still calls on_leave)

    # Rules have no visit_<Node>_<field> methods: skip libcst's per-field lookups (a third of a pass).
    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass

    # (libcst's signature is generic; a rule may return a sentinel)
    def on_leave(self, original_node: cst.CSTNode, updated_node: Any) -> Any:
        if original_node is self._skipped:
            return updated_node
        self._depth -= 1
        for method in self._leave.get(type(original_node), ()):
            result = method(original_node, updated_node)
            if result is not updated_node and method in self._native:
                self.native = True
            updated_node = result
            if type(updated_node) is not type(original_node):
                break  # removed, flattened or replaced: later rules would not recognise it
        return updated_node


def _own_methods(cls: type[Rule]) -> list[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is Rule:
            break
        names.update(klass.__dict__)
    return sorted(names)


@dataclasses.dataclass
class Applied:
    module: cst.Module
    entries: list[Entry]
    signals: frozenset[str] = frozenset()  # what the rules told the tree pass (codemods/engine/tree.py)
    native: bool = False  # a native rule replaced a node (what `--level native` converted, codemods/_tf2_code.py)


@functools.cache
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
    remove_imports: Callable[[cst.Module, CodemodContext], cst.Module] = _imports.remove_unused_imports,
    context: CodemodContext | None = None,
    tree_context: _tree.Context | None = None,
) -> Applied:
    """Run `rules` over `module` in one pass; return the new module and the entries.

    `claims` are the qualified-name prefixes the whole active rule set rewrites (`claims_of`): the
    catch-all rules leave those names to their owners, so a rule run alone says which it assumes.
    `source` is the module's text and `tree` its `ast`, which the engine has already (else both
    are made here); `table` is the module's NameTable (else scanned from `tree`). `remove_imports`
    drops the imports the rules scheduled for removal (tests compare it with libcst's visitor).
    `context` receives the imports the rules schedule (a new one if None). `tree_context` is what
    the rest of the tree tells this module (None: migrated alone; codemods/engine/tree.py).
    """
    if source is None:
        source = module.code
    if tree is None:
        tree = ast.parse(source)
    if table is None:
        table = _names.scan([tree])
    quiet, statements = _quiet.quiet_statements(rules, table, tree, source)
    names = _names.resolver(module, table)
    context = CodemodContext() if context is None else context
    state = FileState(
        names=names, table=table, source=source, syntax=tree, claims=claims, context=context, tree=tree_context
    )
    for rule in rules:
        rule.begin_file(state)
    dispatcher = _Dispatcher(rules, state, quiet)
    new = module.visit(dispatcher)
    if quiet and dispatcher.statements != statements:
        # libcst's statements did not line up with the ast's: the pass again, every statement visited
        for key in (AddImportsVisitor.CONTEXT_KEY, RemoveImportsVisitor.CONTEXT_KEY):
            context.scratch.pop(key, None)
        state = FileState(
            names=names, table=table, source=source, syntax=tree, claims=claims, context=context, tree=tree_context
        )
        for rule in rules:
            rule.begin_file(state)
        dispatcher = _Dispatcher(rules, state)
        new = module.visit(dispatcher)
    new = _imports.add_plain_imports(new, context, needs_compat=state.needs_compat)
    new = _imports.add_other_imports(new, context)
    new = remove_imports(new, context)
    entries = _positions.positioned(module, tree, source, state.reports)
    return Applied(new, entries, frozenset(state.signals), dispatcher.native)


def as_codemod(rule: type[Rule], assuming: Iterable[type[Rule]] = ()) -> type[Codemod]:
    """`rule` as a libcst Codemod class (for libcst's CodemodTest and codemod tooling): its
    transform_module runs the engine with that one rule, and the claims of `rule` and of the
    rules it is `assuming` active (the names a rule leaves to others depend on which others run).

    The class takes (context, level="safe"); each report entry is also a libcst warning on the
    context, as `line:col severity: message`.
    """
    claims = claims_of(tuple(dict.fromkeys((rule, *assuming))))

    class RuleCodemod(Codemod):
        DESCRIPTION = rule.DESCRIPTION

        def __init__(self, context: CodemodContext, level: str = "safe") -> None:
            super().__init__(context)
            self.rule = rule(level)
            self.entries: list[Entry] = []

        def transform_module_impl(self, tree: cst.Module) -> cst.Module:
            applied = apply_rules(tree, [self.rule], claims, context=self.context)
            self.entries = applied.entries
            for entry in applied.entries:
                self.warn(f"{entry.line}:{entry.col} {entry.severity}: {entry.message}")
            return applied.module

    RuleCodemod.__name__ = RuleCodemod.__qualname__ = f"{rule.__name__}Codemod"
    return RuleCodemod

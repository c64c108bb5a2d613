"""Which names in a module are TensorFlow (or the platform SDK), without paying for scope analysis.

libcst's QualifiedNameProvider answers this exactly but costs several times a parse (measured in docs/traps.md).
Most scripts bind `tf` (and the like) once, by an import, and never re-bind it: then a per-module
table {bound name -> imported qualified name} built from Python's C parser gives the same answer.
Only when a watched name is also bound by something else (a parameter, an assignment, a second
import ...) does the file get the full providers, where that binding's scope decides.
"""

import ast
import collections
import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import cast

import libcst as cst
from libcst.helpers import get_full_name_for_node
from libcst.metadata import MetadataWrapper, QualifiedNameProvider

from codemods.engine import positions as _positions
from codemods.engine.syntax import head, head_name

# Imports from these packages make a name "watched": re-binding it elsewhere needs real scopes.
WATCHED_ROOTS = frozenset({"tensorflow", "uaitrain"})


@dataclasses.dataclass(frozen=True)
class NameTable:
    imports: dict[str, str]  # name bound only by one import -> its qualified name
    bound: frozenset[str]  # every name bound anywhere (for picking a free alias)
    rebound: frozenset[str]  # watched names bound by something besides their one import
    # names bound once, at module level, to an imported name (`import a.b as x`, `x = tf.app.flags`)
    toplevel: dict[str, str] = dataclasses.field(default_factory=dict)
    # re-bound watched names: their module-level bindings in order, ((top-level statement, qualified name
    # or None for something else or `del`), ...), and the top-level statements that are defs or classes
    flow: dict[str, tuple[tuple[int, str | None], ...]] = dataclasses.field(default_factory=dict)
    defs: frozenset[int] = frozenset()
    # `from <TensorFlow or platform module> import *` somewhere: it binds names no table lists
    star: bool = False
    # every name bound by an import -> the qualified names its imports give it (however many)
    imported: dict[str, frozenset[str]] = dataclasses.field(default_factory=dict)

    def watched_names(self, roots: AbstractSet[str] = frozenset()) -> frozenset[str]:
        """The names bound to TensorFlow, the platform SDK or a package of `roots` anywhere in the
        module (by an import, a module-level alias, or among other bindings)."""
        roots = WATCHED_ROOTS | roots
        names = {n for n, qs in self.imported.items() if any(q.split(".")[0] in roots for q in qs)}
        names.update(n for n, q in self.toplevel.items() if q.split(".")[0] in roots)
        return frozenset(names) | self.rebound

    @property
    def needs_scope(self) -> bool:
        return bool(self.rebound)

    def ends_tensorflow(self, name: str, top: int) -> bool:
        """Does top-level statement `top` re-bind `name` from a TensorFlow module to something else?"""
        previous = None
        for at, qualified in self.flow.get(name, ()):
            if at == top:
                return _is_watched(previous) and not _is_watched(qualified)
            previous = qualified
        return False


def bindings(tree: ast.AST) -> Iterator[tuple[str, str | None]]:
    """Yield (name, qualified name or None) for every binding in an `ast` tree."""
    return bindings_among(ast.walk(tree))


def bindings_among(nodes: Iterable[ast.AST]) -> Iterator[tuple[str, str | None]]:
    """Yield (name, qualified name or None) for every binding that one of `nodes` itself makes."""
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    yield alias.asname, alias.name
                else:
                    head = alias.name.split(".")[0]
                    yield head, head
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if alias.name != "*":
                    yield alias.asname or alias.name, f"{module}.{alias.name}" if node.module else None
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            yield node.id, None
        elif isinstance(node, ast.arg):
            yield node.arg, None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, None
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield node.name, None
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            yield node.name, None
        elif isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest, None


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for an ast Name/Attribute chain, None for anything else (`f().b`)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr}" if head else None
    return None


def _toplevel(
    trees: Sequence[ast.Module],
    unique: dict[str, str],
    imported: dict[str, set[str]],
    other: collections.Counter[str],
) -> dict[str, str]:
    names: dict[str, str] = {}
    for tree in trees:
        for stmt in tree.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                names.update((n, unique[n]) for n in (a.asname or a.name for a in stmt.names) if n in unique)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                name, value = stmt.targets[0].id, dotted(stmt.value)
                head, _, rest = (value or "").partition(".")
                if head in unique and other[name] == 1 and name not in imported:
                    names[name] = f"{unique[head]}.{rest}" if rest else unique[head]
    return names


class _ModuleLevel(ast.NodeVisitor):
    """The bindings of `names` made by one top-level statement, in order (not inside defs, classes, lambdas)."""

    def __init__(self, names: AbstractSet[str], current: Mapping[str, str | None]) -> None:
        self.names, self.current = names, current
        self.found: list[tuple[str, str | None]] = []  # (name, what it is bound to; None: not TensorFlow)

    def _bind(self, name: str, qualified: str | None) -> None:
        if name in self.names:
            self.found.append((name, qualified))

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self._bind(node.name, None)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        pass

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            top = alias.name.split(".")[0]
            self._bind(alias.asname or top, alias.name if alias.asname else top)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if node.module and not node.level and alias.name != "*":
                self._bind(alias.asname or alias.name, f"{node.module}.{alias.name}")

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        first, _, rest = (dotted(node.value) or "").partition(".")
        # `tf = tf.compat.v1` keeps a TensorFlow binding; anything else (`__import__("numpy")`) ends it
        source = self.current.get(first)
        qualified = (f"{source}.{rest}" if rest else source) if source else None
        for target in node.targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):  # not `a[tf] = ...`
                    self._bind(name.id, qualified)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            self._bind(node.id, None)  # del, for/with targets, walrus ...


def _flow(
    trees: Sequence[ast.Module], names: frozenset[str]
) -> tuple[dict[str, tuple[tuple[int, str | None], ...]], frozenset[int]]:
    flow: dict[str, list[tuple[int, str | None]]] = {name: [] for name in names}
    defs: set[int] = set()
    current: dict[str, str | None] = {}
    for tree in trees:
        for top, group in enumerate(_positions._groups(tree)):
            for stmt in group:
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    defs.add(top)
                visitor = _ModuleLevel(names, current)
                visitor.visit(stmt)
                for name, qualified in visitor.found:
                    flow[name].append((top, qualified))
                    current[name] = qualified
    return {name: tuple(bindings) for name, bindings in flow.items()}, frozenset(defs)


def scan(trees: Sequence[ast.Module]) -> NameTable:
    """Build the NameTable of a module (or of all cells of a notebook) from `ast` trees."""
    imported: dict[str, set[str]] = {}
    other: collections.Counter[str] = collections.Counter()
    for tree in trees:
        for name, qualified in bindings(tree):
            if qualified is None:
                other[name] += 1
            else:
                imported.setdefault(name, set()).add(qualified)
    watched = {n for n, qs in imported.items() if any(q.split(".")[0] in WATCHED_ROOTS for q in qs)}
    rebound = frozenset(n for n in watched if len(imported[n]) > 1 or n in other)
    unique = {n: next(iter(qs)) for n, qs in imported.items() if len(qs) == 1 and n not in other}
    flow, defs = _flow(trees, rebound) if rebound and len(trees) == 1 else ({}, frozenset())
    return NameTable(
        imports=unique,
        bound=frozenset(imported) | frozenset(other),
        rebound=rebound,
        toplevel=_toplevel(trees, unique, imported, other),
        flow=flow,
        defs=defs,
        star=_star_import_watched(trees),
        imported={n: frozenset(qs) for n, qs in imported.items()},
    )


def _star_import_watched(trees: Sequence[ast.Module]) -> bool:
    """Does some statement `from <TensorFlow or platform module> import *`? (Statements only: walking
    every expression too cost 3% of a migration under cProfile.)"""
    stack = [stmt for tree in trees for stmt in tree.body]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ImportFrom):
            if node.module and not node.level and _is_watched(node.module) and any(a.name == "*" for a in node.names):
                return True
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(node, field, ()))
    return False


class TableNames:
    """Qualified names from the module's import table (exact when no watched name is re-bound).

    A name bound once, at module level, to a TensorFlow name (`K = tf.keras.backend`) and nowhere else is
    that name at the head of an attribute chain (`K.set_session`): Python would raise NameError before that
    binding, and nothing re-binds it. The name alone is not: the binding's own target is such a name, and a
    rule would take it for a use of what it is bound to."""

    def __init__(self, table: NameTable) -> None:
        self._imports = {**table.imports, **{n: q for n, q in table.toplevel.items() if _is_watched(q)}}
        # every rule asks about every name and attribute it visits: a name's answer per import, an
        # attribute's per node (keyed by id, the node kept in the value so that no other takes its id)
        self._of_import = {name: frozenset({target}) for name, target in table.imports.items()}
        self._memo: dict[int, tuple[cst.CSTNode, frozenset[str]]] = {}

    def qualified(self, node: cst.CSTNode, top: int = -1) -> frozenset[str]:
        kind = type(node)
        if kind is cst.Name:
            return self._of_import.get(cast(cst.Name, node).value, _NONE)
        if kind is not cst.Attribute:
            return _NONE
        entry = self._memo.get(id(node))
        if entry is None:
            entry = self._memo[id(node)] = (node, self._attribute(cast(cst.Attribute, node)))
        return entry[1]

    def _attribute(self, node: cst.Attribute) -> frozenset[str]:
        first = head(node)
        target = self._imports.get(first.value) if isinstance(first, cst.Name) else None
        if target is None:
            return _NONE  # the common case, decided without building the dotted name
        dotted_name = get_full_name_for_node(node)
        if dotted_name is None:
            return _NONE
        rest = dotted_name.partition(".")[2]
        return frozenset({f"{target}.{rest}" if rest else target})


_NONE: frozenset[str] = frozenset()


class ScopeNames:
    """Qualified names from libcst's scope analysis, for modules where a watched name is re-bound."""

    def __init__(self, module: cst.Module, table: NameTable) -> None:
        # The transform visits these very nodes, so no copy of the tree.
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self._names = wrapper.resolve(QualifiedNameProvider)
        # (asked with None too, for a node that is not a dotted name: no entry)
        self._flow = cast("Mapping[str | None, tuple[tuple[int, str | None], ...]]", table.flow)
        self._defs = table.defs

    def qualified(self, node: cst.CSTNode, top: int = -1) -> frozenset[str]:
        """The qualified names of `node`, which is in the top-level statement `top`.

        libcst's scopes are not flow-sensitive: after `tf = __import__("numpy")` a module-level
        `tf.log` still resolves to the earlier `import tensorflow as tf` too. Module-level code runs
        in order, so there the binding made last before the statement decides (in defs and classes,
        which run later, every binding still counts).
        """
        value = self._names.get(node, ())
        if callable(value):  # QualifiedNameProvider computes lazily (libcst LazyValue)
            value = value()
        names = frozenset(q.name for q in value)
        bindings = self._flow.get(head_name(node)) if names and top not in self._defs else None
        before = [qualified for at, qualified in bindings if at < top] if bindings else None
        if before:
            last, dotted = before[-1], get_full_name_for_node(node)
            if last is None or dotted is None:
                return frozenset()
            rest = dotted.partition(".")[2]
            return frozenset({f"{last}.{rest}" if rest else last})
        return names


def _is_watched(qualified: str | None) -> bool:
    return qualified is not None and qualified.split(".")[0] in WATCHED_ROOTS


def resolver(module: cst.Module, table: NameTable) -> TableNames | ScopeNames:
    return ScopeNames(module, table) if table.needs_scope else TableNames(table)

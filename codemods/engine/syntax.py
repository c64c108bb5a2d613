"""libcst helpers every rule family (and the engine's import placement) shares: one implementation each.

Dotted names and the head of an attribute chain; reporting a chain once, at its outermost name (or
at the inner name a rule rewrote);
knowing when a node is inside an import; docstrings, and the places in a module body where
added lines go (after the leading imports, after the statement binding a name).
"""

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeGuard, cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

if TYPE_CHECKING:
    # The mixins below come before `Rule` in a rule's bases: their super() is the Rule, whose
    # begin_file takes the engine's FileState (not imported here: codemods.engine.rule's types
    # import the modules that import this one).
    class _RuleMixin:
        def begin_file(self, state: Any) -> None: ...

else:
    _RuleMixin = object


def dotted(name: str) -> cst.Name | cst.Attribute:
    """`a.b.c` as a Name/Attribute expression (also a valid `ImportFrom.module`)."""
    head, *rest = name.split(".")
    node: cst.Name | cst.Attribute = cst.Name(head)
    for part in rest:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


def head(node: cst.CSTNode) -> cst.CSTNode:
    """The innermost value of an attribute chain: `tf` of `tf.train.Saver` (the node itself if no chain)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return node


def head_name(node: cst.CSTNode) -> str | None:
    """The name an attribute chain starts with (`tf` of `tf.a.b`), None when it starts with a call, a subscript ..."""
    first = head(node)
    return first.value if isinstance(first, cst.Name) else None


def renamed_keeping_local_names(
    aliases: Sequence[cst.ImportAlias], renames: Mapping[str, str], on_rename: Callable[[str], None]
) -> list[cst.ImportAlias]:
    """`aliases` with each name in `renames` imported under its new name but bound as before
    (`import cPickle` -> `import pickle as cPickle`), so the module's uses stay as written;
    `on_rename(old)` is called for each."""
    renamed: list[cst.ImportAlias] = []
    for alias in aliases:
        old = alias.evaluated_name
        if old in renames:
            on_rename(old)
            alias = alias.with_changes(
                name=cst.Name(renames[old]), asname=alias.asname or cst.AsName(name=cst.Name(old))
            )
        renamed.append(alias)
    return renamed


class InsideImport:
    """Mixin (before `Rule` in the bases): `self.in_import` is true inside an import statement.

    Names there are module paths being imported, not uses: rules rewriting uses skip them and
    handle the import itself. A subclass overriding one of these methods calls super() first.
    """

    _import_depth = 0

    @property
    def in_import(self) -> bool:
        return self._import_depth > 0

    def visit_Import(self, node: cst.Import) -> None:
        self._import_depth += 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth += 1

    # (typed as libcst's: a rule overriding these may return other statements, or none)
    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        self._import_depth -= 1
        return updated_node

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        self._import_depth -= 1
        return updated_node


class OutermostChain(_RuleMixin):
    """Mixin (before `Rule` in the bases): `self.outermost(node)` is false for an attribute chain that is
    the value of a longer one (`tf.estimator` in `tf.estimator.Estimator`), so a rule reports or
    rewrites a chain once, at its outermost name. A subclass overriding `visit_Attribute` or
    `begin_file` calls super().

    The rules built on it act on chains of names bound to TensorFlow only: no words of their own
    (codemods.engine.rule.Rule.WORDS); one that also acts on other words or packages declares them.
    """

    WORDS: ClassVar[frozenset[str] | None] = frozenset()

    def begin_file(self, state: Any) -> None:  # (the engine's FileState)
        super().begin_file(state)
        self._inner: set[int] = set()  # ids of the original nodes that are the value of a longer chain

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # visited outer first: the chain inside is marked before it is reached
        self._inner.add(id(node.value))

    def outermost(self, node: cst.Attribute) -> bool:
        return id(node) not in self._inner


# -- statements and where added lines go


class InnerDecides(_RuleMixin):
    """Mixin (before `Rule` in the bases), beside `OutermostChain`: a chain rewritten at an inner name
    (`tf.contrib.rnn` of `tf.contrib.rnn.LSTMCell`) is decided there, and its outer names are left as
    that rewrite wrote them (attributes are left inner first). A subclass overriding `begin_file` calls super().
    """

    def begin_file(self, state: Any) -> None:  # (the engine's FileState)
        super().begin_file(state)
        self._rewritten: set[int] = set()  # ids of the original chains rewritten, or around one that was

    def decided(self, original_node: cst.Attribute) -> bool:
        """True when an inner part of this chain was rewritten (and the chain is marked for the names around it)."""
        if id(original_node.value) in self._rewritten:
            self._rewritten.add(id(original_node))
            return True
        return False

    def rewritten(self, original_node: cst.Attribute) -> None:
        self._rewritten.add(id(original_node))


def is_docstring(stmt: cst.CSTNode) -> bool:
    """A statement that is only a string literal (the docstring, when it comes first in a body)."""
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and len(stmt.body) == 1
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def is_import_line(stmt: cst.BaseStatement) -> TypeGuard[cst.SimpleStatementLine]:
    return isinstance(stmt, cst.SimpleStatementLine) and all(
        isinstance(small, (cst.Import, cst.ImportFrom)) for small in stmt.body
    )


def after_docstring(body: Sequence[cst.CSTNode]) -> int:
    return 1 if body and is_docstring(body[0]) else 0


def after_imports(body: Sequence[cst.BaseStatement], start: int) -> int:
    """The index after the import lines that begin at `start`."""
    while start < len(body) and is_import_line(body[start]):
        start += 1
    return start


def _stdlib_only(stmt: cst.BaseStatement) -> bool:
    """An import line of `__future__` and standard-library modules only (none of which imports TensorFlow)."""
    if not is_import_line(stmt):
        return False
    for small in stmt.body:
        if isinstance(small, cst.ImportFrom):
            if small.relative or small.module is None:
                return False
            # (the name of a module imported from, and of one imported, is always a dotted name)
            modules = [cast(str, get_full_name_for_node(small.module))]
        else:
            imported = cast(cst.Import, small).names  # (an import line holds imports only)
            modules = [cast(str, get_full_name_for_node(alias.name)) for alias in imported]
        if any(m.split(".")[0] not in sys.stdlib_module_names and m != "__future__" for m in modules):
            return False
    return True


def before_third_party_imports(body: Sequence[cst.BaseStatement]) -> int:
    """Where an import that must run before TensorFlow loads goes: after the docstring and the leading
    `__future__` and standard-library imports, before the first import of anything else (a project
    module imported first may import TensorFlow itself)."""
    at = after_docstring(body)
    while at < len(body) and _stdlib_only(body[at]):
        at += 1
    return at


def after_leading_imports(body: Sequence[cst.BaseStatement]) -> int:
    """Where lines go that belong with the module's imports: after its docstring and leading import lines."""
    return after_imports(body, after_docstring(body))


class _Names(cst.CSTVisitor):
    """Whether a top-level statement binds `name` at module level, and whether it reads it."""

    def __init__(self, name: str) -> None:
        self.name, self.binds, self.reads = name, False, False

    def visit_FunctionDef(self, node: cst.FunctionDef | cst.ClassDef) -> bool:
        self.binds |= node.name.value == self.name
        self.reads |= _reads(node.body, self.name)  # may run before anything that follows
        return False

    visit_ClassDef = visit_FunctionDef

    def visit_ImportAlias(self, node: cst.ImportAlias) -> bool:
        self.binds |= (node.evaluated_alias or node.evaluated_name.split(".")[0]) == self.name
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        self.binds |= isinstance(node.target, cst.Name) and node.target.value == self.name
        return isinstance(node.target, cst.Name) is False  # `a[tf] = ...` reads it

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # the attribute's own name is no use of `name`
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.reads |= node.value == self.name


def _reads(node: cst.CSTNode, name: str) -> bool:
    found = _Names(name)
    node.visit(found)
    return found.reads


def after_binding(body: Sequence[cst.BaseStatement], name: str) -> int:
    """Where a top-level line using `name` goes: after the last statement binding it before the first
    statement that reads it (`tf = tf.compat.v1` counts as binding), and the import lines right after
    that one; never before the leading imports end (their end when nothing binds the name)."""
    at = after_leading_imports(body)
    for index, stmt in enumerate(body):
        found = _Names(name)
        stmt.visit(found)
        if found.binds:
            at = max(at, after_imports(body, index + 1))
        elif found.reads:
            break
    return at

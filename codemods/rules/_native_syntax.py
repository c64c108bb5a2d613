"""The libcst reading the native rules share: the names a node reads, binds and calls, a call's arguments by
parameter, a statement's parts; `Refused` (why a block stays at the safe level) and `Block` (a body the rule reads)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar, cast

import libcst as cst

_Node = TypeVar("_Node", bound=cst.CSTNode)
_EMPTY = cst.Module(body=[])
EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def source_of(node: cst.CSTNode) -> str:
    return _EMPTY.code_for_node(node)


class Refused(Exception):
    """The block is not proven to be the shape: it stays at the safe level, and the report says why."""

    def __init__(self, node: cst.CSTNode, why: str) -> None:
        super().__init__(why)
        self.node, self.why = node, why


class _Reads(cst.CSTVisitor):
    """The names a node reads or binds (Name nodes, not attribute names or keywords), and its Call nodes."""

    def __init__(self, into_lines: bool = True) -> None:
        self.names: list[str] = []
        self.nodes: list[cst.Name] = []
        self.calls: list[cst.Call] = []
        self._into_lines = into_lines

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node.value)
        self.nodes.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        return self._into_lines


def names_in(node: cst.CSTNode, into_lines: bool = True) -> _Reads:
    found = _Reads(into_lines)
    if isinstance(node, cst.SimpleStatementLine) and not into_lines:
        return found
    node.visit(found)
    return found


def collect(node: cst.CSTNode, kind: type[_Node], below: bool = True) -> list[_Node]:
    """The nodes of `kind` in `node` (itself included), in the order of the source; `below`: also those
    inside one found."""
    found: list[_Node] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            if isinstance(child, kind):
                found.append(child)
                return below
            return True

    node.visit(Collect())
    return found


def lines_of(node: cst.CSTNode) -> list[cst.SimpleStatementLine]:
    """Every simple statement line inside a compound statement (or the line itself)."""
    return collect(node, cst.SimpleStatementLine, below=False)


def single(stmt: cst.BaseStatement) -> cst.BaseSmallStatement | None:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        return stmt.body[0]
    return None


def assigned(small: cst.BaseSmallStatement | None) -> tuple[str | None, cst.BaseExpression | None]:
    """(`name`, value) of `name = value`, else (None, None)."""
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.targets[0].target.value, small.value
    return None, None


def target_names(small: cst.BaseSmallStatement) -> list[str] | None:
    """The names an assignment binds (`a = ...`, `a, b = ...`), None for anything else."""
    if not isinstance(small, cst.Assign):
        return None
    names: list[str] = []
    for target in small.targets:
        node = target.target
        elements = node.elements if isinstance(node, (cst.Tuple, cst.List)) else [cst.Element(node)]
        for element in elements:
            if not isinstance(element.value, cst.Name):
                return None
            names.append(element.value.value)
    return names


def arguments(call: cst.Call, params: Sequence[str], node: cst.CSTNode, what: str) -> dict[str, cst.Arg]:
    """A call's arguments by parameter name (positional ones in `params` order); Refused for others."""
    found: dict[str, cst.Arg] = {}
    for index, arg in enumerate(call.args):
        if arg.star:
            raise Refused(node, f"{what} with *args or **kwargs")
        if arg.keyword is None:
            if index >= len(params):
                raise Refused(node, f"{what} with more positional arguments than the rule knows")
            found[params[index]] = arg
        elif arg.keyword.value in params:
            found[arg.keyword.value] = arg
        else:
            raise Refused(node, f"{what}({arg.keyword.value}=...), which the native equivalent does not take as is")
    return found


@dataclasses.dataclass
class Block:
    """A function body or the module body, with its statements as the pass left them."""

    original: Sequence[cst.BaseStatement]
    updated: Sequence[cst.BaseStatement]
    top: int | None  # the top-level statement holding the block (None: the module itself)


def comments_only(stmt: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
    """A statement moved into a new block: its comments kept above it, at the block's indentation."""
    comments = [cst.EmptyLine(comment=line.comment) for line in stmt.leading_lines if line.comment]
    return stmt.with_changes(leading_lines=comments)


def leading(stmt: cst.BaseStatement) -> Sequence[cst.EmptyLine]:
    """A statement's blank lines and comments above it (every statement kind has them)."""
    return cast(Sequence[cst.EmptyLine], getattr(stmt, "leading_lines", ()))


def descendants(node: cst.CSTNode) -> list[cst.CSTNode]:
    return collect(node, cast("type[cst.CSTNode]", cst.CSTNode))  # (mypy: the abstract base is a kind too)


def all_names(node: cst.CSTNode) -> list[cst.Name]:
    return collect(node, cst.Name)


def bound_names(stmt: cst.CSTNode) -> set[str]:
    """The names a statement (and the statements inside it) binds by assignment or as a loop target."""
    found: set[str] = set()

    class Bound(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_For(self, node: cst.For) -> None:
            found.update(n.value for n in all_names(node.target) if _is_binding(node.target, n))

        def visit_AsName(self, node: cst.AsName) -> None:
            found.update(n.value for n in all_names(node.name))

    stmt.visit(Bound())
    return found


def _is_binding(target: cst.BaseExpression, name: cst.Name) -> bool:
    """Is `name` bound by assigning to `target` (not a name read in `a[i] = ...` or `a.b = ...`)?"""
    if isinstance(target, cst.Name):
        return target is name
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_is_binding(e.value, name) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _is_binding(target.value, name)
    return False

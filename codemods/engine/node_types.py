"""Which libcst node types can hold which, read from libcst's own field annotations.

The pass need not descend into a node that can hold no node any active rule handles (a Name holds
only its parentheses, a Comma only whitespace): libcst then neither visits nor rebuilds its children,
which is most of the cost of visiting it.
"""

import dataclasses
import functools
import inspect
import typing

import libcst as cst

# every concrete node type libcst exports
NODE_TYPES: tuple[type[cst.CSTNode], ...] = tuple(
    t
    for t in vars(cst).values()
    if isinstance(t, type) and issubclass(t, cst.CSTNode) and not inspect.isabstract(t) and dataclasses.is_dataclass(t)
)


def _concrete(hint: object, found: set[type[cst.CSTNode]]) -> None:
    """Add the concrete node types an annotation (`Sequence[LeftParen]`, `BaseExpression | None` ...) admits."""
    if isinstance(hint, type):
        if issubclass(hint, cst.CSTNode):
            found.update(t for t in NODE_TYPES if issubclass(t, hint))
        return
    for argument in typing.get_args(hint):
        _concrete(argument, found)


@functools.cache
def _children() -> dict[type[cst.CSTNode], frozenset[type[cst.CSTNode]]]:
    children = {}
    for node_type in NODE_TYPES:
        hints = typing.get_type_hints(node_type)
        found: set[type[cst.CSTNode]] = set()
        for field in dataclasses.fields(node_type):
            _concrete(hints.get(field.name), found)
        children[node_type] = frozenset(found)
    return children


@functools.cache
def _descendants(node_type: type[cst.CSTNode]) -> frozenset[type[cst.CSTNode]]:
    children = _children()
    found: set[type[cst.CSTNode]] = set()
    stack = list(children[node_type])
    while stack:
        child = stack.pop()
        if child not in found:
            found.add(child)
            stack.extend(children[child])
    return frozenset(found)


@functools.cache
def holding_none_of(handled: frozenset[type[cst.CSTNode]]) -> frozenset[type[cst.CSTNode]]:
    """The node types that can hold no node of the `handled` types at any depth."""
    return frozenset(t for t in NODE_TYPES if _descendants(t).isdisjoint(handled))

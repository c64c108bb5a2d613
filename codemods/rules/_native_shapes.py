"""native-session's static shape reads: `steps = inputs.get_shape()[1].value` (or `.shape[1].value`,
`tf.compat.dimension_value(...)`, `.as_list()[1]`), a Python value TF1 read off the graph while building it.

Eager TF 2 has no graph to read it from before the first step, so the rule writes the value itself, where it
proves it from the graph's statements: a placeholder's literal shape, a lookup table's `lookup` (its keys'
shape), `tf.nn.embedding_lookup(params, ids)` (ids' shape, then the params' after the first: a get_variable's
literal shape). A dimension TF1 did not know (None) or a tensor of any other op is not proven.
"""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rules._native_names import GET_VARIABLE, tf1_names
from codemods.rules._native_slim import SlimLayers
from codemods.rules._native_state import NativeSessionRule
from codemods.rules._native_syntax import Block, Refused, arguments, assigned, bound_names, single, source_of

EMBEDDING_LOOKUP = tf1_names("nn.embedding_lookup")
DIMENSION_VALUE = frozenset({"tensorflow.compat.dimension_value", "tensorflow.compat.v1.compat.dimension_value"})


class StaticShapes(SlimLayers):
    """Static shape reads into Python values."""

    def __init__(self, rule: NativeSessionRule, block: Block) -> None:
        super().__init__(rule, block)
        self.shape_reads: list[str] = []  # `name = value` of each static read written out (for the report)
        self.tables: set[str] = set()  # the names of the lookup tables made once (_native_lookup)

    def dimension_read(self, value: cst.BaseExpression) -> tuple[str, int] | None:
        """(the tensor's name, the index) of a static dimension read as TF1 wrote it, else None."""
        if isinstance(value, cst.Attribute) and value.attr.value == "value":  # x.get_shape()[i].value
            value = value.value
        elif isinstance(value, cst.Call) and self.rule.is_call(value, DIMENSION_VALUE) and len(value.args) == 1:
            value = value.args[0].value  # tf.compat.dimension_value(x.shape[i])
        elif isinstance(value, cst.Subscript) and _as_list(value.value):  # x.get_shape().as_list()[i]
            shape = cast(cst.Attribute, cast(cst.Call, value.value).func).value
            return _shape_of(shape, _index(value))
        else:
            return None
        if not isinstance(value, cst.Subscript):
            return None
        return _shape_of(value.value, _index(value))

    def static_read(self, stmt: cst.BaseStatement) -> bool | None:
        """`name = <a static dimension of a graph tensor>` -> `name = <its value>`, a host statement; None: not one."""
        name, value = assigned(single(stmt))
        read = self.dimension_read(value) if name is not None and value is not None else None
        if read is None or read[0] not in self.graph:
            return None
        tensor, index = read
        dims = self.static_shape(tensor, stmt)
        if not 0 <= index < len(dims) or dims[index] is None:
            raise Refused(stmt, f"`{source_of(cast(cst.BaseExpression, value))}`: a dimension TF1 knew only when run")
        line = cst.parse_statement(
            f"{name} = {dims[index]}  # {source_of(cast(cst.BaseExpression, value))}: the static shape TF1 read\n"
        )
        self.replacements[id(stmt)] = [line]
        self.shape_reads.append(f"{name} = {dims[index]}")
        if name in self.host_reads:  # (read by the graph before: its value then was another)
            raise Refused(stmt, f"`{name}` is read by the graph before this static shape read binds it")
        return False

    def static_shape(self, tensor: str, stmt: cst.CSTNode) -> list[int | None]:
        """The static shape TF1 gave the graph's `tensor`, proven from the statement making it; Refused otherwise."""
        if tensor in self.placeholders:
            return _literal_shape(cst.parse_expression(self.placeholders[tensor][1]), stmt, tensor)
        for compute in reversed(self.computes):  # (the last binding before the read)
            name, value = assigned(single(compute))
            if name == tensor and value is not None:
                found = self.expression_shape(value, stmt)
                if found is not None:
                    return found
                break
        raise Refused(stmt, f"a static shape of `{tensor}`, which the rule does not prove from the op making it")

    def expression_shape(self, value: cst.BaseExpression, stmt: cst.CSTNode) -> list[int | None] | None:
        """The static shape of a graph expression the rule reads (None: not one)."""
        if isinstance(value, cst.Name) and value.value in self.graph:
            return self.static_shape(value.value, stmt)
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value == "lookup" and len(value.args) == 1:
            if isinstance(func.value, cst.Name) and func.value.value in self.tables and not value.args[0].keyword:
                return self.expression_shape(value.args[0].value, stmt)  # (a table's lookup keeps its keys' shape)
        if self.rule.is_call(value, EMBEDDING_LOOKUP):
            args = arguments(value, ("params", "ids"), stmt, "tf.nn.embedding_lookup")
            params, ids = args.get("params"), args.get("ids")
            if params is not None and ids is not None and isinstance(params.value, cst.Name):
                found = self.expression_shape(ids.value, stmt)
                return None if found is None else found + self.variable_shape(params.value.value, stmt)[1:]
        return None

    def variable_shape(self, variable: str, stmt: cst.CSTNode) -> list[int | None]:
        """A get_variable's literal shape (a dimension other than an integer literal: None)."""
        if sum(variable in bound_names(made) for made in self.block.original) > 1:
            raise Refused(stmt, f"a static shape read through `{variable}`, bound more than once")
        for made in self.block.original:
            name, value = assigned(single(made))
            if name == variable and isinstance(value, cst.Call) and self.rule.is_call(value, GET_VARIABLE):
                args = arguments(value, ("name", "shape"), stmt, "tf.get_variable")
                if "shape" in args:
                    return _literal_shape(args["shape"].value, stmt, variable, unknown=True)
        raise Refused(stmt, f"a static shape read through `{variable}`, whose shape the rule does not know")


def _as_list(node: cst.BaseExpression) -> bool:
    """Is `node` `<shape>.as_list()`?"""
    return (
        isinstance(node, cst.Call)
        and not node.args
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "as_list"
    )


def _index(subscript: cst.Subscript) -> int | None:
    element = subscript.slice[0].slice if len(subscript.slice) == 1 else None
    value = element.value if isinstance(element, cst.Index) else None
    return int(value.value) if isinstance(value, cst.Integer) else None


def _shape_of(shape: cst.BaseExpression, index: int | None) -> tuple[str, int] | None:
    """(x, index) of `x.get_shape()` / `x.shape` indexed by an integer literal."""
    if index is None:
        return None
    if isinstance(shape, cst.Call) and not shape.args and isinstance(shape.func, cst.Attribute):
        if shape.func.attr.value == "get_shape":
            shape = cst.Attribute(value=shape.func.value, attr=cst.Name("shape"))
    if isinstance(shape, cst.Attribute) and shape.attr.value == "shape" and isinstance(shape.value, cst.Name):
        return shape.value.value, index
    return None


def _literal_shape(node: cst.BaseExpression, stmt: cst.CSTNode, what: str, unknown: bool = False) -> list[int | None]:
    """A shape written as a list of integer literals and None (`unknown`: any other element is None too)."""
    if isinstance(node, (cst.List, cst.Tuple)):
        dims: list[int | None] = []
        for element in node.elements:
            value = element.value
            if isinstance(value, cst.Integer):
                dims.append(int(value.value))
            elif (isinstance(value, cst.Name) and value.value == "None") or unknown:
                dims.append(None)
            else:
                break
        else:
            return dims
    raise Refused(stmt, f"the shape of `{what}` is not a list of integer literals")

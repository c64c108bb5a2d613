"""`x.shape[i].value`, `x.get_shape()[i].value`, `x.shape.dims[i].value` -> `tf.compat.dimension_value(...)`.

TF1's static shapes hold `Dimension` objects; under TF2 behaviour `x.shape[i]` is an int or None and
`.value` raises AttributeError. `tf.compat.dimension_value` reads both (a Dimension's value, an int as
it is), so the rewrite is right whichever behaviour the migrated program runs with. Only these
spellings are rewritten: a `.value` of anything else (a variable's, a namedtuple's) is no shape's.
"""

from typing import cast

import libcst as cst

from codemods.engine.rule import Rule
from codemods.rule_description import Example
from codemods.rules import _tf


def _is_shape(node: cst.BaseExpression) -> bool:
    """`<expr>.shape`, `<expr>.get_shape()`, `<expr>.shape.dims`."""
    if isinstance(node, cst.Attribute) and node.attr.value == "shape":
        return True
    if isinstance(node, cst.Attribute) and node.attr.value == "dims":
        return isinstance(node.value, cst.Attribute) and node.value.attr.value == "shape"
    return (
        isinstance(node, cst.Call)
        and not node.args
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "get_shape"
    )


def _dimension(node: cst.BaseExpression) -> bool:
    """`<shape>[i]` with one plain index (not a slice)."""
    return (
        isinstance(node, cst.Subscript)
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Index)
        and _is_shape(node.value)
    )


class DimensionRule(Rule):
    ID = "tf-dimension-value"
    DESCRIPTION = (
        "x.shape[i].value (a TF1 Dimension) -> tf.compat.dimension_value(x.shape[i]), right in TF1 and TF2 behaviour."
    )
    ORDER = 140
    EXAMPLE = Example(
        why="Under TF2 behaviour a static shape holds ints, and TF1's Dimension.value raises there.",
        before="import tensorflow as tf\nwidth = x.shape[1].value\n",
        after="import tensorflow as tf\nwidth = tf.compat.dimension_value(x.shape[1])\n",
    )
    WORDS = frozenset({"value"})  # of any expression's shape, TensorFlow or not

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if original_node.attr.value != "value" or not _dimension(original_node.value):
            return updated_node
        alias = _tf.tf_alias(self)
        self.report(
            original_node,
            f"{_tf.full_name(cast(cst.Subscript, original_node.value).value) or 'x.shape'}[i].value -> {alias}.compat.dimension_value(...)",
        )
        return cst.Call(func=_tf.dotted(f"{alias}.compat.dimension_value"), args=[cst.Arg(updated_node.value)])

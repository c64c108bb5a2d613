"""native-session's TF 2 spelling of tf.nn.in_top_k (TensorFlow's MNIST tutorial's evaluation()): the safe pass
writes TF1's `tf.nn.in_top_k(predictions, targets, k)` as `tf.compat.v1.nn.in_top_k` (TF 2's function takes
`(targets, predictions, k)`); the converted code calls `tf.math.in_top_k(targets=..., predictions=..., k=...)`, the
same InTopKV2 op of the same tensors, in model()'s expressions and in the functions of the module they call."""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rules import _tf
from codemods.rules._native_syntax import arguments, source_of

# tf.compat.v1.math.in_top_k is the same function as tf.compat.v1.nn.in_top_k
V1_NAMES = ("compat.v1.nn.in_top_k", "compat.v1.math.in_top_k")
V1_PARAMS = ("predictions", "targets", "k", "name")  # TF 1.15's order
V2_ORDER = ("targets", "predictions", "k", "name")  # TF 2's


def tf2_in_top_k(node: cst.CSTNode, alias: str, where: cst.CSTNode) -> tuple[cst.CSTNode, int]:
    """`node` (as the safe pass left it) with each `<alias>.compat.v1.nn.in_top_k(...)` call written as TF 2's
    `<alias>.math.in_top_k(targets=..., predictions=..., k=...)`, and how many it wrote (Refused, at `where`, for
    a call of *args or **kwargs)."""
    names = {f"{alias}.{n}" for n in V1_NAMES}
    written = []

    class Rewrite(cst.CSTTransformer):
        def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
            if _tf.full_name(updated_node.func) not in names:
                return updated_node
            args = arguments(updated_node, V1_PARAMS, where, "tf.nn.in_top_k")
            written.append(updated_node)
            given = ", ".join(f"{p}={source_of(args[p].value)}" for p in V2_ORDER if p in args)
            return cst.parse_expression(f"{alias}.math.in_top_k({given})")

    return cast(cst.CSTNode, node.visit(Rewrite())), len(written)


SAID = (
    "tf.compat.v1.nn.in_top_k(predictions, targets, k) -> tf.math.in_top_k(targets=..., predictions=..., k=...) "
    "(the same op, in TF 2's argument order)"
)

"""native-variable: in eager code, `tf.compat.v1.Variable(...)` (the safe level's spelling of TF1's
tf.Variable) -> `tf.Variable(...)` (--level native).

Where: a file proven eager (codemods/rules/_native_eager.py). There TF1's Variable makes the very
object TF 2's does (a resource variable: eager execution has no ref variables and no collections), from
the same arguments, when the call uses only the parameters both take, at the positions both give them
(`initial_value`, `trainable`; the others by keyword). A call with TF1's collections, variable_def,
expected_shape, import_scope or use_resource, *args or **kwargs stays at the safe level with an info entry.
"""

from __future__ import annotations

import libcst as cst

from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._native_eager import EagerRewrite
from codemods.rules._native_syntax import Refused

_VARIABLE = frozenset({"tensorflow.Variable", "tensorflow.compat.v1.Variable"})
_POSITIONAL = 2  # initial_value, trainable: the first parameters of both
# TF 2's parameters (TF1's Variable takes them too)
_BOTH = frozenset(
    {
        "initial_value",
        "trainable",
        "validate_shape",
        "caching_device",
        "name",
        "dtype",
        "constraint",
        "synchronization",
        "aggregation",
        "shape",
    }
)


class NativeVariableRule(EagerRewrite):
    ID = "native-variable"
    DESCRIPTION = "In eager code, tf.compat.v1.Variable (TF1's tf.Variable) -> tf.Variable, the same resource variable."
    LEVEL = "native"
    ORDER = 194  # after native-session; before native-data, which rewrites the module by its text
    EXAMPLE = Example(
        "The safe level keeps TF1's tf.Variable as tf.compat.v1.Variable: in a graph it makes a ref variable and "
        "fills collections. In a file proven eager (no graph-mode code, a program) it makes the same resource "
        "variable as TF 2's tf.Variable, from the same arguments: the call becomes tf.Variable when it uses only "
        "parameters both take (initial_value and trainable by position, the others by keyword). What may change: "
        "nothing; a call with collections, variable_def, expected_shape, import_scope or use_resource is left.",
        'import tensorflow as tf\n\ntf.enable_eager_execution()\nw = tf.compat.v1.Variable(1.0, name="w")\nprint(w.numpy())\n',
        'import tensorflow as tf\n\ntf.enable_eager_execution()\nw = tf.Variable(1.0, name="w")\nprint(w.numpy())\n',
    )
    WORDS = frozenset()  # it acts on TensorFlow's names only

    def candidate(self, names: frozenset[str]) -> str | None:
        return "tf.Variable" if names & _VARIABLE else None

    def convert(
        self, call: cst.Call, what: str, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]
    ) -> tuple[cst.BaseExpression | None, str]:
        if any(arg.star for arg in call.args):
            raise Refused(call, "*args or **kwargs")
        if sum(arg.keyword is None for arg in call.args) > _POSITIONAL:
            raise Refused(
                call, "more than two positional arguments (TF1's third is collections, TF 2's validate_shape)"
            )
        other = sorted({a.keyword.value for a in call.args if a.keyword is not None} - _BOTH)
        if other:
            raise Refused(call, f"{other[0]}=, a parameter only TF1's Variable has")
        if _tf.full_name(updated.func).endswith(".Variable") and ".compat.v1." not in _tf.full_name(updated.func):
            return updated, ""  # (already TF 2's: nothing to say)
        alias = _tf.tf_alias(self, call.func)
        return updated.with_changes(func=_tf.dotted(f"{alias}.Variable")), "tf.compat.v1.Variable -> tf.Variable"

"""native-eager-defaults: in eager code, the TF 1.x switches to what TF 2 does by default, and the
variable initializers eager execution makes no-ops, deleted (--level native).

Where: a file proven eager (codemods/rules/_native_eager.py). What: a statement that is only the call
`tf.enable_eager_execution()`, `enable_v2_behavior()`, `enable_resource_variables()`,
`enable_control_flow_v2()`, `enable_v2_tensorshape()` or `enable_tensor_equality()` (TF 2 has each on
from the start), or `tf.global_variables_initializer()` and its friends (eager variables start
initialised; TF1's eager mode returned a no-op for them). A call with arguments (a session config, a
device policy), a call whose value is used, or the only statement of a block stays at the safe level,
with an info entry saying why. (`tf.set_random_seed(seed)` -> `tf.random.set_seed(seed)`, which calls it, is
native-io's, in any file.)
"""

from __future__ import annotations

import libcst as cst

from codemods.rule_description import Example
from codemods.rules._native_eager import EagerRewrite, only_statement
from codemods.rules._native_syntax import Refused

_SWITCHES = (
    "enable_eager_execution",
    "enable_v2_behavior",
    "enable_resource_variables",
    "enable_control_flow_v2",
    "enable_v2_tensorshape",
    "enable_tensor_equality",
)
_INITIALIZERS = (
    "global_variables_initializer",
    "local_variables_initializer",
    "initialize_all_variables",
    "initialize_local_variables",
    "tables_initializer",
)
_MOOT = {f"tensorflow.{p}{n}": n for n in (*_SWITCHES, *_INITIALIZERS) for p in ("", "compat.v1.")}


class NativeEagerDefaultsRule(EagerRewrite):
    ID = "native-eager-defaults"
    DESCRIPTION = (
        "In eager code, tf.enable_eager_execution() and the other switches to TF 2's defaults, and "
        "tf.global_variables_initializer() and friends (no-ops in eager mode): deleted."
    )
    LEVEL = "native"
    ORDER = 196  # after native-session, which deletes a converted Session script's initializer runs itself
    EXAMPLE = Example(
        "A TF 1.x eager program turns on what TF 2 has on from the start (eager execution, v2 behaviour, resource "
        "variables, control flow v2, v2 tensor shapes, tensor equality), and an initializer call is a no-op in "
        "eager mode: after the safe level they are tf.compat.v1 calls that do nothing. Deleted only in a file "
        "proven eager (no graph-mode code, a program) and only as whole statements without arguments. "
        "What may "
        "change: nothing in the file itself; a module it imports that turns one of them off (a "
        "tf.compat.v1.disable_* call on import) is no longer overridden by the deleted call.",
        "import tensorflow as tf\n\ntf.enable_eager_execution()\nprint(tf.reduce_sum([1.0, 2.0]).numpy())\n",
        "import tensorflow as tf\n\nprint(tf.reduce_sum([1.0, 2.0]).numpy())\n",
    )
    WORDS = frozenset()  # it acts on TensorFlow's names only

    def candidate(self, names: frozenset[str]) -> str | None:
        found = sorted(names & _MOOT.keys())
        return f"tf.{_MOOT[found[0]]}()" if found else None

    def convert(
        self, call: cst.Call, what: str, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]
    ) -> tuple[cst.BaseExpression | None, str]:
        statement = parent.get(id(call))
        line = parent.get(id(statement))
        if not (isinstance(statement, cst.Expr) and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
            raise Refused(call, "its value is used, or it shares its line with other statements")
        if call.args:
            raise Refused(call, "it has arguments (a config or a policy TF 2 sets through tf.config)")
        if only_statement(line, parent):
            raise Refused(call, "the only statement of its block")
        kind = "switch to a TF 2 default" if what.removeprefix("tf.").removesuffix("()") in _SWITCHES else "no-op"
        return None, f"{what} deleted: eager code, a {kind}"

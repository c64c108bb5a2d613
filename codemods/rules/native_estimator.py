"""native-estimator: at --level native, an Estimator program stays on the Estimator, and its file says so once.

No native rule turns an Estimator program into TF 2's own loop. Its model_fn, input_fn, hooks and
RunConfig run inside the graph, session and checkpoints the Estimator makes; a custom loop under a
tf.distribute strategy computes the same only where that is proven, program by program, which no rule
does yet. So the native level leaves the program as the safe level ports it (tf.estimator through
compat on TF >= 2.16) and gives the file one info entry, at its first Estimator name, saying so: a
reader of the report sees why that file kept tf.compat.v1 while its Session scripts did not.
"""

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import OutermostChain
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._shared import ESTIMATOR

# the Estimator's modules, and the contrib classes and runners TF 1.x programs built an Estimator program with
_FAMILY = (
    *ESTIMATOR,
    "tensorflow.contrib.estimator",
    "tensorflow.contrib.tpu.TPUEstimator",
    "tensorflow.contrib.tpu.RunConfig",
    "tensorflow.contrib.learn.Estimator",
    "tensorflow.contrib.learn.Experiment",
    "tensorflow.contrib.learn.RunConfig",
    "tensorflow.contrib.learn.learn_runner",
    "tensorflow.contrib.learn.python.learn.learn_runner",
)
MESSAGE = (
    "Estimator program left at the safe level: no native rule turns an Estimator program into TF 2's own loop "
    "(its model_fn, input_fn and hooks run in the graph and session the Estimator makes; a custom training "
    "loop under the strategy TF_CONFIG calls for is a port by hand, as modern_tf2/imagenet_main.py is of "
    "legacy_tf1/imagenet_main.py); tf.estimator runs on TF >= 2.16 through compat"
)


def _in_family(name: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in _FAMILY)


class NativeEstimatorRule(OutermostChain, Rule):
    ID = "native-estimator"
    DESCRIPTION = "An Estimator program stays on the Estimator at --level native: one info entry per file says why."
    LEVEL = "native"
    ORDER = 198  # reports only: after the native rules, so its entry follows theirs
    EXAMPLE = Example(
        "No native rule converts an Estimator program: its model_fn, input_fn and hooks run inside the graph and "
        "session the Estimator builds, and a custom loop under a tf.distribute strategy is equal only where that "
        "is proven program by program. At --level native the file keeps the safe level's port (tf.estimator "
        "through compat) and gets one info entry, at its first Estimator name, saying so. What may change: "
        "nothing; the rule rewrites no code.",
        "import tensorflow as tf\n\nestimator = tf.estimator.Estimator(model_fn)\n",
        "import tensorflow as tf\n\nestimator = tf.estimator.Estimator(model_fn)\n",
    )
    ROOTS = frozenset({"tensorflow_estimator"})

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._said = False

    def _found(self, node: cst.CSTNode) -> None:
        if not self._said:
            self._said = True
            self.report(node, MESSAGE, native=True)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if not self._said and self.outermost(original_node) and self.match_prefix(original_node, _FAMILY):
            self._found(original_node)
        return updated_node

    def visit_Import(self, node: cst.Import) -> None:
        if any(_in_family(_tf.full_name(alias.name)) for alias in node.names):
            self._found(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
            return
        module = _tf.full_name(node.module)
        if any(_in_family(f"{module}.{_tf.full_name(alias.name)}") for alias in node.names):
            self._found(node)

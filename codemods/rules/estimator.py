"""`tf.estimator`: kept as written; `import compat` makes it run on TF 2.21 (compat's Estimator). Each use is reported.

`from tensorflow.estimator import X` -> `from compat.estimator import X`: on TF 2.21 tf.estimator is an
attribute compat attaches, not a module Python can import names from. The names TF 2 gave another
object (the canned estimators: `tf.estimator.LinearClassifier` averages its loss over the batch where
TF 1's summed it) and those only TF 1 has (`tf.estimator.inputs`) -> `tf.compat.v1.estimator.X`, and
their imports come from TF 1's estimator module; both lists are derived from the installed TensorFlow.
"""

from collections.abc import Sequence
from typing import cast

import libcst as cst

from codemods import tables
from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import OutermostChain
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._shared import ESTIMATOR

NOTE = "runs on TF 2.21 through compat's Estimator (tensorflow-estimator 2.15 repaired by `import compat`)"
# `from tensorflow.estimator import X` needs a module, which TF 2.21 lacks: compat.estimator is one
IMPORTABLE_FROM = "tensorflow.estimator"
# tf_upgrade_v2 (TF 2.15) kept TF 2's class with loss_reduction=SUM unless a TF 1 optimizer or
# input_layer_partitioner was passed; TF 1's class takes every TF 1 argument as TF 1 did.
DIFFERS = (
    "TF 2's is another object: canned estimators average the loss over the batch (TF 1's sum it) "
    "and take Keras optimizers only"
)


class EstimatorRule(OutermostChain, Rule):
    ID = "tf-estimator"
    DESCRIPTION = "tf.estimator uses: ensure `import compat` so the Estimator exists on TF 2.21; report each use."
    ORDER = 120
    EXAMPLE = Example(
        why="TF 2.16+ has no tf.estimator; `import compat` installs tensorflow-estimator 2.15, repaired, as tf.estimator.",
        before="import tensorflow as tf\nestimator = tf.estimator.Estimator(model_fn)\n",
        after="import compat\nimport tensorflow as tf\nestimator = tf.estimator.Estimator(model_fn)\n",
    )
    CLAIMS = ESTIMATOR
    ROOTS = frozenset(name.partition(".")[0] for name in ESTIMATOR)  # tensorflow_estimator, under any alias

    def _found(self, node: cst.CSTNode, name: str) -> None:
        _tf.ensure_compat(self)
        self.report(node, f"{name}: {NOTE}")

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        # TF1's `tf.estimator.inputs` is only `tf.compat.v1.estimator.inputs` in TF 2's API
        self._v1_only = frozenset(f"{ESTIMATOR[0]}.{name}" for name in tables.tf_upgrade()["estimator_v1_only"])
        self._estimator = _tf.api()["estimator"]
        self._differs = frozenset(f"{ESTIMATOR[0]}.{name}" for name in self._estimator["differs"])

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.outermost(original_node):
            name = self.match_prefix(original_node, ESTIMATOR)
            if name:
                self._found(original_node, name)
        old = self.match(original_node, self._v1_only | self._differs)
        if old:
            path = old[len("tensorflow.") :]
            why = f" ({DIFFERS})" if old in self._differs else ""
            self.report(original_node, f"tf.{path} -> tf.compat.v1.{path}{why}")
            return _tf.dotted(f"{_tf.tf_alias(self, original_node)}.compat.v1.{path}")
        return updated_node

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            name = _tf.full_name(alias.name)
            if name.startswith(ESTIMATOR):
                self._found(node, name)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
            return
        module = _tf.full_name(node.module)
        for alias in node.names:
            name = f"{module}.{_tf.full_name(alias.name)}"
            if module == IMPORTABLE_FROM and self._imports_differing(node):
                _tf.ensure_compat(self)
                self.report(
                    node,
                    f"from {module} import {_tf.full_name(alias.name)} -> from {self._estimator['v1_module']} "
                    "import ... (TF 1's estimator names: "
                    + (DIFFERS if _tf.full_name(alias.name) in self._estimator["differs"] else "the same object")
                    + ")",
                )
            elif module == IMPORTABLE_FROM:
                _tf.ensure_compat(self)
                self.report(
                    node,
                    f"from {module} import {_tf.full_name(alias.name)} -> from compat.estimator import ... "
                    "(on TF 2.21 tensorflow.estimator is no module to import from)",
                )
            elif module.startswith(IMPORTABLE_FROM + "."):
                _tf.ensure_compat(self)  # what the manual step leads to needs it
                use = f"tf.{module[len('tensorflow.') :]}.{_tf.full_name(alias.name)}"
                self.report(
                    node,
                    f"{module} is no module on TF 2.21: `from {module} import ...` fails there",
                    severity="warning",
                    manual=f"import tensorflow as tf and use {use}",
                )
            elif name.startswith(ESTIMATOR):
                self._found(node, name)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        module = original_node.module
        if module is None or original_node.relative or isinstance(original_node.names, cst.ImportStar):
            return updated_node
        if _tf.full_name(module) == IMPORTABLE_FROM:
            # TF 1's module has every name TF 2's tf.estimator has (measured on TF 2.15 and 2.21)
            new = self._estimator["v1_module"] if self._imports_differing(original_node) else "compat.estimator"
            return updated_node.with_changes(module=_tf.dotted(new))
        return updated_node

    def _imports_differing(self, node: cst.ImportFrom) -> bool:
        """Does `from tensorflow.estimator import ...` import a name TF 2 gave another object?"""
        names = cast("Sequence[cst.ImportAlias]", node.names)  # (the callers skip `import *`)
        return any(_tf.full_name(alias.name) in self._estimator["differs"] for alias in names)

"""A TF 1.x tf.keras name TF 2's Keras no longer has (`tf.keras.utils.multi_gpu_model`): an error entry naming its
closest replacement.

TF 2's Keras 2 (tf-keras, the tf.keras of a port: `import compat`) dropped these names, and tf_upgrade_v2's tables
rewrite none of them: left as written, the port stops at the read with an AttributeError (at the import with an
ImportError). What replaced each is hand-kept in compat.tf1_names.KERAS_GONE, which uai-run's one line reads too;
which names belong there is derived from real TF 1.15's tf.keras (tests/codemods/test_rule_keras_gone.py).
"""

import libcst as cst

from codemods.engine.rule import Rule
from codemods.engine.syntax import InsideImport, OutermostChain
from codemods.rule_description import Example
from compat import tf1_names

# each name in both spellings a TF 1.x program wrote it (`tf.keras...`, `tf.compat.v1.keras...`)
GONE = frozenset(tf1_names.KERAS_GONE) | frozenset(
    twin for twin in map(tf1_names.v1_twin, tf1_names.KERAS_GONE) if twin is not None
)


class KerasGoneRule(OutermostChain, InsideImport, Rule):
    ID = "keras-gone"
    DESCRIPTION = (
        "TF 1.x tf.keras names TF 2's Keras dropped (multi_gpu_model, mixed_precision.experimental, "
        "wrappers.scikit_learn ...): an error entry naming the closest replacement."
    )
    ORDER = 111
    EXAMPLE = Example(
        why="TF 2's Keras 2 has no multi_gpu_model (removed in TF 2.4), no mixed_precision.experimental, no "
        "scikit_learn wrappers ...; the port would stop at the name. The entry names what replaced it "
        "(compat.tf1_names.KERAS_GONE); the code is left as written.",
        before="import tensorflow as tf\nparallel = tf.keras.utils.multi_gpu_model(model, gpus=2)\n",
        after="import tensorflow as tf\nparallel = tf.keras.utils.multi_gpu_model(model, gpus=2)\n",
    )
    CLAIMS = GONE

    def _gone(self, node: cst.CSTNode, name: str) -> None:
        short = "tf" + tf1_names.tf1_name(name)[len(tf1_names.TF) :]
        self.report(node, f"{short} has no automatic conversion", severity="error", manual=tf1_names.manual_for(name))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if not self.in_import and self.outermost(original_node):
            name = self.match(original_node, GONE)
            if name is not None:
                self._gone(original_node, name)
        return updated_node

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        module = cst.helpers.get_full_name_for_node(original_node.module) if original_node.module else None
        if module and not original_node.relative and isinstance(original_node.names, (list, tuple)):
            for alias in original_node.names:
                name = f"{module}.{cst.helpers.get_full_name_for_node(alias.name)}"
                if name in GONE:
                    self._gone(original_node, name)
        return super().leave_ImportFrom(original_node, updated_node)

"""A file of TF 1.x code that uses tf.keras gets `import compat`: its tf.keras is Keras 2, as TF 1.x's was.

On TF >= 2.16 tf.keras is Keras 3, another library: measured on TF 2.21, a TF 1.x script's `model.fit_generator`
is an AttributeError there (Keras 3 has no *_generator methods), and Keras 3 writes no whole-model .h5 checkpoint.
`import compat` selects tf-keras, Keras 2, whatever the import order (compat/_keras_setup.py); on TF 2.15 tf.keras
is Keras 2 already and nothing changes.

TF 1.x code, for certain: the file names something TF 2's `tf` lacks (`tf.set_random_seed`, `tf.Session`: the
tables' v1-only and moved names, read as codemods/_tf2_code.py reads them). A file naming nothing of the kind may
be TF 2 code written for Keras 3 and is left as written; the graph-mode, keras-optimizers and keras-metric-names
rules add `import compat` where their own evidence says TF 1.x.
"""

import ast

import libcst as cst

from codemods import _tf2_code
from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InsideImport
from codemods.rule_description import Example
from codemods.rules import _tf

KERAS = tuple(f"{_tf.TF}.{home}keras" for home in ("", "compat.v1."))


def tf1_code(tree: ast.Module) -> bool:
    """Does the module (its `ast`, the engine's) name something TF 2's tf lacks?"""
    return _tf2_code.tf1_name([tree]) is not None


class Tf1KerasRule(InsideImport, Rule):
    ID = "tf1-keras"
    DESCRIPTION = (
        "TF 1.x code using tf.keras gets import compat: tf.keras is Keras 2 there, as TF 1.x's was (Keras 3 on "
        "TF >= 2.16 has no fit_generator, no .h5 model checkpoints ...)."
    )
    ORDER = 107
    EXAMPLE = Example(
        why="tf.keras is Keras 3 on TF >= 2.16, which lacks Keras 2's API that TF 1.x programs use (fit_generator, "
        "evaluate_generator, whole-model .h5 files); import compat selects tf-keras (Keras 2) before TensorFlow binds "
        "Keras. Only a file naming something TF 2 lacks is TF 1.x code for certain.",
        before="import tensorflow as tf\ntf.set_random_seed(1)\nmodel = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])\n"
        "model.fit_generator(batches(), steps_per_epoch=10)\n",
        after="import compat\nimport tensorflow as tf\ntf.set_random_seed(1)\n"
        "model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])\nmodel.fit_generator(batches(), steps_per_epoch=10)\n",
    )
    WORDS = frozenset()

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._pending = "keras" in state.source and tf1_code(state.syntax)

    def _reference(self, node: cst.CSTNode) -> None:
        if not self._pending or self.in_import:
            return
        name = self.match_prefix(node, KERAS)
        if name is None:
            return
        self._pending = False  # once per file
        _tf.ensure_compat(self)
        self.report(
            node,
            f"{_tf.full_name(node) or name}: TF 1.x code using tf.keras -> import compat, so tf.keras is Keras 2, as "
            "TF 1.x's was (on TF >= 2.16 it is Keras 3 otherwise, without fit_generator or .h5 model checkpoints)",
        )

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        self._reference(original_node)
        return updated_node

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        self._reference(original_node)
        return updated_node

"""`tf.layers.*` -> `tf.compat.v1.layers.*` with `import compat`, which selects tf-keras where Keras 3 is the default.

On TF 2.21 `tf.compat.v1.layers.dense` raises "not available with Keras 3" unless legacy Keras
is chosen before Keras loads; `import compat` does that (compat/_keras_setup.py). So a file already
reading `tensorflow.compat.v1.layers` (tf_upgrade_v2's output, `import tensorflow.compat.v1 as tf` then
`tf.layers`, `from tensorflow.compat.v1 import layers`) gets `import compat` too, and keeps its code:
its names are TF 2's already.
"""

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import OutermostChain, head
from codemods.rule_description import Example
from codemods.rules import _tf

LAYERS = "tensorflow.layers"
V1_LAYERS = "tensorflow.compat.v1.layers"  # TF 2's name of them: needs legacy Keras, not a new name


class LayersRule(OutermostChain, Rule):
    ID = "tf-layers"
    DESCRIPTION = (
        "tf.layers -> tf.compat.v1.layers, working with Keras 3 installed (legacy Keras via compat); code already "
        "reading tf.compat.v1.layers gets compat alone."
    )
    ORDER = 150
    EXAMPLE = Example(
        why="tf.layers is gone in TF2 and tf.compat.v1.layers needs legacy Keras, which compat sets up.",
        before="import tensorflow as tf\ny = tf.layers.dense(x, 10)\n",
        after="import compat\nimport tensorflow as tf\ny = tf.compat.v1.layers.dense(x, 10)\n",
    )
    CLAIMS = (LAYERS,)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._targets: set[int] = set()
        self._v1_reported = False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        # `tf.layers = tf.keras.layers` (tensorpack's TF 2 shim) sets the program's own attribute of
        # TensorFlow: rewritten, it would replace TensorFlow's tf.compat.v1.layers for everyone
        self._targets.add(id(node.target))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if not self.outermost(original_node) or id(original_node) in self._targets:
            return updated_node
        if self.match_prefix(original_node, (V1_LAYERS,)) is not None:
            self._legacy_keras(original_node)
            return updated_node
        if _tf.TF not in self.qualified_names(head(original_node)):
            return updated_node  # `from tensorflow import layers`: the import is rewritten instead
        name = self.match_prefix(original_node, (LAYERS,))
        if name is None:
            return updated_node
        _tf.ensure_compat(self)
        path = _tf.tf_path(name)
        self.report(original_node, f"tf.{path} -> tf.compat.v1.{path} (legacy Keras through compat)")
        return _tf.dotted(f"{_tf.tf_alias(self, original_node)}.compat.v1.{path}")

    def _legacy_keras(self, node: cst.CSTNode) -> None:
        """`tensorflow.compat.v1.layers` read at `node`: left as written, with `import compat`."""
        if not self._v1_reported:  # (once a file: nothing is rewritten)
            self._v1_reported = True
            self.report(node, "tf.compat.v1.layers needs legacy Keras on TF >= 2.16: `import compat` selects it")
        _tf.ensure_compat(self)

    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        if any(_tf.under(_tf.full_name(alias.name), (V1_LAYERS,)) for alias in original_node.names):
            self._legacy_keras(original_node)  # `import tensorflow.compat.v1.layers as layers`
        return updated_node

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        module = _tf.full_name(original_node.module) if original_node.module and not original_node.relative else ""
        names = (
            []
            if isinstance(original_node.names, cst.ImportStar)
            else [_tf.full_name(a.name) for a in original_node.names]
        )
        if _tf.under(module, (V1_LAYERS,)) or (module == V1_LAYERS.rpartition(".")[0] and "layers" in names):
            self._legacy_keras(original_node)
            return updated_node
        if module == LAYERS or module.startswith(LAYERS + ".") or (module == _tf.TF and names == ["layers"]):
            _tf.ensure_compat(self)
            new = "tensorflow.compat.v1" + module[len(_tf.TF) :]
            self.report(original_node, f"from {module} -> from {new} (legacy Keras through compat)")
            return updated_node.with_changes(module=_tf.dotted(new))
        return updated_node

"""tf.contrib.slim in every import form -> compat.slim (tf_slim with compat's runtime fix).

tf-slim is what became of tf.contrib.slim together with the tf.contrib.layers and
tf.contrib.framework pieces it was built on (layers, initializers, regularizers, arg_scope,
variable helpers): a `tf.contrib.layers.<name>` or `tf.contrib.framework.<name>` that tf-slim
still has moves to `compat.slim.<name>` unchanged. Which contrib modules are tf-slim's, and where
their submodules went, is compat/tf1_names.py's (the table `uai-run` resolves with), in the
`tensorflow.` and `tensorflow.compat.v1.` spellings; the names come from the installed tf-slim
(`python -m codemods.tables.gen_tf_api`); contrib names it lacks stay for `contrib-removed` to report.
"""

from typing import TYPE_CHECKING

import libcst as cst

from codemods.engine.syntax import OutermostChain
from codemods.rule_description import Example
from codemods.rules import _shared
from codemods.rules._moves import ModuleMoveRule
from compat import tf1_names

if TYPE_CHECKING:
    from codemods.engine.rule import FileState

HOME, SLIM, PARTS_OF_SLIM = _shared.SLIM_HOME, _shared.SLIM, _shared.PARTS_OF_SLIM


class SlimRule(OutermostChain, ModuleMoveRule):
    ID = "contrib-slim"
    DESCRIPTION = (
        "tensorflow.contrib.slim -> compat.slim; its submodules -> tf_slim, with compat.slim imported; "
        "contrib.layers / contrib.framework names tf-slim kept -> compat.slim."
    )
    ORDER = 70
    EXAMPLE = Example(
        why="tf.contrib was removed in TF2; tf-slim is its maintained home and compat.slim fixes it for Keras 3.",
        before="import tensorflow as tf\nslim = tf.contrib.slim\nnet = slim.conv2d(images, 32, [3, 3])\n",
        after="import tensorflow as tf\nimport compat.slim as slim\nnet = slim.conv2d(images, 32, [3, 3])\n",
    )
    MOVES = _shared.slim_moves()
    # `from tensorflow.contrib.slim.nets import resnet_v1` -> `from tf_slim.nets import resnet_v1`, and contrib's
    # internal layout (`contrib.slim.python.slim.nets`, `contrib.framework.python.ops`) to tf-slim's
    # (the longest prefix wins, as `_package_move` reads them); compat.slim is imported as well because
    # tf_slim's layers need its fix on current TensorFlow.
    PACKAGES = tf1_names.with_v1_twins(
        {
            old: tf1_names.PACKAGES[old]
            for old in sorted(tf1_names.PACKAGES, key=len, reverse=True)
            if old.startswith((*PARTS_OF_SLIM, SLIM))
        }
    )
    ALIASES = {HOME: ("slim", "compat_slim")}
    RUNTIME = HOME

    def begin_file(self, state: "FileState") -> None:
        super().begin_file(state)
        self._private_reads: set[int] = set()  # the nodes of chains read from `tf` below a private package

    def visit_Attribute(self, node: cst.Attribute) -> None:
        """A chain read from `tf` through contrib's internal path (`tf.contrib.slim.python.slim.nets.resnet_v1`)
        is an error naming where tf-slim keeps it: rewriting its head alone (`slim.python.slim.nets...`) would
        fail at run time."""
        super().visit_Attribute(node)
        if self.in_import or not self.outermost(node):
            return
        name = self.match_prefix(node, self._PRIVATE)
        if name is None or name in self._PRIVATE:
            return
        inner: cst.BaseExpression = node
        while isinstance(inner, cst.Attribute):
            self._private_reads.add(id(inner))
            inner = inner.value
        new = tf1_names.move_package(name, self.PACKAGES)
        self.report(
            node, f"{name} is read through contrib's internal package path", "error", f"import it from tf-slim: {new}"
        )

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if id(original_node) in self._private_reads:
            return updated_node
        return super().leave_Attribute(original_node, updated_node)

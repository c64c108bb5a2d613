"""`tf.estimator`: kept as written; `import compat` makes it run on TF 2.21 (compat's Estimator). Each use is reported."""

import libcst as cst

from codemods._rule import Rule
from codemods.rules import _tf

ESTIMATOR = ("tensorflow.estimator", "tensorflow.compat.v1.estimator", "tensorflow_estimator")
NOTE = "runs on TF 2.21 through compat's Estimator (tensorflow-estimator 2.15 repaired by `import compat`)"


class EstimatorRule(_tf.CompatImport, Rule):
    ID = "tf-estimator"
    DESCRIPTION = "tf.estimator uses: ensure `import compat` so the Estimator exists on TF 2.21; report each use."
    CLAIMS = ESTIMATOR

    def begin_file(self, state):
        super().begin_file(state)
        self._inner = set()

    def visit_Attribute(self, node):
        self._inner.add(id(node.value))

    def _found(self, node, name):
        _tf.ensure_compat(self)
        self.report(node, f"{name}: {NOTE}")

    def leave_Attribute(self, original_node, updated_node):
        if id(original_node) not in self._inner:  # report a chain once, at its outermost name
            name = self.match_prefix(original_node, ESTIMATOR)
            if name:
                self._found(original_node, name)
        return updated_node

    def visit_Import(self, node):
        for alias in node.names:
            name = _tf.full_name(alias.name)
            if name.startswith(ESTIMATOR):
                self._found(node, name)

    def visit_ImportFrom(self, node):
        if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
            return
        module = _tf.full_name(node.module)
        for alias in node.names:
            name = f"{module}.{_tf.full_name(alias.name)}"
            if name.startswith(ESTIMATOR):
                self._found(node, name)

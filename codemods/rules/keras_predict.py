"""`model.predict_classes(x)` -> `compat.keras_models.predict_classes(model, x)`, and `predict_proba` likewise.

TF 1.x's Sequential had both; tf.keras removed them in TF 2.6 (measured on TF 2.15 and 2.21: AttributeError), so a
TF 1.x program stops at its first prediction. compat.keras_models computes them as TF 1.x did (`predict_classes`:
the largest output's index, or a sigmoid's output above 0.5; `predict_proba`: `predict` with TF 1.x's defaults,
verbose=0 where TF 2's predict shows a progress bar).

A method call's receiver is not known before run time: a `predict_classes` / `predict_proba` call in a module that
imports TensorFlow is rewritten, and the function calls the receiver's own method where it has one, so a
scikit-learn estimator's `predict_proba` in the same module still runs as written.
"""

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _tf

HELPER = "compat.keras_models"
METHODS = ("predict_classes", "predict_proba")
_WRITTEN = frozenset(f"{HELPER}.{method}" for method in METHODS)


class KerasPredictRule(Rule):
    ID = "keras-predict"
    DESCRIPTION = (
        "model.predict_classes(x) / predict_proba(x) -> compat.keras_models.predict_classes(model, x) / "
        "predict_proba(model, x): TF 1.x's Sequential methods, which TF 2.6 removed."
    )
    ORDER = 108
    EXAMPLE = Example(
        why="TF 1.x's Keras Sequential had predict_classes and predict_proba; tf.keras removed them in TF 2.6, so the "
        "program stops with an AttributeError. compat computes them as TF 1.x did, and calls a model's own method "
        "where it has one (a scikit-learn estimator's predict_proba).",
        before="import tensorflow as tf\nlabels = model.predict_classes(x_test)\nscores = model.predict_proba(x_test)\n",
        after="import compat.keras_models\nimport tensorflow as tf\n"
        "labels = compat.keras_models.predict_classes(model, x_test)\n"
        "scores = compat.keras_models.predict_proba(model, x_test)\n",
    )
    WORDS = frozenset({"predict_classes", "predict_proba"})

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._tensorflow = _tf.imports_tensorflow(state)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if not (self._tensorflow and isinstance(func, cst.Attribute)):
            return updated_node
        method = func.attr.value
        if method not in METHODS or self.match(original_node.func, _WRITTEN):
            return updated_node  # (what this rule writes is read again by a second run)
        self.add_needed_import(HELPER)
        self.report(
            original_node,
            f"{method}(...) -> {HELPER}.{method}(model, ...): TF 1.x's Sequential method, gone since TF 2.6, computed as "
            "TF 1.x did (a model with the method, such as a scikit-learn one, gets its own)",
        )
        model = cst.Arg(value=func.value)
        if updated_node.args:
            model = model.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated_node.with_changes(func=_tf.dotted(f"{HELPER}.{method}"), args=[model, *updated_node.args])

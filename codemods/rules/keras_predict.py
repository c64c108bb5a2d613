"""`model.predict_classes(x)` -> `compat.keras_models.predict_classes(model, x)`; `model.predict_proba(x)` ->
`model.predict(x, verbose=0)`.

TF 1.x's Sequential had both; tf.keras removed them in TF 2.6 (measured on TF 2.15 and 2.21: AttributeError), so a
TF 1.x program stops at its first prediction. `predict_proba(x, batch_size=32, verbose=0)` was `predict` with those
arguments: the call keeps them, and `verbose=0` is written where it was not given (TF 2's predict shows a progress
bar by default). `predict_classes` depends on the model's output (the largest output's index, or a sigmoid's
output above 0.5): compat.keras_models computes it as TF 1.x did.

A method call's receiver is not known before run time: a `predict_classes` / `predict_proba` call in a module that
imports TensorFlow is Keras's (no TensorFlow class had others of those names).
"""

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _shared, _tf

HELPER = "compat.keras_models"
_WRITTEN = frozenset({f"{HELPER}.predict_classes"})
_VERBOSE_POSITION = 2  # predict_proba(x, batch_size, verbose)


def _verbose_given(call: cst.Call) -> bool:
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    starred = any(arg.star for arg in call.args)
    return starred or len(positional) > _VERBOSE_POSITION or any(_shared.keyword_of(a) == "verbose" for a in call.args)


class KerasPredictRule(Rule):
    ID = "keras-predict"
    DESCRIPTION = (
        "model.predict_classes(x) -> compat.keras_models.predict_classes(model, x); model.predict_proba(x) -> "
        "model.predict(x, verbose=0): TF 1.x's Sequential methods, which TF 2.6 removed."
    )
    ORDER = 108
    EXAMPLE = Example(
        why="TF 1.x's Keras Sequential had predict_classes and predict_proba; tf.keras removed them in TF 2.6, so the "
        "program stops with an AttributeError. predict_proba was predict; predict_classes is computed as TF 1.x did.",
        before="import tensorflow as tf\nlabels = model.predict_classes(x_test)\nscores = model.predict_proba(x_test)\n",
        after="import compat.keras_models\nimport tensorflow as tf\n"
        "labels = compat.keras_models.predict_classes(model, x_test)\nscores = model.predict(x_test, verbose=0)\n",
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
        if self.match(original_node.func, _WRITTEN):
            return updated_node  # what this rule writes
        if method == "predict_proba":
            args = list(updated_node.args)
            if not _verbose_given(updated_node):
                if args:
                    args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                args.append(cst.Arg(keyword=cst.Name("verbose"), value=cst.Integer("0"), equal=_shared.NO_SPACE))
            self.report(
                original_node, "predict_proba(...) -> predict(...): TF 1.x's Sequential method, gone since TF 2.6"
            )
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name("predict")), args=args)
        if method == "predict_classes":
            self.add_needed_import(HELPER)
            self.report(
                original_node,
                f"predict_classes(...) -> {HELPER}.predict_classes(model, ...): TF 1.x's Sequential method, gone since "
                "TF 2.6, computed as TF 1.x did",
            )
            model = cst.Arg(value=func.value)
            if updated_node.args:
                model = model.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            return updated_node.with_changes(
                func=_tf.dotted(f"{HELPER}.predict_classes"), args=[model, *updated_node.args]
            )
        return updated_node

"""`tf.nn.softmax_cross_entropy_with_logits(labels=L, logits=X)` -> `labels=tf.stop_gradient(L)`.

TF 1's function stopped the gradient at the labels; TF 2's function of that name is TF 1's `_v2`, which sends it into
them too. Same name, same parameters, so no signature table shows it: measured on TF 2.21 and 2.15, a TF 1 program
training a student on a trainable teacher's soft labels trained the teacher as well after migration (losses off
from the third step). `tf.stop_gradient` is what TF 1's function did, and what TensorFlow's own upgrader writes; it
also builds the one op TF 1's built (a StopGradient), so the graph's later op seeds are TF 1's. TF 1 took the labels
and logits by keyword only (its first parameter was a sentinel refusing positional arguments). The `_v2` function
(already TF 2's) and `tf.compat.v1`'s spelling (TF 1's function) are left as written, and so are TF 2 code and labels
already wrapped in `tf.stop_gradient`.
"""

import libcst as cst

from codemods.engine.rule import Rule
from codemods.rule_description import Example
from codemods.rules import _shared, _tf

TF1_FUNCTION = f"{_tf.TF}.nn.softmax_cross_entropy_with_logits"
STOP_GRADIENT = f"{_tf.TF}.stop_gradient"


class SoftmaxLabelsRule(Rule):
    ID = "softmax-labels"
    DESCRIPTION = (
        "tf.nn.softmax_cross_entropy_with_logits(labels=L, ...) -> labels=tf.stop_gradient(L): TF 1's function stopped "
        "the gradient at the labels, TF 2's of that name does not."
    )
    ORDER = 109
    EXAMPLE = Example(
        why="TF 2's tf.nn.softmax_cross_entropy_with_logits is TF 1's _v2, which back-propagates into the labels: "
        "soft labels computed from trainable variables (a teacher, label smoothing by a model) would train.",
        before="import tensorflow as tf\nloss = tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits)\n",
        after="import tensorflow as tf\n"
        "loss = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(soft), logits=logits)\n",
    )
    WORDS = frozenset()

    def _stopped(self, value: cst.BaseExpression) -> bool:
        return isinstance(value, cst.Call) and self.match(value.func, frozenset({STOP_GRADIENT})) is not None

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if self.match(original_node.func, frozenset({TF1_FUNCTION})) is None:
            return updated_node
        args = list(updated_node.args)
        for index, (original, arg) in enumerate(zip(original_node.args, args)):
            if _shared.keyword_of(original) == "labels" and not self._stopped(original.value):
                alias = _tf.tf_alias(self, original_node.func)
                wrapped = cst.Call(func=_tf.dotted(f"{alias}.stop_gradient"), args=[cst.Arg(arg.value)])
                args[index] = arg.with_changes(value=wrapped)
                self.report(
                    original_node,
                    "tf.nn.softmax_cross_entropy_with_logits(labels=L) -> labels=tf.stop_gradient(L): TF 1's function "
                    "stopped the gradient at the labels; TF 2's of that name (TF 1's _v2) sends it into them",
                )
                return updated_node.with_changes(args=args)
        return updated_node

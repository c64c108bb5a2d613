"""native-losses: TF1's `tf.losses.sparse_softmax_cross_entropy(labels, logits)` -> the Keras loss computing the
same mean, in graph code (an Estimator's model_fn) as in eager code (--level native).

The safe level keeps it as tf.compat.v1.losses.sparse_softmax_cross_entropy. With TF1's defaults (weights 1,
reduction SUM_BY_NONZERO_WEIGHTS) it is the sum of sparse_softmax_cross_entropy_with_logits over the
examples, times 1, divided by their count; `tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)`
computes that with the same ops (tf-keras: losses_utils' weighted sum and div_no_nan), and flattens labels of
shape [N, 1] as TF1 squeezed them. What differs is where the loss goes: TF1 adds it to the graph's LOSSES
collection, Keras does not. So a call converts only

- with labels and logits alone (weights, a scope, a collection or a reduction is another computation);
- in a program (a library's callers may read the collection) whose file reads no loss collection by name
  (`get_total_loss`, `get_losses`, `LOSSES`, tf-slim's `model_deploy`, which sums it, or `get_collection` of a
  key that is not another GraphKeys name or string: `get_collection(tf.GraphKeys.UPDATE_OPS)` is fine);
- where tf.keras is Keras 2 whatever the TF release (the file imports compat: Keras 3's loss is other code).

Else the call stays at the safe level with an info entry saying why. A Session script native-session
converts is its business (it writes its losses itself): this rule runs after it and skips what it rewrote.
"""

from __future__ import annotations

import libcst as cst

from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._native_eager import EagerRewrite, keras_2
from codemods.rules._native_syntax import Refused, all_names, arguments, source_of
from codemods.rules._native_tables import KERAS_LOSSES, LOSSES
from codemods.rules._shared import collection_reads

# v1 loss -> (its parameters the rule reads, in TF1's positional order; the Keras loss computing the same mean)
_KERAS = {name: (LOSSES[name][0], keras) for name, keras in KERAS_LOSSES.items()}
_NAMES = {f"tensorflow.{p}losses.{n}": n for n in _KERAS for p in ("", "compat.v1.")}
# names through which a file reads the graph's loss collection (TF's, tf-slim's; model_deploy sums it per clone)
_READERS = frozenset({"get_total_loss", "get_losses", "LOSSES", "model_deploy"})


class NativeLossesRule(EagerRewrite):
    ID = "native-losses"
    DESCRIPTION = (
        "tf.losses.sparse_softmax_cross_entropy(labels, logits) -> "
        "tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), in a program reading no loss collection."
    )
    LEVEL = "native"
    ORDER = 193  # after native-session, which writes the losses of a Session script it converts itself
    GRAPH = True  # the same ops in a graph: an Estimator's model_fn converts too (the file need only be a program)
    EXAMPLE = Example(
        "TF1's tf.losses.sparse_softmax_cross_entropy with its defaults (weights 1, the mean over the examples) lives "
        "on in TF 2 only as tf.compat.v1.losses; Keras's SparseCategoricalCrossentropy(from_logits=True) computes the "
        "same mean with the same ops, in a graph (an Estimator's model_fn) as eagerly: the loss and its gradients are "
        "bit-equal, labels of shape [N, 1] included. Only with labels and logits alone, in a program whose tf.keras is "
        "Keras 2 (it imports compat) and which reads no loss collection by name (get_total_loss, get_losses, "
        "LOSSES, model_deploy, get_collection of a key other than another GraphKeys name). What may change: the loss is no longer added to the graph's LOSSES "
        "collection, so a module the program imports that sums that collection under another name misses it; in a graph "
        "the ops made after it get other op seeds, so a random op made later without a seed of its own draws "
        "otherwise under a graph seed; logits of one class (last dimension 1) are rejected by Keras.",
        "import compat\nimport tensorflow as tf\n\n"
        "def model_fn(features, labels, mode):\n"
        "    logits = tf.compat.v1.layers.dense(features, 3)\n"
        "    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)\n"
        "    return tf.estimator.EstimatorSpec(mode, loss=loss)\n\n"
        'if __name__ == "__main__":\n'
        "    tf.estimator.Estimator(model_fn)\n",
        "import compat\nimport tensorflow as tf\n\n"
        "def model_fn(features, labels, mode):\n"
        "    logits = tf.compat.v1.layers.dense(features, 3)\n"
        "    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)\n"
        "    return tf.estimator.EstimatorSpec(mode, loss=loss)\n\n"
        'if __name__ == "__main__":\n'
        "    tf.estimator.Estimator(model_fn)\n",
    )
    CLAIMS = ()  # it rewrites the safe pass's result (tf.compat.v1.losses), which tf1-api writes
    WORDS = frozenset()  # it acts on TensorFlow's names; the collection's readers are read from the whole module

    def candidate(self, names: frozenset[str]) -> str | None:
        found = sorted(names & _NAMES.keys())
        return f"tf.losses.{_NAMES[found[0]]}" if found else None

    def convert(
        self, call: cst.Call, what: str, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]
    ) -> tuple[cst.BaseExpression | None, str]:
        params, keras = _KERAS[what.removeprefix("tf.losses.")]
        if self._eager.why_not(module, self._tf_calls, graph=True) is not None:  # (graph code allowed: a program)
            raise Refused(
                call,
                "a library module (no main block, no TensorFlow call at its top level): its callers may "
                "read the loss collection",
            )
        args = arguments(updated, params, call, what)
        if set(args) != set(params):
            raise Refused(call, f"{what} without its {' and '.join(params)}")
        readers = sorted({name.value for name in all_names(module)} & _READERS) or collection_reads(module, "LOSSES")
        if readers:
            raise Refused(
                call, f"the file reads the loss collection ({readers[0]}), which the Keras loss does not join"
            )
        if not keras_2(self):
            raise Refused(call, "tf.keras may be Keras 3 here (TF >= 2.16 without import compat): other loss code")
        alias = _tf.tf_alias(self, call.func)
        values = ", ".join(source_of(args[p].value) for p in params)
        said = f"{what} -> tf.keras.losses.{keras}: the same mean (no longer in the LOSSES collection)"
        return cst.parse_expression(f"{alias}.keras.losses.{keras}({values})"), said

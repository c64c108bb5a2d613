"""tf-slim's one_hot_encoding and the softmax cross-entropy losses (tf-slim's and tf.losses') as TF 2 code: the one
table and writer that native-session's conversions of them read (the cluster port's builder, _native_cluster, and
model_deploy's clone_fn, _native_clone_fn).

one_hot_encoding is tf.one_hot with its on/off values (1.0 and 0.0 unless given). Both losses, of their logits and
one-hot labels alone (weights 1, no label smoothing), are the mean over the batch of
tf.nn.softmax_cross_entropy_with_logits with no gradient into the labels, as TF1's were.
"""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rules._native_names import PREFIXES, slim_names
from codemods.rules._native_syntax import Refused, arguments, source_of

ONE_HOT_PARAMS = ("labels", "num_classes", "on_value", "off_value", "outputs_collections", "scope")
# tf-slim's softmax cross-entropy has tf.contrib.losses' order (logits first), tf.losses' has the labels first
SLIM_XENT = slim_names("losses.softmax_cross_entropy")
TF_XENT = frozenset(p + "losses.softmax_cross_entropy" for p in PREFIXES)
SLIM_XENT_PARAMS = ("logits", "onehot_labels", "weights", "label_smoothing", "scope")
TF_XENT_PARAMS = ("onehot_labels", "logits", "weights", "label_smoothing", "scope")


def one_hot(tf: str, labels: str, num_classes: str, on: str = "1.0", off: str = "0.0") -> str:
    """one_hot_encoding(labels, num_classes) as code."""
    return f"{tf}.one_hot({labels}, {num_classes}, on_value={on}, off_value={off})"


def softmax_xent(tf: str, labels: str, logits: str) -> str:
    """A softmax cross-entropy loss of one-hot `labels` (weights 1, no smoothing) as code: the batch mean."""
    return (
        f"{tf}.reduce_mean({tf}.nn.softmax_cross_entropy_with_logits("
        f"labels={tf}.stop_gradient({labels}), logits={logits}))"
    )


def one_hot_call(tf: str, stmt: cst.BaseStatement, original: cst.Call, updated: cst.Call) -> str:
    """A one_hot_encoding call, its arguments by position or keyword, as code; Refused for what TF 2 would not keep."""
    given = arguments(original, ONE_HOT_PARAMS, stmt, "one_hot_encoding")
    if "outputs_collections" in given and source_of(given["outputs_collections"].value) != "None":
        raise Refused(stmt, "one_hot_encoding(outputs_collections=...), a graph collection")
    new = {p: source_of(a.value) for p, a in arguments(updated, ONE_HOT_PARAMS, stmt, "one_hot_encoding").items()}
    if not {"labels", "num_classes"} <= set(new):
        raise Refused(stmt, "one_hot_encoding without its labels and num_classes")
    return one_hot(tf, new["labels"], new["num_classes"], new.get("on_value", "1.0"), new.get("off_value", "0.0"))


def softmax_xent_call(
    tf: str, stmt: cst.BaseStatement, original: cst.BaseExpression, updated: cst.Call, kind: str
) -> str:
    """A softmax cross-entropy call of tf-slim's (`kind` "slim") or tf.losses' ("tf") as code; Refused for weights,
    label smoothing or a scope."""
    params = SLIM_XENT_PARAMS if kind == "slim" else TF_XENT_PARAMS
    given = arguments(cast(cst.Call, original), params, stmt, "softmax_cross_entropy")
    if set(given) != {"logits", "onehot_labels"}:
        raise Refused(stmt, "softmax_cross_entropy with weights, label_smoothing or a scope")
    new = {p: source_of(a.value) for p, a in arguments(updated, params, stmt, "softmax_cross_entropy").items()}
    return softmax_xent(tf, new["onehot_labels"], new["logits"])

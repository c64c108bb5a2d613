"""`tf.contrib.losses` as TF 1 computed it, on TF 2's ops.

They are not `tf.compat.v1.losses` under another name, so mapping them there changed what TF1 programs
computed without a word (docs/traps.md, "tf.contrib.losses is not tf.losses under another name"):
- the order: contrib took `(predictions, labels)` / `(logits, labels)`, tf.losses takes `(labels, ...)`;
- the weights: a [batch, 1] weight is squeezed to [batch], and the losses are summed over the dimensions a
  weight does not have before they are weighted; the mean divides by the number of elements a non-zero
  weight covers;
- `hinge_loss` is not reduced: it returns the loss of each element.
Each loss but the hinge loss is added to the LOSSES collection, as TF 1's were. (`tf.contrib.metrics.accuracy`,
likewise not tf.metrics' namesake: compat.contrib_metrics.)
"""

from typing import Any

import tensorflow as tf

__all__ = [
    "absolute_difference",
    "add_loss",
    "compute_weighted_loss",
    "cosine_distance",
    "get_losses",
    "get_regularization_losses",
    "get_total_loss",
    "hinge_loss",
    "log_loss",
    "mean_pairwise_squared_error",
    "mean_squared_error",
    "sigmoid_cross_entropy",
    "softmax_cross_entropy",
    "sparse_softmax_cross_entropy",
]

_v1 = tf.compat.v1


def _float(value: Any) -> tf.Tensor:
    return tf.cast(tf.convert_to_tensor(value), tf.float32)


def _weights_for(losses: tf.Tensor, weights: Any) -> tf.Tensor:
    weights = _float(weights)
    if weights.shape.rank is None or losses.shape.rank is None:
        raise ValueError("tf.contrib.losses needs the ranks of the losses and of the weights")
    if weights.shape.rank > 1 and weights.shape[-1] in (None, 1):
        weights = tf.squeeze(weights, [-1])  # [batch, 1] weighs each example, as [batch] does
    return weights


def _weighted_sum(losses: tf.Tensor, weights: tf.Tensor) -> tf.Tensor:
    """The losses summed over the dimensions `weights` lacks, times the weights, summed."""
    inner = list(range(weights.shape.rank, losses.shape.rank))
    return tf.reduce_sum(tf.reduce_sum(losses, axis=inner) * weights)


def _present(losses: tf.Tensor, weights: tf.Tensor) -> tf.Tensor:
    """How many elements of `losses` each example's non-zero weights cover: a [batch] tensor."""
    batch = tf.shape(losses)[0]
    if weights.shape.rank == 0:
        per_example = tf.cast(tf.size(losses), tf.float32) / tf.cast(batch, tf.float32)
        per_example = tf.where(tf.equal(weights, 0.0), 0.0, per_example)
        return tf.fill([batch], per_example)
    nonzero = tf.cast(tf.not_equal(weights, 0.0), tf.float32)
    nonzero = tf.reduce_sum(nonzero, axis=list(range(1, weights.shape.rank)))
    covered = tf.cast(tf.reduce_prod(tf.shape(losses)[weights.shape.rank :]), tf.float32)
    return nonzero * covered


def compute_weighted_loss(losses: Any, weights: Any = 1.0, scope: str | None = None) -> tf.Tensor:
    """The weighted mean of `losses` over the elements non-zero weights cover (0 when none), added to LOSSES."""
    with tf.name_scope(scope or "weighted_loss"):
        losses = tf.convert_to_tensor(losses)
        dtype = losses.dtype
        losses = tf.cast(losses, tf.float32)
        weights = _weights_for(losses, weights)
        mean = tf.math.divide_no_nan(_weighted_sum(losses, weights), tf.reduce_sum(_present(losses, weights)))
        mean = tf.cast(mean, dtype)
        _v1.losses.add_loss(mean)
        return mean


def _pair(predictions: Any, labels: Any) -> tuple[tf.Tensor, tf.Tensor]:
    predictions, labels = _float(predictions), _float(labels)
    predictions.shape.assert_is_compatible_with(labels.shape)
    return predictions, labels


def absolute_difference(
    predictions: Any, labels: Any = None, weights: Any = 1.0, scope: str | None = None
) -> tf.Tensor:
    with tf.name_scope(scope or "absolute_difference"):
        predictions, labels = _pair(predictions, labels)
        return compute_weighted_loss(tf.abs(predictions - labels), weights)


def mean_squared_error(predictions: Any, labels: Any = None, weights: Any = 1.0, scope: str | None = None) -> tf.Tensor:
    with tf.name_scope(scope or "mean_squared_error"):
        predictions, labels = _pair(predictions, labels)
        return compute_weighted_loss(tf.math.squared_difference(predictions, labels), weights)


def log_loss(
    predictions: Any, labels: Any = None, weights: Any = 1.0, epsilon: float = 1e-7, scope: str | None = None
) -> tf.Tensor:
    with tf.name_scope(scope or "log_loss"):
        predictions, labels = _pair(predictions, labels)
        losses = -labels * tf.math.log(predictions + epsilon) - (1 - labels) * tf.math.log(1 - predictions + epsilon)
        return compute_weighted_loss(losses, weights)


def cosine_distance(
    predictions: Any,
    labels: Any = None,
    axis: int | None = None,
    weights: Any = 1.0,
    scope: str | None = None,
    dim: int | None = None,
) -> tf.Tensor:
    axis = dim if axis is None else axis  # TF 1's older name for it
    if axis is None:
        raise ValueError("You must specify 'axis'.")
    with tf.name_scope(scope or "cosine_distance_loss"):
        predictions, labels = _pair(predictions, labels)
        return compute_weighted_loss(1 - tf.reduce_sum(predictions * labels, axis=[axis]), weights)


def _logits_and_labels(logits: Any, labels: Any) -> tuple[tf.Tensor, tf.Tensor]:
    """The logits, and the labels in their dtype, of one shape."""
    logits = tf.convert_to_tensor(logits)
    labels = tf.cast(labels, logits.dtype)
    logits.shape.assert_is_compatible_with(labels.shape)
    return logits, labels


def hinge_loss(logits: Any, labels: Any = None, scope: str | None = None) -> tf.Tensor:
    """Each element's hinge loss (not reduced, not added to LOSSES); labels in {0, 1}."""
    with tf.name_scope(scope or "hinge_loss"):
        logits = tf.convert_to_tensor(logits)
        logits.shape.assert_is_compatible_with(tf.convert_to_tensor(labels).shape)
        signs = 2 * tf.cast(labels, tf.float32) - 1
        return tf.nn.relu(1 - signs * logits)


def sigmoid_cross_entropy(
    logits: Any, multi_class_labels: Any, weights: Any = 1.0, label_smoothing: float = 0, scope: str | None = None
) -> tf.Tensor:
    with tf.name_scope(scope or "sigmoid_cross_entropy_loss"):
        logits, labels = _logits_and_labels(logits, multi_class_labels)
        if label_smoothing > 0:
            labels = labels * (1 - label_smoothing) + 0.5 * label_smoothing
        losses = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights)


def softmax_cross_entropy(
    logits: Any, onehot_labels: Any, weights: Any = 1.0, label_smoothing: float = 0, scope: str | None = None
) -> tf.Tensor:
    with tf.name_scope(scope or "softmax_cross_entropy_loss"):
        logits, labels = _logits_and_labels(logits, onehot_labels)
        if label_smoothing > 0:
            classes = tf.cast(tf.shape(labels)[1], logits.dtype)
            labels = labels * (1.0 - label_smoothing) + label_smoothing / classes
        # TF 1's op: no gradient flows into the labels
        losses = tf.nn.softmax_cross_entropy_with_logits(
            labels=tf.stop_gradient(labels), logits=logits, name="xentropy"
        )
        return compute_weighted_loss(losses, weights)


def sparse_softmax_cross_entropy(logits: Any, labels: Any, weights: Any = 1.0, scope: str | None = None) -> tf.Tensor:
    with tf.name_scope(scope or "sparse_softmax_cross_entropy_loss"):
        labels = tf.reshape(labels, [tf.shape(labels)[0]])
        losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name="xentropy")
        return compute_weighted_loss(losses, weights)


def mean_pairwise_squared_error(
    predictions: Any, labels: Any = None, weights: Any = 1.0, scope: str | None = None
) -> tf.Tensor:
    """The weighted mean, over examples, of the squared differences between all pairs of an example's errors."""
    with tf.name_scope(scope or "mean_pairwise_squared_error"):
        predictions, labels = _pair(predictions, labels)
        weights = _float(weights)
        diffs = predictions - labels
        inner = list(range(1, diffs.shape.rank))
        present = _present(diffs, weights)
        squares = 2.0 * tf.math.divide_no_nan(tf.reduce_sum(tf.square(diffs), axis=inner), present)
        sums = 2.0 * tf.math.divide_no_nan(tf.square(tf.reduce_sum(diffs, axis=inner)), tf.square(present))
        loss = _weighted_sum(squares - sums, weights)
        loss = tf.where(tf.reduce_sum(present) > 0, loss, tf.zeros_like(loss))
        _v1.losses.add_loss(loss)
        return loss


add_loss = _v1.losses.add_loss
get_losses = _v1.losses.get_losses
get_regularization_losses = _v1.losses.get_regularization_losses


def get_total_loss(add_regularization_losses: bool = True, name: str = "total_loss") -> tf.Tensor:
    return _v1.losses.get_total_loss(add_regularization_losses=add_regularization_losses, name=name)

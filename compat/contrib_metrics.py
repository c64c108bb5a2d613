"""`tf.contrib.metrics.accuracy` as TF 1 computed it: one tensor, the (weighted) share of elements where the
predictions equal the labels; not tf.metrics' namesake, a streaming (value, update_op) pair taking (labels,
predictions). The rest of tf.contrib.metrics is tf.compat.v1.metrics' (compat/tf1_names.py)."""

from typing import Any

import tensorflow as tf

__all__ = ["accuracy"]


def accuracy(predictions: Any, labels: Any, weights: Any = None, name: str | None = None) -> tf.Tensor:
    """`tf.contrib.metrics.accuracy`: the (weighted) share of elements where `predictions` equals `labels`."""
    predictions, labels = tf.convert_to_tensor(predictions), tf.convert_to_tensor(labels)
    if not (labels.dtype.is_integer or labels.dtype in (tf.bool, tf.string)):
        raise ValueError(f"Labels should have bool, integer, or string dtype, not {labels.dtype!r}")
    if not labels.dtype.is_compatible_with(predictions.dtype):
        raise ValueError(f"Dtypes of predictions and labels should match: {predictions.dtype!r}, {labels.dtype!r}")
    with tf.name_scope(name or "accuracy"):
        correct = tf.cast(tf.equal(predictions, labels), tf.float32)
        if weights is None:
            return tf.reduce_mean(correct)
        weights = tf.cast(weights, tf.float32)
        return tf.reduce_sum(correct * weights) / tf.reduce_sum(weights * tf.ones_like(correct))

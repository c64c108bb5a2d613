"""`tf.contrib.seq2seq.sequence_loss`: the weighted cross-entropy of a batch of sequences, reduced as TF 1.15 did."""

from typing import Any

import tensorflow as tf

v1 = tf.compat.v1


def sequence_loss(
    logits: Any,
    targets: Any,
    weights: Any,
    average_across_timesteps: bool = True,
    average_across_batch: bool = True,
    sum_over_timesteps: bool = False,
    sum_over_batch: bool = False,
    softmax_loss_function: Any = None,
    name: str | None = None,
) -> Any:
    """Cross-entropy of `logits` [batch, time, classes] against `targets` [batch, time], each term times its
    weight, then reduced: averaging divides a sum by the summed weights, summing over divides it by the count
    of non-zero weights. Both flags of an axis together reduce the whole batch to a scalar; one flag alone
    reduces its axis (averaging wins over summing when flags of both kinds are set, as in TF 1.15); none
    keeps [batch, time]."""
    for tensor, what, shape in (
        (logits, "Logits", "[batch_size x sequence_length x logits]"),
        (targets, "Targets", "[batch_size x sequence_length]"),
        (weights, "Weights", "[batch_size x sequence_length]"),
    ):
        if len(tensor.get_shape()) != shape.count(" x ") + 1:
            raise ValueError(f"{what} must be a {shape} tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time.")
    with tf.name_scope(name or "sequence_loss"):
        flat_logits = tf.reshape(logits, [-1, tf.shape(logits)[2]])
        flat_targets = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=flat_targets, logits=flat_logits)
        else:
            losses = softmax_loss_function(labels=flat_targets, logits=flat_logits)
        losses *= tf.reshape(weights, [-1])
        if average_across_timesteps and average_across_batch:
            return tf.math.divide_no_nan(tf.reduce_sum(losses), tf.reduce_sum(weights))
        if sum_over_timesteps and sum_over_batch:
            count = tf.cast(tf.math.count_nonzero(weights), losses.dtype)
            return tf.math.divide_no_nan(tf.reduce_sum(losses), count)
        losses = tf.reshape(losses, tf.shape(logits)[0:2])
        if average_across_timesteps or average_across_batch:
            axis = [0] if average_across_batch else [1]
            return tf.math.divide_no_nan(tf.reduce_sum(losses, axis=axis), tf.reduce_sum(weights, axis=axis))
        if sum_over_timesteps or sum_over_batch:
            axis = [0] if sum_over_batch else [1]
            count = tf.cast(tf.math.count_nonzero(weights, axis=axis), losses.dtype)
            return tf.math.divide_no_nan(tf.reduce_sum(losses, axis=axis), count)
        return losses

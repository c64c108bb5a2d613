"""The ResNet learning-rate schedule, in TensorFlow ops that work in graph and eager mode."""

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tensorflow as tf

LR_EPOCH_BOUNDARIES = (30, 60, 80, 90)
LR_MULTIPLIERS = (1.0, 0.1, 0.01, 1e-3, 1e-4)


def steps_per_epoch(train_images: int, global_batch: int) -> int:
    return max(1, math.ceil(train_images / max(1, global_batch)))


def train_steps(max_step: int, train_epochs: float, train_images: int, global_batch: int) -> int:
    """`--max_step` when set (the platform's hint), else the steps of `train_epochs` epochs."""
    if max_step > 0:
        return int(max_step)
    return int(train_epochs * steps_per_epoch(train_images, global_batch))


def learning_rate(global_step: "tf.Tensor", base_rate: float, batches_per_epoch: float) -> "tf.Tensor":
    """Piecewise-constant rate x[1, .1, .01, 1e-3, 1e-4] switching at epochs 30/60/80/90."""
    import tensorflow as tf  # here, not at import: flag parsing must not pay for TensorFlow

    boundaries = tf.constant([int(batches_per_epoch * e) for e in LR_EPOCH_BOUNDARIES], tf.int64)
    values = tf.constant([base_rate * m for m in LR_MULTIPLIERS], tf.float32)
    index = tf.searchsorted(boundaries, tf.reshape(tf.cast(global_step, tf.int64), [1]), side="right")
    return tf.gather(values, index[0])

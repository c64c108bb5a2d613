"""train_image_classifier's learning rate and optimizer in `tf.compat.v1.train` (the graph-mode runtime).

The rows (which optimizer, which decay, which flags) are `trainlib.training.slim_optimization`'s,
shared with modern_tf2; this module only picks the `tf.compat.v1.train` class or function.
`options` is any object with the slim flag names as attributes (`compat.flags.FLAGS`, or a
fresh `FlagValues` in tests): see `trainlib.training.slim_flags`.
"""

from typing import Any

import tensorflow as tf

from trainlib.training import slim_optimization as table

v1 = tf.compat.v1


def learning_rate(options: Any, num_samples_per_epoch: int, global_step: tf.Tensor) -> tf.Tensor:
    """The decayed learning rate: exponential (staircase), fixed, or linear-polynomial to `end_learning_rate`."""
    decay = table.decay(options)
    if decay is None:
        return tf.constant(options.learning_rate, name="fixed_learning_rate")
    decay_fn = getattr(v1.train, decay.v1)
    return decay_fn(
        options.learning_rate,
        global_step,
        name=f"{decay.v1}_learning_rate",
        **decay.arguments(options, num_samples_per_epoch),
    )


def optimizer(options: Any, rate: tf.Tensor) -> tf.compat.v1.train.Optimizer:
    """The `tf.compat.v1.train` optimizer named by `options.optimizer`."""
    row = table.optimizer(options)
    return getattr(v1.train, row.v1)(rate, **row.arguments(options, table.V1))

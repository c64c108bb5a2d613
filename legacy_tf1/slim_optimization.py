"""train_image_classifier's learning-rate decay and optimizers, from its flags (tf.compat.v1.train).

`options` is any object with the slim flag names as attributes (`compat.flags.FLAGS`, or a
namespace in tests): see `compat.training.slim_flags`.
"""

import tensorflow as tf

from compat.training.slim_flags import DECAY_TYPES, OPTIMIZERS

v1 = tf.compat.v1


def decay_steps(options, num_samples_per_epoch):
    """Steps between decays: `num_epochs_per_decay` epochs of `batch_size` (per replica set when synchronous)."""
    steps = int(num_samples_per_epoch * options.num_epochs_per_decay / options.batch_size)
    if options.sync_replicas:
        steps //= max(options.replicas_to_aggregate, 1)
    return max(steps, 1)


def learning_rate(options, num_samples_per_epoch, global_step):
    """The decayed learning rate: exponential (staircase), fixed, or linear-polynomial to `end_learning_rate`."""
    steps = decay_steps(options, num_samples_per_epoch)
    kind = options.learning_rate_decay_type
    if kind == "exponential":
        return v1.train.exponential_decay(
            options.learning_rate, global_step, steps, options.learning_rate_decay_factor, staircase=True,
            name="exponential_decay_learning_rate",
        )
    if kind == "fixed":
        return tf.constant(options.learning_rate, name="fixed_learning_rate")
    if kind == "polynomial":
        return v1.train.polynomial_decay(
            options.learning_rate, global_step, steps, options.end_learning_rate, power=1.0, cycle=False,
            name="polynomial_decay_learning_rate",
        )
    raise ValueError(f"learning_rate_decay_type must be one of {', '.join(DECAY_TYPES)}, got {kind!r}")


_OPTIMIZERS = {
    "adadelta": lambda rate, o: v1.train.AdadeltaOptimizer(rate, rho=o.adadelta_rho, epsilon=o.opt_epsilon),
    "adagrad": lambda rate, o: v1.train.AdagradOptimizer(
        rate, initial_accumulator_value=o.adagrad_initial_accumulator_value
    ),
    "adam": lambda rate, o: v1.train.AdamOptimizer(
        rate, beta1=o.adam_beta1, beta2=o.adam_beta2, epsilon=o.opt_epsilon
    ),
    "ftrl": lambda rate, o: v1.train.FtrlOptimizer(
        rate,
        learning_rate_power=o.ftrl_learning_rate_power,
        initial_accumulator_value=o.ftrl_initial_accumulator_value,
        l1_regularization_strength=o.ftrl_l1,
        l2_regularization_strength=o.ftrl_l2,
    ),
    "momentum": lambda rate, o: v1.train.MomentumOptimizer(rate, momentum=o.momentum, name="Momentum"),
    "rmsprop": lambda rate, o: v1.train.RMSPropOptimizer(
        rate, decay=o.rmsprop_decay, momentum=o.momentum, epsilon=o.opt_epsilon
    ),
    "sgd": lambda rate, o: v1.train.GradientDescentOptimizer(rate),
}


def optimizer(options, rate):
    """The `tf.compat.v1.train` optimizer named by `options.optimizer`."""
    if options.optimizer not in _OPTIMIZERS:
        raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {options.optimizer!r}")
    return _OPTIMIZERS[options.optimizer](rate, options)

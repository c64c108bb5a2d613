"""train_image_classifier's optimizers and learning-rate decays, once for both runtimes (TensorFlow-free).

Each row names the class (or decay function) in each runtime and maps slim's flags to its
keyword arguments; a runtime only picks its class from the row:

    row = OPTIMIZERS[options.optimizer]
    getattr(tf.compat.v1.train, row.v1)(rate, **row.arguments(options, V1))        # legacy_tf1
    getattr(tf.keras.optimizers, row.keras)(rate, **row.arguments(options, KERAS))  # modern_tf2

`options` is any object with slim's flag names as attributes (`trainlib.training.slim_flags`).
Adding an optimizer is one row here (its flags go to `slim_flags`).
"""

import dataclasses
from typing import Any

V1, KERAS = "v1", "keras"


@dataclasses.dataclass(frozen=True)
class Optimizer:
    v1: str  # class in tf.compat.v1.train
    keras: str  # class in tf.keras.optimizers
    flags: tuple = ()  # (slim flag, v1 keyword, Keras keyword) per hyper-parameter

    def arguments(self, options: Any, runtime: str) -> dict:
        """The constructor's keyword arguments (after the rate) in `runtime` (V1 or KERAS)."""
        position = {V1: 1, KERAS: 2}[runtime]
        return {row[position]: getattr(options, row[0]) for row in self.flags}


def _same(*flag_keywords: tuple) -> tuple:
    """(flag, keyword, keyword) rows for hyper-parameters both runtimes spell alike."""
    return tuple((flag, keyword, keyword) for flag, keyword in flag_keywords)


# Keras' SGD with momentum is TF1's MomentumOptimizer (the same update at a constant rate).
OPTIMIZERS = {
    "adadelta": Optimizer("AdadeltaOptimizer", "Adadelta", _same(("adadelta_rho", "rho"), ("opt_epsilon", "epsilon"))),
    "adagrad": Optimizer(
        "AdagradOptimizer", "Adagrad", _same(("adagrad_initial_accumulator_value", "initial_accumulator_value"))
    ),
    "adam": Optimizer(
        "AdamOptimizer",
        "Adam",
        (("adam_beta1", "beta1", "beta_1"), ("adam_beta2", "beta2", "beta_2"), *_same(("opt_epsilon", "epsilon"))),
    ),
    "ftrl": Optimizer(
        "FtrlOptimizer",
        "Ftrl",
        _same(
            ("ftrl_learning_rate_power", "learning_rate_power"),
            ("ftrl_initial_accumulator_value", "initial_accumulator_value"),
            ("ftrl_l1", "l1_regularization_strength"),
            ("ftrl_l2", "l2_regularization_strength"),
        ),
    ),
    "momentum": Optimizer("MomentumOptimizer", "SGD", _same(("momentum", "momentum"))),
    "sgd": Optimizer("GradientDescentOptimizer", "SGD"),
    "rmsprop": Optimizer(
        "RMSPropOptimizer",
        "RMSprop",
        (("rmsprop_decay", "decay", "rho"), *_same(("momentum", "momentum"), ("opt_epsilon", "epsilon"))),
    ),
}


@dataclasses.dataclass(frozen=True)
class Decay:
    v1: str  # function in tf.compat.v1.train: (rate, global_step, **arguments)
    keras: str  # schedule class in tf.keras.optimizers.schedules: (rate, **arguments)
    flags: tuple = ()  # (slim flag, keyword): both runtimes spell these alike
    fixed: tuple = ()  # (keyword, value) slim always passed

    def arguments(self, options: Any, samples_per_epoch: int) -> dict:
        return {
            "decay_steps": decay_steps(options, samples_per_epoch),
            **{keyword: getattr(options, flag) for flag, keyword in self.flags},
            **dict(self.fixed),
        }


# learning_rate_decay_type -> Decay; "fixed" (None) keeps --learning_rate.
DECAYS: dict = {
    "fixed": None,
    "exponential": Decay(
        "exponential_decay", "ExponentialDecay", (("learning_rate_decay_factor", "decay_rate"),), (("staircase", True),)
    ),
    "polynomial": Decay(
        "polynomial_decay",
        "PolynomialDecay",
        (("end_learning_rate", "end_learning_rate"),),
        (("power", 1.0), ("cycle", False)),
    ),
}


def optimizer(options: Any) -> Optimizer:
    """The row of `options.optimizer`; ValueError listing the choices for an unknown name."""
    if options.optimizer not in OPTIMIZERS:
        raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {options.optimizer!r}")
    return OPTIMIZERS[options.optimizer]


def decay(options: Any) -> Decay | None:
    """The row of `options.learning_rate_decay_type` (None: fixed); ValueError for an unknown name."""
    if options.learning_rate_decay_type not in DECAYS:
        raise ValueError(
            f"learning_rate_decay_type must be one of {', '.join(DECAYS)}, got {options.learning_rate_decay_type!r}"
        )
    return DECAYS[options.learning_rate_decay_type]


def decay_steps(options: Any, samples_per_epoch: int) -> int:
    """Steps between decays: `num_epochs_per_decay` epochs of `batch_size` (per replica set when synchronous)."""
    steps = int(samples_per_epoch * options.num_epochs_per_decay / options.batch_size)
    if options.sync_replicas:
        steps //= max(options.replicas_to_aggregate, 1)
    return max(steps, 1)

"""What the native rules know of TF1's graph-building calls and their TF 2 objects: tf.train optimizers
-> tf.keras.optimizers and tf.layers functions -> Keras layer classes, with their arguments.

Each row lists the TF1 call's parameters in positional order and the keyword each takes in the TF 2
constructor; a parameter outside the row (a regularizer, `reuse`, `use_locking` ...) means the call is
not one the rules can prove equal, and the code stays at the safe level.
"""

import dataclasses
from collections.abc import Mapping


@dataclasses.dataclass(frozen=True)
class Optimizer:
    keras: str  # tf.keras.optimizers.<keras>
    params: tuple[str, ...]  # the TF1 constructor's parameters, in positional order
    renamed: dict[str, str]  # TF1 parameter -> Keras keyword (absent: the same keyword)
    # keywords the Keras optimizer needs to compute what TF1's did (its defaults differ)
    pinned: dict[str, str]
    difference: str  # what may still differ numerically, for --explain and the report
    # why a pinned keyword is written, said only where the TF1 call did not give that parameter itself
    pinned_why: dict[str, str] = dataclasses.field(default_factory=dict)


OPTIMIZERS = {
    "GradientDescentOptimizer": Optimizer(
        "SGD",
        ("learning_rate", "use_locking", "name"),
        {},
        {},
        "none: var -= learning_rate * grad in both (float rounding only)",
    ),
    "MomentumOptimizer": Optimizer(
        "SGD",
        ("learning_rate", "momentum", "use_locking", "name", "use_nesterov"),
        {"use_nesterov": "nesterov"},
        {},
        "TF1 accumulates a = m*a + g and steps lr*a, Keras v = m*v - lr*g: equal for a constant learning rate "
        "up to float rounding",
    ),
    "AdamOptimizer": Optimizer(
        "Adam",
        ("learning_rate", "beta1", "beta2", "epsilon", "use_locking", "name"),
        {"beta1": "beta_1", "beta2": "beta_2"},
        {"epsilon": "1e-08"},
        "the same update; float rounding only",
        {"epsilon": "epsilon pinned to TF1's 1e-08, Keras's default is 1e-07"},
    ),
    "AdagradOptimizer": Optimizer(
        "Adagrad",
        ("learning_rate", "initial_accumulator_value", "use_locking", "name"),
        {},
        # TF1's update is lr * g / sqrt(accumulator), Keras's lr * g / (sqrt(accumulator) + epsilon)
        {"initial_accumulator_value": "0.1", "epsilon": "0.0"},
        "the same update (epsilon pinned to 0: TF1's Adagrad has none, Keras's default is 1e-07); float rounding only",
    ),
}
# positional-or-keyword parameters a row may list but the Keras optimizer does not take
DROPPED = frozenset({"use_locking", "name"})
# tf.train optimizers whose Keras namesake computes another update: why the rules leave them (the others
# outside OPTIMIZERS are not proven equal)
DIFFERENT = {
    "RMSPropOptimizer": "Keras's RMSprop starts its mean square at 0 (TF1's at 1) and adds epsilon outside the "
    "square root (TF1's inside): another training",
}


def keras_optimizer(alias: str, kind: str, args: Mapping[str, str]) -> tuple[str, str]:
    """tf.train.<kind>(...) as a Keras optimizer: (its constructor call as code, what changed, for the report).

    `args`: the TF1 call's arguments by parameter name, as code (without use_locking, which the callers refuse).
    """
    row = OPTIMIZERS[kind]
    keywords = [f"{row.renamed.get(p, p)}={value}" for p, value in args.items() if p not in DROPPED]
    keywords += [f"{p}={v}" for p, v in row.pinned.items() if p not in args]
    code = f"{alias}.keras.optimizers.{row.keras}({', '.join(keywords)})"
    difference = "; ".join([row.difference, *(why for p, why in row.pinned_why.items() if p not in args)])
    return code, f"tf.train.{kind} -> tf.keras.optimizers.{row.keras} ({difference})"


def renamed_slots(kind: str, args: Mapping[str, str]) -> str | None:
    """Why a port of tf.train.<kind>(..., name=...) cannot continue a TF1 checkpoint (None where it can: no name, the
    default one, no slots). `args` as keras_optimizer's."""
    default = kind.removesuffix("Optimizer")
    name = args.get("name")
    if name is None or kind == "GradientDescentOptimizer" or name in (f'"{default}"', f"'{default}'"):
        return None
    return (
        f"tf.train.{kind}(name=...): TF1 named its slots <variable>/<name>, compat.tf1_slots reads "
        f"<variable>/{default} (a restart from a TF1 checkpoint would start them at zero)"
    )


# tf.layers.<function>: (Keras class, its parameters after `inputs` in TF1's positional order, the
# keywords that go to the call rather than the constructor)
LAYERS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "dense": ("Dense", ("units", "activation", "use_bias", "kernel_initializer", "bias_initializer"), ()),
    "conv2d": (
        "Conv2D",
        (
            "filters",
            "kernel_size",
            "strides",
            "padding",
            "data_format",
            "dilation_rate",
            "activation",
            "use_bias",
            "kernel_initializer",
            "bias_initializer",
        ),
        (),
    ),
    "max_pooling2d": ("MaxPooling2D", ("pool_size", "strides", "padding", "data_format"), ()),
    "average_pooling2d": ("AveragePooling2D", ("pool_size", "strides", "padding", "data_format"), ()),
    "flatten": ("Flatten", ("data_format",), ()),
    "dropout": ("Dropout", ("rate", "noise_shape", "seed", "training"), ("training",)),
    # the same defaults (momentum 0.99, epsilon 1e-3) and variable names (gamma, beta, moving_mean,
    # moving_variance); called in training mode the Keras layer updates its moving statistics itself
    "batch_normalization": (
        "BatchNormalization",
        (
            "axis",
            "momentum",
            "epsilon",
            "center",
            "scale",
            "beta_initializer",
            "gamma_initializer",
            "moving_mean_initializer",
            "moving_variance_initializer",
            "beta_regularizer",
            "gamma_regularizer",
            "beta_constraint",
            "gamma_constraint",
            "training",
        ),
        ("training",),
    ),
}
# Every layer also takes `name`. TF1 names an unnamed layer after its function, uniquified per graph
# ("dense", "dense_1"): the rule writes those names out, so the variables keep their checkpoint names.

# tf.losses.<function> (TF1's, with weights 1 and its default reduction, the mean over the elements): its
# parameters and the TF 2 expression computing the same, `{tf}` the module's TensorFlow name. A call
# with weights, a scope, a collection or a reduction is not one of these.
# The v1 losses Keras 2 computes with the same ops (the port imports compat): TF1's sum of
# sparse_softmax_cross_entropy_with_logits over the examples divided by their count, and labels of shape [N, 1]
# flattened as TF1 squeezed them (tf.nn's op alone refuses them); measured bit-equal in values and gradients.
# native-session writes them in a Session script's model, native-losses elsewhere.
KERAS_LOSSES = {"sparse_softmax_cross_entropy": "SparseCategoricalCrossentropy(from_logits=True)"}
LOSSES: dict[str, tuple[tuple[str, ...], str]] = {
    "sparse_softmax_cross_entropy": (
        ("labels", "logits"),
        "{tf}.keras.losses." + KERAS_LOSSES["sparse_softmax_cross_entropy"] + "({labels}, {logits})",
    ),
    "mean_squared_error": (
        ("labels", "predictions"),
        "{tf}.reduce_mean({tf}.math.squared_difference({tf}.cast({predictions}, {tf}.float32), "
        "{tf}.cast({labels}, {tf}.float32)))",
    ),
}

# tf.data classes whose TF1 spelling (tf.compat.v1.data.<name>, with make_one_shot_iterator) has the same
# pipeline methods as TF 2's tf.data.<name>
DATASETS = ("Dataset", "TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset")
# v1 streaming metrics (a (value, update op) pair over local variables) -> a Keras metric made once:
# v1 name -> (the Keras metric, the v1 call's parameters in order, the update_state arguments in order). The
# same values: the mean of the inputs (accuracy: of equal(predictions, labels), the predictions cast to the
# labels' dtype) as total / count, 0 before any update.
METRICS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "accuracy": ("Accuracy", ("labels", "predictions"), ("labels", "predictions")),
    "streaming_accuracy": ("Accuracy", ("predictions", "labels"), ("labels", "predictions")),
    "mean": ("Mean", ("values",), ("values",)),
    "streaming_mean": ("Mean", ("values",), ("values",)),
}

# v1 initializers (tf.get_variable's initializer=) -> the TF 2 initializer drawing from the same distribution:
# v1 function -> (its TF 2 name under `tf.`, the v1 parameters in positional order, TF1's defaults where TF 2's
# differ, written out). An initializer's own dtype (get_variable passes the variable's) is not one of these.
INITIALIZERS: dict[str, tuple[str, tuple[str, ...], dict[str, str]]] = {
    "random_normal_initializer": ("random_normal_initializer", ("mean", "stddev", "seed"), {"stddev": "1.0"}),
    "truncated_normal_initializer": (
        "keras.initializers.TruncatedNormal",
        ("mean", "stddev", "seed"),
        {"stddev": "1.0"},
    ),
    "random_uniform_initializer": (
        "random_uniform_initializer",
        ("minval", "maxval", "seed"),
        {"minval": "0.0", "maxval": "1.0"},
    ),
    "zeros_initializer": ("zeros_initializer", (), {}),
    "ones_initializer": ("ones_initializer", (), {}),
    "constant_initializer": ("constant_initializer", ("value",), {}),
    "glorot_uniform_initializer": ("keras.initializers.GlorotUniform", ("seed",), {}),
}

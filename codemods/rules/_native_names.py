"""The TF1 names native-session reads (tf.* and tf.compat.v1.* alike), grouped by what the rule does with them, and
what the native rules say alike of one of them (unrun_updates)."""

from __future__ import annotations

import libcst as cst

from codemods.rules import _native_tables as tables

PREFIXES = ("tensorflow.", "tensorflow.compat.v1.")


def unrun_updates(layer: str) -> str:
    """Why a batch normalization in training mode whose UPDATE_OPS the train op does not run stays at the safe level
    (native-session's and native-estimator-loop's entry): TF1 never updated its moving statistics, Keras's would."""
    return (
        f"`{layer}`, a BatchNormalization whose updates the train op does not run (TF1's moving statistics stayed; "
        "a Keras layer in eager updates them at each call)"
    )


def tf1_names(*names: str) -> frozenset[str]:
    return frozenset(p + n for n in names for p in PREFIXES)


SESSIONS = tf1_names("Session", "InteractiveSession")
GRAPH = tf1_names("Graph")
# queue-runner input: refused but for the one shape codemods/rules/_native_queues.py reads as a tf.data pipeline
QUEUE_INPUT = tf1_names(
    *(f"train.{n}_input_producer" for n in ("string", "range", "slice")),
    "train.input_producer",
    *(f"train.{n}" for n in ("batch", "shuffle_batch", "batch_join", "shuffle_batch_join", "maybe_batch")),
)
# sessions that initialise through a scaffold and run hooks around each run: native-session says it leaves them
MONITORED = tf1_names("train.MonitoredSession", "train.MonitoredTrainingSession", "train.SingularMonitoredSession")
PLACEHOLDER = tf1_names("placeholder")
VARIABLE = tf1_names("Variable")
# (tables_initializer: the tables the rule converts are filled when made, _native_lookup; another is refused)
INITIALIZERS = tf1_names(
    "global_variables_initializer", "initialize_all_variables", "local_variables_initializer", "tables_initializer"
)
SEED = tf1_names("set_random_seed")
WITH_DEFAULT = tf1_names("placeholder_with_default")
SAVER = tf1_names("train.Saver")
SIDE_EFFECTS = frozenset({"tensorflow.print", "tensorflow.io.write_file"})
GET_VARIABLE = tf1_names("get_variable")
VARIABLE_SCOPE = tf1_names("variable_scope")
NAME_SCOPE = tf1_names("name_scope")
AUTO_REUSE = tf1_names("AUTO_REUSE")
TRAINABLE_VARIABLES = tf1_names("trainable_variables")
INITIALIZER_FUNCTIONS = {p + n: n for n in tables.INITIALIZERS for p in PREFIXES}
GLOBAL_STEP = tf1_names("train.get_or_create_global_step", "train.create_global_step")
ASSIGNS = {p + n: n for n in ("assign", "assign_add", "assign_sub") for p in PREFIXES}
# v1 summary ops the rule writes as tf.summary v2 (the same tag; v2 takes the step where v1's FileWriter did)
# (and TF 0.x's scalar_summary / histogram_summary / merge_all_summaries, which the safe pass writes as these)
SUMMARIES = {p + s: n for n in ("scalar", "histogram") for s in (f"summary.{n}", f"{n}_summary") for p in PREFIXES}
MERGE_ALL = tf1_names("summary.merge_all", "merge_all_summaries")
FILE_WRITER = tf1_names("summary.FileWriter")
CONTROL_DEPENDENCIES = tf1_names("control_dependencies")
DEVICE = tf1_names("device")
GET_COLLECTION = tf1_names("get_collection")
UPDATE_OPS = tf1_names("GraphKeys.UPDATE_OPS")
LOSSES = {p + "losses." + n: n for n in tables.LOSSES for p in PREFIXES}
# the dtype of a placeholder_with_default's literal default
LITERAL_DTYPES = {cst.Name: "bool", cst.Integer: "int32", cst.Float: "float32"}
# TF1's tf.Variable parameters in positional order (TF 2's takes initial_value, trainable, name and dtype alike)
VARIABLE_PARAMS = (
    "initial_value",
    "trainable",
    "collections",
    "validate_shape",
    "caching_device",
    "name",
    "variable_def",
    "dtype",
)
OPTIMIZERS = {p + "train." + n: n for n in tables.OPTIMIZERS for p in PREFIXES}
LAYERS = {p + "layers." + n: n for n in tables.LAYERS for p in PREFIXES}
# what a function the graph calls may not do: it would run on every step of the converted code
STATEFUL = frozenset({*tf1_names("variable_scope", "get_variable", "get_collection"), *VARIABLE, *LAYERS})
# what a function of the module may not call where the rule does not convert it: it would build the graph there
BUILDERS = STATEFUL | PLACEHOLDER | GLOBAL_STEP | frozenset(OPTIMIZERS)
INITIALIZER = "<tf.global_variables_initializer()>"  # what sess.run(tf.global_variables_initializer()) fetches
# libraries whose calls make variables (layers, models, metrics, cells): a graph statement calling one would make
# them again on each call of model(), so it is refused (tf.layers' functions have their own conversion)
# functions of those libraries that make no variable (a regularizer: a function of a weight, called by the layer)
NO_VARIABLES = frozenset(
    f"{library}{function}"
    for library in ("tensorflow.contrib.layers.", "tensorflow.contrib.slim.", "tf_slim.", "tf_slim.layers.")
    for function in ("l1_regularizer", "l2_regularizer", "l1_l2_regularizer")
)
VARIABLE_LIBRARIES = (
    "tensorflow.contrib.",
    "tensorflow.keras.",
    "tensorflow.compat.v1.keras.",
    "tf_slim.",
    "compat.slim.",
    "keras.",
    "tf_keras.",
    # the TF1 libraries of the real-programs bench: their layers, models and policies make variables when called
    "tensorlayer.",
    "tflearn.",
    "tensorpack.",
    "tensor2tensor.",
    "stable_baselines.",
    "gpflow.",
)
# tf-slim's layers and their arguments native-session converts (_native_slim), in each home of tf-slim
_SLIM_HOMES = (
    "tensorflow.contrib.layers.",
    "tensorflow.contrib.slim.",
    "tensorflow.contrib.framework.",
    "tf_slim.",
    "tf_slim.layers.",
    "compat.slim.",
)


def slim_names(*names: str) -> frozenset[str]:
    return frozenset(home + name for name in names for home in _SLIM_HOMES)


FULLY_CONNECTED = slim_names("fully_connected")
CONV2D = slim_names("conv2d", "convolution2d")
FLATTEN = slim_names("flatten")
# the tf-slim layers native-session makes Keras layers of (_native_slim.SLIM_LAYERS): their names -> the layer
SLIM_LAYERS = {
    **dict.fromkeys(FULLY_CONNECTED, "fully_connected"),
    **dict.fromkeys(CONV2D, "conv2d"),
    **dict.fromkeys(FLATTEN, "flatten"),
}
SLIM_FUNCTIONS = frozenset(name.rpartition(".")[2] for name in SLIM_LAYERS)  # (as attributes: slim.conv2d)
# TF1's regularization losses, read from a graph collection Keras layers do not fill (they keep theirs in .losses)
REGULARIZATION = tf1_names(
    "losses.get_regularization_loss", "losses.get_regularization_losses", "losses.get_total_loss", "get_collection"
)
ARG_SCOPE = slim_names("arg_scope")
# tf.losses' collection readers native-session writes from the losses it converted (tf.losses.* calls, the Keras
# layers' regularization losses); the others stay in REGULARIZATION, refused
TOTAL_LOSS = tf1_names("losses.get_total_loss")
# tf-slim's training loop and its train op (_native_slim_loops)
CREATE_TRAIN_OP = slim_names("learning.create_train_op")
LEARNING_TRAIN = slim_names("learning.train")
XAVIER = slim_names("xavier_initializer")
L2_REGULARIZER = slim_names("l2_regularizer")
# the v1 metrics of _native_tables.METRICS, in TensorFlow and in tf-slim (also as tf.contrib.slim / tf.contrib.metrics)
_SLIM_METRICS = (
    "tensorflow.contrib.slim.metrics.",
    "tensorflow.contrib.metrics.",
    "tf_slim.metrics.",
    "compat.slim.metrics.",
)
METRICS = {
    **{p + "metrics." + n: n for n in tables.METRICS if not n.startswith("streaming_") for p in PREFIXES},
    **{p + n: n for n in tables.METRICS if n.startswith("streaming_") for p in _SLIM_METRICS},
}

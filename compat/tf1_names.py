"""Where each TF1 name TensorFlow 2 dropped lives now: one table, read by `uai-run` and meant for `uai-migrate`.

Plain data, no TensorFlow import. A target is `"module"` or `"module:attribute.path"` (the module is
imported, then the attributes are read: `tf.estimator` is an attribute compat attaches on TF 2.21,
not a module Python can import).

  SYMBOLS   {old qualified name: target}  one name that moved (`tf.app.flags` -> compat.flags)
  PRE_1_0   {TensorFlow 0.x name: target}  a name TF 1.0 renamed (part of SYMBOLS; uai-migrate's tf-upgrade rule reads it)
  PRIVATE   {private name: tf.compat.v1 target}  a `tensorflow.python.*` name TF 2 renamed, dropped or gave
            TF 2's meaning (part of SYMBOLS); uai-migrate's tf-private table takes its public name from here
  MODULES   {old module: (targets, ...)}   a module whose names are looked up in each target in
            turn (`tf.contrib.rnn.X` -> `tf.compat.v1.nn.rnn_cell.X`, else `tf.compat.v1.nn.X`)
  PACKAGES  {old package: new package}    modules below it move below the new one
            (`tensorflow.contrib.slim.nets.resnet_v1` -> `tf_slim.nets.resnet_v1`)
  REMOVED   {old prefix: what to do}      a name under it with no entry above is gone; the text is
            the manual step uai-migrate reports (`{name}` is the TF1 name)
  CLOSEST   {contrib prefix: its closest TF 2 replacement}  the manual step instead, for a contrib family
            nothing converts (factorization, tensor_forest, ...); `manual_for` reads both
  KERAS_GONE {TF 1.x tf.keras name: its closest TF 2 replacement}  a name TF 2's Keras 2 dropped
            (`tf.keras.utils.multi_gpu_model`), the manual step of both tools
  RULES     {old prefix: uai-migrate rule id} the rule whose rewrite an alias stands for (longest prefix);
            REMOVED_RULES the same for the report of a name nothing provides
  LIBRARIES {compat module: library}      the names such a module lacks are the library's (compat.flags: absl.flags)
  CALL_KEYWORDS, TF1_PARAMETERS, TRANSFORMATIONS  TF 1.x call signatures TF 2 rejects (`map(num_threads=)`,
            `create_rng_state(algorithm=)`, `batch_and_drop_remainder`): how TF 2 writes each call (uai-migrate's
            tf1-calls rule) and what the face serves so that TF1's call works (see the table)
  PUBLISHED {public path TF 2.16 added: its TF 2.15 private target}  bound by compat on TF 2.15
  PASS_THROUGH  prefixes of TensorFlow's own modules that keep their real meaning
A TF1 name written `tensorflow.compat.v1.<path>` (TF 1.13+ code: `tf.compat.v1.contrib.layers`) is the
name `tensorflow.<path>` (`v1_twin`, `tf1_name`).
Any other `tensorflow.<path>` is TF1's API, `tf.compat.v1.<path>` (then the real module of that name).
"""

import importlib
from collections.abc import Mapping
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")

TF = "tensorflow"
V1 = "tensorflow.compat.v1"

# TF1 programs imported these from TensorFlow's private modules. The module is still there on TF 2.15 /
# 2.21, the name is not TF1's any more: framework.device.DeviceSpec is DeviceSpecV2 (no merge_from),
# nest.is_sequence is nest.is_nested, pywrap_tensorflow has no NewCheckpointReader. The rest of those
# modules keeps its meaning, so only these names are served (and rewritten) as TF1's object.
PRIVATE = {
    "tensorflow.python.framework.device.DeviceSpec": f"{V1}:DeviceSpec",
    "tensorflow.python.util.nest.is_sequence": f"{V1}:nest.is_nested",
    "tensorflow.python.pywrap_tensorflow.NewCheckpointReader": f"{V1}:train.NewCheckpointReader",
}

# TensorFlow 0.x names TF 1.0 renamed (`tf.pack` -> `tf.stack`), still copied from 0.x tutorials into TF1
# programs; TF 2's upgrade tables no longer know them. Kept by hand: every target resolves (tested). The
# 0.x names TF 1 kept as deprecated aliases (`tf.initialize_all_variables`) are tf.compat.v1's, not here.
PRE_1_0 = {
    "tensorflow.audio_summary": f"{V1}:summary.audio",
    "tensorflow.complex_abs": f"{TF}:abs",
    "tensorflow.histogram_summary": f"{V1}:summary.histogram",
    "tensorflow.image_summary": f"{V1}:summary.image",
    "tensorflow.inv": f"{TF}:math.reciprocal",
    "tensorflow.listdiff": f"{V1}:setdiff1d",
    "tensorflow.merge_all_summaries": f"{V1}:summary.merge_all",
    "tensorflow.merge_summary": f"{V1}:summary.merge",
    "tensorflow.mul": f"{TF}:multiply",
    "tensorflow.neg": f"{TF}:negative",
    "tensorflow.pack": f"{TF}:stack",
    "tensorflow.scalar_summary": f"{V1}:summary.scalar",
    "tensorflow.select": f"{V1}:where",
    "tensorflow.sub": f"{TF}:subtract",
    "tensorflow.train.SummaryWriter": f"{V1}:summary.FileWriter",
    "tensorflow.unpack": f"{TF}:unstack",
}

# contrib.seq2seq's names compat.seq2seq provides (tensorflow/nmt's training, greedy and beam search
# inference); the rest of it (the scheduled, custom and inference helpers, monotonic attention) has no home
SEQ2SEQ = (
    "AttentionMechanism",
    "AttentionWrapper",
    "AttentionWrapperState",
    "BahdanauAttention",
    "BasicDecoder",
    "BasicDecoderOutput",
    "BeamSearchDecoder",
    "BeamSearchDecoderOutput",
    "BeamSearchDecoderState",
    "Decoder",
    "FinalBeamSearchDecoderOutput",
    "GreedyEmbeddingHelper",
    "Helper",
    "LuongAttention",
    "SampleEmbeddingHelper",
    "TrainingHelper",
    "dynamic_decode",
    "gather_tree",
    "hardmax",
    "sequence_loss",
    "tile_batch",
)

# tf.contrib names that were, in TF 1.15, the very object of a public tf.* name ({below tf.contrib: below tf}):
# TF1's own API serves them. Derived from real TF 1.15 (tests/common/golden/tf115_contrib_aliases.json;
# test_tf1_signatures.py checks every alias there whose tf.compat.v1 name TF 2 still has is served).
SAME_IN_TF1 = {
    "autograph.Feature": "autograph.experimental.Feature",
    "autograph.do_not_convert": "autograph.experimental.do_not_convert",
    "autograph.set_loop_options": "autograph.experimental.set_loop_options",
    "batching.batch_function": "nondifferentiable_batch_function",
    "checkpoint.CheckpointManager": "train.CheckpointManager",
    "checkpoint.PythonStateWrapper": "train.experimental.PythonState",
    "cluster_resolver.UnionClusterResolver": "distribute.cluster_resolver.UnionResolver",
    "compiler.jit.experimental_jit_scope": "xla.experimental.jit_scope",
    "compiler.xla.compile": "xla.experimental.compile",
    "distribute.DistributionStrategy": "distribute.Strategy",
    "distribute.TPUStrategy": "distribute.experimental.TPUStrategy",
    "distribute.get_distribution_strategy": "distribute.get_strategy",
    "distribute.has_distribution_strategy": "distribute.has_strategy",
    "distribute.initialize_tpu_system": "tpu.experimental.initialize_tpu_system",
    "distributions.Bernoulli": "distributions.Bernoulli",
    "distributions.Beta": "distributions.Beta",
    "distributions.Categorical": "distributions.Categorical",
    "distributions.Dirichlet": "distributions.Dirichlet",
    "distributions.DirichletMultinomial": "distributions.DirichletMultinomial",
    "distributions.Distribution": "distributions.Distribution",
    "distributions.Exponential": "distributions.Exponential",
    "distributions.Gamma": "distributions.Gamma",
    "distributions.Laplace": "distributions.Laplace",
    "distributions.Multinomial": "distributions.Multinomial",
    "distributions.Normal": "distributions.Normal",
    "distributions.RegisterKL": "distributions.RegisterKL",
    "distributions.ReparameterizationType": "distributions.ReparameterizationType",
    "distributions.StudentT": "distributions.StudentT",
    "distributions.Uniform": "distributions.Uniform",
    "distributions.kl_divergence": "distributions.kl_divergence",
    "eager.Checkpoint": "train.Checkpoint",
    "eager.GradientTape": "GradientTape",
    "eager.TensorSpec": "TensorSpec",
    "eager.connect_to_remote_host": "config.experimental_connect_to_host",
    "eager.custom_gradient": "custom_gradient",
    "eager.enable_eager_execution": "enable_eager_execution",
    "eager.executing_eagerly": "executing_eagerly",
    "eager.function": "function",
    "eager.in_eager_mode": "executing_eagerly",
    "eager.py_func": "py_function",
    "framework.TensorSpec": "TensorSpec",
    "framework.argsort": "argsort",
    "framework.assert_same_float_dtype": "assert_same_float_dtype",
    "framework.assert_scalar": "assert_scalar",
    "framework.convert_to_tensor_or_sparse_tensor": "convert_to_tensor_or_sparse_tensor",
    "framework.is_tensor": "is_tensor",
    "framework.sort": "sort",
    "keras.api.keras.initializers.Constant": "constant_initializer",
    "keras.api.keras.initializers.Identity": "initializers.identity",
    "keras.api.keras.initializers.Ones": "ones_initializer",
    "keras.api.keras.initializers.Orthogonal": "orthogonal_initializer",
    "keras.api.keras.initializers.VarianceScaling": "variance_scaling_initializer",
    "keras.api.keras.initializers.Zeros": "zeros_initializer",
    "keras.api.keras.initializers.glorot_normal": "glorot_normal_initializer",
    "keras.api.keras.initializers.glorot_uniform": "glorot_uniform_initializer",
    "keras.api.keras.initializers.he_normal": "initializers.he_normal",
    "keras.api.keras.initializers.he_uniform": "initializers.he_uniform",
    "keras.api.keras.initializers.lecun_normal": "initializers.lecun_normal",
    "keras.api.keras.initializers.lecun_uniform": "initializers.lecun_uniform",
    "keras.api.keras.layers.InputSpec": "layers.InputSpec",
    "lookup.MutableDenseHashTable": "lookup.experimental.DenseHashTable",
    "nn.conv1d_transpose": "nn.conv1d_transpose",
    "proto.decode_proto": "io.decode_proto",
    "proto.encode_proto": "io.encode_proto",
    "signal.frame": "signal.frame",
    "signal.hamming_window": "signal.hamming_window",
    "signal.hann_window": "signal.hann_window",
    "signal.inverse_stft": "signal.inverse_stft",
    "signal.inverse_stft_window_fn": "signal.inverse_stft_window_fn",
    "signal.linear_to_mel_weight_matrix": "signal.linear_to_mel_weight_matrix",
    "signal.mfccs_from_log_mel_spectrograms": "signal.mfccs_from_log_mel_spectrograms",
    "signal.overlap_and_add": "signal.overlap_and_add",
    "signal.stft": "signal.stft",
    "stateless.stateless_multinomial": "random.stateless_multinomial",
    "stateless.stateless_random_normal": "random.stateless_normal",
    "stateless.stateless_random_uniform": "random.stateless_uniform",
    "stateless.stateless_truncated_normal": "random.stateless_truncated_normal",
    "tfprof.model_analyzer.Profiler": "profiler.Profiler",
    "tpu.DeviceAssignment": "tpu.experimental.DeviceAssignment",
    "util.constant_value": "get_static_value",
    "util.make_ndarray": "make_ndarray",
    "util.make_tensor_proto": "make_tensor_proto",
}

SYMBOLS = {
    **PRIVATE,
    **PRE_1_0,
    "tensorflow.app.flags": "compat.flags",
    "tensorflow.app.run": "compat.flags:run",
    "tensorflow.flags": "compat.flags",
    "tensorflow.python.platform.flags": "compat.flags",
    "tensorflow.python.platform.app.run": "compat.flags:run",
    "tensorflow.contrib.training.HParams": "compat.hparams:HParams",
    "tensorflow.contrib.training.python.training.hparam.HParams": "compat.hparams:HParams",
    "tensorflow.contrib.training.GreedyLoadBalancingStrategy": "compat.devices:GreedyLoadBalancingStrategy",
    "tensorflow.contrib.training.byte_size_load_fn": "compat.devices:byte_size_load_fn",
    "tensorflow.contrib.learn.RunConfig": "compat.learn:RunConfig",
    # TF 1.15's tutorials' input_data.read_data_sets was contrib.learn's (input_data imported it from here)
    **dict.fromkeys(
        (f"tensorflow.contrib.learn.{path}datasets.mnist" for path in ("", "python.learn.")),
        "compat.tutorials.mnist.input_data",
    ),
    # its CSV loaders (TF 1.0's iris tutorial); the internal path is PACKAGES'
    "tensorflow.contrib.learn.datasets.base": "compat.learn.datasets.base",
    # tf-slim's copy of TF 1.15's, which asks timeout_fn only after a timeout; TF 2.21's tf.train.checkpoints_iterator
    # (tf_upgrade_v2's rename) asks it after every checkpoint too and stops at the first True: it yields fewer
    "tensorflow.contrib.training.checkpoints_iterator": "tf_slim.training.evaluation:checkpoints_iterator",
    # contrib.layers' summaries module (summarize_tensor ...), which tf-slim keeps below its layers; compat.slim's
    # `summaries` (contrib.layers' first target) is contrib.slim's module of that name
    "tensorflow.contrib.layers.summaries": "tf_slim.layers.summaries",
    "tensorflow.contrib.lookup.HashTable": f"{V1}:lookup.StaticHashTable",
    # (TF 2 exports them under no public name)
    **{
        f"tensorflow.contrib.lookup.{name}": f"compat.contrib_lookup:{name}"
        for name in ("index_table_from_tensor", "index_table_from_file", "index_to_string_table_from_tensor")
    },
    # TF 1.2-1.4's tf.contrib.data classes: tf.data's TF1 classes (their TF 1.4 keywords: CALL_KEYWORDS)
    "tensorflow.contrib.data.Dataset": f"{V1}:data.Dataset",
    "tensorflow.contrib.data.Iterator": f"{V1}:data.Iterator",
    "tensorflow.contrib.data.TFRecordDataset": f"{V1}:data.TFRecordDataset",
    "tensorflow.contrib.data.TextLineDataset": f"{V1}:data.TextLineDataset",
    "tensorflow.contrib.data.FixedLengthRecordDataset": f"{V1}:data.FixedLengthRecordDataset",
    # tf.contrib.learn.ModeKeys' values are tf.estimator.ModeKeys' ('train', 'eval', 'infer'); INFER is PREDICT
    "tensorflow.contrib.learn.ModeKeys.INFER": f"{V1}:estimator.ModeKeys.PREDICT",
    # one tensor, not tf.metrics' streaming (value, update_op) pair
    "tensorflow.contrib.metrics.accuracy": "compat.contrib_metrics:accuracy",
    "tensorflow.contrib.estimator.stop_if_no_decrease_hook": f"{V1}:estimator.experimental.stop_if_no_decrease_hook",
    # TF 1.5-1.15's in-graph Estimator towers (official/resnet's multi-GPU mode); TF 2 has none
    "tensorflow.contrib.estimator.replicate_model_fn": "compat.replicate:replicate_model_fn",
    "tensorflow.contrib.estimator.TowerOptimizer": "compat.replicate:TowerOptimizer",
    # the graph editor's walk tensorpack's session creator calls; the rest of it has no TF 2 home
    "tensorflow.contrib.graph_editor.get_backward_walk_ops": "compat.graph_editor:get_backward_walk_ops",
    # contrib.rnn's stacked bidirectional RNN (tensorlayer 1.x imports it); its cells are nn.rnn_cell's
    "tensorflow.contrib.rnn.stack_bidirectional_dynamic_rnn": "compat.rnn:stack_bidirectional_dynamic_rnn",
    # and its layer-normalised LSTM cell (tensor2tensor's vqa_attention, imported with every t2t model)
    "tensorflow.contrib.rnn.LayerNormBasicLSTMCell": "compat.rnn:LayerNormBasicLSTMCell",
    # TF 1.x's was ops.get_name_scope: the graph's current name scope, or eager's; so is this one (TF >= 2.9)
    "tensorflow.contrib.framework.get_name_scope": f"{TF}:get_current_name_scope",
    "tensorflow.contrib.framework.nest.is_sequence": PRIVATE["tensorflow.python.util.nest.is_sequence"],
    # contrib.opt's Adam that updates only the rows a sparse gradient touches (tensor2tensor's default
    # optimizer); TF 2 has no v1 optimizer of it
    "tensorflow.contrib.opt.LazyAdamOptimizer": "compat.lazy_adam:LazyAdamOptimizer",
    # contrib.opt's decoupled weight decay (tensor2tensor's adam_w); TF 2's AdamW is a Keras optimizer only
    **{
        f"tensorflow.contrib.opt.{name}": f"compat.weight_decay:{name}"
        for name in (
            "AdamWOptimizer",
            "MomentumWOptimizer",
            "DecoupledWeightDecayExtension",
            "extend_with_decoupled_weight_decay",
        )
    },
    # contrib.seq2seq's attention, decoders and loss TF 2 has no v1 home for (tfa.seq2seq is Keras-based)
    **{f"tensorflow.contrib.seq2seq.{name}": f"compat.seq2seq:{name}" for name in SEQ2SEQ},
    **{f"tensorflow.contrib.{old}": f"{V1}:{new}" for old, new in SAME_IN_TF1.items()},
}

# A compat module standing for a TF1 module that re-exported a library: the names of the TF1 module
# the compat module does not define are the library's (TF1's flags module was absl.flags' since TF 1.5,
# plus DEFINE_* and run: FloatParser, DEFINE_multi_integer ... come from absl.flags, whose registry
# compat.flags shares)
LIBRARIES = {"compat.flags": "absl.flags"}

# contrib.metrics' names tf.compat.v1.metrics and .sets lack and tf-slim's metrics module kept: uai-run finds them
# there (MODULES), uai-migrate's contrib-equivalents moves them there (from its table of tf-slim's names:
# tests/codemods/test_tf1_names_consumers.py holds the two to each other)
SLIM_METRICS = (
    *"aggregate_metric_map aggregate_metrics auc_using_histogram auc_with_confidence_intervals cohen_kappa".split(),
    *"count f1_score precision_at_recall precision_recall_at_equal_thresholds recall_at_precision".split(),
    "sparse_recall_at_top_k",
    *(
        f"streaming_{name}"
        for name in (
            "accuracy auc concat covariance curve_points dynamic_auc false_negative_rate "
            "false_negative_rate_at_thresholds false_negatives false_negatives_at_thresholds false_positive_rate "
            "false_positive_rate_at_thresholds false_positives false_positives_at_thresholds mean "
            "mean_absolute_error mean_cosine_distance mean_iou mean_relative_error mean_squared_error mean_tensor "
            "pearson_correlation percentage_less precision precision_at_thresholds recall recall_at_k "
            "recall_at_thresholds root_mean_squared_error sensitivity_at_specificity sparse_average_precision_at_k "
            "sparse_average_precision_at_top_k sparse_precision_at_k sparse_precision_at_top_k sparse_recall_at_k "
            "specificity_at_sensitivity true_negatives true_negatives_at_thresholds true_positives "
            "true_positives_at_thresholds"
        ).split()
    ),
)

MODULES = {
    "tensorflow": (V1, TF),
    "tensorflow.app": (f"{V1}:app",),
    "tensorflow.contrib": (),
    # tf-slim is what became of contrib.slim and of the contrib.layers / contrib.framework it was built on
    "tensorflow.contrib.slim": ("compat.slim",),
    "tensorflow.contrib.layers": ("compat.slim", "tf_slim.layers"),
    "tensorflow.contrib.framework": ("compat.slim", "tf_slim.ops.variables", "tf_slim.ops.arg_scope"),
    # TF 1.15's contrib.framework.nest was this module (tf.nest's five and map_structure_up_to, flatten_up_to ...)
    "tensorflow.contrib.framework.nest": ("tensorflow.python.util.nest",),
    # (tf_slim.training's __init__ is empty: contrib.training's create_train_op, train ... and evaluate_once,
    # checkpoints_iterator ... are in these two)
    "tensorflow.contrib.training": ("tf_slim.training.training", "tf_slim.training.evaluation"),
    # the internal modules those names came from (TF 1.15's contrib/training/python/training/*.py), whose tf-slim
    # copies these are (hparam.py's HParams: SYMBOLS)
    **{
        f"tensorflow.contrib.training.python.training.{module}": (f"tf_slim.training.{module}",)
        for module in ("training", "evaluation")
    },
    "tensorflow.contrib.learn": ("compat.learn",),
    "tensorflow.contrib.learn.ModeKeys": (f"{V1}:estimator.ModeKeys",),
    "tensorflow.contrib.learn.monitors": ("compat.learn.monitors",),
    "tensorflow.contrib.tpu": (f"{V1}:estimator.tpu", f"{V1}:tpu"),
    # TF 1.15's contrib modules of these names re-exported the Estimator's (`import *`), which tensor2tensor
    # and mesh-tensorflow import by their contrib path
    "tensorflow.contrib.tpu.python.tpu.tpu_estimator": ("tensorflow_estimator.python.estimator.tpu.tpu_estimator",),
    "tensorflow.contrib.tpu.python.tpu.tpu_config": ("tensorflow_estimator.python.estimator.tpu.tpu_config",),
    "tensorflow.contrib.data": (f"{V1}:data.experimental",),
    "tensorflow.contrib.cluster_resolver": (f"{V1}:distribute.cluster_resolver",),
    "tensorflow.contrib.rnn": (f"{V1}:nn.rnn_cell", f"{V1}:nn"),
    "tensorflow.contrib.lookup": (f"{V1}:lookup",),
    # (and tf-slim's metrics module, contrib's metric_ops as tf-slim kept them: its streaming_* functions)
    "tensorflow.contrib.metrics": (f"{V1}:metrics", f"{V1}:sets", "tf_slim.metrics"),
    # contrib's own losses: TF1's argument order and weighting, not tf.losses' (compat.contrib_losses)
    "tensorflow.contrib.losses": ("compat.contrib_losses",),
    "tensorflow.contrib.keras": (f"{V1}:keras",),
    "tensorflow.contrib.distribute": (f"{V1}:distribute",),
    "tensorflow.contrib.estimator": (f"{V1}:estimator", f"{V1}:estimator.experimental"),
    # compat's functions where TF 2's namesakes read the call otherwise (a step, `family`, a condition)
    "tensorflow.contrib.summary": ("compat.summary", "tensorflow.compat.v2:summary"),
}

# TF 1.x call signatures TF 2 rejects (`TypeError: ... unexpected keyword argument`): the calls whose name
# resolves but whose arguments TF 2's namesake does not take. uai-migrate rewrites each call (its
# tf1-calls rule); uai-run's face makes the object it serves take TF1's arguments. (tf_upgrade_v2's keyword
# renames need no runtime entry: the face serves tf.compat.v1's functions, which still take them.)
#   CALL_KEYWORDS    {TF1 function or class, or `<class>.<method>` of a SYMBOLS class: {TF1 keyword: TF 2's
#                    spelling}}: a keyword (`num_threads=n` -> `num_parallel_calls=n`); `.<method>`, a call of
#                    that method on the call's result (`output_buffer_size=n` -> `.prefetch(n)`); `keyword=<target>`,
#                    that keyword given the target function of the value (`num_gpus=n` -> `devices=f(n)`); or
#                    `Dropped`, a keyword TF 2 has no parameter for. A TF1 keyword given as None is TF1's default:
#                    dropped. A TF1 name that was the object of a callable's on TF 1.15 (SAME_IN_TF1) takes its row.
#   TF1_PARAMETERS   {CALL_KEYWORDS callable: TF 1.15's parameters in order}, where a positional call binds
#                    otherwise than to TF 2's parameters renamed back (TF 2 dropped or reordered some); from
#                    tests/common/golden/tf115_signatures.json, which test_tf1_signatures.py holds them to
#   TRANSFORMATIONS  {TF1 function: (Dataset method, {keyword: value})}: a tf.contrib.data transformation,
#                    used as `dataset.apply(f(*args))`, that TF 2 writes as the method called with the same
#                    arguments and these keywords (`batch_and_drop_remainder(n)` -> `.batch(n, drop_remainder=True)`)


class Dropped(NamedTuple):
    """A TF1 keyword TF 2's callable has no parameter for: given as `inert` (what TF 1 did without it) or None it is
    left out; any other value is uai-migrate's error entry and uai-run's one-line stop, naming `manual`."""

    inert: object
    manual: str


_MIRRORED_DEVICES = "devices=compat.tf1_calls:mirrored_devices"
CALL_KEYWORDS: dict[str, dict[str, str | Dropped]] = {
    # TF 1.2-1.4's Dataset.map: num_threads parallel calls, then a buffer of output_buffer_size elements
    "tensorflow.contrib.data.Dataset.map": {"num_threads": "num_parallel_calls", "output_buffer_size": ".prefetch"},
    "tensorflow.config.experimental.set_virtual_device_configuration": {"virtual_devices": "logical_devices"},
    "tensorflow.random.experimental.create_rng_state": {"algorithm": "alg"},
    "tensorflow.contrib.lookup.index_table_from_tensor": {"mapping": "vocabulary_list"},
    "tensorflow.contrib.lookup.index_to_string_table_from_tensor": {"mapping": "vocabulary_list"},
    # TF 1.15's contrib MirroredStrategy mirrored over num_gpus (or num_gpus_per_worker) GPUs, the CPU for 0
    "tensorflow.contrib.distribute.MirroredStrategy": {
        "num_gpus": _MIRRORED_DEVICES,
        "num_gpus_per_worker": _MIRRORED_DEVICES,
        "cross_tower_ops": "cross_device_ops",
        "auto_shard_dataset": Dropped(
            False,
            "TF 2 shards a distributed dataset itself (tf.data.Options().experimental_distribute.auto_shard_policy)",
        ),
    },
}
TF1_PARAMETERS = {
    "tensorflow.contrib.distribute.MirroredStrategy": (
        "devices",
        "num_gpus",
        "num_gpus_per_worker",
        "cross_device_ops",
        "auto_shard_dataset",
        "cross_tower_ops",
    ),
}
TRANSFORMATIONS = {
    "tensorflow.contrib.data.batch_and_drop_remainder": ("batch", {"drop_remainder": True}),
    "tensorflow.contrib.data.padded_batch_and_drop_remainder": ("padded_batch", {"drop_remainder": True}),
}
# the CALL_KEYWORDS rows of functions and classes (the others are methods of a SYMBOLS class)
CALLABLES = frozenset(name for name in CALL_KEYWORDS if name.rpartition(".")[0] not in SYMBOLS)

# Longest prefix first is how they are read (`move_package`); tf-slim's modules are one level up
# from contrib's `python.slim` / `python.layers` / `python.ops` layout.
PACKAGES = {
    "tensorflow.contrib.slim.python.slim.nets": "tf_slim.nets",
    "tensorflow.contrib.slim.python.slim": "tf_slim",
    "tensorflow.contrib.slim": "tf_slim",
    "tensorflow.contrib.layers.python.layers": "tf_slim.layers",
    "tensorflow.contrib.framework.python.ops": "tf_slim.ops",
    # (SYMBOLS moves the module itself; this, the names imported from it)
    "tensorflow.contrib.learn.python.learn.datasets.mnist": "compat.tutorials.mnist.input_data",
    "tensorflow.contrib.learn.python.learn": "compat.learn",
    "tensorflow.examples.tutorials": "compat.tutorials",
}

REMOVED = {
    "tensorflow.contrib": (
        "tf.contrib was removed in TensorFlow 2: use the TF2 or tf_slim equivalent of {name} "
        "(see the TF 2 migration guide, 'contrib' section), or keep this file on TensorFlow 1"
    ),
    "tensorflow.examples": (
        "{name} is not shipped with TensorFlow 2: read the data with tf.keras.datasets or tf.data instead"
    ),
    "tensorflow": "{name} is neither in tf.compat.v1 nor in tf of this TensorFlow: use its TF2 replacement",
}

# Names TF 2.16 made public (relative to `tensorflow`) whose objects TF 2.15 holds in private modules only: the
# tables are derived on TF 2.21, so tf-private writes the public name for the private one a TF1 program read;
# compat binds it on TF 2.15 (compat._tf_internals), and the rule adds `import compat` where it writes one.
_DISTRIBUTED_SAVE = "tensorflow.python.data.experimental.ops.distributed_save_op:distributed_save"
PUBLISHED = {
    "NoneTensorSpec": "tensorflow.python.framework.none_tensor:NoneTensorSpec",
    "compat.v1.NoneTensorSpec": "tensorflow.python.framework.none_tensor:NoneTensorSpec",
    "data.experimental.distributed_save": _DISTRIBUTED_SAVE,
    "compat.v1.data.experimental.distributed_save": _DISTRIBUTED_SAVE,
}

# The closest TF 2 replacement of a contrib family nothing converts (longest prefix; a name below
# `contrib.<module>.python...` is also looked up as the `contrib.<module>.<name>` it was re-exported as):
# hand-kept, as no installed package knows what replaced what TensorFlow deleted. The manual step of
# uai-migrate's report entry and of uai-run's one line (`manual_for`); the rest get REMOVED's.
_VOCABULARY_PROCESSOR = "tf.keras.layers.TextVectorization (VocabularyProcessor's vocabulary and ids)"
CLOSEST = {
    "tensorflow.contrib.bayesflow": "TensorFlow Probability (tfp)",
    "tensorflow.contrib.crf": "TensorFlow Addons' tfa.text.crf_log_likelihood / tfa.text.crf_decode",
    "tensorflow.contrib.cudnn_rnn": "tf.keras.layers.LSTM / tf.keras.layers.GRU, which use the cuDNN kernel on GPU",
    "tensorflow.contrib.data": "tf.data.experimental",
    "tensorflow.contrib.distributions": "TensorFlow Probability's tfp.distributions",
    "tensorflow.contrib.eager": "TF2's eager execution itself: tf.GradientTape, tf.function",
    "tensorflow.contrib.estimator": (
        "tf.compat.v1.estimator and tf.compat.v1.estimator.experimental (with import compat)"
    ),
    "tensorflow.contrib.factorization": (
        "tf.compat.v1.estimator.experimental.KMeans (k-means as an Estimator, with import compat)"
    ),
    "tensorflow.contrib.factorization.python.ops.clustering_ops": (
        "TF core's copy of these ops, tensorflow.python.ops.clustering_ops (private, on TF 2.21: KMeans, "
        "nearest_neighbors, the *_INIT and *_DISTANCE constants; its KMeans.training_graph() returns "
        "(all_scores, cluster_idx, scores, cluster_centers_initialized, init_op, training_op)), or the "
        "Estimator tf.compat.v1.estimator.experimental.KMeans (with import compat)"
    ),
    "tensorflow.contrib.ffmpeg": "tf.audio.decode_wav, or TensorFlow I/O's tfio.audio",
    "tensorflow.contrib.framework": "tf_slim (import compat.slim) or tf.nest / tf.compat.v1 for the graph helpers",
    "tensorflow.contrib.graph_editor": "no TF2 equivalent: rebuild the graph (tf.compat.v1.graph_util, tf.function)",
    "tensorflow.contrib.image": "tf.image, or TensorFlow Addons' tfa.image",
    "tensorflow.contrib.keras": "tf.keras",
    "tensorflow.contrib.layers": "tf_slim (import compat.slim as slim) or tf.keras.layers",
    "tensorflow.contrib.layers.python.layers.summaries": (
        "tf_slim.layers.summaries (after import compat.slim), or tf.compat.v1.summary.histogram / scalar per tensor"
    ),
    "tensorflow.contrib.layers.summaries": (
        "tf_slim.layers.summaries (after import compat.slim), or tf.compat.v1.summary.histogram / scalar per tensor"
    ),
    "tensorflow.contrib.learn": (
        "tf.compat.v1.estimator (contrib.learn's Estimators) or compat.learn (Experiment, learn_runner, RunConfig)"
    ),
    "tensorflow.contrib.learn.ModeKeys": (
        "tf.estimator.ModeKeys: TRAIN and EVAL are the same, INFER is PREDICT (both 'infer')"
    ),
    "tensorflow.contrib.learn.python.learn.preprocessing": _VOCABULARY_PROCESSOR,
    "tensorflow.contrib.learn.preprocessing": _VOCABULARY_PROCESSOR,
    "tensorflow.contrib.lookup": "tf.lookup (StaticHashTable, KeyValueTensorInitializer) or tf.compat.v1.lookup",
    "tensorflow.contrib.losses": "tf.compat.v1.losses",
    "tensorflow.contrib.metrics": "tf.compat.v1.metrics, tf.sets, tf_slim.metrics, or tf.keras.metrics",
    "tensorflow.contrib.nccl": "tf.distribute.MirroredStrategy (NCCL all-reduce)",
    "tensorflow.contrib.opt": "tf.keras.optimizers, or TensorFlow Addons' tfa.optimizers",
    "tensorflow.contrib.predictor": "tf.saved_model.load(path).signatures['serving_default']",
    "tensorflow.contrib.quantize": "TensorFlow Model Optimization's tfmot.quantization",
    "tensorflow.contrib.rnn": (
        "tf.compat.v1.nn.rnn_cell (cells, wrappers) and tf.compat.v1.nn (dynamic_rnn, "
        "bidirectional_dynamic_rnn), with import compat"
    ),
    "tensorflow.contrib.rnn.GRUBlockCell": "tf.compat.v1.nn.rnn_cell.GRUCell (the same maths without the fused kernel)",
    "tensorflow.contrib.rnn.GRUBlockCellV2": (
        "tf.compat.v1.nn.rnn_cell.GRUCell (the same maths without the fused kernel)"
    ),
    "tensorflow.contrib.rnn.LSTMBlockCell": (
        "tf.compat.v1.nn.rnn_cell.LSTMCell (the same maths without the fused kernel)"
    ),
    "tensorflow.contrib.rnn.LayerNormBasicLSTMCell": "TensorFlow Addons' tfa.rnn.LayerNormLSTMCell",
    "tensorflow.contrib.rnn.stack_bidirectional_dynamic_rnn": (
        "tf.compat.v1.nn.bidirectional_dynamic_rnn once per layer, feeding each layer the concatenated "
        "outputs of the one before"
    ),
    "tensorflow.contrib.seq2seq": "TensorFlow Addons' tfa.seq2seq (the same classes)",
    "tensorflow.contrib.signal": "tf.signal",
    "tensorflow.contrib.slim": "tf_slim (import compat.slim as slim)",
    "tensorflow.contrib.staging": "Dataset.prefetch in a tf.data input pipeline instead of StagingArea",
    "tensorflow.contrib.summary": "tf.compat.v2.summary",
    "tensorflow.contrib.tensor_forest": "TensorFlow Decision Forests (tfdf.keras.RandomForestModel)",
    "tensorflow.contrib.tensor_forest.python.ops.data_ops": (
        "nothing in TF 2: ParseDataTensorOrDict / ParseLabelTensorOrDict made float32 tensors of the features"
        " and labels for the forest; use tf.cast(x, tf.float32) (tf.concat of a dict's values along axis 1), "
        "or give the features as they are to TensorFlow Decision Forests' tfdf.keras.RandomForestModel"
    ),
    "tensorflow.contrib.tensor_forest.python.tensor_forest": (
        "TensorFlow Decision Forests: tfdf.keras.RandomForestModel(num_trees=...) trained with model.fit "
        "(ForestHParams and RandomForestGraphs' training and inference graphs have no TF 2 equivalent)"
    ),
    "tensorflow.contrib.tpu": "tf.compat.v1.estimator.tpu and tf.compat.v1.tpu (with import compat)",
    # (also the manual step of its internal paths' other names, `contrib.training.python.training.bucket_ops`)
    "tensorflow.contrib.training": (
        "tf_slim.training.training (create_train_op, train), tf_slim.training.evaluation (evaluate_once, "
        "checkpoints_iterator), compat.hparams.HParams and compat.devices for the names they kept; tf.data for its "
        "queue-based batching and sampling (Dataset.bucket_by_sequence_length, Dataset.rejection_resample, "
        "Dataset.sample_from_datasets); HParams.parse for parse_values; compat.devices.GreedyLoadBalancingStrategy, "
        "or replica_device_setter's round robin, for RandomStrategy"
    ),
    "tensorflow.contrib.util": "tf.make_ndarray, tf.make_tensor_proto, tf.get_static_value",
}

# uai-migrate's rule reporting a name nothing provides (longest prefix)
# TF 1.x tf.keras names that TF 2's Keras 2 (tf-keras, what `import compat` makes tf.keras) no longer has, none of
# them rewritten by tf_upgrade_v2's tables: {name: its closest TF 2 replacement}. Hand-kept, as CLOSEST is; which
# names belong here is derived from real TF 1.15 (tests/codemods/test_rule_keras_gone.py reads its tf.keras names,
# tests/common/golden/tf115_keras_names.json). uai-migrate's keras-gone rule and uai-run's one line name the replacement.
_MIXED = "tf.keras.mixed_precision"
KERAS_GONE = {
    "tensorflow.keras.experimental.LinearCosineDecay": "tf.compat.v1.train.linear_cosine_decay (a function of the "
    "global step, not a schedule object)",
    "tensorflow.keras.experimental.NoisyLinearCosineDecay": "tf.compat.v1.train.noisy_linear_cosine_decay (a function "
    "of the global step, not a schedule object)",
    "tensorflow.keras.experimental.PeepholeLSTMCell": "tf.compat.v1.nn.rnn_cell.LSTMCell(units, use_peepholes=True) "
    "(its variables are laid out otherwise: a Keras checkpoint does not load into it)",
    "tensorflow.keras.experimental.export_saved_model": "model.save(path) or tf.saved_model.save(model, path)",
    "tensorflow.keras.experimental.load_from_saved_model": "tf.keras.models.load_model(path)",
    "tensorflow.keras.experimental.terminate_keras_multiprocessing_pools": "nothing: TF 2's Keras closes its worker "
    "pools itself; delete the call",
    "tensorflow.keras.mixed_precision.experimental.LossScaleOptimizer": f"{_MIXED}.LossScaleOptimizer(optimizer) "
    "(dynamic=True for loss_scale='dynamic'; a fixed scale is dynamic=False, initial_scale=<scale>)",
    "tensorflow.keras.mixed_precision.experimental.Policy": f"{_MIXED}.Policy(name) (no loss_scale argument: wrap the "
    f"optimizer in {_MIXED}.LossScaleOptimizer)",
    "tensorflow.keras.mixed_precision.experimental.global_policy": f"{_MIXED}.global_policy()",
    "tensorflow.keras.mixed_precision.experimental.set_policy": f"{_MIXED}.set_global_policy(policy)",
    "tensorflow.keras.utils.HDF5Matrix": "an h5py dataset read through tf.data.Dataset.from_generator",
    "tensorflow.keras.utils.convert_all_kernels_in_model": "nothing: it flipped Theano kernels, which TF 2's Keras "
    "does not read; delete the call",
    "tensorflow.keras.utils.multi_gpu_model": "tf.distribute.MirroredStrategy(): build and compile the model inside "
    "its scope() and fit it as it is (each replica takes a slice of the batch, as multi_gpu_model's did)",
    "tensorflow.keras.wrappers.scikit_learn.KerasClassifier": "SciKeras' scikeras.wrappers.KerasClassifier "
    "(pip install scikeras)",
    "tensorflow.keras.wrappers.scikit_learn.KerasRegressor": "SciKeras' scikeras.wrappers.KerasRegressor "
    "(pip install scikeras)",
}

REMOVED_RULES = {"tensorflow": "tf1-api", "tensorflow.contrib": "contrib-removed"}

RULES = {
    "tensorflow": "tf1-api",
    "tensorflow.app": "tf-flags",
    "tensorflow.flags": "tf-flags",
    "tensorflow.python": "tf-private",
    "tensorflow.python.platform.flags": "tf-flags",
    "tensorflow.python.platform.app": "tf-flags",
    "tensorflow.contrib": "contrib-equivalents",
    # contrib modules whose names uai-migrate's tf-upgrade rule converts to these homes
    **dict.fromkeys(
        (f"tensorflow.contrib.{m}" for m in ("data", "distribute", "lookup", "metrics", "rnn", "summary")),
        "tf-upgrade",
    ),
    # names that were tf.* names on TF 1.15: tf-upgrade writes their tf.compat.v1 names
    **dict.fromkeys((f"tensorflow.contrib.{name}" for name in SAME_IN_TF1), "tf-upgrade"),
    # compat's own, as TF 1 computed them (compat.contrib_losses, compat.contrib_metrics)
    "tensorflow.contrib.losses": "contrib-equivalents",
    "tensorflow.contrib.metrics.accuracy": "contrib-equivalents",
    # and the names only tf-slim's metrics module kept (MODULES' third home)
    **dict.fromkeys((f"tensorflow.contrib.metrics.{name}" for name in SLIM_METRICS), "contrib-equivalents"),
    # tf_upgrade_v2 renames the TPUEstimator names of these two (tf.contrib.tpu.python.tpu.tpu_config.RunConfig)
    **dict.fromkeys((f"tensorflow.contrib.tpu.python.tpu.{m}" for m in ("tpu_config", "tpu_estimator")), "tf-upgrade"),
    "tensorflow.contrib.slim": "contrib-slim",
    "tensorflow.contrib.layers": "contrib-slim",
    "tensorflow.contrib.layers.summaries": "contrib-equivalents",  # (a SYMBOLS module: contrib-slim moves tf-slim's names)
    "tensorflow.contrib.framework": "contrib-slim",
    "tensorflow.contrib.framework.nest": "tf-upgrade",  # (tf_upgrade_v2's tf.nest names; the rest it reports)
    # contrib.framework's names with a home outside tf-slim (SYMBOLS: get_name_scope, and SAME_IN_TF1's sort,
    # is_tensor, ...), and SAME_IN_TF1's names of the other modules whose TF homes Python cannot all import by name
    # (contrib.tpu, contrib.cluster_resolver): contrib-equivalents writes those modules' names
    **dict.fromkeys(
        (
            f"{TF}.contrib.{name}"
            for name in ("framework.get_name_scope", *SAME_IN_TF1)
            if name.startswith(("framework.", "tpu.", "cluster_resolver."))
        ),
        "contrib-equivalents",
    ),
    # contrib.summary's name TF 2 has no function for: contrib-equivalents ports it to compat.summary's
    "tensorflow.contrib.summary.record_summaries_every_n_global_steps": "contrib-equivalents",
    # contrib.lookup's index tables, which TF 2 exports under no name: contrib-equivalents ports them to compat's
    **dict.fromkeys(
        (
            f"tensorflow.contrib.lookup.{name}"
            for name in ("index_table_from_tensor", "index_table_from_file", "index_to_string_table_from_tensor")
        ),
        "contrib-equivalents",
    ),
    # contrib.rnn's names TF 2 has none of: contrib-equivalents ports them to compat.rnn's
    "tensorflow.contrib.rnn.stack_bidirectional_dynamic_rnn": "contrib-equivalents",
    "tensorflow.contrib.rnn.LayerNormBasicLSTMCell": "contrib-equivalents",
    **dict.fromkeys(TRANSFORMATIONS, "tf1-calls"),
    "tensorflow.examples.tutorials": "contrib-equivalents",
    **dict.fromkeys(PRE_1_0, "tf-upgrade"),
}

PASS_THROUGH = (
    "tensorflow.python",
    "tensorflow.core",
    "tensorflow.compat",
    "tensorflow.tools",
    "tensorflow.lite",
    "tensorflow.compiler",
    "tensorflow.dtensor",
    "tensorflow.tsl",
    "tensorflow.include",
)


def longest_key(table: Mapping[str, object], name: str) -> str | None:
    """The longest key of `table` equal to `name` or a dotted prefix of it, else None: the one lookup
    every table of dotted names is read with (here, by uai-run and by uai-migrate's rules)."""
    while name:
        if name in table:
            return name
        name = name.rpartition(".")[0]
    return None


def longest_prefix(table: Mapping[str, T], name: str) -> T | None:
    """The value of `longest_key(table, name)`, else None."""
    key = longest_key(table, name)
    return None if key is None else table[key]


def move_package(name: str, packages: Mapping[str, str] | None = None) -> str | None:
    """The new module of `name` if it is a key of `packages` (default PACKAGES) or lies below one (the
    longest), else None.

    A key itself is its new package: `from tensorflow.contrib.slim.python.slim import nets` reads `nets`
    from tf_slim, as uai-migrate's `from tf_slim import nets` does.
    """
    packages = PACKAGES if packages is None else packages
    package = longest_key(packages, name)
    return None if package is None else packages[package] + name[len(package) :]


def resolve(target: str) -> Any:
    """The object a table target names: `module` or `module:attribute.path` (imports the module)."""
    module_name, _, path = target.partition(":")
    value: Any = importlib.import_module(module_name)
    for part in filter(None, path.split(".")):
        value = getattr(value, part)
    return value


def split(target: str) -> tuple[str, str | None]:
    """A target as (module, attribute path or None)."""
    module, _, path = target.partition(":")
    return module, path or None


def v1_twin(name: str) -> str | None:
    """`tensorflow.compat.v1.<path>`, how TF 1.13+ code also wrote the TF1 API name `tensorflow.<path>`
    (`tf.compat.v1.contrib.layers` in tflearn); None for TensorFlow's own modules and tf.examples, which
    tf.compat.v1 never had."""
    if not name.startswith(TF + ".") or name.startswith((*PASS_THROUGH, TF + ".examples")):
        return None
    return V1 + name[len(TF) :]


def tf1_name(name: str) -> str:
    """The TF1 name a `tensorflow.compat.v1.<path>` spelling stands for (`v1_twin` reversed); else `name`."""
    if name.startswith(V1 + "."):
        tf1 = TF + name[len(V1) :]
        if v1_twin(tf1) == name:
            return tf1
    return name


def with_v1_twins(table: dict) -> dict:
    """`table` plus, for each key that has one, its `tensorflow.compat.v1.` spelling with the same value."""
    return {**table, **{v1_twin(key): value for key, value in table.items() if v1_twin(key)}}


def rule_for(name: str) -> str:
    return longest_prefix(RULES, name) or RULES[TF]


def removed_rule_for(name: str) -> str:
    if tf1_name(name) in KERAS_GONE:
        return "keras-gone"
    return longest_prefix(REMOVED_RULES, name) or REMOVED_RULES[TF]


def manual_for(name: str) -> str:
    """What a person has to do about `name`, which nothing provides (uai-migrate's manual step, the end of
    uai-run's line): for a contrib name, its family's closest replacement where CLOSEST knows one."""
    name = tf1_name(name)
    short = "tf" + name[len(TF) :] if name.startswith(TF) else name
    parts = name.split(".")
    # `contrib.rnn.python.ops.rnn.X` is what `contrib.rnn.X` re-exported
    public = ".".join([*parts[:3], parts[-1]]) if len(parts) > 5 and parts[3] == "python" else name
    if name in KERAS_GONE:
        return f"TensorFlow 2's tf.keras has no {short[len('tf.keras.') :]}: use {KERAS_GONE[name]}"
    closest = CLOSEST.get(public) or longest_prefix(CLOSEST, name)
    if closest:
        return f"tf.contrib was removed in TensorFlow 2: {short} has no drop-in replacement; the closest is {closest}"
    return (longest_prefix(REMOVED, name) or REMOVED[TF]).format(name=short)


def is_removed_module(name: str) -> bool:
    """A module with no home: under tf.contrib or tf.examples, and neither in MODULES nor moved by PACKAGES."""
    if name in MODULES or move_package(name) or has_entries_below(name):
        return False
    return name.startswith(("tensorflow.contrib.", "tensorflow.examples"))


def has_entries_below(name: str) -> bool:
    """Does any table entry name `name` or lie below it (so the TF1 face must handle it)?"""
    prefix = name + "."
    if any(key.startswith(prefix) for key in CALLABLES):  # (a callable itself is served by its module's face)
        return True
    return any(key == name or key.startswith(prefix) for table in (SYMBOLS, MODULES, PACKAGES) for key in table)


def callable_row(name: str) -> str | None:
    """The CALL_KEYWORDS callable TF1 name `name` (of either spelling, v1_twin) is called as: itself, or the tf.*
    callable it was on TF 1.15 (SAME_IN_TF1: tf.contrib.autograph.set_loop_options); else None."""
    name = tf1_name(name)
    contrib = TF + ".contrib."
    if name.startswith(contrib) and name[len(contrib) :] in SAME_IN_TF1:
        name = f"{TF}.{SAME_IN_TF1[name[len(contrib) :]]}"
    return name if name in CALLABLES else None

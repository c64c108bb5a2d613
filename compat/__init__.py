"""uai-compat runtime: TF1-era training code (platform SDK, Estimator, tf-slim) on TF 2.15 and TF 2.21.

Importing `compat` is cheap and never imports TensorFlow. It prepares the process:
  - on TF >= 2.16 it selects legacy Keras (tf-keras) so `tf.compat.v1.layers` and tf-slim
    work (`compat._keras_setup`);
  - on TF >= 2.16 it makes `tf.estimator` / `tf.compat.v1.estimator` appear when TensorFlow
    is imported, backed by the released tensorflow-estimator 2.15 (`compat._estimator_support`);
  - it repairs tf-slim (`import tf_slim as slim` works as `compat.slim` does) when tf_slim is
    imported (`compat._slim_fix`);
  - it binds the internals TF 2 moved out of `tensorflow.python.*` modules back where TF1-era
    libraries read them (`ops.register_tensor_conversion_function`) when TensorFlow is imported
    (`compat._tf_internals`);
  - it lets TF 2.20's `tf.io.write_graph(..., as_text=True)` (the Estimator's graph.pbtxt) run under
    protobuf >= 7, which removed an argument it passes (`compat._protobuf_text`).
Modules imported before compat are repaired at `import compat`, later ones when they are
imported (`compat._import_hook`): the order of `import compat`, `import tensorflow` and
`import tf_slim` does not matter.
`compat.install()` does all runtime fixes at once, eagerly (it imports TensorFlow): call it
when TensorFlow was imported before compat, or to fail early. Everything that differs
between TensorFlow versions lives in this package; nothing else in the project tests the
TF version.

Public modules: `compat.flags` (uflag / tf.app.flags), `compat.dist` (uai_dist),
`compat.tf_config` (TF_CONFIG dialects), `compat.errors`, `compat.devices` (device setters,
logical CPUs), `compat.strategy` (strategy and Estimator RunConfig from TF_CONFIG), `compat.slim`
(tf-slim, repaired), `compat.estimator` (tf.estimator to import names from), `compat.hparams`
(tf.contrib.training.HParams), `compat.graph_ops` (TF 1.x's private `with_dependencies` on public ops), `compat.rnn`
(tf.contrib.rnn's stack_bidirectional_dynamic_rnn and LayerNormBasicLSTMCell), `compat.lazy_adam`
(tf.contrib.opt's LazyAdamOptimizer),
`compat.weight_decay` (tf.contrib.opt's AdamW, MomentumW and extend_with_decoupled_weight_decay),
`compat.learn` (tf.contrib.learn's Experiment, learn_runner, run_config),
`compat.scoped_layers` (Keras layers shared by TF1 variable scopes: uai-migrate's native ports of towers),
`compat.slim_nets` (a tf-slim net function, such as the slim zoo's, as a Keras layer keeping TF1's variable names),
`compat.train_steps` (a ported MonitoredTrainingSession's train steps on the strategy `compat.strategy()` gives),
`compat.clones` (model_deploy's clone and variable devices, checked at run time by the ports),
`compat.tutorials` (tensorflow.examples.tutorials), `uai_run` (`uai-run`: unmodified TF1 programs),
`compat.tf1_names` (the TF1 name -> new home table `uai_run` and uai-migrate read), `compat.tf1_modules`
(a TF1 module path as an object resolving its names by that table: a contrib module read as a value) and
`compat.library_names` (the same for names other libraries removed, such as Pillow's ANTIALIAS).
Lazy shortcuts: `compat.device(setter)`, `compat.strategy(...)`, `compat.scoped_layers`, `compat.slim_nets`.

Above the shims, and imported by the programs only: their shared code (`trainlib.models`,
`trainlib.data`, `trainlib.training`); no shim imports it (tests/common/test_layering.py).
"""

import importlib
from typing import Any

from compat import (
    _dataset_division,
    _estimator_support,
    _graph_seed,
    _keras_rnn,
    _keras_setup,
    _protobuf_text,
    _slim_fix,
    _tf_internals,
)

_keras_setup.prefer_legacy_keras()
_keras_setup.repair_loaded_tensorflow()  # cheap: does nothing unless TensorFlow is already imported
_estimator_support.watch()
_slim_fix.watch()
_tf_internals.watch()  # private names TF moved, for every library; watches one module name
_protobuf_text.watch()  # TF <= 2.20's text write_graph under protobuf >= 7; watches one module name
_keras_setup.seed_keras_from_graph()  # watches two module names, imports nothing
_keras_rnn.tf1_recurrent_layers()  # Keras 2's recurrent layers as TF 1.15's in v1 graphs; watches four module names
_graph_seed.tf1_op_seeds()  # TF 1.x's op seeds in graph mode; watches one module name, imports nothing
_dataset_division.tf1_dataset_division()  # TF 1.15's reciprocal multiply in tf.data functions; watches one name

# name -> (module, attribute): resolved on first use so `import compat` stays TensorFlow-free.
_LAZY = {
    "device": ("compat.devices", "device"),
    "strategy": ("compat.strategy", None),  # the module is callable: compat.strategy(...)
    "run_config": ("compat.strategy", "run_config"),
    "logical_cpus": ("compat.devices", "logical_cpus"),
    "scoped_layers": ("compat.scoped_layers", None),  # (uai-migrate's native ports write compat.scoped_layers.layer)
    "slim_nets": ("compat.slim_nets", None),  # (and compat.slim_nets.SlimNet)
}


def install() -> None:
    """Activate every runtime fix now (imports TensorFlow); safe to call more than once.

    Legacy Keras for `tf.compat.v1.layers` (raises `compat.errors.KerasSetupError` in one line
    if Keras 3 was already bound too early to be fixed), and `tf.estimator` on TF >= 2.16.
    """
    _keras_setup.prefer_legacy_keras()
    _keras_setup.check_loaded_tensorflow()
    _estimator_support.activate()
    _slim_fix.install()


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module_name, attribute = _LAZY[name]
        module = importlib.import_module(module_name)
        value = module if attribute is None else getattr(module, attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'compat' has no attribute {name!r}")

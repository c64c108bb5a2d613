"""Make tf-slim 1.1.0 (the newest release) work on TF 2.15 and TF 2.21.

tf-slim was released for TF 2.2 and reaches into TensorFlow internals that moved since:
  - `tensorflow.python.framework.ops.Tensor` (gone: the class lives in
    `tensorflow.python.framework.tensor`), used by `slim.batch_norm` and `smart_cond`;
  - `tensorflow.python.layers.normalization` and friends forward to
    `<keras>.legacy_tf_layers`, a module that only exists as `tf_keras.src.legacy_tf_layers`
    (TF 2.21 + tf-keras) or `keras.src.legacy_tf_layers` (TF 2.15 + Keras 2.15).
We provide the old names at runtime, without editing installed files, before tf_slim runs.
"""

import importlib
import importlib.util
import sys

# (missing module name, where its contents live now), first match wins.
_LEGACY_LAYER_HOMES = (
    ("tf_keras.legacy_tf_layers", "tf_keras.src.legacy_tf_layers"),
    ("keras.legacy_tf_layers", "keras.src.legacy_tf_layers"),
)

_installed = False


def _alias_package(missing, home):
    if missing in sys.modules or importlib.util.find_spec(home.split(".")[0]) is None:
        return
    try:
        package = importlib.import_module(home)
    except ImportError:
        return
    sys.modules[missing] = package
    for sub in ("base", "core", "convolutional", "normalization", "pooling", "variable_scope_shim"):
        try:
            sys.modules[f"{missing}.{sub}"] = importlib.import_module(f"{home}.{sub}")
        except ImportError:
            continue


def install():
    """Idempotently provide what tf-slim expects; imports TensorFlow."""
    global _installed
    if _installed:
        return
    from tensorflow.python.framework import ops

    if not hasattr(ops, "Tensor"):
        from tensorflow.python.framework import tensor

        ops.Tensor = tensor.Tensor
    for missing, home in _LEGACY_LAYER_HOMES:
        _alias_package(missing, home)
    # tf_keras itself must resolve for TF 2.15's forwarding modules when only keras exists.
    if importlib.util.find_spec("tf_keras") is None and "tf_keras" not in sys.modules:
        try:
            keras = importlib.import_module("keras")
            sys.modules["tf_keras"] = keras
            sys.modules["tf_keras.legacy_tf_layers"] = sys.modules.get("keras.legacy_tf_layers") or importlib.import_module(
                "keras.src.legacy_tf_layers"
            )
        except ImportError:
            pass
    _installed = True

"""Make tf-slim 1.1.0 (the newest release) work on TF 2.15 and TF 2.21.

tf-slim was released for TF 2.2 and reaches into TensorFlow internals that moved since:
  - `tensorflow.python.framework.ops.Tensor` (gone: the class lives in
    `tensorflow.python.framework.tensor`), used by `slim.batch_norm` and `smart_cond`;
  - `tensorflow.python.ops.control_flow_ops.cond` (gone: `tensorflow.python.ops.cond.cond`), which
    tf-slim's `smart_cond` calls when the predicate is a tensor (e.g. `is_training`);
  - `tensorflow.python.layers.normalization` and friends forward to
    `<keras>.legacy_tf_layers`, a module that only exists as `tf_keras.src.legacy_tf_layers`
    (TF 2.21 + tf-keras) or `keras.src.legacy_tf_layers` (TF 2.15 + Keras 2.15).
We provide the old names at runtime, without editing installed files, before tf_slim builds a layer.
"""

import importlib
import importlib.util
import sys

# TF's forwarding modules (tensorflow/python/layers/*.py) import `tf_keras.legacy_tf_layers.*`;
# its contents live in whichever Keras 2 is installed.
_MISSING = "tf_keras.legacy_tf_layers"
_HOMES = ("tf_keras.src.legacy_tf_layers", "keras.src.legacy_tf_layers")
_SUBMODULES = ("base", "core", "convolutional", "normalization", "pooling", "variable_scope_shim")

_installed = False


def _register_legacy_layers():
    """Register only the missing module names, never a fake `tf_keras` package."""
    if _MISSING in sys.modules:
        return
    for home in _HOMES:
        if importlib.util.find_spec(home.split(".")[0]) is None:
            continue
        try:
            package = importlib.import_module(home)
        except ImportError:
            continue
        sys.modules[_MISSING] = package
        for sub in _SUBMODULES:
            try:
                sys.modules[f"{_MISSING}.{sub}"] = importlib.import_module(f"{home}.{sub}")
            except ImportError:
                continue
        return


def watch() -> None:
    """Repair tf-slim when it gets imported, at once if it already is; never imports TensorFlow itself."""
    from compat import _import_hook

    if "tf_slim" in sys.modules:
        install()
    # after, not before: tf_slim reads the missing names only when a layer is built, and
    # repairing after its import needs no TensorFlow import of our own
    _import_hook.on_import("tf_slim", after=install)


def install() -> None:
    """Idempotently provide what tf-slim expects; imports TensorFlow."""
    global _installed
    if _installed:
        return
    from tensorflow.python.framework import ops
    from tensorflow.python.ops import control_flow_ops

    if not hasattr(ops, "Tensor"):
        from tensorflow.python.framework import tensor

        ops.Tensor = tensor.Tensor
    if not hasattr(control_flow_ops, "cond"):
        from tensorflow.python.ops import cond

        control_flow_ops.cond = cond.cond
    _register_legacy_layers()
    _installed = True

"""Make tf-slim 1.1.0 (the newest release) work on TF 2.15 and TF 2.21.

tf-slim was released for TF 2.2 and reaches into TensorFlow internals that moved since:
  - names its modules read on TensorFlow's private modules that TF split into new modules
    (`ops.Tensor`, `control_flow_ops.cond` / `case` / `while_loop` / `Assert`, `array_ops.stack` /
    `unstack`, `ops.IndexedSlices`: compat._tf_internals, which serves them to every library) or
    dropped (`variable_scope.variable`, TF 1's `tf.compat.v1.Variable` through the variable creator
    scopes). The whole list is derived from tf-slim's source by tests/common/test_private_internals.py;
  - `tensorflow.python.layers.normalization` and friends forward to
    `<keras>.legacy_tf_layers`, a module that only exists as `tf_keras.src.legacy_tf_layers`
    (TF 2.21 + tf-keras) or `keras.src.legacy_tf_layers` (TF 2.15 + Keras 2.15).
We provide the old names at runtime, without editing installed files, before tf_slim builds a layer.
"""

import importlib
import importlib.util
import sys
from typing import Any

from compat import _tf_internals

# TF's forwarding modules (tensorflow/python/layers/*.py) import `tf_keras.legacy_tf_layers.*`;
# its contents live in whichever Keras 2 is installed.
_MISSING = "tf_keras.legacy_tf_layers"
_HOMES = ("tf_keras.src.legacy_tf_layers", "keras.src.legacy_tf_layers")
_SUBMODULES = ("base", "core", "convolutional", "normalization", "pooling", "variable_scope_shim")

_installed = False


def v1_variable(
    initial_value: Any = None,
    trainable: bool | None = None,
    collections: list[str] | None = None,
    validate_shape: bool = True,
    caching_device: Any = None,
    name: str | None = None,
    dtype: Any = None,
    constraint: Any = None,
    use_resource: bool | None = None,
    synchronization: Any = None,
    aggregation: Any = None,
) -> Any:
    """TF 1's `variable_scope.variable` (gone on TF 2.15 and 2.21), which `slim.local_variable` and
    `slim.global_variable` call: a `tf.compat.v1.Variable`, made through the variable creator
    scopes as before. Same parameters in the same order; None keeps TF's defaults."""
    from tensorflow.python.ops import variable_v1

    optional = {"synchronization": synchronization, "aggregation": aggregation}
    return variable_v1.VariableV1(
        initial_value=initial_value,
        trainable=trainable,
        collections=collections,
        validate_shape=validate_shape,
        caching_device=caching_device,
        name=name,
        dtype=dtype,
        constraint=constraint,
        use_resource=use_resource,
        **{key: value for key, value in optional.items() if value is not None},
    )


def _provide_moved_names() -> None:
    """Bind each moved or dropped name on the module tf-slim reads it from, where that module lacks it."""
    _tf_internals.provide()
    variable_scope = importlib.import_module("tensorflow.python.ops.variable_scope")
    if not hasattr(variable_scope, "variable"):
        setattr(variable_scope, "variable", v1_variable)  # noqa: B010 (a module typed as ModuleType)


def _register_legacy_layers() -> None:
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
    _provide_moved_names()
    _register_legacy_layers()
    _installed = True

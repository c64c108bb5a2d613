"""Make tf-slim 1.1.0 (its newest release) build `slim.batch_norm` on TF 2.15 and TF 2.21.

What breaks: tf-slim imports `tensorflow.python.layers.normalization`, whose TF shim loads
`tf_keras.legacy_tf_layers.normalization` lazily. That module path exists in no released
Keras: tf-keras 2.21 ships it as `tf_keras.src.legacy_tf_layers`, Keras 2.15 as
`keras.src.legacy_tf_layers`, and TF 2.15 has no tf_keras at all. So `slim.batch_norm`, and
with it most of `tf_slim.nets`, raises ModuleNotFoundError on both versions.

The fix registers the real module under the missing names in `sys.modules` (TF's lazy loader
imports by full dotted name, which Python answers from `sys.modules` without importing the
parents). Conv, pooling and dense layers of tf-slim come from TF's own bundled copy and need
nothing. `install()` is idempotent and cheap after the first call.
"""

import importlib
import sys

from compat.errors import KerasSetupError

MISSING = "tf_keras.legacy_tf_layers"
# Where each Keras that TF 2.15 / 2.21 can be paired with keeps the legacy tf.layers.
_PROVIDERS = ("tf_keras.src.legacy_tf_layers", "keras.src.legacy_tf_layers")


def _import_optional(name):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name and name.startswith(err.name):
            return None  # the module (or its package) is absent; a broken install raises
        raise


def provider():
    """Name of the installed package that really holds the legacy tf.layers, or None."""
    for name in _PROVIDERS:
        if _import_optional(name + ".normalization") is not None:
            return name
    return None


def install():
    """Register `tf_keras.legacy_tf_layers[.normalization]` if the name is missing; return the provider used."""
    if MISSING + ".normalization" in sys.modules:
        return sys.modules[MISSING].__name__
    if _import_optional(MISSING + ".normalization") is not None:
        return MISSING  # a future tf-keras that ships the name itself
    source = provider()
    if source is None:
        raise KerasSetupError(
            "tf-slim needs the legacy tf.layers of tf-keras (TF >= 2.16) or Keras 2 (TF <= 2.15); "
            "neither tf_keras.src.legacy_tf_layers nor keras.src.legacy_tf_layers can be imported"
        )
    sys.modules[MISSING] = importlib.import_module(source)
    sys.modules[MISSING + ".normalization"] = importlib.import_module(source + ".normalization")
    return source

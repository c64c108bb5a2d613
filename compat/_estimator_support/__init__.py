"""tf.estimator on TensorFlow >= 2.16, from the released tensorflow-estimator 2.15 package.

That package imports four things TF 2.16 removed. `activate()` provides them at runtime,
without touching any installed file, then exposes `tf.estimator` / `tf.compat.v1.estimator`:
  1. `tensorflow.python.distribute.estimator_training` (our `_coordinator_training`);
  2. the `estimator` API name in `tensorflow.python.util.tf_export` (`_api_tables`);
  3. the TPU modules only TPUEstimator's TPU paths used (`_tpu_standins`, failing clearly if used);
  4. lazy `estimator` attributes on the TensorFlow API modules (`_lazy_api`);
  5. the modules TF 2.15 forwarded to tensorflow-estimator's (`tensorflow.python.tpu.tpu_config`,
     `tensorflow.python.estimator.*`), which TF1-era libraries import (`_forwarding`).
On TF <= 2.15 everything here is a no-op: the real Estimator imports as released.

`import compat` calls `watch()`, which costs nothing: the work happens when TensorFlow or
tensorflow_estimator is imported (see `compat._import_hook`).
"""

import functools
import importlib.machinery
import sys
import threading
from typing import Any

from compat._version import has_builtin_estimator, tf_version

TRAINING_MODULE = "tensorflow.python.distribute.estimator_training"
_lock = threading.RLock()
_state = {"internals": False}
# Importing `tensorflow.compat.v1` / `.v2` (tf_keras does, so do scripts) runs TF's API
# module again under that name and rebinds `tf.compat`: the new modules need the attribute too.
API_MODULES = ("tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2")


@functools.cache
def needed() -> bool:
    """True when TensorFlow lacks a working tf.estimator and the 2.15 package is installed."""
    if tf_version() is None or has_builtin_estimator():
        return False
    # PathFinder, not importlib.util.find_spec: the latter would re-enter our import hook.
    return importlib.machinery.PathFinder.find_spec("tensorflow_estimator") is not None


def provide_internals() -> None:
    """Items 1-3: what tensorflow_estimator needs before it is imported. Imports TensorFlow."""
    with _lock:
        if _state["internals"] or not needed():
            return
        _state["internals"] = True  # set first: importing TF below may re-enter through the hook
        from compat._estimator_support import _api_tables, _tpu_standins

        _api_tables.install()
        _tpu_standins.install()
        if TRAINING_MODULE not in sys.modules:
            from compat._estimator_support import _coordinator_training

            sys.modules[TRAINING_MODULE] = _coordinator_training
            distribute: Any = sys.modules["tensorflow.python.distribute"]
            distribute.estimator_training = _coordinator_training


def expose_attributes() -> None:
    """Item 4: `tf.estimator` and `tf.compat.v1.estimator`, loaded on first use (on every API module that lacks it)."""
    with _lock:
        if not needed() or "tensorflow" not in sys.modules:
            return
        from compat._estimator_support import _lazy_api

        _lazy_api.install(provide_internals)


def activate() -> bool:
    """Make tf.estimator work on this TensorFlow (imports TensorFlow); True if anything was needed."""
    if not needed():
        return False
    provide_internals()
    expose_attributes()
    return True


def watch() -> None:
    """Activate when TensorFlow / tensorflow_estimator get imported; at once if TF already is."""
    if not needed():
        return
    expose_attributes()
    from compat import _import_hook
    from compat._estimator_support import _forwarding

    _forwarding.install()  # a finder for a few module names; imports nothing

    for name in API_MODULES:
        _import_hook.on_import(name, after=expose_attributes)
    _import_hook.on_import("tensorflow_estimator", before=provide_internals)

"""TensorFlow internals that TF 2 moved out of the private modules TF1-era libraries read them from.

Libraries written for TF 1.x and early 2.x reach into `tensorflow.python.*` (`from
tensorflow.python.framework import ops`, then `ops.register_tensor_conversion_function(...)`), and
TensorFlow split those modules since: the names still exist, in new modules. Each one is bound back
on the module that lost it, once TensorFlow is imported, for every library (tf-slim, mesh-tensorflow,
...): the same object, so the behaviour is TensorFlow's own. A name the module still has is left alone.

  MOVED  {(module that lost the name, name): (module holding it now, its name there)}

The same on TF 2.15 and 2.21 (docs/traps.md). What tf-slim and tensorflow-estimator read is derived
from their source by tests/common/test_private_internals.py.
"""

import importlib
import sys

from compat import tf1_names

MOVED = {
    ("tensorflow.python.framework.ops", "Tensor"): ("tensorflow.python.framework.tensor", "Tensor"),
    ("tensorflow.python.framework.ops", "IndexedSlices"): (
        "tensorflow.python.framework.indexed_slices",
        "IndexedSlices",
    ),
    # mesh-tensorflow (every tensor2tensor model imports it) registers its variable class with it
    ("tensorflow.python.framework.ops", "register_tensor_conversion_function"): (
        "tensorflow.python.framework.tensor_conversion_registry",
        "register_tensor_conversion_function",
    ),
    ("tensorflow.python.ops.control_flow_ops", "cond"): ("tensorflow.python.ops.cond", "cond"),
    ("tensorflow.python.ops.control_flow_ops", "case"): ("tensorflow.python.ops.control_flow_case", "case"),
    ("tensorflow.python.ops.control_flow_ops", "while_loop"): ("tensorflow.python.ops.while_loop", "while_loop"),
    ("tensorflow.python.ops.control_flow_ops", "Assert"): ("tensorflow.python.ops.control_flow_assert", "Assert"),
    ("tensorflow.python.ops.array_ops", "stack"): ("tensorflow.python.ops.array_ops_stack", "stack"),
    ("tensorflow.python.ops.array_ops", "unstack"): ("tensorflow.python.ops.array_ops_stack", "unstack"),
}

_provided = False


def provide() -> None:
    """Bind each moved name on the module that lost it, and each of tf1_names.PUBLISHED on its public module
    (TF 2.15), where that module lacks it (imports TensorFlow)."""
    global _provided
    if _provided:
        return
    for (module_name, name), (home, home_name) in MOVED.items():
        _bind(module_name, name, home, home_name)
    for path, target in tf1_names.PUBLISHED.items():
        module_name, _, name = f"tensorflow.{path}".rpartition(".")
        home, _, home_name = target.partition(":")
        _bind(module_name, name, home, home_name)
    _provided = True


def _bind(module_name: str, name: str, home: str, home_name: str) -> None:
    module = importlib.import_module(module_name)
    if not hasattr(module, name):
        setattr(module, name, getattr(importlib.import_module(home), home_name))


def watch() -> None:
    """Provide the names once TensorFlow is imported, at once if it already is; never imports it itself."""
    from compat import _import_hook

    if "tensorflow" in sys.modules:
        provide()
    _import_hook.on_import("tensorflow", after=provide)

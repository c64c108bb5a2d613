"""The op count TF 1.15's op seeds are read from (compat/_graph_seed.py), and what its builders share.

A graph's op seed on TF 1.15 was its op count; where TF 2 builds other ops than 1.15 for the same values,
compat either builds 1.15's ops again or counts the difference here (`count_tf1_ops`), per graph. The
builders of compat/_graph_seed.py and compat/_graph_seed_inputs.py both import this module, which imports
neither.
"""

import sys
import weakref
from typing import Any

# graph -> how many more ops TF 1.15 built than it holds (fewer: negative), where a builder's difference is
# counted rather than built (compat/_graph_seed_inputs.py)
_TF1_COUNTED: "weakref.WeakKeyDictionary[Any, int]" = weakref.WeakKeyDictionary()


def count_tf1_ops(graph: Any, ops: int) -> None:
    """Count `ops` ops more (fewer if negative) in `graph`'s op count than it holds: TF 1.15 built them where TF 2
    builds other ops (or fewer)."""
    if ops:
        _TF1_COUNTED[graph] = _TF1_COUNTED.get(graph, 0) + ops


def _tf(name: str) -> Any:
    """A module of TensorFlow's, loaded with it (`framework.ops`), read from sys.modules: no import statement
    runs while the user's graph is built, so none goes through uai-run's import hook."""
    return sys.modules["tensorflow.python." + name]


def _is_tensor(value: Any) -> bool:
    return bool(_tf("framework.tensor_util").is_tf_type(value))


def _tf1_graph() -> bool:
    """True while ops go into a v1 graph (eager off, or a tf.Graph being built) or a function traced in one."""
    return not _tf("framework.ops").executing_eagerly_outside_functions()


def _rebind(original: Any, replacement: Any, api_only: bool = False) -> None:
    """Replace every module-level binding of `original` in TensorFlow's loaded modules (its API modules too;
    only those if `api_only`)."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("tensorflow") or module is None or (api_only and name.startswith("tensorflow.python")):
            continue
        for candidate in (module, getattr(module, "_tfmw_wrapped_module", None)):
            namespace = getattr(candidate, "__dict__", None)
            if namespace is None:
                continue
            for attribute, value in list(namespace.items()):
                if value is original:
                    namespace[attribute] = replacement

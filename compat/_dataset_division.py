"""TF 1.15's division by a constant inside tf.data functions, in a v1 graph (docs/traps.md).

TF 1.15's Grappler optimized the functions of a graph's tf.data pipeline with the graph, and its constant
folding turned a floating-point division by a constant into a multiplication by the constant's reciprocal:
`image / 255.0` in a `Dataset.map` function gave values one ulp away from the exact quotient in a third of
the pixels. TF 2.15 and 2.21 still rewrite the graph itself but skip tf.data functions, so the batches of a
TF 1 input pipeline differed from TF 1.15's in the last bit. While a dataset function is traced into a v1
graph, `real_div` by a divisor whose value is known when the graph is built builds that multiplication
(Grappler folded more: a divisor it could compute from the graph's constants only at run time stays exact).
"""

import functools
import threading
from typing import Any

from compat._graph_seed_ops import _is_tensor, _rebind, _tf, _tf1_graph, count_tf1_ops

_TRACING = threading.local()  # how many dataset functions are being traced in this thread
_FLOATS = ("float32", "float64")  # the reciprocal in numpy rounds as TF's Reciprocal kernel did for these


def _tf1_function_wrapper(original: Any) -> Any:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _TRACING.depth = getattr(_TRACING, "depth", 0) + 1
        try:
            original(self, *args, **kwargs)
        finally:
            _TRACING.depth -= 1

    return __init__


def _tf1_real_div(original: Any) -> Any:
    # the original's attributes too: TensorFlow's export names, by which the API tables find its public name
    @functools.wraps(original)
    def real_div(x: Any, y: Any, name: Any = None) -> Any:
        if getattr(_TRACING, "depth", 0) and _tf1_graph() and _is_tensor(y):  # tf.realdiv(x, 3.0): no dtype yet
            dtype = y.dtype.base_dtype
            value = _tf("framework.tensor_util").constant_value(y) if dtype.name in _FLOATS else None
            if value is not None:
                divisor = value.astype(dtype.as_numpy_dtype)
                reciprocal = _tf("framework.constant_op").constant(divisor.dtype.type(1) / divisor, dtype)
                count_tf1_ops(reciprocal.graph, -1)  # the divisor's constant stays, unused: 1.15 built one
                return _tf("ops.gen_math_ops").mul(x, reciprocal, name=name)
        return original(x, y, name=name)

    return real_div


def _install() -> None:
    wrapper = _tf("data.ops.structured_function").StructuredFunctionWrapper
    if getattr(wrapper.__init__, "_compat_tf1", False):
        return
    wrapper.__init__ = _tf1_function_wrapper(wrapper.__init__)
    wrapper.__init__._compat_tf1 = True
    gen_math_ops = _tf("ops.gen_math_ops")
    original = gen_math_ops.real_div
    _rebind(original, _tf1_real_div(original))


def tf1_dataset_division() -> None:
    """Watch for tf.data's function wrapper (imports nothing)."""
    from compat import _import_hook

    _import_hook.on_import("tensorflow.python.data.ops.structured_function", after=_install)

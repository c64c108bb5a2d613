"""Keras 2's recurrent layers (tf.keras.layers.LSTM, GRU, SimpleRNN, RNN) in a TF 1 graph, as TF 1.15's Keras
built them.

- Without `return_sequences`, Keras' `backend.rnn` keeps only the last output: a TensorArray of size 1 written at
  index 0 at every step, which only TF 2's TensorArray (control flow v2) allows. Keras returns every output where
  TF 2 behaviour is off ("Not supported in TF1"), but uai-migrate's graph-mode output keeps TF 2 behaviour with v1
  control flow: such a layer stopped at its first `session.run` on TF 2.15 and 2.21 ("Could not write to
  TensorArray index 0 because it has already been written to"). Under v1 control flow every output is kept, as
  Keras does in TF1; the layer reads the last one either way.
- TF 1.15's `RNN.build` built the cell in the layer's own name scope (`lstm/kernel`); Keras 2 builds it in a scope
  of the cell's name (`lstm/lstm_cell/kernel`), so a tf.train.Saver checkpoint of TF 1.15 did not restore. In a v1
  graph the cell is built in the layer's scope again.
Measured: tests/common/tf1_programs/keras_rnn_variables.py against real TF 1.15.
"""

import functools
import sys
from typing import Any

from compat import _import_hook

# tf-keras (TF >= 2.16 through compat), Keras 2.15 (TF 2.15)
_BACKENDS = ("tf_keras.src.backend", "keras.src.backend")
_RNN_LAYERS = ("tf_keras.src.layers.rnn.base_rnn", "keras.src.layers.rnn.base_rnn")


def _tf(name: str) -> Any:
    return sys.modules["tensorflow.python." + name]


def _v1_graph() -> bool:
    return not _tf("framework.ops").executing_eagerly_outside_functions()


def _v1_control_flow() -> bool:
    graph = _tf("framework.ops").get_default_graph()
    return _v1_graph() and not _tf("ops.control_flow_util").EnableControlFlowV2(graph)


def _every_output(original: Any) -> Any:
    @functools.wraps(original)
    def rnn(*args: Any, **kwargs: Any) -> Any:
        if _v1_control_flow():
            kwargs["return_all_outputs"] = True
        return original(*args, **kwargs)

    rnn.tf1_keras = True  # type: ignore[attr-defined]
    return rnn


def _cell_in_layer_scope(original: Any) -> Any:
    @functools.wraps(original)
    def build(self: Any, input_shape: Any) -> Any:
        cell = getattr(self, "cell", None)
        if cell is None or getattr(cell, "built", True) or not hasattr(cell, "build") or not _v1_graph():
            return original(self, input_shape)
        graph = _tf("framework.ops").get_default_graph()
        scope = graph.get_name_scope()
        cell_build = cell.build

        def build_in_layer_scope(shape: Any) -> Any:
            with graph.name_scope(scope + "/" if scope else ""):  # back in the layer's scope, absolute
                return cell_build(shape)

        object.__setattr__(cell, "build", build_in_layer_scope)  # not tracked: Keras' attribute tracking
        try:
            return original(self, input_shape)
        finally:
            object.__delattr__(cell, "build")

    build.tf1_keras = True  # type: ignore[attr-defined]
    return build


def _install_loaded() -> None:
    for name in _BACKENDS:
        backend = sys.modules.get(name)
        rnn = getattr(backend, "rnn", None)
        if rnn is not None and not getattr(rnn, "tf1_keras", False):
            backend.rnn = _every_output(rnn)  # type: ignore[union-attr]
    for name in _RNN_LAYERS:
        layer = getattr(sys.modules.get(name), "RNN", None)
        build = getattr(layer, "build", None)
        if build is not None and not getattr(build, "tf1_keras", False):
            layer.build = _cell_in_layer_scope(build)  # type: ignore[union-attr]


def tf1_recurrent_layers() -> None:
    """Keras 2's recurrent layers as TF 1.15's in v1 graphs, now or when Keras gets imported (imports nothing)."""
    _install_loaded()
    for name in (*_BACKENDS, *_RNN_LAYERS):
        _import_hook.on_import(name, after=_install_loaded)

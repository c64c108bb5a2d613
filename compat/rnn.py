"""The `tf.contrib.rnn` names TF 2 has no home for that TF1-era libraries use at module level: the stacked
bidirectional RNN (tensorlayer 1.x's recurrent layers) and the layer-normalised LSTM cell (tensor2tensor).

The rest of contrib.rnn's cells and functions have TF 2 homes (`tf.compat.v1.nn.rnn_cell`, `tf.compat.v1.nn`).
`stack_bidirectional_dynamic_rnn` is built on `tf.compat.v1.nn.bidirectional_dynamic_rnn` and makes the
variables TF 1.15's made, under the same scopes (`stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/...`),
so TF 1 checkpoints restore into it (tests/common/test_contrib_rnn.py compares it with TF 1.15's).
`LayerNormBasicLSTMCell` is a v1 RNN cell computing TF 1.15's gates with TF 1.15's variables
(`kernel`, and `<gate>/gamma`, `<gate>/beta` or a `bias`; tests/common/test_layer_norm_lstm.py).
"""

from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

v1 = tf.compat.v1


def stack_bidirectional_dynamic_rnn(
    cells_fw: Sequence[Any],
    cells_bw: Sequence[Any],
    inputs: Any,
    initial_states_fw: Sequence[Any] | None = None,
    initial_states_bw: Sequence[Any] | None = None,
    dtype: Any = None,
    sequence_length: Any = None,
    parallel_iterations: int | None = None,
    time_major: bool = False,
    scope: Any = None,
    swap_memory: bool = False,
) -> tuple[Any, tuple[Any, ...], tuple[Any, ...]]:
    """Bidirectional RNN layers one above the other: layer i reads the concatenated forward and backward
    outputs of layer i - 1 (the first reads `inputs`). Returns (the last layer's concatenated outputs, the
    forward final states of every layer, the backward ones)."""
    if not cells_fw or not cells_bw:
        raise ValueError("stack_bidirectional_dynamic_rnn needs at least one forward and one backward cell")
    if not isinstance(cells_fw, list) or not isinstance(cells_bw, list):
        raise ValueError("cells_fw and cells_bw must be lists of RNNCells (one per layer)")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("forward and backward cells must have the same depth")
    for name, states in (("initial_states_fw", initial_states_fw), ("initial_states_bw", initial_states_bw)):
        if states is not None and (not isinstance(states, list) or len(states) != len(cells_fw)):
            raise ValueError(f"{name} must be a list of states (one per layer)")
    layer = inputs
    finals_fw, finals_bw = [], []
    with v1.variable_scope(scope or "stack_bidirectional_rnn"):
        for index, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw, strict=True)):
            with v1.variable_scope(f"cell_{index}"):
                outputs, (final_fw, final_bw) = v1.nn.bidirectional_dynamic_rnn(
                    cell_fw,
                    cell_bw,
                    layer,
                    initial_state_fw=initial_states_fw[index] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[index] if initial_states_bw else None,
                    sequence_length=sequence_length,
                    parallel_iterations=parallel_iterations,
                    dtype=dtype,
                    swap_memory=swap_memory,
                    time_major=time_major,
                )
                layer = tf.concat(outputs, 2)
            finals_fw.append(final_fw)
            finals_bw.append(final_bw)
    return layer, tuple(finals_fw), tuple(finals_bw)


class LayerNormBasicLSTMCell(v1.nn.rnn_cell.RNNCell):  # type: ignore[name-defined]  # a lazily loaded module
    """TF 1.15's `tf.contrib.rnn.LayerNormBasicLSTMCell`: an LSTM cell without peepholes whose four gates and
    new cell state are layer-normalised (each with its own gain and shift variables), with optional recurrent
    dropout on the candidate values (Semeniuta et al., 2016). `layer_norm=False` gives a biased LSTM cell."""

    def __init__(
        self,
        num_units: int,
        forget_bias: float = 1.0,
        input_size: Any = None,
        activation: Callable[[Any], Any] = tf.tanh,
        layer_norm: bool = True,
        norm_gain: float = 1.0,
        norm_shift: float = 0.0,
        dropout_keep_prob: Any = 1.0,
        dropout_prob_seed: int | None = None,
        reuse: Any = None,
    ) -> None:
        super().__init__(_reuse=reuse)
        del input_size  # TF 1.15 ignored it too (deprecated)
        self._num_units = num_units
        self._activation = activation
        self._forget_bias = forget_bias
        self._keep_prob = dropout_keep_prob
        self._seed = dropout_prob_seed
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift

    @property
    def state_size(self) -> Any:
        return v1.nn.rnn_cell.LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self) -> int:
        return self._num_units

    def _norm(self, inputs: Any, scope: str, dtype: Any) -> Any:
        from compat import slim  # tf-slim's layer_norm is contrib.layers' (and heavy to import)

        shape = inputs.get_shape()[-1:]
        with v1.variable_scope(scope):
            # made here, with the cell's gain and shift, so that layer_norm (reuse=True) takes them
            v1.get_variable("gamma", shape=shape, initializer=v1.constant_initializer(self._norm_gain), dtype=dtype)
            v1.get_variable("beta", shape=shape, initializer=v1.constant_initializer(self._norm_shift), dtype=dtype)
        return slim.layer_norm(inputs, reuse=True, scope=scope)

    def _linear(self, args: Any) -> Any:
        size = 4 * self._num_units
        out = tf.matmul(args, v1.get_variable("kernel", [args.get_shape()[-1], size], dtype=args.dtype))
        if not self._layer_norm:
            out = tf.nn.bias_add(out, v1.get_variable("bias", [size], dtype=args.dtype))
        return out

    def call(self, inputs: Any, state: Any) -> tuple[Any, Any]:
        c, h = state
        args = tf.concat([inputs, h], 1)
        i, j, f, o = tf.split(self._linear(args), num_or_size_splits=4, axis=1)
        if self._layer_norm:
            i, j, f, o = (self._norm(x, scope, args.dtype) for x, scope in zip((i, j, f, o), _GATES, strict=True))
        g = self._activation(j)
        if not isinstance(self._keep_prob, float) or self._keep_prob < 1:
            g = v1.nn.dropout(g, keep_prob=self._keep_prob, seed=self._seed)
        new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * g
        if self._layer_norm:
            new_c = self._norm(new_c, "state", args.dtype)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        return new_h, v1.nn.rnn_cell.LSTMStateTuple(new_c, new_h)


# the variable scopes of the normalised gates, in the order the kernel's columns hold them
_GATES = ("input", "transform", "forget", "output")

"""`tf.contrib.rnn`'s stacked bidirectional RNN, the one contrib.rnn function TF 2 has no home for that
TF1-era libraries import at module level (tensorlayer 1.x's recurrent layers).

The rest of contrib.rnn's cells and functions have TF 2 homes (`tf.compat.v1.nn.rnn_cell`, `tf.compat.v1.nn`).
This one is built on `tf.compat.v1.nn.bidirectional_dynamic_rnn` and makes the variables TF 1.15's made,
under the same scopes (`stack_bidirectional_rnn/cell_<i>/bidirectional_rnn/{fw,bw}/...`), so TF 1
checkpoints restore into it (tests/common/test_contrib_rnn.py compares it with TF 1.15's).
"""

from collections.abc import Sequence
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

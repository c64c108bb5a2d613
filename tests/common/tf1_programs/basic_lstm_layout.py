"""A TF 1 program running the RNN of a tutorial text classifier: tf.nn.dynamic_rnn over
MultiRNNCell([DropoutWrapper(BasicLSTMCell(n), output_keep_prob=1.0)]), and a MultiRNNCell of two cells (another
forget_bias). Prints `RESULT <json>`: per case the variables it makes (names, shapes), and, from fixed values of
its kernels and biases, its outputs, the last cell's last state and the gradients of a loss of them with respect
to the variables and the inputs.

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_basic_lstm_layout.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); tests/codemods/test_native_rnn.py runs the
cell native-session writes for it (codemods/rules/_native_rnn.py) from the same values on TF 2.
"""

import json

import numpy as np
import tensorflow as tf

BATCH, STEPS, DEPTH, UNITS = 2, 3, 5, 4


def values(shape, scale):
    """Fixed values of `shape` spread over [-scale, scale] (the same in the TF 2 test)."""
    count = int(np.prod(shape))
    return (np.sin(np.arange(count, dtype=np.float64) * 1.7) * scale).reshape(shape).astype(np.float32)


# each case: the BasicLSTMCells of a MultiRNNCell as (units, forget_bias, in a DropoutWrapper keeping everything)
CASES = {"one": [(UNITS, 1.0, True)], "two": [(UNITS, 1.0, True), (3, 0.5, False)]}
inputs_value = values([BATCH, STEPS, DEPTH], 1.0)
result = {}
for case, layers in CASES.items():
    with tf.Graph().as_default():
        inputs = tf.constant(inputs_value)
        cells = []
        for units, forget_bias, wrapped in layers:
            cell = tf.nn.rnn_cell.BasicLSTMCell(units, forget_bias=forget_bias)
            cells.append(tf.nn.rnn_cell.DropoutWrapper(cell, output_keep_prob=1.0) if wrapped else cell)
        outputs, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells), inputs, dtype=tf.float32)
        made = tf.global_variables()  # (kernel, bias of each cell, in order)
        loss = tf.reduce_sum(tf.square(outputs)) + tf.reduce_sum(state[-1].c)
        gradients = tf.gradients(loss, [*made, inputs])
        with tf.Session() as session:
            session.run([v.assign(values(v.shape.as_list(), 0.5 if "kernel" in v.op.name else 0.3)) for v in made])
            got_outputs, got_state, got_gradients = session.run([outputs, state, gradients])
        result[case] = {
            "variables": [[v.op.name, v.shape.as_list()] for v in made],
            "outputs": got_outputs.astype(np.float64).ravel().tolist(),
            "c": got_state[-1].c.astype(np.float64).ravel().tolist(),
            "h": got_state[-1].h.astype(np.float64).ravel().tolist(),
            "gradients": [g.astype(np.float64).ravel().tolist() for g in got_gradients],
        }
print("RESULT " + json.dumps(result))

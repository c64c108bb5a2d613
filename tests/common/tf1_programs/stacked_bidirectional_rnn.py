"""A TF 1 program stacking bidirectional RNN layers with tf.contrib.rnn.stack_bidirectional_dynamic_rnn,
as tensorlayer's BiDynamicRNNLayer does for n_layer > 1. Prints `RESULT <json>`: the variables it makes
(names, shapes), its outputs and final states (rounded), with and without sequence lengths.

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_stacked_birnn.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); test_contrib_rnn.py compares uai-run's.
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib.rnn import stack_bidirectional_dynamic_rnn


def rounded(array):
    return np.round(np.asarray(array, dtype=np.float64), 5).tolist()


inputs_value = np.linspace(-1.0, 1.0, 2 * 4 * 3).reshape(2, 4, 3).astype(np.float32)
with tf.Graph().as_default():
    inputs = tf.constant(inputs_value)
    with tf.variable_scope("net", initializer=tf.random_uniform_initializer(-0.4, 0.4, seed=3)):
        cells_fw = [tf.nn.rnn_cell.LSTMCell(5), tf.nn.rnn_cell.GRUCell(2)]
        cells_bw = [tf.nn.rnn_cell.LSTMCell(5), tf.nn.rnn_cell.GRUCell(2)]
        outputs, states_fw, states_bw = stack_bidirectional_dynamic_rnn(cells_fw, cells_bw, inputs, dtype=tf.float32)
    with tf.variable_scope("lengths", initializer=tf.random_uniform_initializer(-0.6, 0.6, seed=5)):
        cells = [tf.nn.rnn_cell.BasicRNNCell(3) for _ in range(4)]
        initial = [tf.fill([2, 3], 0.25), tf.zeros([2, 3])]
        short, short_fw, short_bw = stack_bidirectional_dynamic_rnn(
            cells[:2],
            cells[2:],
            inputs,
            initial_states_fw=initial,
            sequence_length=[4, 2],
            dtype=tf.float32,
            scope="stacked",
        )
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        values = session.run(
            {
                "outputs": outputs,
                "fw": states_fw,
                "bw": states_bw,
                "short": short,
                "short_fw": short_fw,
                "short_bw": short_bw,
            }
        )
        result = {
            "variables": sorted([v.op.name, v.shape.as_list()] for v in tf.global_variables()),
            "outputs": rounded(values["outputs"]),
            "last fw states": [
                rounded(np.concatenate([np.ravel(s) for s in state])) if isinstance(state, tuple) else rounded(state)
                for state in values["fw"]
            ],
            "last bw states": [
                rounded(np.concatenate([np.ravel(s) for s in state])) if isinstance(state, tuple) else rounded(state)
                for state in values["bw"]
            ],
            "with lengths": rounded(values["short"]),
            "with lengths fw": [rounded(state) for state in values["short_fw"]],
            "with lengths bw": [rounded(state) for state in values["short_bw"]],
        }
print("RESULT " + json.dumps(result, sort_keys=True))

"""A TF 1 program running the RNN of a tutorial text classifier: tf.nn.dynamic_rnn over
MultiRNNCell([DropoutWrapper(BasicLSTMCell(n), output_keep_prob=1.0)]). Prints `RESULT <json>`: the variables
it makes (names, shapes), and, from fixed values of its kernel and bias, its outputs, last state and the
gradients of a loss of the outputs with respect to the kernel, the bias and the inputs.

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


inputs_value = values([BATCH, STEPS, DEPTH], 1.0)
kernel_value = values([DEPTH + UNITS, 4 * UNITS], 0.5)
bias_value = values([4 * UNITS], 0.3)
with tf.Graph().as_default():
    inputs = tf.constant(inputs_value)
    cells = tf.nn.rnn_cell.MultiRNNCell(
        [tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(UNITS), output_keep_prob=1.0)]
    )
    outputs, state = tf.nn.dynamic_rnn(cells, inputs, dtype=tf.float32)
    kernel, bias = tf.global_variables()
    loss = tf.reduce_sum(tf.square(outputs)) + tf.reduce_sum(state[0].c)
    gradients = tf.gradients(loss, [kernel, bias, inputs])
    with tf.Session() as session:
        session.run([kernel.assign(kernel_value), bias.assign(bias_value)])
        got_outputs, got_state, got_gradients = session.run([outputs, state, gradients])
    result = {
        "variables": [[v.op.name, v.shape.as_list()] for v in tf.global_variables()],
        "outputs": got_outputs.astype(np.float64).ravel().tolist(),
        "c": got_state[0].c.astype(np.float64).ravel().tolist(),
        "h": got_state[0].h.astype(np.float64).ravel().tolist(),
        "gradients": [g.astype(np.float64).ravel().tolist() for g in got_gradients],
    }
print("RESULT " + json.dumps(result))

"""A TF 1 program running tf.contrib.rnn.LayerNormBasicLSTMCell (tensor2tensor's vqa_attention builds its
encoder of them) over a batch of sequences and taking one gradient step. Prints `RESULT <json>`: for a
layer-normalised cell with its defaults, and for one without layer norm and with TF1's other arguments
(forget_bias, norm_gain, norm_shift, a sequence length), the variables it makes (names, shapes), its
outputs and final state, and the loss before and after one SGD step (rounded).

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_layer_norm_lstm.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); test_layer_norm_lstm.py compares uai-run's.
"""

import json

import numpy as np
import tensorflow as tf

CASES = {
    "layer norm": {},
    "gain shift": {"forget_bias": 0.5, "norm_gain": 0.7, "norm_shift": 0.2},
    "no layer norm": {"layer_norm": False, "forget_bias": 0.0},
}


def rounded(array):
    return np.round(np.asarray(array, dtype=np.float64), 5).tolist()


def run(arguments, seed):
    inputs_value = np.linspace(-1.0, 1.0, 2 * 4 * 3).reshape(2, 4, 3).astype(np.float32)
    with tf.Graph().as_default():
        inputs = tf.constant(inputs_value)
        with tf.variable_scope("encoder", initializer=tf.random_uniform_initializer(-0.5, 0.5, seed=seed)):
            cell = tf.contrib.rnn.LayerNormBasicLSTMCell(5, **arguments)
            outputs, state = tf.nn.dynamic_rnn(cell, inputs, sequence_length=[4, 3], dtype=tf.float32)
        loss = tf.reduce_mean(tf.square(outputs - 0.3)) + tf.reduce_mean(state.c)
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            before, values = session.run([loss, {"outputs": outputs, "c": state.c, "h": state.h}])
            session.run(train_op)
            after = session.run(loss)
        variables = sorted([v.op.name, v.shape.as_list()] for v in tf.global_variables())
    return {
        "variables": variables,
        "outputs": rounded(values["outputs"]),
        "state c": rounded(values["c"]),
        "state h": rounded(values["h"]),
        "losses": rounded([before, after]),
    }


result = {case: run(arguments, seed) for seed, (case, arguments) in enumerate(sorted(CASES.items()), 3)}
print("RESULT " + json.dumps(result, sort_keys=True))

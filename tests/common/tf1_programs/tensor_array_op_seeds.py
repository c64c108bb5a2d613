"""Seeded draws made after TensorArray-built ops (dynamic_rnn, map_fn, scan, a TensorArray's stack, size and
concat), as written for TF 1.x (runs on TF 1.15 and under uai-run).

TF 1.15's op seed is the graph's op count, and its TensorArray built a TensorArraySizeV3 op for every size(),
stack() included, where TF 2 returns the known size: every op seed after a dynamic_rnn was another on TF 2 (a
GRU's initial weights after an LSTM's dynamic_rnn). Prints `RESULT {case: {name: values}}`, each case in its own
seeded graph: the draws made after the case's ops, and for "lstm then gru" three Adam steps' losses. Its output on
real TensorFlow 1.15 is tests/common/golden/tf115_tensor_array_seeds.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

INPUTS = np.linspace(-1.0, 1.0, 3 * 5 * 4).reshape(3, 5, 4).astype(np.float32)


def draws_after(build):
    """{name: values}: what `build` returns fetched, then a random_normal and a glorot get_variable made after it."""
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        fetches = dict(build())
        fetches["random_normal after"] = tf.random_normal([3])
        fetches["variable after"] = tf.get_variable("after", [2, 2])
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            return {name: np.round(np.asarray(v, np.float64), 6).tolist() for name, v in session.run(fetches).items()}


def dynamic_rnn():
    outputs, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(3), tf.constant(INPUTS), dtype=tf.float32)
    return {"outputs sum": tf.reduce_sum(outputs)}


def dynamic_rnn_lengths():
    cell = tf.contrib.rnn.LSTMCell(4, use_peepholes=True)
    outputs, state = tf.nn.dynamic_rnn(cell, tf.constant(INPUTS), sequence_length=[5, 2, 3], dtype=tf.float32)
    return {"outputs sum": tf.reduce_sum(outputs), "h": state.h}


def bidirectional():
    (forward, backward), _ = tf.nn.bidirectional_dynamic_rnn(
        tf.contrib.rnn.GRUCell(2), tf.contrib.rnn.GRUCell(2), tf.constant(INPUTS), [5, 2, 3], dtype=tf.float32
    )
    return {"outputs sum": tf.reduce_sum(forward) + tf.reduce_sum(backward)}


def map_scan_fold():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    return {
        "map_fn": tf.map_fn(lambda row: row * 2.0, x),
        "scan": tf.scan(lambda a, row: a + row, x),
        "foldl": tf.foldl(lambda a, row: a + row, x),
    }


def tensor_array():
    known = tf.TensorArray(tf.float32, size=3, clear_after_read=False)
    known = known.unstack(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    grown = tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(0, [7.0]).write(1, [8.0])
    sized = tf.TensorArray(tf.float32, size=tf.constant(2), element_shape=[1]).write(0, [1.0]).write(1, [2.0])
    return {
        "stack": known.stack(),
        "size": known.size(),
        "concat": known.concat(),
        "gather": known.gather([2, 0]),
        "grown stack": grown.stack(),
        "grown size": grown.size(),
        "sized concat": sized.concat(),
    }


def lstm_then_gru():
    """The shape that found it: a GRU's initial weights made after a MultiRNNCell of LSTMCells' dynamic_rnn."""
    with tf.Graph().as_default():
        tf.set_random_seed(11)
        inputs = tf.placeholder(tf.float32, [None, 5, 4])
        lengths = tf.placeholder(tf.int32, [None])
        cells = [tf.contrib.rnn.LSTMCell(6, use_peepholes=True), tf.contrib.rnn.LSTMCell(5, num_proj=3, cell_clip=1.0)]
        cell = tf.contrib.rnn.MultiRNNCell(cells, state_is_tuple=True)
        outputs, state = tf.nn.dynamic_rnn(cell, inputs, sequence_length=lengths, dtype=tf.float32)
        _, gru_state = tf.nn.dynamic_rnn(tf.contrib.rnn.GRUCell(4), inputs, lengths, dtype=tf.float32, scope="gru")
        loss = tf.reduce_sum(tf.square(outputs)) + tf.reduce_sum(state[0].h) + tf.reduce_sum(gru_state)
        train = tf.train.AdamOptimizer(0.01).minimize(loss)
        feed = {inputs: INPUTS, lengths: [5, 2, 3]}
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            return {"losses": [round(float(session.run([train, loss], feed)[1]), 5) for _ in range(3)]}


if __name__ == "__main__":
    result = {
        name: draws_after(build)
        for name, build in (
            ("dynamic_rnn", dynamic_rnn),
            ("dynamic_rnn lengths", dynamic_rnn_lengths),
            ("bidirectional", bidirectional),
            ("map scan fold", map_scan_fold),
            ("tensor array", tensor_array),
        )
    }
    result["lstm then gru"] = lstm_then_gru()
    print("RESULT " + json.dumps(result, sort_keys=True))

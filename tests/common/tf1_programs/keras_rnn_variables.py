"""tf.keras recurrent layers (LSTM, GRU, SimpleRNN, an RNN of an LSTMCell, Bidirectional) in a TF 1.x Session
program, trained a few Adam steps, as written for TF 1.x (runs on TF 1.15 and under uai-run).

TF 1.15's Keras built an RNN layer's cell in the layer's own name scope (`lstm/kernel`); TF 2's Keras 2 builds it
in a scope of the cell's name (`lstm/lstm_cell/kernel`), so a tf.train.Saver checkpoint TF 1.15 wrote did not
restore. Prints `RESULT <json>`: the global variables' names and shapes, the initial kernels' sums, the losses.
Its output on real TensorFlow 1.15 is tests/common/golden/tf115_keras_rnn_variables.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

INPUTS = np.linspace(-1.0, 1.0, 4 * 5 * 3).reshape(4, 5, 3).astype(np.float32)
TARGETS = np.array([0.0, 1.0, 1.0, 0.0], np.float32)

if __name__ == "__main__":
    tf.set_random_seed(21)
    layers = tf.keras.layers
    inputs = tf.placeholder(tf.float32, [None, 5, 3])
    sequences = layers.LSTM(4, return_sequences=True)(inputs)
    sequences = layers.Bidirectional(layers.GRU(3, return_sequences=True))(sequences)
    sequences = layers.RNN(layers.LSTMCell(2), return_sequences=True, name="cell_rnn")(sequences)
    last = layers.SimpleRNN(2)(sequences)
    logits = tf.squeeze(layers.Dense(1)(last), 1)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant(TARGETS), logits=logits))
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    kernels = {v.op.name: tf.reduce_sum(v) for v in tf.trainable_variables()}
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        initial = session.run(kernels)
        losses = [float(session.run([train, loss], {inputs: INPUTS})[1]) for _ in range(3)]
    result = {
        "variables": sorted(f"{v.op.name} {v.shape.as_list()}" for v in tf.global_variables()),
        "initial sums": {name: round(float(value), 5) for name, value in sorted(initial.items())},
        "losses": [round(value, 6) for value in losses],
    }
    print("RESULT " + json.dumps(result, sort_keys=True))

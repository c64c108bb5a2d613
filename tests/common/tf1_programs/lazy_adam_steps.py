"""A TF 1 program training an embedding with tf.contrib.opt.LazyAdamOptimizer, tensor2tensor's default Adam.
Prints `RESULT <json>`: for reference and resource variables, the variables the optimizer makes (names,
shapes), the loss of each step, and after the last step the embedding, its Adam slots and the dense weight.

The ids repeat a row within a batch (its gradient rows are summed) and leave rows 0, 6 and 7 out of every
batch (lazy Adam must leave them and their slots alone); the dense weight gets a dense gradient (plain Adam).
Its output on real TensorFlow 1.15 is tests/common/golden/tf115_lazy_adam.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); test_lazy_adam.py compares uai-run's.
"""

import json

import numpy as np
import tensorflow as tf

BATCHES = [[1, 2, 2, 5], [3, 1, 4, 4], [5, 2, 3, 1]]


def rounded(array):
    return np.round(np.asarray(array, dtype=np.float64), 6).tolist()


def train(use_resource):
    with tf.Graph().as_default():
        ids = tf.placeholder(tf.int32, [4])
        initial = np.linspace(-1.0, 1.0, 8 * 3).reshape(8, 3).astype(np.float32)
        table = tf.get_variable("table", initializer=initial, use_resource=use_resource)
        weight = tf.get_variable("weight", initializer=np.full([3, 1], 0.5, np.float32), use_resource=use_resource)
        target = tf.cast(tf.reshape(ids, [4, 1]), tf.float32) / 4.0
        loss = tf.reduce_mean(tf.square(tf.matmul(tf.nn.embedding_lookup(table, ids), weight) - target))
        optimizer = tf.contrib.opt.LazyAdamOptimizer(0.1, beta1=0.8, beta2=0.9, epsilon=1e-3)
        train_op = optimizer.minimize(loss)
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            losses = [float(session.run([loss, train_op], {ids: batch})[0]) for batch in BATCHES]
            slots = [optimizer.get_slot(table, "m"), optimizer.get_slot(table, "v")]
            table_value, weight_value, (m, v) = session.run([table, weight, slots])
        return {
            "variables": sorted([var.op.name, var.shape.as_list()] for var in tf.global_variables()),
            "losses": rounded(losses),
            "table": rounded(table_value),
            "table m": rounded(m),
            "table v": rounded(v),
            "weight": rounded(weight_value),
        }


result = {"reference variables": train(False), "resource variables": train(True)}
print("RESULT " + json.dumps(result, sort_keys=True))

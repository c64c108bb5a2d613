"""A TF 1 program training with tf.contrib.opt's decoupled weight decay optimizers (tensor2tensor's `adam_w`).
Prints `RESULT <json>`: for each case, the variables the optimizer makes (names, shapes), the loss before
each step, and after the last step the embedding and the dense weight.

Cases: AdamWOptimizer with reference and with resource variables (the embedding's gradient is sparse: only
its looked-up rows decay; the dense weight decays whole), MomentumWOptimizer decaying only the weight
(`decay_var_list`), extend_with_decoupled_weight_decay(LazyAdamOptimizer), and `minimize` with
`decay_var_list`. Each step's gradients are computed in one session run and fed to `apply_gradients` in
the next: the decay reads the variable in no order with the gradient's own reads of it (TF 1.15's racy
too), so a step run as one `minimize` is repeatable only when the gradient does not depend on the
variables: the `minimize` case's loss is linear in them.
Its output on real TensorFlow 1.15 is tests/common/golden/tf115_weight_decay.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); test_weight_decay.py compares uai-run's.
"""

import json

import numpy as np
import tensorflow as tf

BATCHES = [[1, 2, 2, 5], [3, 1, 4, 4], [5, 2, 3, 1]]


def rounded(array):
    return np.round(np.asarray(array, dtype=np.float64), 6).tolist()


def train(make_optimizer, use_resource=False, decay_var_list=None, linear=False):
    with tf.Graph().as_default():
        ids = tf.placeholder(tf.int32, [4])
        initial = np.linspace(-1.0, 1.0, 8 * 3).reshape(8, 3).astype(np.float32)
        table = tf.get_variable("table", initializer=initial, use_resource=use_resource)
        weight = tf.get_variable("weight", initializer=np.full([3, 1], 0.5, np.float32), use_resource=use_resource)
        rows = tf.nn.embedding_lookup(table, ids)
        if linear:
            loss = tf.reduce_sum(rows) * 0.1 + tf.reduce_sum(weight * tf.constant([[0.3], [-0.2], [0.1]]))
        else:
            target = tf.cast(tf.reshape(ids, [4, 1]), tf.float32) / 4.0
            loss = tf.reduce_mean(tf.square(tf.matmul(rows, weight) - target))
        optimizer = make_optimizer()
        decay = {"decay_var_list": [weight]} if decay_var_list == "weight" else {}
        if linear:
            train_op, feeds = optimizer.minimize(loss, **decay), None
        else:
            grad_table, grad_weight = tf.gradients(loss, [table, weight])
            feeds = (tf.placeholder(tf.float32, [None, 3]), tf.placeholder(tf.int32, [None]))
            fed_table = tf.IndexedSlices(feeds[0], feeds[1], tf.constant([8, 3]))
            fed_weight = tf.placeholder(tf.float32, [3, 1])
            feeds += (fed_weight,)
            train_op = optimizer.apply_gradients([(fed_table, table), (fed_weight, weight)], **decay)
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            losses = []
            for batch in BATCHES:
                if linear:
                    losses.append(float(session.run(loss, {ids: batch})))
                    session.run(train_op, {ids: batch})
                    continue
                value, sparse, dense = session.run([loss, grad_table, grad_weight], {ids: batch})
                losses.append(float(value))
                session.run(train_op, dict(zip(feeds, (sparse.values, sparse.indices, dense))))
            table_value, weight_value = session.run([table, weight])
        return {
            "variables": sorted([var.op.name, var.shape.as_list()] for var in tf.global_variables()),
            "losses": rounded(losses),
            "table": rounded(table_value),
            "weight": rounded(weight_value),
        }


def adam_w():
    return tf.contrib.opt.AdamWOptimizer(0.05, learning_rate=0.1, beta1=0.8, beta2=0.9, epsilon=1e-3)


LazyAdamW = tf.contrib.opt.extend_with_decoupled_weight_decay(tf.contrib.opt.LazyAdamOptimizer)
result = {
    "adamw": train(adam_w),
    "adamw resource variables": train(adam_w, use_resource=True),
    "momentumw decaying the weight only": train(
        lambda: tf.contrib.opt.MomentumWOptimizer(0.05, 0.1, 0.9, use_nesterov=True), decay_var_list="weight"
    ),
    "extended lazy adam": train(lambda: LazyAdamW(weight_decay=0.05, learning_rate=0.1)),
    "minimize decaying the weight only": train(adam_w, decay_var_list="weight", linear=True),
}
print("RESULT " + json.dumps(result, sort_keys=True))

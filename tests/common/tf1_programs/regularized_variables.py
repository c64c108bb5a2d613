"""Variables given a regularizer through tf.get_variable(regularizer=) and tf.variable_scope(regularizer=) (shared
with reuse too), their losses summed with tf.losses.get_regularization_loss and get_total_loss, and a few
GradientDescent steps, as written for TF 1.x (runs on TF 1.15 and under uai-run).

TF 1.15 ran the regularizer once, under `<variable>/Regularizer/`; TF 2's get_variable runs it once more to see
whether it returns a loss and puts a tensor in the collection that runs it again each time it is read: the op
count, so the op seeds of every variable made after the first regularized one, differed. Prints `RESULT <json>`:
the collection's loss names, the variables' initial values, the regularization and total losses of each step. Its
output on real TensorFlow 1.15 is tests/common/golden/tf115_regularized_variables.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

FEATURES = np.linspace(-1.0, 1.0, 6 * 3).reshape(6, 3).astype(np.float32)
TARGETS = (FEATURES @ np.array([[1.0], [-2.0], [0.5]], np.float32)).astype(np.float32)


def rounded(values):
    return np.round(np.asarray(values, np.float64), 6).tolist()


if __name__ == "__main__":
    tf.set_random_seed(5)
    weights = tf.get_variable("weights", [3, 4], regularizer=tf.contrib.layers.l2_regularizer(0.1))
    with tf.variable_scope("head", regularizer=tf.contrib.layers.l1_regularizer(0.05)):
        head = tf.get_variable("kernel", [4, 1])
        with tf.variable_scope("shared", reuse=tf.AUTO_REUSE):
            first = tf.get_variable("bias", [1], initializer=tf.random_normal_initializer())
            again = tf.get_variable("bias", [1])
    unregularized = tf.get_variable("after", [2])
    predictions = tf.matmul(tf.matmul(tf.constant(FEATURES), weights), head) + first + again
    tf.losses.mean_squared_error(tf.constant(TARGETS), predictions)
    regularization = tf.losses.get_regularization_loss()
    total = tf.losses.get_total_loss()
    train = tf.train.GradientDescentOptimizer(0.05).minimize(total)
    names = [loss.name for loss in tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)]
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        initial = session.run({"weights": weights, "head": head, "bias": first, "after": unregularized})
        steps = [session.run([regularization, total, train])[:2] for _ in range(3)]
    result = {"losses in the collection": names, **{k: rounded(v) for k, v in initial.items()}, "steps": rounded(steps)}
    print("RESULT " + json.dumps(result, sort_keys=True))

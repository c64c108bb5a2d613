"""A TF 1 program calling tf.contrib.losses and tf.contrib.metrics.accuracy with positional arguments, as TF 1
code did: (predictions, labels) and (logits, labels), where TF 2's homes (tf.compat.v1.losses, .metrics) take
(labels, predictions) and (labels, logits). Prints `RESULT <json>`: each loss, and the
LOSSES collection's size.

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_contrib_losses.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); test_tf1_signatures.py compares uai-run's
and the port's.
"""

import json

import numpy as np
import tensorflow as tf

logits = tf.constant([[2.0, 0.5, -1.0], [0.1, 0.2, 0.3]])
onehot = tf.constant([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
sparse = tf.constant([1, 2])
weights = tf.constant([[1.0], [0.25]])
predictions = tf.constant([[0.9, 0.2], [0.4, 0.7]])
targets = tf.constant([[1.0, 0.0], [0.0, 1.0]])
unit = tf.constant([[0.6, 0.8], [1.0, 0.0]])
losses = {
    "absolute_difference": tf.contrib.losses.absolute_difference(predictions, targets, weights),
    "cosine_distance": tf.contrib.losses.cosine_distance(unit, tf.constant([[0.8, 0.6], [0.0, 1.0]]), 1, weights),
    "hinge_loss": tf.contrib.losses.hinge_loss(tf.constant([[0.3, -1.2]]), tf.constant([[1.0, 0.0]])),
    "log_loss": tf.contrib.losses.log_loss(predictions, targets, weights, 1e-4),
    "mean_pairwise_squared_error": tf.contrib.losses.mean_pairwise_squared_error(predictions, targets, weights),
    "mean_squared_error": tf.contrib.losses.mean_squared_error(predictions, targets, weights),
    "mean_squared_error, a weight per element": tf.contrib.losses.mean_squared_error(
        predictions, targets, tf.constant([[1.0, 0.0], [0.5, 2.0]])
    ),
    "absolute_difference, weight 0": tf.contrib.losses.absolute_difference(predictions, targets, 0.0),
    "log_loss, 3-D, a weight per example": tf.contrib.losses.log_loss(
        tf.reshape(predictions, [2, 1, 2]), tf.reshape(targets, [2, 1, 2]), tf.constant([2.0, 0.0])
    ),
    "sigmoid_cross_entropy": tf.contrib.losses.sigmoid_cross_entropy(logits, onehot, weights, 0.1),
    "softmax_cross_entropy": tf.contrib.losses.softmax_cross_entropy(logits, onehot, weights, 0.1),
    "sparse_softmax_cross_entropy": tf.contrib.losses.sparse_softmax_cross_entropy(logits, sparse, weights),
}
losses["accuracy"] = tf.contrib.metrics.accuracy(
    tf.constant([1, 2, 0]), tf.constant([1, 0, 0]), tf.constant([1.0, 1.0, 2.0])
)
# contrib.metrics' streaming metrics: (value, update op) pairs, updated twice; (predictions, labels) as TF 1 read them
streaming = {
    "streaming_accuracy": tf.contrib.metrics.streaming_accuracy(
        tf.constant([1, 0, 1, 1]), tf.constant([1, 1, 1, 0]), tf.constant([1.0, 0.5, 1.0, 2.0])
    ),
    "streaming_mean": tf.contrib.metrics.streaming_mean(tf.constant([1.0, 2.0, 4.0]), tf.constant([1.0, 0.0, 3.0])),
    "streaming_recall": tf.contrib.metrics.streaming_recall(
        tf.constant([True, False, True, True]), tf.constant([True, True, False, True])
    ),
    "streaming_auc": tf.contrib.metrics.streaming_auc(tf.constant([0.9, 0.2, 0.6, 0.4]), tf.constant([1, 0, 0, 1])),
}
with tf.Session() as session:
    session.run(tf.local_variables_initializer())
    result = {name: np.round(value, 6).tolist() for name, value in session.run(losses).items()}
    for _ in range(2):
        session.run({name: update for name, (_, update) in streaming.items()})
    result.update(
        {
            name: np.round(value, 6).tolist()
            for name, value in session.run({n: v for n, (v, _) in streaming.items()}).items()
        }
    )
result["collected losses"] = len(tf.get_collection(tf.GraphKeys.LOSSES))
print("RESULT " + json.dumps(result, sort_keys=True))

"""A TF 1 program walking a graph with tf.contrib.graph_editor.get_backward_walk_ops, as tensorpack's
session creator does before running initializers. Prints `RESULT <json>`: the op names of each walk.

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_graph_walks.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); test_graph_editor.py compares uai-run's.
"""

import json

import tensorflow as tf
from tensorflow.contrib.graph_editor import get_backward_walk_ops


def names(ops):
    return sorted(op.name for op in ops)


with tf.Graph().as_default():
    queue = tf.FIFOQueue(4, tf.float32, name="queue")
    dequeued = queue.dequeue(name="dequeue")
    a = tf.constant(1.0, name="a")
    b = tf.add(a, dequeued, name="b")
    with tf.control_dependencies([b]):
        c = tf.identity(a, name="c")
    v = tf.Variable(c, name="v")
    e = tf.multiply(b, 2.0, name="e")
    result = {
        "data inputs": names(get_backward_walk_ops(c.op)),
        "control inputs too": names(get_backward_walk_ops(c.op, control_inputs=True)),
        "from a tensor, not inclusive": names(get_backward_walk_ops([e], inclusive=False)),
        "stopped at a tensor": names(get_backward_walk_ops(e.op, stop_at_ts=[dequeued])),
        "within_ops_fn": names(get_backward_walk_ops(e.op, within_ops_fn=lambda op: op.type != "Const")),
        "within_ops": names(get_backward_walk_ops(e.op, within_ops=[e.op, b.op, a.op])),
        "the global initializer": names(get_backward_walk_ops(tf.global_variables_initializer(), control_inputs=True)),
    }
print("RESULT " + json.dumps(result, sort_keys=True))

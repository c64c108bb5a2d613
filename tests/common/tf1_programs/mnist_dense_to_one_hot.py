"""tf.contrib.learn's MNIST helper dense_to_one_hot, as a TF 1 program called it (runs on TF 1.15 and under uai-run).

Prints `RESULT {case: {"dtype", "shape", "values"} or {"error": its type}}` for class labels of several dtypes and
shapes (a [count] vector, a [count, 1] column, none), and for labels outside [0, num_classes): TF 1.15 wrote those
into a neighbouring row; compat's raises DataError. `python3 dev.py tf115` (tests/common/golden/make_tf115_goldens.py)
runs it on TF 1.15 to write tests/common/golden/tf115_dense_to_one_hot.json; tests/common/test_tutorials_mnist.py
runs it under uai-run and compares.
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn.datasets.mnist import dense_to_one_hot

CASES = {
    "uint8 vector": (np.array([3, 0, 9, 1, 9], np.uint8), 10),
    "int64 column": (np.array([[2], [0], [1]], np.int64), 3),
    "int32 vector, unused classes": (np.array([0, 1], np.int32), 5),
    "no labels": (np.zeros([0], np.uint8), 4),
    "label past the last class": (np.array([4, 2], np.int64), 4),
    "negative label": (np.array([-1, 1], np.int64), 3),
}


def one_hot(labels, num_classes):
    try:
        rows = dense_to_one_hot(labels, num_classes)
    except Exception as error:  # (what TF 1.15 and compat do with bad labels differs: recorded, not hidden)
        return {"error": type(error).__name__}
    return {"dtype": str(rows.dtype), "shape": list(rows.shape), "values": rows.tolist()}


result = {name: one_hot(*case) for name, case in CASES.items()}
# the public path is the same module (TF 1.15's contrib/learn/python/learn/datasets/mnist.py)
result["public path is the same function"] = tf.contrib.learn.datasets.mnist.dense_to_one_hot is dense_to_one_hot
print("RESULT " + json.dumps(result, sort_keys=True))

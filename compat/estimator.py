"""`from compat.estimator import RunConfig`: tf.estimator as a module you can import names from.

`tf.estimator` is an attribute TensorFlow attaches lazily, not a module, so `from tensorflow.estimator
import RunConfig` fails on TF 2.x; on TF >= 2.16 the attribute exists only through compat. Names
are looked up in `tf.estimator` on first use, after compat made it exist.
"""

import compat

compat.install()

import tensorflow as tf  # noqa: E402 - after compat.install()


def __getattr__(name):
    return getattr(tf.estimator, name)


def __dir__():
    return dir(tf.estimator)

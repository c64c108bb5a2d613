"""`from compat.estimator import RunConfig`: tf.estimator as a module you can import names from.

On TF >= 2.16 `tf.estimator` exists only as an attribute compat attaches to TensorFlow, so
`from tensorflow.estimator import RunConfig` fails there (TF 2.15 still ships the module). This
module works on both: names are looked up in `tf.estimator` on first use, after compat made it exist.
"""

import compat

compat.install()

import tensorflow as tf  # noqa: E402 - after compat.install()


def __getattr__(name):
    return getattr(tf.estimator, name)


def __dir__():
    return dir(tf.estimator)

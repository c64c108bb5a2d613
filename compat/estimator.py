"""`from compat.estimator import RunConfig`: tf.estimator as a module you can import names from.

On TF >= 2.16 `tf.estimator` exists only as an attribute compat attaches to TensorFlow, so
`from tensorflow.estimator import RunConfig` fails there (TF 2.15 still ships the module). This
module works on both: names are looked up in `tf.estimator` on first use, after compat made it exist.
"""

# A private alias: names not found here are tf.estimator's, even `Any`.
from typing import Any as _Any

import compat

compat.install()

import tensorflow as tf  # noqa: E402 - after compat.install()


def __getattr__(name: str) -> _Any:
    return getattr(tf.estimator, name)


def __dir__() -> list[str]:
    return dir(tf.estimator)

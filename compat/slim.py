"""`import compat.slim as slim`: tf-slim, working on TF 2.15 and TF 2.21 (stands in for `tf.contrib.slim`).

The module is `tf_slim` itself after `compat._slim_fix.install()`, so every attribute users
had on `tf.contrib.slim` that tf-slim 1.1.0 still ships is here (`arg_scope`, `conv2d`,
`batch_norm`, `losses`, `learning`, `one_hot_encoding`, `prefetch_queue`, `dataset`,
`tfexample_decoder`, ...), plus `slim.nets` (`tf_slim.nets`: alexnet, inception v1-v3,
overfeat, resnet v1/v2, vgg). Not in tf-slim 1.1.0 and so not here: `nets_factory` (use
`compat.models.slim_zoo`) and mobilenet.
"""

import sys

import compat  # noqa: F401  (selects legacy Keras before TensorFlow reads the choice)
from compat import _slim_fix

_slim_fix.install()

import tf_slim  # noqa: E402
import tf_slim.nets  # noqa: E402,F401  (so `slim.nets.resnet_v1` works like contrib's)

sys.modules[__name__] = tf_slim

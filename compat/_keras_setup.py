"""Choose legacy Keras (tf-keras) on TF >= 2.16 before TensorFlow reads the choice.

TF reads TF_USE_LEGACY_KERAS when `tf.keras` is first touched, so setting it at `import
compat` works even after `import tensorflow`, as long as nothing used Keras yet. On TF 2.15
the same variable makes `tf.keras` look for the tf_keras package (and fail when absent):
we set it only where Keras 3 is the default.
"""

import importlib.util
import os

from compat._version import has_keras3


def prefer_legacy_keras(environ=None):
    """Set TF_USE_LEGACY_KERAS=1 when TF >= 2.16 and tf-keras is installed; respect an explicit user value."""
    environ = os.environ if environ is None else environ
    if "TF_USE_LEGACY_KERAS" in environ or not has_keras3():
        return False
    if importlib.util.find_spec("tf_keras") is None:
        return False
    environ["TF_USE_LEGACY_KERAS"] = "1"
    return True

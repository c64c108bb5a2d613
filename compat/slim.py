"""`import compat.slim as slim`: tf-slim, repaired for current TensorFlow (see compat._slim_fix).

The replacement for `import tensorflow.contrib.slim as slim`; `compat.slim.nets` holds the
slim zoo that `tf.contrib.slim.nets` offered.
"""

import compat  # noqa: F401 - legacy Keras must be chosen before TensorFlow loads
from compat import _slim_fix

_slim_fix.install()

from tf_slim import *  # noqa: E402,F401,F403
from tf_slim import nets  # noqa: E402,F401
from tf_slim.data import prefetch_queue  # noqa: E402,F401

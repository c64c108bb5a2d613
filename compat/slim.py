"""`import compat.slim as slim`: tf-slim, repaired for current TensorFlow (see compat._slim_fix).

The replacement for `import tensorflow.contrib.slim as slim`; `compat.slim.nets` holds the
slim zoo that `tf.contrib.slim.nets` offered.
"""

# Private aliases: `from compat.slim import *` must not hand out typing's names with tf-slim's.
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

import compat  # noqa: F401 - legacy Keras must be chosen before TensorFlow loads
from compat import _slim_fix

_slim_fix.install()

from tf_slim import *  # noqa: E402,F401,F403
from tf_slim import nets  # noqa: E402,F401
from tf_slim.data import prefetch_queue  # noqa: E402,F401

if _TYPE_CHECKING:
    # tf-slim ships no types (and the type checker runs without it): its names are Any there.
    def __getattr__(name: str) -> _Any: ...

"""What every table generator does around its own `build(tf)`: load TensorFlow as migrated code runs
it (compat first: legacy Keras, tf.compat.v1.estimator), write the table, say what it holds."""

import json
import os
from collections.abc import Callable


def write_table(build: Callable[[object], dict], out: str, describe: Callable[[dict], str]) -> None:
    """Write `build(tensorflow)` as JSON to `out` (stamped with the TensorFlow version it came from)."""
    import tensorflow as tf

    import compat  # noqa: F401 - what migrated scripts run with

    table = {"tensorflow": tf.__version__, **build(tf)}
    with open(out, "w") as handle:
        json.dump(table, handle, indent=0, sort_keys=True)
        handle.write("\n")
    print(f"{os.path.relpath(out)}: TensorFlow {tf.__version__}, {describe(table)}")

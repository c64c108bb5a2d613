"""Every public name of TF 1.15's tf.keras (not its modules): what a TF 1.x program could read from it.

Prints `RESULT <json>`, the sorted names (`tensorflow.keras.utils.multi_gpu_model`). Its output on real TensorFlow
1.15 is tests/common/golden/tf115_keras_names.json (written by `python3 dev.py tf115`); test_keras_names_gone.py
checks that each one is on TF 2's tf.keras, or is rewritten by uai-migrate, or is in compat.tf1_names.KERAS_GONE
with its closest replacement.
"""

import json
import types

import tensorflow as tf


def walk(module, path, seen, out):
    if id(module) in seen:
        return
    seen.add(id(module))
    for name in sorted(dir(module)):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        full = path + "." + name
        if isinstance(value, types.ModuleType):
            if "keras" in value.__name__:  # (tf.keras.backend.tf is TensorFlow itself)
                walk(value, full, seen, out)
        else:
            out.add(full)


if __name__ == "__main__":
    found = set()
    walk(tf.keras, "tensorflow.keras", set(), found)
    print("RESULT " + json.dumps(sorted(found)))

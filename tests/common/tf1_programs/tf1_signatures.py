"""The call signature of every public TF 1 function and class (its constructor), as TF 1.15 has them:
the generated tf.* API and tf.contrib's packages (not their `python` internals, not tf.compat; not tf.keras
nor tf.estimator either, which TF 1.15 served from its Keras and Estimator packages).

Prints `RESULT <json>`, {TF1 name: "a, b, *args, =c, **kwargs"} (`=c`: keyword-only). Its output on real
TensorFlow 1.15 is tests/common/golden/tf115_signatures.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py); test_tf1_signatures.py compares each name with what uai-run
serves and uai-migrate writes for it on TF 2: a TF1 call must mean there what it meant here.
"""

import inspect
import json
import types

import tensorflow as tf

KINDS = {
    inspect.Parameter.VAR_POSITIONAL: "*",
    inspect.Parameter.KEYWORD_ONLY: "=",
    inspect.Parameter.VAR_KEYWORD: "**",
}


def signature(obj):
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return None
    return ", ".join(KINDS.get(p.kind, "") + p.name for p in params)


def public_path(module):
    """Where TF 1.15's public API places `module`, or None (TF's internals, tf.compat)."""
    name = module.__name__.replace("tensorflow_core.", "tensorflow.", 1)  # TF 1.15's package behind `tensorflow`
    if name.startswith("tensorflow._api.v1."):
        path = "tensorflow." + name[len("tensorflow._api.v1.") :]
        return None if path.startswith("tensorflow.compat") else path
    if name.startswith("tensorflow.contrib") and ".python" not in name:
        return name
    return None


def contrib_package(module):
    """Is `module`, read as `tf.contrib.<name>`, a package of tf.contrib? (Some are one of their python modules:
    tf.contrib.summary is tensorflow.contrib.summary.summary, tf.contrib.eager its python.tfe.)"""
    return module.__name__.replace("tensorflow_core.", "tensorflow.", 1).startswith("tensorflow.contrib.")


def walk(module, path, out):
    for name in sorted(dir(module)):
        if name.startswith("_"):
            continue
        try:
            value = getattr(module, name)
        except Exception:  # a contrib package whose import fails on this machine
            continue
        full = path + "." + name
        if isinstance(value, types.ModuleType):
            # each module once, where the API places it, and every package of tf.contrib
            if public_path(value) == full or (path == "tensorflow.contrib" and contrib_package(value)):
                walk(value, full, out)
        elif callable(value):
            text = signature(value)
            if text is not None:
                out[full] = text


if __name__ == "__main__":
    result = {}
    walk(tf, "tensorflow", result)
    print("RESULT " + json.dumps(result, sort_keys=True))

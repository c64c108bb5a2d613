"""TensorFlow internals TF 2 moved out of the private modules TF1-era libraries read them from are
served there once compat is imported, for any library (not only tf-slim), on TF 2.15 and 2.21.

mesh-tensorflow 0.1.21 (the last release; tensor2tensor imports it from every model family) registers
its variable class with `tensorflow.python.framework.ops.register_tensor_conversion_function` at import
time; TF keeps that function in `tensor_conversion_registry` only. The library here is a real module in a
folder named site-packages, which uai-run leaves with TensorFlow's own face, as it does an installed one.
"""

import json
import os
import sys

import pytest

from tests.support import runs as _runs
from tests.support.processes import run_script

LIBRARY = """
from tensorflow.python.framework import ops


class Box:
    def __init__(self, value):
        self.value = value


def _to_tensor(box, dtype=None, name=None, as_ref=False):
    return ops.convert_to_tensor(box.value, dtype=dtype, name=name)


ops.register_tensor_conversion_function(Box, _to_tensor)
"""

PROGRAM = """
{first}import json
import tensorflow as tf
import boxes  # the library, imported after TensorFlow as tensor2tensor imports mesh-tensorflow

total = tf.reduce_sum(tf.convert_to_tensor(boxes.Box([1.0, 2.5])))
value = total.numpy() if tf.executing_eagerly() else tf.compat.v1.Session().run(total)
print(json.dumps({{"sum": float(value)}}))
"""

WAYS = {
    "compat imported": ("import compat\n", []),
    "uai-run": ("", ["-m", "uai_run"]),
}


@pytest.mark.parametrize("way", list(WAYS))
def test_a_library_registering_a_tensor_conversion_through_ops_works(tmp_path, way):
    first, runner = WAYS[way]
    library = tmp_path / "site-packages"
    library.mkdir()
    (library / "boxes.py").write_text(LIBRARY)
    (tmp_path / "program.py").write_text(PROGRAM.format(first=first))
    env = _runs.clean_env()
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(library)])
    result = _runs.run([sys.executable, *runner, str(tmp_path / "program.py")], tmp_path, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == {"sum": 3.5}


# TF 2.15 ships forwarding modules for the Estimator's (`tensorflow/python/tpu/tpu_config.py`:
# `from tensorflow_estimator.python.estimator.tpu.tpu_config import *`); mesh-tensorflow imports them.
FORWARDED = """
import json
import compat
import tensorflow as tf
from tensorflow.python.tpu import tpu_config, tpu_estimator
from tensorflow.python.estimator import estimator
from tensorflow.python.estimator.canned import dnn

v1 = tf.compat.v1.estimator
print(json.dumps([
    tpu_config.RunConfig is v1.tpu.RunConfig,
    tpu_estimator.TPUEstimator is v1.tpu.TPUEstimator,
    estimator.Estimator is v1.Estimator,
    dnn.DNNClassifier is v1.DNNClassifier,  # one module object each, not tensorflow-estimator's loaded twice
]))
"""


def test_the_estimators_forwarding_modules_tf_215_shipped_import(tmp_path):
    result = run_script(tmp_path, FORWARDED)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == [True] * 4

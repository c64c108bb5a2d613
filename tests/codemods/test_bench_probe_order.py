"""bench/native.py's probes run a port as it runs alone: compat imported before TensorFlow, so compat's import-time
fixes are in place (with TensorFlow first, compat/_dataset_division.py's TF 1.15 division in a v1 graph's tf.data
functions was not: the safe probe divided where the port alone multiplies by the reciprocal)."""

import os

from bench import native

# a v1 graph's Dataset.map dividing by a constant: the ops of its function, as the port builds them
SCRIPT = """
import compat
import tensorflow as tf

tf.compat.v1.disable_eager_execution()
dataset = tf.compat.v1.data.Dataset.from_tensor_slices(tf.constant([1.0, 3.0])).map(lambda x: x / 127.5)
element = tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()
library = tf.compat.v1.get_default_graph().as_graph_def().library.function
print("ops", sorted({node.op for function in library for node in function.node_def}))
"""


def test_the_safe_probe_runs_a_port_with_compats_division_in_tf_data_functions(tmp_path):
    script = tmp_path / "division.py"
    script.write_text(SCRIPT)
    alone = native._probe("safe", str(script), "", [], str(tmp_path))["stdout"]
    assert "'Mul'" in alone and "'RealDiv'" not in alone, alone


def test_exact_division_names_the_scripts_whose_safe_port_divides_in_the_bench():
    assert set(native.EXACT_DIVISION) == {"train_slim_classifier.py", "resnet_estimator.py"}
    assert all(os.path.exists(os.path.join(native.SOURCES["samples"], name)) for name in native.EXACT_DIVISION)

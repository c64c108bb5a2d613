"""A graph seed makes default-initialized layers repeatable run to run, as on TF 1.x.

Migrated graph-mode code keeps TF2 behaviour (only eager execution is disabled), so
`tf.compat.v1.layers` gets Keras' unseeded TF2 initializers; seeds are process state, so
each check compares separate processes.
"""

from tests.support.processes import result_json, run_script

# One graph per graph seed ("none": no seed) with the layers a migrated TF1 program builds
# with default initializers.
PROGRAM = """
    import compat  # noqa: F401 - first, as in uai-migrate's output
    import json
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()

    def variables(seed):
        with tf.Graph().as_default():
            if seed is not None:
                tf.compat.v1.set_random_seed(seed)
            images = tf.compat.v1.placeholder(tf.float32, [None, 4, 4, 1])
            net = tf.compat.v1.layers.conv2d(images, 2, 3)
            net = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(net), 3)
            tf.compat.v1.get_variable("plain", [3])
            with tf.compat.v1.Session() as session:
                session.run(tf.compat.v1.global_variables_initializer())
                return {v.op.name: session.run(v).tolist() for v in tf.compat.v1.global_variables()}

    print("RESULT " + json.dumps({str(seed): variables(seed) for seed in (1, 2, None)}))
"""


def _run(tmp_path, name):
    result = run_script(tmp_path, PROGRAM, name=name)
    assert result.returncode == 0, result.stderr[-3000:]
    return result_json(result.stdout)


def test_a_graph_seed_fixes_default_initializers_across_processes_and_only_then(tmp_path):
    first, second = _run(tmp_path, "first.py"), _run(tmp_path, "second.py")
    assert set(first["1"]) == {"conv2d/kernel", "conv2d/bias", "dense/kernel", "dense/bias", "plain"}
    assert first["1"] == second["1"]  # exact, value for value
    assert first["1"]["dense/kernel"] != first["2"]["dense/kernel"]  # the seed is used, not a constant
    assert first["1"]["conv2d/kernel"] != first["2"]["conv2d/kernel"]
    # Without a graph seed Keras' own choice stays: a new draw in every process, as on TF 1.x.
    assert first["None"]["dense/kernel"] != second["None"]["dense/kernel"]

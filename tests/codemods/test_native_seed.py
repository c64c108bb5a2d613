"""A TF1 program that set its seed gave the same values at every run; its native port must too.

TF1's layers drew their initial values from op seeds derived from the graph seed. The Keras layers a native port
makes draw theirs from seeds Keras takes from Python's `random` module, which `tf.random.set_seed` does not seed:
two runs of such a port started elsewhere (measured on TF 2.15 and 2.21, Keras 2). Each port is run twice in this
process, its module namespace fresh; between the runs Python's `random` moves on, as it differs between processes.
"""

import contextlib
import io
import runpy
import textwrap

import libcst as cst

from bench import native
from codemods.rules._native_seed import seed_statement, seeds_global_generators

SEEDED = """
    import numpy as np
    import tensorflow as tf

    tf.set_random_seed(3)
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.int64, [None])
    logits = tf.layers.dense(tf.layers.dense(x, 8, activation=tf.nn.relu), 3)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    rng = np.random.RandomState(0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(2):
            _, value = sess.run([train_op, loss], {x: rng.rand(6, 4), y: rng.randint(0, 3, 6)})
            print("step", step, value)
"""


def _printed(path: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(path, run_name="__main__")
    return out.getvalue()


def test_a_seeded_session_script_s_native_port_repeats_itself(tmp_path):
    script = tmp_path / "seeded.py"
    script.write_text(textwrap.dedent(SEEDED))
    native.migrate([str(script)], str(tmp_path / "native"), "native", in_process=True)
    ported = native.ported_file(str(tmp_path / "native"), "seeded.py", "seeded.py")
    code = open(ported, encoding="utf-8").read()
    assert "tf.train.GradientDescentOptimizer" not in code and "keras" in code, code  # it converted
    first, second = _printed(ported), _printed(ported)
    assert first.count("step") == 2
    assert first == second


def test_a_module_seeding_numpy_or_python_keeps_tf_s_seed_function():
    # keras.utils.set_random_seed would reseed the stream the program seeded itself
    for line in ("np.random.seed(1)", "numpy.random.seed(1)", "random.seed(1)"):
        module = cst.parse_module(f"import random\nimport numpy as np\n{line}\n")
        assert seeds_global_generators(module), line
        assert seed_statement("tf", "3", module) == "tf.random.set_seed(3)\n"
    for line in ("rng = np.random.RandomState(1)", "tf.random.set_seed(1)", "tf.set_random_seed(1)"):
        module = cst.parse_module(f"import numpy as np\n{line}\n")
        assert not seeds_global_generators(module), line
        assert seed_statement("tf", "3", module) == "tf.keras.utils.set_random_seed(3)\n"


ESTIMATOR = """
    import tempfile

    import numpy as np
    import tensorflow as tf


    def model_fn(features, labels, mode):
        logits = tf.layers.dense(tf.layers.dense(features, 8, activation=tf.nn.relu), 2)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        rng = np.random.RandomState(0)
        return tf.data.Dataset.from_tensors((rng.rand(6, 4).astype(np.float32), rng.randint(0, 2, 6))).repeat()


    def main(_):
        config = tf.estimator.RunConfig(tf_random_seed=1)
        estimator = tf.estimator.Estimator(model_fn, tempfile.mkdtemp(), config)
        estimator.train(input_fn, steps=2)
        print("evaluated", estimator.evaluate(input_fn, steps=1)["loss"])


    if __name__ == "__main__":
        main(None)
"""


def test_a_seeded_estimator_program_s_native_loop_repeats_itself(tmp_path):
    # (the Estimator drew its initial values from RunConfig's tf_random_seed, the same at every run)
    script = tmp_path / "seeded_estimator.py"
    script.write_text(textwrap.dedent(ESTIMATOR))
    native.migrate([str(script)], str(tmp_path / "native"), "native", in_process=True)
    ported = native.ported_file(str(tmp_path / "native"), script.name, script.name)
    code = open(ported, encoding="utf-8").read()
    assert "tf.estimator" not in code and "def train_step" in code, code  # TF 2's own loop
    first, second = _printed(ported), _printed(ported)
    assert "evaluated" in first
    assert first == second

"""Tiny TF1 programs whose safe port used to fail at run time with nothing in uai-migrate's report:
each is migrated with `uai-migrate --out` and the port is run with plain python, in a user's shell
(no Keras choice inherited), on this TensorFlow (both suites: TF 2.15 and 2.21); and, where uai-run
failed on it too, run unmodified under uai-run."""

import math
import sys
import textwrap

import numpy as np
import pytest

from tests.support.events import scalars
from tests.support.runs import migrate, run

KERAS_WITH_TF1_OPTIMIZER = """
    import numpy as np
    import tensorflow as tf

    x = np.random.RandomState(0).rand(32, 4).astype("float32")
    y = x.sum(axis=1, keepdims=True)
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.train.AdamOptimizer(0.01), loss="mse")
    history = model.fit(x, y, epochs=2, batch_size=8, verbose=0)
    print("loss", history.history["loss"][-1])
"""


# TF 1.x's eager summaries (its guide's example): contrib's writers took the global step themselves
CONTRIB_SUMMARIES = """
    import sys
    import tensorflow as tf

    tf.enable_eager_execution()
    writer = tf.contrib.summary.create_file_writer(sys.argv[1])
    step = tf.train.get_or_create_global_step()
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
        for i in range(3):
            tf.contrib.summary.scalar("loss", 1.0 / (i + 1))
            step.assign_add(1)
"""


# tf.keras layers in a seeded TF1 graph: TF 1.x drew their initial weights from the graph seed
KERAS_LAYERS_IN_A_SEEDED_GRAPH = """
    import numpy as np
    import tensorflow as tf

    tf.set_random_seed(1)
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.keras.layers.Dense(1)(tf.keras.layers.Dense(8, activation="relu")(x))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("out", float(sess.run(y, {x: np.ones((1, 4), np.float32)})[0, 0]))
"""


def _port_runs(tmp_path, source: str, *args: str):
    """The port of `source` run with python (with `args`): (its CompletedProcess, the migrated text)."""
    src, out = tmp_path / "src", tmp_path / "out"
    src.mkdir()
    (src / "train.py").write_text(textwrap.dedent(source))
    migrated = migrate("--out", out, src, cwd=tmp_path)
    assert migrated.returncode in (0, 1), migrated.stderr
    return run([sys.executable, str(out / "train.py"), *args], cwd=out, timeout=120), (out / "train.py").read_text()


def test_a_tf_keras_model_compiled_with_a_tf1_optimizer_trains_after_migration(tmp_path):
    result, text = _port_runs(tmp_path, KERAS_WITH_TF1_OPTIMIZER)
    assert result.returncode == 0, result.stderr[-3000:]
    (line,) = [line for line in result.stdout.splitlines() if line.startswith("loss ")]
    assert math.isfinite(float(line.split()[1]))
    assert "import compat" in text


@pytest.mark.parametrize("way", ["uai-migrate", "uai-run"])
def test_contrib_summaries_are_written_at_the_global_step(tmp_path, way):
    logs = str(tmp_path / "logs")
    if way == "uai-migrate":
        result, _ = _port_runs(tmp_path, CONTRIB_SUMMARIES, logs)
    else:
        (tmp_path / "train.py").write_text(textwrap.dedent(CONTRIB_SUMMARIES))
        result = run([sys.executable, "-m", "uai_run", str(tmp_path / "train.py"), logs], cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert scalars(tmp_path / "logs") == [(0, "loss", 1.0), (1, "loss", 0.5), (2, "loss", float(np.float32(1 / 3)))]


def test_tf_keras_layers_in_a_seeded_graph_draw_the_same_weights_every_run_after_migration(tmp_path):
    first, _ = _port_runs(tmp_path, KERAS_LAYERS_IN_A_SEEDED_GRAPH)
    again = run([sys.executable, str(tmp_path / "out" / "train.py")], cwd=tmp_path / "out", timeout=120)
    unmodified = run([sys.executable, "-m", "uai_run", str(tmp_path / "src" / "train.py")], cwd=tmp_path, timeout=120)
    outputs = [[line for line in r.stdout.splitlines() if line.startswith("out ")] for r in (first, again, unmodified)]
    assert all(r.returncode == 0 for r in (first, again, unmodified)), [r.stderr[-2000:] for r in (first, again)]
    assert outputs[0] == outputs[1] == outputs[2] and len(outputs[0]) == 1, outputs

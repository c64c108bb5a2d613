"""--level native trains like --level safe, by checkpoint (bench/native.py's method, on two scripts).

The safe port writes its variables at step 0 and trains; the native port starts from that checkpoint
through the TF1 names native-session writes out, trains on the same batches, and the values each
training step returns agree to bench.native.TOLERANCE.
"""

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from bench import native
from tests.support.processes import REPO, python_env

SAMPLE = os.path.join(REPO, "samples", "tf1", "session_classifier.py")
# conv2d, batch norm (its moving statistics read by the evaluation), pooling, flatten and dense layers, tf-slim's
# fully_connected under arg_scope (a Glorot initializer, an l2 regularizer: a Keras Dense keeping weights/biases), a
# tf.Variable, a default placeholder, a v1 loss (its labels [N, 1], as TF1's loss took them), Momentum under UPDATE_OPS, a feed dict variable, a Saver and
# a second session restoring what the first saved
FIXTURE = """
    import os

    import numpy as np
    import tensorflow as tf

    images = tf.placeholder(tf.float32, [None, 6, 6, 1])
    labels = tf.placeholder(tf.int64, [None, 1])  # [N, 1]: TF1's v1 loss squeezed them
    training = tf.placeholder_with_default(False, [])
    net = tf.layers.conv2d(images, 3, 3, activation=tf.nn.relu)
    net = tf.layers.batch_normalization(net, training=training)
    net = tf.layers.flatten(tf.layers.max_pooling2d(net, 2, 2))
    scale = tf.Variable(tf.ones([3]))
    with tf.contrib.framework.arg_scope(
        [tf.contrib.layers.fully_connected],
        weights_initializer=tf.contrib.layers.xavier_initializer(),
        weights_regularizer=tf.contrib.layers.l2_regularizer(1e-3),
    ):
        hidden = tf.contrib.layers.fully_connected(net * tf.tile(scale, [4]), 4)
    logits = tf.layers.dense(hidden, 2)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)
    saver = tf.train.Saver()
    rng = np.random.RandomState(1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            feed = {images: rng.rand(5, 6, 6, 1), labels: rng.randint(0, 2, (5, 1)), training: True}
            _, value = sess.run([train_op, loss], feed_dict=feed)
            print("step", step, value)
        saved = saver.save(sess, os.path.join(os.getcwd(), "model.ckpt"))
    with tf.Session() as sess:
        saver.restore(sess, saved)
        feed = {images: rng.rand(5, 6, 6, 1), labels: rng.randint(0, 2, (5, 1)), training: True}
        _, value = sess.run([train_op, loss], feed_dict=feed)
        print("step 3", value)
        print("eval %.5f" % sess.run(loss, {images: rng.rand(5, 6, 6, 1), labels: rng.randint(0, 2, (5, 1))}))
"""
# a tf.data pipeline read through a one-shot iterator, no placeholder; a helper making its variables with
# variable_scope/get_variable, called three times (once reusing a scope): its variables load by their TF1 names;
# gfile and logging verbosity (native-io) printed by both ports
DATASET = """
    import numpy as np
    import tensorflow as tf

    rng = np.random.RandomState(0)
    features, targets = rng.rand(12, 3).astype(np.float32), rng.rand(12, 1).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(4).repeat()
    x, y = dataset.make_one_shot_iterator().get_next()


    def dense(inputs, scope, units, reuse=False):
        with tf.variable_scope(scope, reuse=reuse):
            kernel = tf.get_variable("kernel", [inputs.shape[-1], units], initializer=tf.truncated_normal_initializer())
            bias = tf.get_variable("bias", [units], initializer=tf.zeros_initializer())
            return tf.matmul(inputs, kernel) + bias


    w = tf.Variable(tf.zeros([3, 1]))
    hidden = dense(tf.tanh(dense(x, "hidden", 3)), "hidden", 3, reuse=True)
    loss = tf.reduce_mean(tf.square(tf.matmul(hidden, w) + dense(x, "out", 1) - y))
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.logging.set_verbosity(tf.logging.ERROR)
        for step in range(5):
            _, value = sess.run([train_op, loss])
            print("step", step, value)
        tf.gfile.MakeDirs("made/inner")
        print("eval", tf.gfile.ListDirectory("made"), tf.gfile.Exists("made/inner"), tf.logging.get_verbosity())
"""
# tf.device blocks, one of them with a device function that names one device whatever the op; a variable's .device
# read (the native port writes the string TF1 recorded)
DEVICE = """
    import numpy as np
    import tensorflow as tf


    def variables_on_cpu(op):
        if op.type in ("Variable", "VariableV2", "VarHandleOp"):
            return "/cpu:0"
        return "/cpu:0"


    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.placeholder(tf.float32, [None, 1])
    with tf.device(variables_on_cpu):
        w = tf.Variable(tf.ones([3, 1]))
        hidden = tf.layers.dense(x, 4, activation=tf.nn.tanh)
    with tf.device("/cpu:0"):
        loss = tf.reduce_mean(tf.square(tf.matmul(hidden, tf.ones([4, 3])) @ w - y))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    rng = np.random.RandomState(2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(4):
            _, value = sess.run([train_op, loss], {x: rng.rand(6, 3), y: rng.rand(6, 1)})
            print("step", step, value)
        print("eval device", w.device)
"""
# v1 streaming metrics (accuracy, mean) updated after training, read after their updates; written against
# tensorflow.compat.v1 with disable_v2_behavior (the native port imports tensorflow)
METRICS = """
    import numpy as np
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.placeholder(tf.int64, [None])
    logits = tf.layers.dense(x, 2)
    loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
    predictions = tf.argmax(logits, 1)
    accuracy, update_accuracy = tf.metrics.accuracy(y, predictions)
    # float predictions of int labels: TF1 cast them to the labels' dtype (truncating) before comparing
    scaled = tf.reduce_max(tf.nn.softmax(logits), 1) * 3.0
    truncated, update_truncated = tf.metrics.accuracy(y, scaled)
    mean_loss, update_loss = tf.metrics.mean(loss)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    rng = np.random.RandomState(3)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.local_variables_initializer())
        for step in range(3):
            _, value = sess.run([train_op, loss], {x: rng.rand(8, 3), y: rng.randint(0, 2, 8)})
            print("step", step, value)
        for batch in range(2):
            feed = {x: rng.rand(8, 3), y: rng.randint(0, 2, 8)}
            sess.run(update_accuracy, feed)
            sess.run(update_truncated, feed)
            sess.run(update_loss, feed_dict=feed)
        print("eval accuracy %.5f mean loss %.5f" % (sess.run(accuracy), sess.run(mean_loss)))
        print("eval truncated %.5f" % sess.run(truncated))
"""
# a TF1 checkpoint (the safe port's Saver writes one) restored by the native port: by its variables' names
RESTORING = """
    import os

    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.ones([2, 1]))
    loss = tf.reduce_sum(tf.layers.dense(tf.contrib.layers.fully_connected(tf.matmul(x, w), 3), 1))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        if os.environ.get("RESTORE"):
            saver.restore(sess, os.environ["RESTORE"])
        else:
            sess.run(tf.global_variables_initializer())
        _, value = sess.run([train_op, loss], {x: [[1.0, 2.0]]})
        print("loss %.6f" % value)
        saver.save(sess, os.path.join(os.environ["OUT"], "model.ckpt"))
"""


@pytest.mark.parametrize("which", ["sample", "fixture", "dataset", "device", "metrics"])
def test_native_port_trains_like_the_safe_port_from_its_step_0_checkpoint(tmp_path, which):
    if which == "sample":
        script, args = SAMPLE, ["--steps=3", "--keep_prob=1.0"]  # (dropout masks differ: bench/native.py ARGS)
    else:
        script, args = str(tmp_path / f"{which}.py"), []
        (tmp_path / f"{which}.py").write_text(
            textwrap.dedent({"fixture": FIXTURE, "dataset": DATASET, "device": DEVICE, "metrics": METRICS}[which])
        )
    ported = {
        level: native.migrate([script], str(tmp_path / level), level, in_process=True) for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(ported["native"])] == [os.path.basename(script)]
    name = os.path.basename(script)
    files = {level: native.ported_file(str(tmp_path / level), name, name) for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        code = handle.read()
    assert native.references(code)[1] == 0  # no tf.* reference through tf.compat.v1
    assert ".Session(" not in code and ".placeholder(" not in code and "sess.run" not in code
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence(name, files["safe"], files["native"], args, str(folder))
    assert row["unloaded"] == [] and row["steps"] >= 3, row
    assert which != "dataset" or row["loaded"] == "5/5", row  # (hidden/kernel, hidden/bias, out/..., Variable)
    assert row["equal"], row
    evaluations = [[line for line in out.splitlines() if line.startswith("eval")] for out in row["stdout"]]
    assert evaluations[0] or which not in ("fixture", "metrics", "dataset", "device")
    assert evaluations[0] == evaluations[1]  # (the fixture's: batch norm's moving statistics after 4 steps)


def test_a_tf1_checkpoint_restores_into_the_native_port_by_its_names(tmp_path):
    script = tmp_path / "restoring.py"
    script.write_text(textwrap.dedent(RESTORING))
    for level in ("safe", "native"):
        native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
    first, again, ported = (tmp_path / name for name in ("first", "again", "ported"))

    def run(level: str, out: pathlib.Path, restore: str = "") -> str:
        out.mkdir()
        env = python_env({"OUT": str(out), "RESTORE": restore})
        done = subprocess.run(
            [sys.executable, str(tmp_path / level / "restoring.py")],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    run("safe", first)  # a TF1 checkpoint, written by tf.compat.v1.train.Saver after one step
    tf1 = run("safe", again, str(first / "model.ckpt"))
    eager = run("native", ported, str(first / "model.ckpt"))
    assert eager == tf1  # the same second step: w and both layers came back from the TF1 names (slim's weights/biases)


def test_the_bench_counts_what_each_native_rule_converted_and_left(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "eager.py").write_text(
        "import tensorflow as tf\n\ntf.enable_eager_execution()\nprint(tf.reduce_sum([1.0, 2.0]).numpy())\n"
    )
    (source / "graph.py").write_text(
        "import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\nopt = tf.train.AdamOptimizer(0.1)\n"
        "with tf.Session() as sess:\n    print(sess.run(x, {x: 1.0}))\n"
    )
    report = native.migrate([str(source)], str(tmp_path / "out"), "native", in_process=True)
    assert [os.path.basename(p) for p in native.converted(report)] == ["eager.py"]  # (the Session script is left)
    counts = native.rule_counts(report)
    assert counts["native-eager-defaults"] == (1, 0) and counts["native-optimizer"] == (0, 1), counts


# a variable the safe port made in float64 and a native port in float32: the values load (a numpy array converts),
# the losses agree within the tolerance, and the port still trains in another dtype
FLOAT64_SAFE = """
    import numpy as np
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    x = np.ones((4, 2))
    w = tf.compat.v1.get_variable("w", initializer=tf.constant(np.full((2, 1), 0.5)))
    loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.01).minimize(loss)
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        for _ in range(3):
            print(sess.run([train_op, loss])[1])
"""
FLOAT32_NATIVE = """
    import numpy as np
    import tensorflow as tf

    x = np.ones((4, 2), np.float32)
    w = tf.Variable(np.full((2, 1), 0.5, np.float32), name="w")
    optimizer = tf.keras.optimizers.SGD(0.01)


    @tf.function
    def train_step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss


    for _ in range(3):
        print(float(train_step()))
"""


def test_the_bench_does_not_load_a_checkpoint_value_into_a_variable_of_another_dtype(tmp_path):
    files = {}
    for level, text in (("safe", FLOAT64_SAFE), ("native", FLOAT32_NATIVE)):
        files[level] = tmp_path / f"{level}.py"
        files[level].write_text(textwrap.dedent(text))
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence("retyped.py", str(files["safe"]), str(files["native"]), [], str(folder))
    assert row["steps"] == 3 and row["max_diff"] <= native.TOLERANCE, row  # (the losses alone would pass)
    assert row["loaded"] == "0/1" and row["unloaded"] == ["w (float64 in the checkpoint, float32 here)"], row
    assert not row["equal"], row


# a train op run alone, the loss fetched by a run of its own (helper-95's v_feed.py): the native train step returns
# nothing, which the bench's probe recorded as [None] and crashed on (float(None))
SILENT_STEP = """
    import numpy as np
    import tensorflow as tf

    rng = np.random.RandomState(0)
    xs = rng.normal(size=(64, 4)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 4])
    loss = tf.reduce_mean(tf.square(tf.layers.dense(x, 1, name="out")))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for i in range(3):
            sess.run(train_op, {x: xs[i * 16 : i * 16 + 16]})
            print("loss %.5f" % sess.run(loss, feed_dict={x: xs}))
"""


def test_a_train_step_returning_nothing_is_probed_by_its_printed_losses(tmp_path):
    script = tmp_path / "silent.py"
    script.write_text(textwrap.dedent(SILENT_STEP))
    files = {}
    for level in ("safe", "native"):
        native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
        files[level] = native.ported_file(str(tmp_path / level), "silent.py", "silent.py")
    with open(files["native"], encoding="utf-8") as handle:
        assert "sess.run" not in handle.read()  # (converted: its train step returns nothing)
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence("silent.py", files["safe"], files["native"], [], str(folder))
    assert row["equal"] and row["unloaded"] == [], row
    assert row["stdout"][0] == row["stdout"][1] and row["stdout"][0].count("loss") == 3, row

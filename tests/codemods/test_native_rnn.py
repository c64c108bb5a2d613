"""The RNN native-session writes for TF1's BasicLSTMCell under dynamic_rnn (codemods/rules/_native_rnn.py): its
cell, from the kernel and bias values tests/common/tf1_programs/basic_lstm_layout.py gave TF 1.15's, names its
variables as 1.15 did and computes 1.15's outputs, state and gradients (tests/common/golden/
tf115_basic_lstm_layout.json); and the corpus' rnn_text_classifier, ported at both levels, trains its 30 steps with
the safe port's losses from the safe port's step-0 checkpoint (bench/native.py's method)."""

import json
import os

import numpy as np
import tensorflow as tf

import compat  # noqa: F401 - tf.keras is Keras 2, as the port imports it
from bench import native
from codemods.rules._native_rnn import CELL_CODE
from tests.support.processes import REPO

GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_basic_lstm_layout.json")
BATCH, STEPS, DEPTH, UNITS = 2, 3, 5, 4  # (basic_lstm_layout.py's)


def values(shape, scale):
    """basic_lstm_layout.py's fixed values."""
    count = int(np.prod(shape))
    return (np.sin(np.arange(count, dtype=np.float64) * 1.7) * scale).reshape(shape).astype(np.float32)


def test_the_written_cell_keeps_tf115_s_variables_and_computes_its_values():
    with open(GOLDEN, encoding="utf-8") as handle:
        golden = json.load(handle)["values"]
    scope: dict = {"tf": tf}
    exec(CELL_CODE.format(cls="BasicLSTMCell", tf="tf"), scope)  # noqa: S102 - the code the rule writes
    cell = scope["BasicLSTMCell"](UNITS, name="multi_rnn_cell/cell_0/basic_lstm_cell")
    rnn = tf.keras.layers.RNN(cell, return_sequences=True, return_state=True, name="rnn")
    inputs = tf.constant(values([BATCH, STEPS, DEPTH], 1.0))
    rnn(inputs)  # (builds the variables)
    assert [[v.name.split(":")[0], v.shape.as_list()] for v in rnn.variables] == golden["variables"]
    cell.kernel.assign(values([DEPTH + UNITS, 4 * UNITS], 0.5))
    cell.bias.assign(values([4 * UNITS], 0.3))
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        outputs, c, h = rnn(inputs)
        loss = tf.reduce_sum(tf.square(outputs)) + tf.reduce_sum(c)  # (basic_lstm_layout.py's loss)
    gradients = tape.gradient(loss, [cell.kernel, cell.bias, inputs])
    got = {"outputs": outputs, "c": c, "h": h}
    for key, value in got.items():
        np.testing.assert_allclose(np.ravel(value), golden[key], rtol=0, atol=1e-6, err_msg=key)
    for gradient, expected in zip(gradients, golden["gradients"]):
        np.testing.assert_allclose(np.ravel(gradient), expected, rtol=0, atol=1e-5)


def test_rnn_text_classifier_trains_at_native_level_with_the_safe_port_s_losses(tmp_path):
    script = os.path.join(REPO, "tests", "corpus", "rnn_text_classifier.py")
    ported = {level: native.migrate([script], str(tmp_path / level), level) for level in ("safe", "native")}
    assert [os.path.basename(p) for p in native.converted(ported["native"])] == ["rnn_text_classifier.py"]
    files = {level: native.ported_file(str(tmp_path / level), "", "rnn_text_classifier.py") for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        code = handle.read()
    assert native.references(code) == (native.references(code)[0], 0) and "compat.v1" not in code
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence("rnn_text_classifier.py", files["safe"], files["native"], [], str(folder))
    # the 30 training runs' summarized losses; loaded: embeddings, the LSTM's kernel and bias, dense's kernel and bias
    assert row["steps"] == 30 and row["loaded"] == "5/5" and row["unloaded"] == [], row
    # (not 0: TF1's Adam updates through its fused kernel, Keras's through element-wise ops: bench/native.py)
    assert row["equal"] and row["max_diff"] <= native.TOLERANCE, row
    assert row["stdout"][0] == row["stdout"][1] == "steps 3 learned True\n"

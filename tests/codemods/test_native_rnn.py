"""The RNN native-session writes for TF1's BasicLSTMCells under dynamic_rnn (codemods/rules/_native_rnn.py): written
for the cells of tests/common/tf1_programs/basic_lstm_layout.py and given the values it gave TF 1.15's, it names its
variables as 1.15 did and computes 1.15's outputs, state and gradients (tests/common/golden/
tf115_basic_lstm_layout.json); and the corpus' rnn_text_classifier, ported at both levels, trains its 30 steps with
the safe port's losses from the safe port's step-0 checkpoint (bench/native.py's method)."""

import json
import os
import re

import numpy as np
import pytest
import tensorflow as tf

import compat  # noqa: F401 - tf.keras is Keras 2, as the port imports it
from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.processes import REPO
from tests.support.rule_test import apply

GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_basic_lstm_layout.json")
BATCH, STEPS, DEPTH = 2, 3, 5  # (basic_lstm_layout.py's)
# basic_lstm_layout.py's cases as a Session script's cells
CELLS = {
    "one": "[tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(4), output_keep_prob=1.0)]",
    "two": "[tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(4), output_keep_prob=1.0), "
    "tf.nn.rnn_cell.BasicLSTMCell(3, forget_bias=0.5)]",
}
SCRIPT = """import tensorflow as tf
x = tf.placeholder(tf.float32, [None, 3, 5])
outputs, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell({cells}), x, dtype=tf.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print(sess.run(outputs, {{x: [[[0.0] * 5] * 3]}}))
"""


def values(shape, scale):
    """basic_lstm_layout.py's fixed values."""
    count = int(np.prod(shape))
    return (np.sin(np.arange(count, dtype=np.float64) * 1.7) * scale).reshape(shape).astype(np.float32)


def written_rnn(cells: str) -> tf.keras.layers.Layer:
    """The Keras RNN native-session writes for a dynamic_rnn over `cells` (its cell class and its layer's line)."""
    code = apply(SCRIPT.format(cells=cells), NativeSessionRule, level="native").module.code
    cls = re.search(r"^class BasicLSTMCell\(.*?(?=^\S)", code, re.S | re.M)
    line = re.search(r"^rnn = (tf\.keras\.layers\.RNN\(.*\))$", code, re.M)
    assert cls and line, code
    scope: dict = {"tf": tf}
    exec(cls.group(0), scope)  # noqa: S102 - the code the rule writes
    return eval(line.group(1), scope)  # noqa: S307


@pytest.mark.parametrize("case", sorted(CELLS))
def test_the_written_cells_keep_tf115_s_variables_and_compute_its_values(case):
    with open(GOLDEN, encoding="utf-8") as handle:
        golden = json.load(handle)["values"][case]
    rnn = written_rnn(CELLS[case])
    rnn.return_state = True  # (the last state, which basic_lstm_layout.py's loss reads)
    inputs = tf.constant(values([BATCH, STEPS, DEPTH], 1.0))
    rnn(inputs)  # (builds the variables)
    assert [[v.name.split(":")[0], v.shape.as_list()] for v in rnn.variables] == golden["variables"]
    for variable in rnn.variables:
        variable.assign(values(variable.shape.as_list(), 0.5 if "kernel" in variable.name else 0.3))
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        outputs, *states = rnn(inputs)
        c, h = states[-1]  # (the last cell's)
        loss = tf.reduce_sum(tf.square(outputs)) + tf.reduce_sum(c)  # (basic_lstm_layout.py's loss)
    gradients = tape.gradient(loss, [*rnn.variables, inputs])
    for key, value in {"outputs": outputs, "c": c, "h": h}.items():
        np.testing.assert_allclose(np.ravel(value), golden[key], rtol=0, atol=1e-6, err_msg=key)
    for gradient, expected in zip(gradients, golden["gradients"]):
        np.testing.assert_allclose(np.ravel(gradient), expected, rtol=0, atol=1e-5)


def test_rnn_text_classifier_trains_at_native_level_with_the_safe_port_s_losses(tmp_path):
    script = os.path.join(REPO, "tests", "corpus", "rnn_text_classifier.py")
    ported = {
        level: native.migrate([script], str(tmp_path / level), level, in_process=True) for level in ("safe", "native")
    }
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

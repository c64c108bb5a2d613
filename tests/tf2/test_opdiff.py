"""bench/opdiff.py: tfdbg dumps one training step's every op output, and the comparison names the op that
computes another value first. A tiny seeded graph, run three times at once on this suite's TensorFlow: twice
as written (nothing differs) and once with one op changed by construction (that op, and only it, is named)."""

import os
import subprocess
import sys
import textwrap

from bench import opdiff
from tests.support.processes import python_env

PROGRAM = """
import os
import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
tf.set_random_seed(0)
x = tf.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3))
hidden = tf.matmul(x, tf.get_variable("w", [3, 5]), name="hidden")
f = tf.sin(hidden, name="f") if os.environ.get("VARIANT") else tf.exp(hidden, name="f")
loss = tf.reduce_mean(tf.square(tf.matmul(f, tf.get_variable("v", [5, 2]))))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as session:
    session.run(tf.global_variables_initializer())
    for _ in range(2):
        print(session.run([loss, train])[0])
"""


def test_the_changed_op_is_the_one_origin_and_identical_runs_do_not_differ(tmp_path):
    (tmp_path / "program.py").write_text(textwrap.dedent(PROGRAM))
    runs = {}
    for name, variant in (("first", ""), ("again", ""), ("variant", "1")):
        env = python_env({"OPDIFF_DIR": str(tmp_path / name), "VARIANT": variant})
        env["PYTHONPATH"] = opdiff.HOOK + os.pathsep + env["PYTHONPATH"]
        command = [sys.executable, str(tmp_path / "program.py")]
        runs[name] = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for process in runs.values():
        _, stderr = process.communicate(timeout=300)
        assert process.returncode == 0, stderr.decode()[-2000:]
    first, again, variant = (opdiff.dumps(str(tmp_path / name)) for name in runs)
    assert len(first) == len(again) == len(variant) == 1  # one dump per process: its first training step
    reference = opdiff.load(first[0])
    assert any(tensor.op.endswith("ApplyGradientDescent") for tensor in reference.values())

    same = opdiff.compare(reference, opdiff.load(again[0]))
    assert same.compared == len(reference) and not same.differing
    assert opdiff.report_lines(same)[-1] == "no difference"

    changed = opdiff.compare(reference, opdiff.load(variant[0]))
    assert [(a.name, a.op, b.op) for a, b, _, _ in changed.origins] == [("f:0", "Exp", "Sin")]
    assert changed.differing[0][0].name == "f:0"  # the first differing tensor in execution order
    assert changed.origins[0][3] == [True]  # its one input, hidden's output, is equal
    assert "f:0 (Exp / Sin)" in "\n".join(opdiff.report_lines(changed))

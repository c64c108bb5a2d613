"""--level native on a Session training script with v1 summaries, a global step and an assign op: the
native port trains and writes the same summaries as the safe port, by bench/native.py's method (the safe
port's variables at step 0 loaded by their TF1 names, the losses of each step, the event files' steps and
tags). tests/corpus/session_summaries.py (summaries fetched with an assign op, no training) is the bench's.
"""

import textwrap

import pytest

from bench import native

SCRIPT = """
    import numpy as np
    import tensorflow as tf

    step = tf.train.get_or_create_global_step()
    increment = tf.assign_add(step, 1)
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.ones([2, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    tf.summary.scalar("loss", loss)
    tf.summary.histogram("weights", w)
    merged = tf.summary.merge_all()
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    writer = tf.summary.FileWriter("logs")
    rng = np.random.RandomState(0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            _, value, summary = sess.run([train_op, loss, merged], {x: rng.rand(4, 2)})
            current = sess.run(increment)
            writer.add_summary(summary, current)
            print(current, value)
    writer.close()
"""


# the writer made in the session block (a FileWriter builds no op: the same port)
WRITER = '    writer = tf.summary.FileWriter("logs")\n'
INSIDE = SCRIPT.replace(WRITER, "").replace("with tf.Session() as sess:\n", "with tf.Session() as sess:\n    " + WRITER)


@pytest.mark.parametrize("program", [SCRIPT, INSIDE], ids=["writer before the session", "writer in the session"])
def test_native_port_trains_and_writes_the_safe_ports_summaries_with_tf_summary_v2(tmp_path, program):
    assert program.count("FileWriter") == 1 and (program is SCRIPT) == (WRITER + "    rng" in program), program
    script = tmp_path / "summaries.py"
    script.write_text(textwrap.dedent(program))
    ported = {
        level: native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
        for level in ("safe", "native")
    }
    assert native.converted(ported["native"]) and native.converted(ported["safe"]) == []
    files = {level: native.ported_file(str(tmp_path / level), script.name, script.name) for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        code = handle.read()
    assert native.references(code)[1] == 0  # no tf.* reference through tf.compat.v1
    assert "create_file_writer" in code and ".Session(" not in code and "FileWriter(" not in code
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence(script.name, files["safe"], files["native"], [], str(folder))
    assert row["unloaded"] == [] and row["steps"] == 3, row  # (w only: the safe port saves the trainable ones)
    assert row["summaries"] == 6 and row["renamed_tags"] == [] and row["equal"], row  # 2 summaries x 3 steps
    assert row["stdout"][0] == row["stdout"][1], row  # the global step's values and the losses, as printed

"""native-session's Saver save (codemods/rules/_native_checkpoint.py): `saver.save(sess, path, global_step)` ->
compat.tf1_saver.save(saver, path, global_step), which writes the state file TF1's Saver wrote, so the port's
tf.train.latest_checkpoint finds its checkpoint and a second run restores it (before: Checkpoint.write, no state
file, and each run trained from scratch over the last run's checkpoint). The state file and the files kept are
compat.tf1_saver's, held to a real Saver in tests/common/test_tf1_saver.py; the runs, in test_native_equivalence.py.
"""

import pathlib
import re
import subprocess
import sys
import textwrap

from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.processes import python_env
from tests.support.rule_test import RuleTest

GRAPH = """
    import tensorflow as tf
    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.ones([2, 1]))
    loss = tf.reduce_sum(tf.matmul(x, w))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        latest = tf.train.latest_checkpoint("ckpt")
        if latest:
            saver.restore(sess, latest)
        for step in range(3):
            sess.run(train_op, {x: [[1.0, 2.0]]})
            SAVE
"""
PORT = """
    import compat.tf1_slots
    import compat.tf1_saver
    import tensorflow as tf
    w = tf.Variable(tf.ones([2, 1]), name="Variable")

    def model(x):
        loss = tf.reduce_sum(tf.matmul(x, w))
        return {"loss": loss}

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def train_step(x):
        with tf.GradientTape() as tape:
            outputs = model(x)
        variables = tape.watched_variables()
        optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))

    saver = tf.train.Checkpoint(w=w, optimizer=optimizer)

    latest = tf.train.latest_checkpoint("ckpt")
    if latest:
        saver.restore(latest)
        compat.tf1_slots.restore_slots_when_built(optimizer, latest)
    for step in range(3):
        train_step([[1.0, 2.0]])
        SAVE
"""
PREFIX = "Session script left at the safe level: "


class TestSaverSave(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_save_keeps_the_savers_state_file(self):
        saves = {
            'saver.save(sess, "ckpt/model.ckpt")': 'compat.tf1_saver.save(saver, "ckpt/model.ckpt")',
            'path = saver.save(sess, "ckpt/model.ckpt", global_step=step)': (
                'path = compat.tf1_saver.save(saver, "ckpt/model.ckpt", global_step=step)'
            ),
            'saver.save(sess, "ckpt/model.ckpt", step + 1)': (
                'compat.tf1_saver.save(saver, "ckpt/model.ckpt", global_step=step + 1)'
            ),
        }
        for save, saved in saves.items():
            with self.subTest(save=save):
                self.assertCodemod(GRAPH.replace("SAVE", save), PORT.replace("SAVE", saved), level="native")

    def test_must_not_fire_on_a_save_the_port_does_not_write_as_tf1_did(self):
        cases = {
            # (the port writes no .meta: a script asking for none is not refused for it, but the keyword is not read)
            'saver.save(sess, "ckpt/model.ckpt", write_meta_graph=False)': (
                "saver.save(write_meta_graph=...), which the native equivalent does not take as is"
            ),
            # (a step read off the graph: TF1's Saver evaluated it in the session)
            'saver.save(sess, "ckpt/model.ckpt", global_step=loss)': (
                "saver.save's global_step computed from the graph (loss), which the port does not hold outside its "
                "functions"
            ),
        }
        for save, why in cases.items():
            with self.subTest(save=save):
                source = GRAPH.replace("SAVE", save)
                self.assertCodemod(source, source, level="native")
                said = [e.message for e in self.applied(source, level="native").entries]
                self.assertIn(PREFIX + why, said)


# a script resuming from its folder's latest checkpoint, as TF1 scripts did (ckpt: one path, saved at the end); it
# also saves each step's, named by the step, in another folder (steps: 5 kept, 6 saved per run, numbered on)
RESUMING = """
    import tensorflow as tf

    x = tf.placeholder(tf.float32, [None, 2])
    w = tf.Variable(tf.zeros([2, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - [[1.0], [-1.0]]))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        latest = tf.train.latest_checkpoint("ckpt")
        if latest:
            saver.restore(sess, latest)
            print("restored", latest)
        last = tf.train.latest_checkpoint("steps")
        start = int(last.rsplit("-", 1)[1]) if last else 0
        for step in range(start + 1, start + 7):
            _, value = sess.run([train_op, loss], {x: [[1.0, 2.0], [3.0, 1.0]]})
            saver.save(sess, "steps/model.ckpt", global_step=step)
        print("loss %.5f" % value)
        print("saved", saver.save(sess, "ckpt/model.ckpt"))
"""


def test_a_resuming_script_restores_the_last_runs_checkpoint_at_both_levels(tmp_path):
    """Two runs of RESUMING in one folder at each level (relative folders): the native port prints what the safe
    port printed (the second run restored, its losses going on from the first's; before, the port's write left no
    state file, and the second run trained from scratch), and leaves the same checkpoints (.meta aside, which it
    does not write) and the same state files."""
    script = tmp_path / "resuming.py"
    script.write_text(textwrap.dedent(RESUMING))
    reports = {level: native.migrate([str(script)], str(tmp_path / level), level, True) for level in ("safe", "native")}
    assert [pathlib.Path(p).name for p in native.converted(reports["native"])] == ["resuming.py"]
    printed, kept = {}, {}
    for level in ("safe", "native"):
        folder = tmp_path / f"{level}-runs"
        folder.mkdir()
        printed[level] = [_run(tmp_path / level / "resuming.py", folder) for _ in range(2)]
        kept[level] = {
            name: (
                sorted({re.sub(r"\.(index|data-.*|meta)$", "", p.name) for p in (folder / name).iterdir()}),
                (folder / name / "checkpoint").read_text(),
            )
            for name in ("ckpt", "steps")
        }
    assert printed["native"] == printed["safe"], printed
    assert printed["safe"][1].startswith("restored ckpt/model.ckpt\n"), printed["safe"]
    assert kept["native"] == kept["safe"], kept
    assert "model.ckpt-1" not in kept["safe"]["steps"][0], kept  # (the Saver deleted some: the port did the same)


def _run(script: pathlib.Path, folder: pathlib.Path) -> str:
    done = subprocess.run(
        [sys.executable, str(script)], cwd=folder, env=python_env({}), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout

"""uai-run and uai-migrate share one knowledge: the same losses on a fixed seed, the same report schema and rule ids."""

import json
import sys
import textwrap

from codemods import rules
from codemods._report import Entry, Report
from compat import tf1_names
from tests.codemods import _runs

SEEDED = '''
"""A TF1 graph-mode classifier on fixed seeds: tf.app.flags, tf.layers, tf.contrib.layers, tf.losses, Session."""
import numpy as np
import tensorflow as tf

tf.app.flags.DEFINE_integer("steps", 4, "training steps")
FLAGS = tf.app.flags.FLAGS


def main(_):
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, 4])
    y = tf.placeholder(tf.int64, [None])
    # op-level seeds: uai-migrate's port keeps TF2's resource variables, whose extra ops would shift
    # graph-derived seeds; the initial values must not depend on that
    hidden = tf.layers.dense(x, 8, activation=tf.nn.relu, kernel_initializer=tf.glorot_uniform_initializer(seed=1))
    logits = tf.contrib.layers.fully_connected(
        hidden, 3, activation_fn=None, weights_initializer=tf.contrib.layers.xavier_initializer(seed=2))
    loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.steps):
            batch, labels = rng.normal(size=(16, 4)).astype(np.float32), rng.randint(0, 3, size=16)
            _, value = sess.run([train_op, loss], {x: batch, y: labels})
            print("step %d loss %.7f" % (step, value))


if __name__ == "__main__":
    tf.app.run()
'''


def _losses(result):
    assert result.returncode == 0, result.stderr[-3000:]
    losses = [line for line in result.stdout.splitlines() if line.startswith("step ")]
    assert len(losses) == 4, result.stdout
    return losses


def test_same_losses_unmodified_under_uai_run_as_after_uai_migrate_and_a_report_in_its_schema(tmp_path):
    source = tmp_path / "src" / "seeded.py"
    source.parent.mkdir()
    source.write_text(textwrap.dedent(SEEDED))
    migrated = _runs.migrate("--out", tmp_path / "ported", source, cwd=tmp_path)
    assert migrated.returncode in (0, 1), migrated.stderr
    report_file = tmp_path / "run.json"
    results = _runs.run_all(
        {
            "ported": [sys.executable, str(tmp_path / "ported" / "seeded.py")],
            "uai-run": [sys.executable, "-m", "compat.run", "--report", str(report_file), str(source)],
        },
        tmp_path,
    )
    assert _losses(results["uai-run"]) == _losses(results["ported"])
    assert source.read_text() == textwrap.dedent(SEEDED)

    report = json.loads(report_file.read_text())
    reference = json.loads(Report(mode="run", level="safe").to_json())
    assert report.keys() == reference.keys() and report["summary"].keys() == reference["summary"].keys()
    entries = report["files"][0]["entries"]
    assert all(Entry.from_dict(entry).path == str(source) for entry in entries)
    messages = {entry["message"]: entry["rule"] for entry in entries}
    assert messages["tf.app.flags -> compat.flags"] == "tf-flags"
    assert messages["tf.contrib.layers.fully_connected -> compat.slim.fully_connected"] == "contrib-slim"
    assert messages["tf.Session -> tf.compat.v1.Session"] == "tf1-api"
    assert report["exit_code"] == 0


def test_every_rule_id_the_runtime_table_names_is_a_uai_migrate_rule():
    used = set(tf1_names.RULES.values())
    assert used <= set(rules.BY_ID), used - set(rules.BY_ID)

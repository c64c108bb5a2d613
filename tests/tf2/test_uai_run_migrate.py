"""uai-run and uai-migrate share one knowledge: the same losses on a fixed seed, the same report schema and rule ids."""

import json
import math
import os
import sys
import textwrap

import pytest

from codemods import rules
from codemods._report import Entry, Report
from compat import library_names, tf1_names
from tests.support import runs as _runs
from tests.support.processes import REPO
from tests.support.programs import SAMPLE_ARGS
from tests.support.uai_run import loss_trajectory
from uai_run import _source

TF1_PROGRAMS = os.path.join(REPO, "tests", "common", "tf1_programs")
# Samples whose ports build TF 2's Estimator graph: its op seeds are not the TF 1.15 ones uai-run draws
# (compat/_graph_seed.py), so the two ways start from other weights; both must train the same steps.
# (resnet_estimator's later losses also vary run to run under uai-run: plain tf.gradients with TF 1's ref
# variables, updated in place, measured up to 7.2e-3 apart on TF 2.21 and 2.15.)
OTHER_SEEDS = {"resnet_estimator.py"}

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
    # op-level seeds: the initial values do not depend on the graph's op count
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
            "uai-run": [sys.executable, "-m", "uai_run", "--report", str(report_file), str(source)],
        },
        tmp_path,
    )
    assert loss_trajectory(results["uai-run"], 4) == loss_trajectory(results["ported"], 4)
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
    used = set(tf1_names.RULES.values()) | {library_names.RULE} | {_source.RULE}
    assert used <= set(rules.BY_ID), used - set(rules.BY_ID)


def test_the_ported_bert_style_program_is_what_uai_migrate_makes_of_its_tf1_form(tmp_path):
    """tests/common compares the TF 1 program under uai-run with this port on both TensorFlows (TF 2.15 has no libcst)."""
    name = "bert_style_tpu_tf1.py"
    migrated = _runs.migrate("--out", tmp_path, os.path.join(TF1_PROGRAMS, name), cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stderr
    with open(os.path.join(TF1_PROGRAMS, "bert_style_tpu_tf1_migrated.py"), encoding="utf-8") as kept:
        assert kept.read() == (tmp_path / name).read_text()  # kept as written: ruff leaves *_migrated.py alone


@pytest.mark.parametrize("name", sorted(SAMPLE_ARGS))
def test_each_sample_trains_under_uai_run_with_the_losses_of_its_port(
    samples_under_uai_run, samples_after_uai_migrate, name
):
    # both runs are tests/conftest.py's (samples_under_uai_run is checked in tests/common/test_uai_run_programs.py)
    unmodified = loss_trajectory(samples_under_uai_run.results[name], 3)
    ported = loss_trajectory(samples_after_uai_migrate[name], 3)
    if name in OTHER_SEEDS:
        assert len(unmodified) == len(ported) and all(math.isfinite(float(v)) for v in unmodified + ported)
        return
    assert unmodified == ported


def test_uai_run_explain_and_uai_migrate_place_an_alias_at_the_same_line_and_column(tmp_path):
    script = tmp_path / "place.py"
    script.write_text(
        "import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\nwith tf.Session() as sess:\n    pass\n"
    )
    ran = _runs.run([sys.executable, "-m", "uai_run", "--explain", str(script)], tmp_path)
    migrated = _runs.run([sys.executable, "-m", "codemods", "--no-cache", "--format", "json", str(script)], tmp_path)
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stderr[ran.stderr.index("{") :])
    ran_at = {e["message"].split(" -> ")[0]: (e["line"], e["col"]) for e in report["files"][0]["entries"]}
    migrate_entries = json.loads(migrated.stdout)["files"][0]["entries"]
    for name in ("tf.placeholder", "tf.Session"):
        (at,) = {(e["line"], e["col"]) for e in migrate_entries if name in e["message"]}
        assert ran_at[name] == at, (name, ran_at, migrate_entries)

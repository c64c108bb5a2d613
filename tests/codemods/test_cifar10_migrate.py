"""uai-migrate on the TF 1.4 cifar10_estimator-style program: a before/after fixture pair, as CodemodTest's.

runtime_programs/cifar10_estimator_tf1.py is the program as written for TF 1.4 (tf.contrib.learn's
Experiment and learn_runner, tf.contrib.training, tf.app.flags, private TensorFlow modules);
cifar10_estimator_tf1_migrated.py is the reviewed result of `uai-migrate --write` on it, which
tests/common/test_cifar10_tf1_program.py trains on both TensorFlows. The real CLI runs here on a copy.
"""

import json
import os
import shutil

import pytest

from tests.support.runs import migrate

PROGRAMS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "common", "runtime_programs")
BEFORE = os.path.join(PROGRAMS, "cifar10_estimator_tf1.py")
AFTER = os.path.join(PROGRAMS, "cifar10_estimator_tf1_migrated.py")


def _write(tmp_path, source):
    """`uai-migrate --write` on a copy of `source`: (CompletedProcess, migrated text, report entries)."""
    copy = tmp_path / "cifar10_main.py"
    shutil.copyfile(source, copy)
    report = tmp_path / "report.json"
    result = migrate("--write", "--report", report, copy, cwd=tmp_path)
    (entries,) = [f["entries"] for f in json.loads(report.read_text())["files"]]
    return result, copy.read_text(), entries


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    return _write(tmp_path_factory.mktemp("cifar10_migrate"), BEFORE)


def test_report_has_no_error_entries(migrated):
    result, _, entries = migrated
    assert [e for e in entries if e["severity"] == "error"] == [], result.stdout
    assert result.returncode == 0, result.stderr


def test_migration_is_the_reviewed_fixture(migrated):
    _, text, _ = migrated
    with open(AFTER) as after:
        assert text == after.read()


def test_reviewed_fixture_is_left_as_it_is(tmp_path):
    """The reviewed migration is a fixed point: nothing left to rewrite or to report."""
    result, text, entries = _write(tmp_path, AFTER)
    assert result.returncode == 0, result.stdout + result.stderr
    assert [e for e in entries if e["severity"] != "info"] == [], entries
    with open(AFTER) as after:
        assert text == after.read()

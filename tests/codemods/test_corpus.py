"""Fidelity on the fixture corpus (tests/corpus): after `uai-migrate --write`, every script runs on this TensorFlow.

Each script runs as its manifest says (flags that make training scripts do 3 steps on generated
TFRecords, or just parse their flags); the ones no rule can convert must be error entries with a
manual step instead. The corpus uses every rule.
"""

import json
import sys

import pytest

from codemods.rules import RULES
from tests.codemods import corpus_runner
from tests.codemods._runs import run

UNCHANGED = ("tf2_keras_already.py", "compat_v1_style.py")


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    folder = corpus_runner.copy_corpus(str(root / "corpus"))
    report = root / "report.json"
    result = run([sys.executable, "-m", "codemods", "--write", "--no-cache", "--report", str(report), folder], root)
    return folder, result, json.loads(report.read_text())


def test_report_uses_every_rule_and_names_what_it_cannot_convert(migrated):
    folder, result, report = migrated
    assert result.returncode == 1, result.stderr  # the contrib leftovers need a person
    entries = {f["path"]: f["entries"] for f in report["files"]}
    used = {e["rule"] for file_entries in entries.values() for e in file_entries}
    assert {rule.ID for rule in RULES} <= used
    for name, entry in corpus_runner.manifest().items():
        if entry.get("reported"):
            errors = [e for e in entries[f"{folder}/{name}"] if e["severity"] == "error"]
            assert errors and all(e.get("manual") for e in errors), name
    for name in UNCHANGED:
        with open(f"{folder}/{name}") as after, open(f"{corpus_runner.CORPUS}/{name}") as before:
            assert after.read() == before.read(), name


def test_every_migrated_script_runs(migrated, tmp_path):
    folder, _, _ = migrated
    data = corpus_runner.generate_data(str(tmp_path / "data"))
    results = corpus_runner.run_corpus(folder, data, str(tmp_path / "out"))
    failed = {n: (r.returncode, r.stdout[-500:], r.stderr[-1500:]) for n, (ok, r) in results.items() if not ok}
    assert not failed, failed
    assert len(results) >= 30

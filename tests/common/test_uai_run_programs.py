"""The bundled TF1 samples and representative corpus programs run UNMODIFIED under `uai-run`, files untouched.

The corpus picks cover the families: a Session loop, tf.layers, TF1 flags imported as a module, an
Estimator with train_and_evaluate, tf.contrib.slim's learning.train, and contrib.layers /
contrib.framework / contrib.training (the manifest, tests/corpus/manifest.json, gives their
arguments and expected output). All run as parallel processes, a few steps each, on generated data.
"""

import hashlib
import sys

import pytest

from tests.codemods import _runs, corpus_runner
from tests.conftest import REPO

SAMPLES = f"{REPO}/samples/tf1"
SAMPLE_ARGS = {
    "resnet_estimator.py": (["--max_step=3", "--train_batch_size=4", "--num_classes=11"], "loss = "),
    "train_slim_classifier.py": (["--max_step=3", "--batch_size=2"], "step 3 loss"),
    "session_classifier.py": (["--steps=3"], "step 2 loss"),
}
CORPUS = (
    "session_softmax.py",
    "flags_from_import.py",
    "estimator_train_and_evaluate.py",
    "slim_learning_train.py",
    "contrib_layers_initializer.py",
)


def _digests(folder):
    """{relative path: sha256} of every file under `folder` (bytecode caches left out)."""
    from pathlib import Path

    root = Path(folder)
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return corpus_runner.generate_data(str(tmp_path_factory.mktemp("data")))


def test_samples_and_corpus_programs_run_unmodified(tmp_path, data):
    before = {folder: _digests(folder) for folder in (SAMPLES, corpus_runner.CORPUS)}
    manifest = corpus_runner.manifest()
    commands, expected = {}, {}
    for name, (args, expect) in SAMPLE_ARGS.items():
        commands[name] = [
            sys.executable,
            "-m",
            "compat.run",
            f"{SAMPLES}/{name}",
            f"--data_dir={data}",
            f"--output_dir={tmp_path / name}",
            *args,
        ]
        expected[name] = expect
    for name in CORPUS:
        entry = manifest[name]
        assert not entry.get("env"), f"{name}: pick corpus entries that need no environment (run_all passes none)"
        args = [a.format(data=data, out=tmp_path / f"corpus_{name}") for a in entry.get("args", [])]
        commands[name] = [sys.executable, "-m", "compat.run", f"{corpus_runner.CORPUS}/{name}", *args]
        expected[name] = entry["expect"]
    results = _runs.run_all(commands, corpus_runner.CORPUS)
    failed = {
        name: r.stderr[-2500:]
        for name, r in results.items()
        if r.returncode != 0 or expected[name] not in r.stdout + r.stderr
    }
    assert not failed, failed
    assert {folder: _digests(folder) for folder in before} == before

"""The bundled TF1 samples, corpus programs and the BERT- and cifar10_estimator-style programs run UNMODIFIED under `uai-run`.

The corpus picks cover the families: a Session loop, tf.layers, TF1 flags imported as a module, an
Estimator with train_and_evaluate, tf.contrib.slim's learning.train, contrib.layers /
contrib.framework / contrib.training, and a BERT-style TPUEstimator (the manifest,
tests/corpus/manifest.json, gives their arguments and expected output). The BERT-style
(tf1_programs/) and cifar10_estimator-style (runtime_programs/) TF 1 programs train with the loss
trajectory of their uai-migrate ports (the `*_migrated.py` next to them, which
tests/tf2/test_uai_run_migrate.py and tests/codemods/test_cifar10_migrate.py hold equal to
uai-migrate's output). All run as parallel processes, a few steps each, on generated data; the
files run are byte-identical afterwards.
"""

import os
import sys

import pytest

from tests.codemods import _runs, corpus_runner

# the cifar10 program's TFRecords, as its own test writes them (a pytest fixture, used by name)
from tests.common.test_cifar10_tf1_program import data_dir  # noqa: F401
from tests.conftest import REPO, result_json
from tests.programs import SAMPLE_ARGS
from tests.uai_run_helpers import digests, loss_trajectory

SAMPLES = f"{REPO}/samples/tf1"
CORPUS = (
    "session_softmax.py",
    "flags_from_import.py",
    "estimator_train_and_evaluate.py",
    "slim_learning_train.py",
    "contrib_layers_initializer.py",
    "bert_tpu_estimator.py",
)
HERE = os.path.dirname(os.path.abspath(__file__))
TF1_PROGRAMS = os.path.join(HERE, "tf1_programs")
RUNTIME_PROGRAMS = os.path.join(HERE, "runtime_programs")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return corpus_runner.generate_data(str(tmp_path_factory.mktemp("data")))


def test_samples_and_corpus_programs_run_unmodified(tmp_path, data):
    before = {folder: digests(folder) for folder in (SAMPLES, corpus_runner.CORPUS)}
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
    assert {folder: digests(folder) for folder in before} == before


def _bert_args(out):
    return [f"--output_dir={out}"]


def _cifar10_args(out, records):
    return [f"--data_dir={records}", f"--job_dir={out}", "--num_gpus=2", "--variable_strategy=GPU", "--train_steps=6"]


# (folder, TF 1 program, its arguments given an output folder and the cifar10 records, losses at
# least, relative tolerance). One tower repeats its losses to the last digit; cifar10's two towers
# do not (measured on TF 2.15 and 2.21: runs of either program agree on the first loss to the last
# digit and differ by up to 1.5e-5 at the second step and 1.5e-4 at the evaluation, the towers'
# gradients being summed in either order), so its losses and evaluation are compared within 1e-3;
# a port whose initial weights ignored the graph seed was already 1e-2 off at the first loss.
PROGRAMS = {
    "bert": (TF1_PROGRAMS, "bert_style_tpu_tf1", lambda out, data: _bert_args(out), 10, 0),
    "cifar10": (RUNTIME_PROGRAMS, "cifar10_estimator_tf1", _cifar10_args, 3, 1e-3),
}


@pytest.mark.parametrize("program", ["bert", "cifar10"])
def test_bert_and_cifar10_estimator_style_programs_run_unmodified_with_the_losses_of_their_ports(
    tmp_path,
    data_dir,  # noqa: F811 - the fixture imported above
    program,
):
    folder, name, args, at_least, rel = PROGRAMS[program]
    tf1, ported = (os.path.join(folder, f"{name}{suffix}.py") for suffix in ("", "_migrated"))
    before = digests(folder)
    commands = {
        "uai-run": [sys.executable, "-m", "compat.run", tf1, *args(tmp_path / "uai-run", data_dir)],
        "ported": [sys.executable, ported, *args(tmp_path / "ported", data_dir)],
    }
    results = _runs.run_all(commands, tmp_path)
    losses = {key: [float(v) for v in loss_trajectory(result, at_least)] for key, result in results.items()}
    assert losses["uai-run"] == pytest.approx(losses["ported"], rel=rel, abs=0)  # the evaluation's loss is the last
    if not rel:
        assert result_json(results["uai-run"].stdout) == result_json(results["ported"].stdout)
    assert digests(folder) == before

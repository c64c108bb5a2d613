"""The bundled TF1 samples, the fixture corpus and the BERT- and cifar10_estimator-style programs run UNMODIFIED under `uai-run`.

The samples and every runnable corpus script (tests/corpus/manifest.json gives their arguments and
expected output) run once per session (tests/conftest.py's samples_under_uai_run and
corpus_under_uai_run); the corpus under `uai-run --auto`, which must see TF1 code in all of them but
the TF 2 scripts, and stop the Python 2 ones in one line (uai-migrate ports them). In the tf2 suite
the same runs are compared with the uai-migrate ports' losses (tests/codemods/test_corpus.py,
tests/tf2/test_uai_run_migrate.py). The BERT-style (tf1_programs/) and cifar10_estimator-style
(runtime_programs/) TF 1 programs train with the loss trajectory of their uai-migrate ports (the
`*_migrated.py` next to them, which tests/tf2/test_uai_run_migrate.py and
tests/codemods/test_cifar10_migrate.py hold equal to uai-migrate's output). All run as parallel
processes, a few steps each, on generated data; the files run are byte-identical afterwards."""

import importlib.util
import json
import math
import os
import re
import sys

import pytest

# the cifar10 program's TFRecords, as its own test writes them (a pytest fixture, used by name)
from tests.support import runs as _runs
from tests.support.processes import assert_one_line_error
from tests.support.programs import SAMPLE_ARGS, cifar10_args
from tests.support.uai_run import digests, loss_trajectory, step_losses

# --auto: nothing in them only TF1 had, so python runs them as they are (Keras and tf.function;
# tf.compat.v1 used explicitly; the platform SDK and tf.distribute only)
TF2_CODE = ("compat_v1_style.py", "tf2_keras_already.py", "tf_config_master_to_chief.py", "uai_dist_generate.py")
PYTHON_2 = ("py2_flags.py", "py2_session.py")  # stop in one line naming uai-migrate's py2-port
HERE = os.path.dirname(os.path.abspath(__file__))
TF1_PROGRAMS = os.path.join(HERE, "tf1_programs")
RUNTIME_PROGRAMS = os.path.join(HERE, "runtime_programs")


def test_samples_run_unmodified(samples_under_uai_run):
    results, _, before, after = samples_under_uai_run
    failed = {
        name: r.stderr[-2500:]
        for name, r in results.items()
        if r.returncode != 0 or SAMPLE_ARGS[name][1] not in r.stdout + r.stderr
    }
    assert not failed, failed
    assert after == before


def _missing_module(result) -> str | None:
    """The module a run stopped on because this environment lacks it (Pillow is only in tf2's)."""
    match = re.search(r"ModuleNotFoundError: No module named '([\w.]+)'", result.stderr)
    return match.group(1) if match and importlib.util.find_spec(match.group(1).partition(".")[0]) is None else None


def test_every_corpus_script_runs_unmodified_under_uai_run_auto(corpus_under_uai_run):
    runs, reports, before, after = corpus_under_uai_run
    assert after == before
    results = dict(runs)
    for name in PYTHON_2:
        _, result = results.pop(name)
        assert_one_line_error(result, "Python 3 cannot parse")
        assert "py2-port" in result.stderr
    missing = {name: _missing_module(result) for name, (_, result) in results.items()}
    assert set(filter(None, missing.values())) <= {"PIL"}, missing
    failed = {n: r.stderr[-2500:] for n, (worked, r) in results.items() if not worked and not missing[n]}
    assert not failed, failed

    decisions = {}
    for name in results:
        entries = [e for f in json.loads(reports[name].read_text())["files"] for e in f["entries"]]
        decisions[name] = [e["message"].rpartition(": ")[2] for e in entries if e["message"].startswith("--auto")]
    assert decisions == {n: ["run by python as TF 2 code" if n in TF2_CODE else "the TF1 face"] for n in results}
    assert len(results) >= 30


def _bert_args(out):
    return [f"--output_dir={out}"]


# (folder, TF 1 program, its arguments given an output folder and the cifar10 records, losses at least).
# Both ways train the same number of steps and draw the same op seeds, TF 1.15's (compat/_graph_seed.py
# counts the ops 1.15 built, under uai-run and in the port alike): their initial weights and first losses
# are equal, and so is the BERT-style program's whole trajectory. Their losses are not compared: the
# cifar10-style program's two towers make its losses after the second step vary from run to run (by
# about 1e-4), under uai-run and in the port alike. What both draw is checked against TF 1.15 itself in
# test_tf115_random.py and bench/reference.py.
PROGRAMS = {
    "bert": (TF1_PROGRAMS, "bert_style_tpu_tf1", lambda out, data: _bert_args(out), 10),
    "cifar10": (RUNTIME_PROGRAMS, "cifar10_estimator_tf1", lambda out, data: cifar10_args(data, out), 3),
}


@pytest.mark.parametrize("program", ["bert", "cifar10"])
def test_bert_and_cifar10_estimator_style_programs_train_unmodified_and_as_ported(
    request,
    tmp_path,
    data_dir,
    program,
):
    folder, name, args, at_least = PROGRAMS[program]
    tf1, ported = (os.path.join(folder, f"{name}{suffix}.py") for suffix in ("", "_migrated"))
    before = digests(folder)
    commands = {"uai-run": [sys.executable, "-m", "uai_run", tf1, *args(tmp_path / "uai-run", data_dir)]}
    if program == "bert":
        commands["ported"] = [sys.executable, ported, *args(tmp_path / "ported", data_dir)]
    results = _runs.run_all(commands, tmp_path)
    if (
        program == "cifar10"
    ):  # the port's run of tests/common/conftest.py, with these flags (test_cifar10_tf1_program.py)
        results["ported"] = request.getfixturevalue("cifar10_port_run")[0]
    losses = {key: [float(v) for v in loss_trajectory(result, at_least)] for key, result in results.items()}
    assert all(math.isfinite(value) for trajectory in losses.values() for value in trajectory), losses
    # as many losses both ways. The cifar10-style Experiment evaluates as often as the clock allows (TF 1.15's
    # did too), so there only its training steps' log lines count. (Their step labels differ: under uai-run
    # `step = 1` first, as on TF 1.15, and `step = 0` in the port; docs/traps.md.)
    if program == "cifar10":
        counts = {key: len(step_losses(result)) for key, result in results.items()}
    else:
        counts = {key: len(trajectory) for key, trajectory in losses.items()}
    assert counts["uai-run"] == counts["ported"] > 0, (counts, losses)
    assert digests(folder) == before

"""What the uai-run tests compare: a program's loss trajectory, and the bytes of the files it must leave untouched;
and the unmodified runs they share (the samples and the corpus under uai-run, once per pytest session:
tests/conftest.py's fixtures, read by tests/common and, in the tf2 suite, by the port comparisons), and the
samples' uai-migrate ports run once for the tf2 suite's comparison and demo tests."""

import hashlib
import os
import re
import sys
from pathlib import Path
from typing import NamedTuple

from tests.support.processes import REPO

SAMPLES = os.path.join(REPO, "samples", "tf1")
UAI_RUN = ("-m", "uai_run")

# "step 3 loss 0.6931472" (the tests' own loops) and "loss = 0.6931472" (tf.train.LoggingTensorHook,
# the Estimator's step log and its evaluation line); `eval_loss = ` is not a match.
_LOSS = re.compile(r"(?:^|[\s:,])loss =? ?([-+0-9.eE]+)")


def loss_trajectory(result, at_least: int) -> list[str]:
    """The losses a finished process printed (stdout, then stderr), as written: compared exactly."""
    assert result.returncode == 0, result.stderr[-3000:]
    losses = [value for text in (result.stdout, result.stderr) for value in _LOSS.findall(text)]
    assert len(losses) >= at_least, result.stdout[-2000:] + result.stderr[-2000:]
    return losses


# the Estimator's step log, "loss = 2.3025851, step = 0": one line per logged training step, whatever the clock
_STEP_LOSS = re.compile(r"(?:^|[\s:,])loss = ([-+0-9.eE]+), step = (\d+)")


def step_losses(result) -> dict[int, str]:
    """{training step: loss} of an Estimator program's step log (its evaluations, whose number follows the
    clock as TF 1.15's Experiment did, left out)."""
    assert result.returncode == 0, result.stderr[-3000:]
    text = result.stdout + result.stderr
    return {int(step): loss for loss, step in _STEP_LOSS.findall(text)}


def digests(folder) -> dict[str, str]:
    """{relative path: sha256} of every file under `folder` (bytecode caches left out)."""
    root = Path(folder)
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


class UnmodifiedRuns(NamedTuple):
    """Runs of files under uai-run: {name: CompletedProcess}, {name: --report file}, the folder's digests before and after."""

    results: dict
    reports: dict
    before: dict
    after: dict


def sample_command(runner, folder, name: str, data: str, out) -> list[str]:
    """How a sample runs (tests/programs.SAMPLE_ARGS): `runner` between the interpreter and the script."""
    from tests.support.programs import SAMPLE_ARGS

    return [sys.executable, *runner, os.path.join(folder, name), f"--data_dir={data}", f"--output_dir={out}"] + list(
        SAMPLE_ARGS[name][0]
    )


def run_samples(data: str, out: Path) -> UnmodifiedRuns:
    """Each bundled TF1 sample, unmodified, under uai-run (2 at a time)."""
    from tests.support import runs as _runs
    from tests.support.programs import SAMPLE_ARGS

    before = digests(SAMPLES)
    commands = {name: sample_command(UAI_RUN, SAMPLES, name, data, out / name) for name in SAMPLE_ARGS}
    return UnmodifiedRuns(_runs.run_all(commands, SAMPLES), {}, before, digests(SAMPLES))


def run_ported_samples(data: str, out: Path) -> dict:
    """{name: CompletedProcess}: each bundled TF1 sample as uai-migrate ports it (the whole folder at once, into
    out/ported), run as a user runs the port, on `data` (2 at a time)."""
    from tests.support import runs as _runs
    from tests.support.programs import SAMPLE_ARGS

    migrated = _runs.migrate("--out", out / "ported", SAMPLES, cwd=out)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    commands = {name: sample_command((), out / "ported", name, data, out / "out" / name) for name in SAMPLE_ARGS}
    return _runs.run_all(commands, out)


def run_corpus(data: str, out: Path) -> UnmodifiedRuns:
    """Each runnable corpus script (tests/corpus/manifest.json), unmodified, under `uai-run --auto --report`
    (2 at a time); results are (worked, CompletedProcess). Notebooks run in their kernel, not as a script."""
    from bench import corpus as corpus_runner

    before = digests(corpus_runner.CORPUS)
    names = [n for n, e in corpus_runner.manifest().items() if not e.get("reported") and n.endswith(".py")]
    reports = {name: out / f"{name.replace('/', '_')}.json" for name in names}
    results = corpus_runner.run_corpus(
        corpus_runner.CORPUS,
        data,
        str(out / "out"),
        names=names,
        runner=lambda name: (*UAI_RUN, "--auto", "--report", str(reports[name])),
    )
    return UnmodifiedRuns(results, reports, before, digests(corpus_runner.CORPUS))

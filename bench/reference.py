"""Real TF 1.15 as the reference: TF1 programs' per-step losses, and where each way diverges from 1.15.

    python3 bench/reference.py [--quick | --only NAME ... | --all] [--check] [--ordered-input] [--steps 10] [--json OUT]

Runs each program on generated data, seeded as the program seeds itself, in five ways:
  tf1.15            the original program on TensorFlow 1.15 (.nox/tf115, Python 3.7); the platform
                    SDK it imports is bench/tf115_sdk (the flags through tf.app.flags)
  tf1.15 again      the same once more, compared with the first: where TF 1.15 itself is not repeatable
  uai-run 2.15/2.21 unmodified under uai-run (.nox/tf1, .nox/tf2)
  migrated 2.15/2.21  after uai-migrate, run with plain python
The programs: the bundled samples (samples/tf1, `--steps` steps each), the fixture corpus' training
scripts (tests/corpus/manifest.json's 'train' entries, with its arguments: 3 steps), the TF 1.4
cifar10_estimator-style program (tests/common/runtime_programs), the BERT-style TPUEstimator
program, the research/slim train_image_classifier-, official/resnet- and TF 2.0 Estimator-shaped
programs (tests/common/tf1_programs, 3 steps each, with their tests' flags), and the drivers of bench/realprograms.py (named by their file: a
real library's pinned sdist beside a driver of ours, the library's dependencies pinned there for each
TF, 1.15 included, and installed into its cache with `pip --target`; each prints its per-step losses).
Each row: the first printed loss, the first loss (counted as
printed: 1 is the first) that differs from 1.15's, the relative difference there and the largest,
the last printed loss (an Estimator's evaluation loss where it evaluates), and the final evaluation metrics
the program prints (`metrics()`: an Estimator's evaluation, evaluate()'s dict a fixture program prints as
`RESULT {json}`, a last printed accuracy), each compared with 1.15's ("(equal)" or its relative
difference; as printed, like the losses). The environments
must exist: `python3 dev.py tf115` builds .nox/tf115, `python3 dev.py test-tf1` / `test-tf2` the others
(`python3 dev.py reference` builds all three, then runs this with --check, by default on --quick).

--quick runs QUICK, the samples and four corpus scripts that take seconds each on 1.15. --check judges
each program's first loss: every way's must be within --tolerance (relative) of the 1.15 run's in this
invocation, and the exit status is 1 when one is not (or a way printed none), except for the programs of
NOT_MATCHED (and the ports of PORT_NOT_MATCHED), whose first loss differs from 1.15's at a measured cause
(bench/RESULTS.md): those are reported, not judged. --ordered-input builds the real programs that have `ordered` edits
(bench/realprograms.py: tensor2tensor's parallel_interleave(sloppy=True) made sloppy=False in the built
tree's copy) so that 1.15 reads their input in one order and repeats itself; without it, such a program's
row cannot be compared and --check does not judge it.
"""

import argparse
import concurrent.futures
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from bench import corpus, realprograms  # noqa: E402 - the repository made importable first

SAMPLES = os.path.join(REPO, "samples", "tf1")
RUNTIME_PROGRAMS = os.path.join(REPO, "tests", "common", "runtime_programs")
TF1_PROGRAMS = os.path.join(REPO, "tests", "common", "tf1_programs")
PYTHON = {env: os.path.join(REPO, ".nox", env, "bin", "python") for env in ("tf115", "tf1", "tf2")}
WAYS = ("tf1.15", "tf1.15 again", "uai-run 2.15", "uai-run 2.21", "migrated 2.15", "migrated 2.21")
TENSORFLOW = {"tf115": "1.15", "tf1": "2.15", "tf2": "2.21"}  # each environment's TensorFlow release
# the fast subset (--quick, `python3 dev.py reference`'s default): the three samples and corpus scripts that
# run in seconds on 1.15 (2-10 s a run; train_slim_classifier's resnet_v1_50 30-45 s): 42 runs in 5.6
# minutes on two cores at load 1-5, most of it the TF 2 ways' start-up (4-14 s a run)
QUICK = (
    "session_classifier.py",
    "train_slim_classifier.py",
    "resnet_estimator.py",
    "session_softmax.py",
    "layers_graph.py",
    "estimator_hooks.py",
    "estimator_slim_net.py",
)
# The first loss is to equal 1.15's to 1e-6 (relative), as printed; the largest difference a matching row of
# bench/RESULTS.md's reference table shows is 4.4e-7 (layers_graph).
FIRST_LOSS_TOLERANCE = 1e-6
# The programs whose first loss bench/RESULTS.md's reference table records as other than 1.15's, or that
# 1.15 does not run or repeat, each with its measured cause: --check reports them without judging them.
# Every other program's first loss matched 1.15's there (equal, or within FIRST_LOSS_TOLERANCE).
NOT_MATCHED = {
    "train_slim_classifier.py": "2.5e-4 off: training-mode batch norm kernels (docs/traps.md)",
    "slim_classifier_tf14": "9.5e-3 off: its two clones dequeue their batches in the other order (docs/traps.md)",
    "official_resnet": "1.15 does not repeat itself: its dataset's crops are drawn unseeded",
    "contrib_data_tf14.py": "does not run on 1.15 (FLAGS._parse_flags: TF 1.4's API)",
    "estimator_multiworker_tf20.py": "does not run on 1.15 (tf.keras.losses.Reduction: TF 2.0 code)",
}
# The programs whose uai-migrate ports (the "migrated" ways) print other first losses, with the cause; their
# uai-run ways are judged. None today: tensor2tensor's port built Keras layers (t2t asks tf2.enabled()) until
# uai-migrate's tree pass answered that read as TF 1 did (ebe766a; docs/traps.md): it now prints uai-run's losses.
PORT_NOT_MATCHED: dict[str, str] = {}
# TF 1.4's tf.contrib.data pipeline, which TF 1.15 no longer has, in tf.data's spelling of the same computation
# (map's num_threads parallel calls, then a buffer; uai-migrate's tf1-calls rule writes the same: CALL_KEYWORDS)
CIFAR10_TF115 = (
    realprograms.Edit("cifar10_estimator_tf1.py", "tf.contrib.data.TFRecordDataset(", "tf.data.TFRecordDataset(", 1),
    realprograms.Edit(
        "cifar10_estimator_tf1.py",
        "num_threads=batch_size, output_buffer_size=2 * batch_size)",
        "num_parallel_calls=batch_size).prefetch(2 * batch_size)",
        1,
    ),
)
UNORDERED = "1.15 reads its input in an order that varies run to run as written: run with --ordered-input"

# "step 3 loss 0.69" (the programs' own loops), "loss = 0.69, step = 3" (the Estimator), "loss 0.69" and
# "global step 1: loss = 0.69 (...)" (slim); `eval_loss = ` is not a match. TF 1.15 and 2.x log each
# tf.logging line twice, as `INFO:tensorflow:...` and in absl's format (`I1126 13:57:07.39 ...`): the
# second copy is skipped.
LOSS = re.compile(r"(?:^|[\s:,])loss =? ?([-+0-9.eE]+)")
ABSL_LINE = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d")
# A program's final evaluation, from what it prints: the Estimator's own log line of an evaluation's results
# ("Saving dict for global step 3: accuracy = 0.25, global_step = 3, loss = 1.2"; the last one counts), the
# `RESULT {json}` line of the fixture programs (evaluate()'s dict, at full precision: it wins over the log's
# rounded copy), and the values a program prints last under these names (a training loop's "accuracy 0.75",
# gpflow's "log marginal likelihood -6.8").
EVALUATION = re.compile(r"Saving dict for global step \d+: (.*)$")
PAIR = re.compile(r"(\w+) = ([-+0-9.eE]+|nan|inf)\b")
RESULT = re.compile(r"^RESULT (\{.*\})$")
PRINTED = re.compile(r"\b(accuracy|log marginal likelihood) ([-+0-9.eE]+|nan)$")


class Data(NamedTuple):
    images: str  # ImageNet-style TFRecords (trainlib.data.synth): the samples, the corpus, official/resnet
    cifar10: str  # the cifar10_estimator example's train/eval TFRecords (and the TF 2.0-era Estimator program's)
    slim: str  # the research/slim-style program's data set (tests/support/slim_records.py's layout)


class Program(NamedTuple):
    folder: str  # the original's folder (migrated as a whole tree)
    script: str  # relative to folder
    args: Callable[[Data, str, int], list[str]]  # (data, output folder, --steps) -> arguments
    env: dict
    real: str = ""  # a bench/realprograms.py program: its key in PROGRAMS (its tree is built per run)
    # how 1.15 spells what the program wrote for an older TF 1.x that 1.15 no longer takes, each the same
    # computation: the tf1.15 ways run a copy with these edits; the other ways run the program as written
    tf115: tuple[realprograms.Edit, ...] = ()


def _sample(step_flag: str, *extra: str) -> Callable[[Data, str, int], list[str]]:
    return lambda data, out, steps: [f"--data_dir={data.images}", f"--output_dir={out}", f"{step_flag}={steps}", *extra]


def _corpus_args(entry: dict) -> Callable[[Data, str, int], list[str]]:
    return lambda data, out, steps: [a.format(data=data.images, out=out) for a in entry.get("args", [])]


def _workdir(data: Data, out: str, steps: int) -> list[str]:
    """A real-programs driver's one argument: the folder it writes into, made first."""
    os.makedirs(out, exist_ok=True)
    return [out]


def programs() -> dict[str, Program]:
    found = {
        "session_classifier.py": Program(SAMPLES, "session_classifier.py", _sample("--steps"), {}),
        "train_slim_classifier.py": Program(
            SAMPLES,
            "train_slim_classifier.py",
            _sample("--max_step", "--batch_size=4", "--learning_rate=0.001"),
            {},
        ),
        "resnet_estimator.py": Program(
            SAMPLES, "resnet_estimator.py", _sample("--max_step", "--train_batch_size=4", "--num_classes=11"), {}
        ),
    }
    for name, entry in corpus.manifest().items():
        if entry.get("train"):
            found[name] = Program(corpus.CORPUS, name, _corpus_args(entry), entry.get("env", {}))
    cifar10_flags = ["--num_gpus=2", "--variable_strategy=GPU", "--train_steps=6"]
    found["cifar10_estimator_tf1.py"] = Program(
        RUNTIME_PROGRAMS,
        "cifar10_estimator_tf1.py",
        lambda data, out, steps: [f"--data_dir={data.cifar10}", f"--job_dir={out}", *cifar10_flags],
        {},
        tf115=CIFAR10_TF115,
    )
    found["bert_style_tpu_tf1.py"] = Program(
        TF1_PROGRAMS, "bert_style_tpu_tf1.py", lambda data, out, steps: [f"--output_dir={out}"], {}
    )
    # the TF 1.x tensorflow/models-shaped programs, run as their tests run them (tests/common/test_*_program.py)
    found["slim_classifier_tf14"] = Program(
        os.path.join(TF1_PROGRAMS, "slim_classifier_tf14"),
        "train_image_classifier.py",
        lambda data, out, steps: [a.format(data=data.slim, out=out) for a in _slim_arguments()],
        {},
    )
    with open(os.path.join(REPO, "tests", "common", "golden", "tf115_official_resnet.json")) as golden:
        resnet_flags = json.load(golden)["values"]["args"]  # the tiny ResNet over two towers its golden holds
    found["official_resnet"] = Program(
        os.path.join(TF1_PROGRAMS, "official_resnet"),
        "imagenet_main.py",
        lambda data, out, steps: [
            *resnet_flags,
            f"--data_dir={data.images}",
            f"--model_dir={out}",
            "--max_train_steps=3",
        ],
        {},
    )
    found["estimator_multiworker_tf20.py"] = Program(
        TF1_PROGRAMS,
        "estimator_multiworker_tf20.py",
        lambda data, out, steps: [f"--data_dir={data.cifar10}", f"--model_dir={out}", "--train_steps=3"],
        {},
    )
    for key, real in realprograms.PROGRAMS.items():
        found[real.driver] = Program(key, real.driver, _workdir, realprograms.REPEATABLE, key)
    return found


def _from_tests(module: str, call: str) -> Any:
    """The value of `tests.support.<module>.<call>`, computed by the tf2 environment's python: the fixtures'
    data and flags are the tests' own, and bench imports no test module (tests/common/test_layering.py)."""
    code = f"import json; from tests.support.{module} import *; print(json.dumps({call}))"
    result = subprocess.run([PYTHON["tf2"], "-c", code], cwd=REPO, check=True, capture_output=True, text=True)
    return json.loads(result.stdout.splitlines()[-1])


@functools.cache
def _slim_arguments() -> list[str]:
    """The research/slim-shaped program's flags for 3 steps, as its test runs it, with {data} and {out} to fill."""
    return _from_tests("slim_records", "arguments('{data}', '{out}', 3)")


def losses(text: str) -> list[float]:
    """The losses a run printed, in order, each tf.logging line once."""
    lines = (line for line in text.splitlines() if not ABSL_LINE.match(line))
    return [float(value) for line in lines for value in LOSS.findall(line)]


def metrics(text: str) -> dict[str, float]:
    """The final evaluation metrics a run printed (EVALUATION, RESULT, PRINTED), by name; global_step left out."""
    found: dict[str, float] = {}
    lines = [line.strip() for line in text.splitlines() if not ABSL_LINE.match(line)]
    for line in lines:
        printed = PRINTED.search(line)
        if printed:
            found[printed.group(1)] = float(printed.group(2))
    evaluations = [match.group(1) for match in map(EVALUATION.search, lines) if match]
    if evaluations:
        found.update((key, float(value)) for key, value in PAIR.findall(evaluations[-1]))
    for match in filter(None, map(RESULT.match, lines)):
        for value in json.loads(match.group(1)).values():
            if isinstance(value, dict):
                found.update((k, float(v)) for k, v in value.items() if isinstance(v, (int, float)))
    found.pop("global_step", None)
    return found


def environment(way: str) -> str:
    """The .nox environment a way runs in."""
    return "tf115" if way.startswith("tf1.15") else "tf1" if way.endswith("2.15") else "tf2"


def command(way: str, script: str) -> tuple[list[str], dict]:
    """(argv, extra environment) of one way to run `script` (the original, or its port for 'migrated')."""
    if way.startswith("tf1.15"):
        return [PYTHON["tf115"], script], {"PYTHONPATH": os.path.join(REPO, "bench", "tf115_sdk")}
    env = PYTHON[environment(way)]
    if way.startswith("uai-run"):
        return [env, "-m", "uai_run", script], {"PYTHONPATH": REPO}
    return [env, script], {"PYTHONPATH": REPO}


def tf115_spelling(program: Program, script: str, folder: str) -> str:
    """A copy of the one-file program `script` in `folder` with its `tf115` edits: the script 1.15 runs."""
    os.makedirs(folder)
    copy = os.path.join(folder, os.path.basename(script))
    shutil.copyfile(script, copy)
    for edit in program.tf115:
        realprograms.apply_edit(edit, folder)
    return copy


def run(way: str, name: str, program: Program, folder: str, data: Data, out: str, steps: int, path: str = "") -> dict:
    """One way's run; `path`: a folder of the program's dependencies, put on PYTHONPATH."""
    script = os.path.join(folder, program.script)
    if way.startswith("tf1.15") and program.tf115:
        script = tf115_spelling(program, script, os.path.join(out, "tf115-spelling", f"{name}-{way.replace(' ', '_')}"))
    argv, extra = command(way, script)
    if path:
        extra["PYTHONPATH"] += os.pathsep + path
    output = os.path.join(out, "runs", f"{name}-{way.replace(' ', '_')}")
    argv += program.args(data, output, steps)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **extra, **program.env)
    for variable in ("TF_CONFIG", "TF_USE_LEGACY_KERAS"):
        if variable not in program.env:
            env.pop(variable, None)
    try:
        result = subprocess.run(
            argv, cwd=os.path.dirname(script), env=env, capture_output=True, text=True, timeout=1800
        )
    except subprocess.TimeoutExpired:
        return {"returncode": "timeout", "losses": [], "metrics": {}, "tail": "timed out after 1800 s"}
    found = realprograms.losses_of(result.stdout) if program.real else losses(result.stdout) + losses(result.stderr)
    tail = "" if result.returncode == 0 and found else result.stderr.strip()[-600:]
    final = metrics(result.stdout + "\n" + result.stderr)
    return {"returncode": result.returncode, "losses": found, "metrics": final, "tail": tail}


def divergence(reference: list[float], other: list[float]) -> tuple:
    """(the first loss (1-based) that differs, or None; its relative difference; the largest over the common losses)."""
    pairs = list(zip(reference, other))
    relative = [abs(b - a) / max(abs(a), 1e-12) for a, b in pairs]
    first = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
    return (
        None if first is None else first + 1,
        None if first is None else relative[first],
        max(relative, default=None),
    )


def migrate(folders: set[str], tmp: str, env: dict) -> dict[str, str]:
    """{original folder: its uai-migrate port}; a folder holding a file no rule converts still gets its port."""
    ported = {}
    for index, folder in enumerate(sorted(folders)):
        ported[folder] = os.path.join(tmp, f"migrated-{index}-{os.path.basename(folder)}")
        command = [PYTHON["tf2"], "-m", "codemods", folder, "--out", ported[folder], "--no-cache"]
        result = subprocess.run(command, env=env, capture_output=True, text=True)
        if not os.path.isdir(ported[folder]):
            raise SystemExit(f"reference.py: uai-migrate wrote no port of {folder}: {result.stderr[-600:]}")
    return ported


def unjudged_ways(names: list[str], ordered: set[str]) -> dict[tuple[str, str], str]:
    """{(program, way): why --check does not judge it}: NOT_MATCHED's programs, PORT_NOT_MATCHED's ports, and
    the programs of `ordered` (those with realprograms `ordered` edits, run without them)."""
    unjudged = {}
    for name in names:
        for way in WAYS[1:]:
            why = NOT_MATCHED.get(name) or (UNORDERED if name in ordered else None)
            if why is None and way.startswith("migrated"):
                why = PORT_NOT_MATCHED.get(name)
            if why is not None:
                unjudged[name, way] = why
    return unjudged


def first_loss_check(
    results: dict, names: list[str], tolerance: float, unjudged: dict[tuple[str, str], str]
) -> list[str]:
    """What --check prints: per program, whether each way's first loss is within `tolerance` (relative) of the
    1.15 run's, each line starting with "ok", "FAILED" or "not judged" (the ways of `unjudged`, with why)."""
    lines = []
    for name in names:
        ran = [way for way in WAYS[1:] if results[name, way]["returncode"] != "not run"]
        ways = [way for way in ran if (name, way) not in unjudged]
        skipped = [way for way in ran if (name, way) in unjudged]
        for why in dict.fromkeys(unjudged[name, way] for way in skipped):
            which = [way for way in skipped if unjudged[name, way] == why]
            lines.append(f"not judged {name}{'' if which == ran else ' ' + ', '.join(which)}: {why}")
        if not ways:
            continue
        reference = results[name, "tf1.15"]
        if reference["returncode"] != 0 or not reference["losses"]:
            lines.append(f"FAILED {name}: tf1.15 printed no loss (exit {reference['returncode']})")
            continue
        expected = reference["losses"][0]
        largest = 0.0
        failed = []
        for way in ways:
            result = results[name, way]
            if result["returncode"] != 0 or not result["losses"]:
                failed.append(f"FAILED {name} {way}: printed no loss (exit {result['returncode']})")
                continue
            relative = abs(result["losses"][0] - expected) / max(abs(expected), 1e-12)
            largest = max(largest, relative)
            if relative > tolerance:
                found = result["losses"][0]
                failed.append(f"FAILED {name} {way}: first loss {found} against 1.15's {expected}, {relative:.2e} off")
        judged = f"the first loss of {len(ways)} way{'s' * (len(ways) > 1)} within {largest:.1e} of 1.15's {expected}"
        lines += failed or [f"ok {name}: {judged}"]
    return lines


def _cell(value: "float | None", text: str = "-") -> str:
    return text if value is None else f"{value:.2e}"


def metrics_cell(found: dict[str, float], reference: "dict[str, float] | None") -> str:
    """A way's final metrics, each with how it compares with 1.15's (`reference`; None: the 1.15 row itself):
    "(equal)", its relative difference, or "(1.15: none)" for a metric 1.15 did not print."""
    cells = []
    for key, value in sorted(found.items()):
        if reference is None:
            cells.append(f"{key} {value:.9g}")
        elif key not in reference:
            cells.append(f"{key} {value:.9g} (1.15: none)")
        elif value == reference[key]:
            cells.append(f"{key} {value:.9g} (equal)")
        else:
            relative = abs(value - reference[key]) / max(abs(reference[key]), 1e-12)
            cells.append(f"{key} {value:.9g} ({relative:.1e} off)")
    if reference is not None and found:
        cells += [f"{key} missing" for key in sorted(set(reference) - set(found))]
    return ", ".join(cells) or "-"


def table(results: dict, names: list[str]) -> list[str]:
    rows = [
        "| program | way | exit | losses | first loss | first differing loss | its relative difference "
        "| max relative difference | last loss | final metrics (against 1.15's) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name in names:
        reference = results[name, "tf1.15"]["losses"]
        reference_metrics = (
            results[name, "tf1.15"].get("metrics", {}) if results[name, "tf1.15"]["returncode"] == 0 else {}
        )
        for way in WAYS:
            result = results[name, way]
            if result["returncode"] == "not run":
                continue
            found = result["losses"]
            if way == "tf1.15" or not reference:
                first, at_first, worst = "-", "-", "-"
            else:
                index, relative, largest = divergence(reference, found)
                first = "none" if index is None else str(index)
                at_first, worst = _cell(relative), _cell(largest)
            cells = [name, way, result["returncode"], len(found), found[0] if found else "-", first, at_first, worst]
            cells.append(found[-1] if found else "-")
            cells.append(metrics_cell(result.get("metrics", {}), None if way == "tf1.15" else reference_metrics))
            rows.append("| " + " | ".join(str(c) for c in cells) + " |")
            if result["tail"]:
                rows.append(f"<!-- {name} {way}: {result['tail'].splitlines()[-1]} -->")
    return rows


def write_json(path: str, results: dict) -> None:
    """Every run's results so far ("not run" for the others), keyed "program | way"."""
    with open(path + ".tmp", "w") as handle:
        json.dump({f"{n} | {w}": r for (n, w), r in results.items()}, handle, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def main(argv: "list[str] | None" = None) -> int:
    not_matched = [f"  {name}: {why}" for name, why in NOT_MATCHED.items()]
    not_matched += [f"  {name}, the migrated ways: {why}" for name, why in PORT_NOT_MATCHED.items()]
    parser = argparse.ArgumentParser(
        description=__doc__,
        epilog="NOT_MATCHED (--check reports these, does not judge them):\n" + "\n".join(not_matched),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--steps", type=int, default=10, help="the samples' steps (the others run as written)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--only", nargs="+", metavar="NAME", help="these programs only (file names)")
    which.add_argument("--quick", action="store_true", help="the fast subset: " + ", ".join(QUICK))
    which.add_argument("--all", action="store_true", help="every program (the default)")
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when a way's first loss is not within --tolerance of 1.15's (all but NOT_MATCHED's)",
    )
    parser.add_argument("--tolerance", type=float, default=FIRST_LOSS_TOLERANCE, help="relative, for --check")
    parser.add_argument(
        "--ordered-input",
        action="store_true",
        help="build the real programs with their `ordered` edits (tensor2tensor: parallel_interleave sloppy=False)",
    )
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=list(WAYS), help="these ways only")
    parser.add_argument("--workers", type=int, default=1, help="runs at a time")
    parser.add_argument("--json", help="write every run's losses and metrics here, after each run")
    parser.add_argument("--cache", default=realprograms.realworld.default_cache(), help="realprograms.py's sdist cache")
    options = parser.parse_args(argv)
    missing = [path for path in PYTHON.values() if not os.path.exists(path)]
    if missing:
        print("reference.py: missing environments: " + ", ".join(missing), file=sys.stderr)
        return 2
    chosen = programs()
    unknown = sorted(set(options.only or ()) - set(chosen))
    if unknown:
        print(f"reference.py: no such program: {', '.join(unknown)}", file=sys.stderr)
        return 2
    selected = options.only or (QUICK if options.quick else None)
    names = [n for n in chosen if selected is None or n in selected]
    ordered = {n for n in names if chosen[n].real and realprograms.PROGRAMS[chosen[n].real].ordered}
    unjudged = unjudged_ways(names, set() if options.ordered_input else ordered)
    ways = [w for w in WAYS if w in options.ways or w == "tf1.15"]
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, PYTHONPATH=REPO, TF_CPP_MIN_LOG_LEVEL="2")
        data = Data(os.path.join(tmp, "data"), os.path.join(tmp, "cifar10"), os.path.join(tmp, "slim"))
        corpus_data = ["--train-shards", "1", "--validation-shards", "1", "--images", "16", "--size", "32"]
        synth = [PYTHON["tf2"], "-m", "trainlib.data.synth", "--out", data.images, *corpus_data]
        print("writing the data sets", file=sys.stderr, flush=True)
        subprocess.run(synth, env=env, check=True, capture_output=True)
        os.makedirs(data.cifar10)
        os.makedirs(data.slim)
        # the records tests/common/test_cifar10_tf1_program.py and test_slim_classifier_tf14.py train on
        _from_tests("programs", f"write_cifar10_records(__import__('pathlib').Path({data.cifar10!r}))")
        _from_tests("slim_records", f"write_records(__import__('pathlib').Path({data.slim!r}))")
        paths = {}  # (program, environment): its dependencies' folder, installed before the runs start
        uninstallable = {}  # (program, environment): why its dependencies did not install there
        for name in names:
            real = chosen[name].real
            if real:
                tree = os.path.join(tmp, "realprograms", real)
                edited = options.ordered_input and name in ordered
                print(f"building {real}'s tree" + (" (ordered input)" * edited), file=sys.stderr, flush=True)
                realprograms.build_tree(realprograms.PROGRAMS[real], options.cache, tree, edited)
                chosen[name] = chosen[name]._replace(folder=tree)
                for env_name in sorted({environment(way) for way in ways}):
                    program = realprograms.PROGRAMS[real]
                    python = PYTHON[env_name]
                    try:
                        paths[name, env_name] = realprograms.dependencies(
                            program, options.cache, TENSORFLOW[env_name], python
                        )
                    except realprograms.InstallFailed as failed:
                        uninstallable[name, env_name] = str(failed)
        print(f"uai-migrate: porting {len({chosen[n].folder for n in names})} folders", file=sys.stderr, flush=True)
        ported = migrate({chosen[n].folder for n in names}, tmp, env)
        results = {
            (name, way): {"returncode": "not run", "losses": [], "metrics": {}, "tail": ""}
            for name in names
            for way in WAYS
        }

        todo = [(name, way) for name in names for way in ways]
        written = threading.Lock()
        done = []

        def one(name: str, way: str) -> None:
            started = time.monotonic()
            program = chosen[name]
            folder = ported[program.folder] if way.startswith("migrated") else program.folder
            if (name, environment(way)) in uninstallable:
                tail = uninstallable[name, environment(way)]
                results[name, way] = {"returncode": "dependencies", "losses": [], "metrics": {}, "tail": tail}
            else:
                path = paths.get((name, environment(way)), "")
                results[name, way] = run(way, name, program, folder, data, tmp, options.steps, path)
            with written:  # after every run: a run stopped part way keeps the runs it finished
                done.append((name, way))
                if options.json:
                    write_json(options.json, results)
            result = results[name, way]
            progress = f"[{len(done)}/{len(todo)}] ran {name} {way}: exit {result['returncode']}"
            progress += f", {len(result['losses'])} losses, {time.monotonic() - started:.0f} s"
            print(progress, file=sys.stderr, flush=True)

        with concurrent.futures.ThreadPoolExecutor(max_workers=options.workers) as pool:
            for future in [pool.submit(one, name, way) for name, way in todo]:
                future.result()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("\n".join(table(results, names)))
    if options.ordered_input and ordered:
        print(f"ordered input (bench/realprograms.py's edits in the built tree): {', '.join(sorted(ordered))}")
    if not options.check:
        return 0
    judged = first_loss_check(results, names, options.tolerance, unjudged)
    print(f"\nfirst losses against 1.15's (tolerance {options.tolerance:g} relative):")
    print("\n".join(judged))
    return 1 if any(line.startswith("FAILED") for line in judged) else 0


if __name__ == "__main__":
    sys.exit(main())

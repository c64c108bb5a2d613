"""The TF 1.x tensorflow/models-shaped fixtures, each way, on both TensorFlows, alone and in the cluster it had.

    python3 bench/fixtures.py [--fixtures NAME,...] [--envs tf1,tf2] [--ways uai-run,port]
                              [--layouts alone,cluster] [--timeout SECONDS] [--json OUT] [--markdown OUT]

The fixtures (bench/reference.py's programs of the same name, with their tests' flags and data, tiny):
  cifar10_estimator_tf1       tests/common/runtime_programs: tutorials/image/cifar10_estimator of TF 1.4
                              (Experiment, learn_runner, GreedyLoadBalancingStrategy towers); cluster:
                              master + worker + ps (`uai-launch --dialect master`)
  slim_classifier_tf14        tests/common/tf1_programs: research/slim's train_image_classifier
                              (dataset_factory, DatasetDataProvider, model_deploy); cluster: async
                              parameter-server training, master + worker + ps (`--dialect master`)
  official_resnet             tests/common/tf1_programs: official/resnet's imagenet_main with towers; no
                              cluster: its run loop trains on one machine only (NO_CLUSTER)
  estimator_multiworker_tf20  tests/common/tf1_programs: a TF 2.0-era Estimator with Mirrored /
                              MultiWorkerMirroredStrategy; cluster: chief + worker (`--dialect chief`),
                              which its own TF_CONFIG code turns into chief + evaluator
Each runs in every cell of {uai-run, port} x {tf1: .nox/tf1, TF 2.15; tf2: .nox/tf2, TF 2.21} x
{alone, cluster}:
  uai-run   unmodified: `python -m uai_run SCRIPT` (the TF 2.0-era program: `uai_run --auto`, its
            uai-run way: it is TF 2 code, which uai-run's TF1 face rejects in one line naming --auto)
  port      `uai-migrate --out` (tf2's python: libcst) of the fixture's file or folder, run with python
  cluster   `python -m uai_launch LAYOUT --timeout --log-dir -- <the way's command>`: one process per
            task on 127.0.0.1 with free ports; uai-launch stops every task when the chief ends
A cell "trained" when its command exited 0 and its chief (alone: the program) logged at least one loss.
The port's losses are compared with uai-run's of the same cell, except in a parameter-server cluster: its
two trainers train asynchronously, and which steps the chief logs depends on when the other's land.
The table gives the chief's losses, what the other tasks did (losses logged, an evaluation saved,
waiting for the model), and for a failure the last error line of the chief's output (else of the
first failed task's). One run at a time; progress on stderr; every run's files in a temporary folder
(or --keep), removed at the end.
"""

import argparse
import dataclasses
import glob
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from bench import realprograms, reference  # noqa: E402 - the repository made importable first

ENVS = {"tf1": "2.15", "tf2": "2.21"}
WAYS = ("uai-run", "port")
LAYOUTS = ("alone", "cluster")
# official/resnet's imagenet_main of that era had no distributed mode: its resnet_run_loop calls classifier.train
# and classifier.evaluate in turn on one machine, with towers over its GPUs (--multi_gpu); no task serves a ps.
NO_CLUSTER = "none: official/resnet's run loop trains and evaluates in turn on one machine (towers over its GPUs)"
EVALUATED = re.compile(r"Saving dict for global step (\d+)")


@dataclasses.dataclass(frozen=True)
class Fixture:
    program: str  # its key in bench/reference.py's programs()
    uai_run: tuple[str, ...]  # uai-run's options before the script
    cluster: tuple[str, ...] | None  # uai-launch's layout options; None: the program had no cluster


MASTER_WORKER_PS = ("--chief=1", "--workers=1", "--ps=1", "--dialect=master")
FIXTURES = {
    "cifar10_estimator_tf1": Fixture("cifar10_estimator_tf1.py", (), MASTER_WORKER_PS),
    "slim_classifier_tf14": Fixture("slim_classifier_tf14", (), MASTER_WORKER_PS),
    "official_resnet": Fixture("official_resnet", (), None),
    "estimator_multiworker_tf20": Fixture(
        "estimator_multiworker_tf20.py", ("--auto",), ("--chief=1", "--workers=1", "--dialect=chief")
    ),
}


@dataclasses.dataclass
class Cell(realprograms.Run):
    """A real program's run (its losses: the chief's, alone the program's), and what the other tasks did."""

    others: str


log = realprograms.log


def write_data(folder: str, env: dict) -> reference.Data:
    """The data sets the fixtures' tests train on (bench/reference.py's Data), written by tf2's python."""
    data = reference.Data(*(os.path.join(folder, name) for name in ("images", "cifar10", "slim")))
    synth = ["--train-shards", "1", "--validation-shards", "1", "--images", "16", "--size", "32"]
    command = [reference.PYTHON["tf2"], "-m", "trainlib.data.synth", "--out", data.images, *synth]
    subprocess.run(command, env=env, check=True, capture_output=True)
    for path, module, call in (
        (data.cifar10, "programs", "write_cifar10_records"),
        (data.slim, "slim_records", "write_records"),
    ):
        os.makedirs(path)
        reference._from_tests(module, f"{call}(__import__('pathlib').Path({path!r}))")
    return data


def port(program: reference.Program, out: str, env: dict) -> str:
    """uai-migrate the fixture into `out` (its own folder when it has one, else its file); the port's script."""
    alone = program.folder in (reference.RUNTIME_PROGRAMS, reference.TF1_PROGRAMS)  # a file among others
    source = os.path.join(program.folder, program.script) if alone else program.folder
    command = [reference.PYTHON["tf2"], "-m", "codemods", "--out", out, "--no-cache", "-q", source]
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    script = os.path.join(out, program.script)
    if result.returncode not in (0, 1) or not os.path.isfile(script):
        raise SystemExit(f"fixtures.py: uai-migrate failed on {source}: {result.stderr[-1500:]}")
    return script


def training_losses(text: str) -> list[float]:
    """The losses a task logged while training (bench/reference.py's), not its evaluations' loss."""
    return reference.losses("\n".join(line for line in text.splitlines() if not EVALUATED.search(line)))


def task_summary(name: str, text: str) -> str:
    """What a task other than the chief did, from its log."""
    found = training_losses(text)
    evaluated = EVALUATED.findall(text)
    parts = [f"{len(found)} losses"] if found else []
    if evaluated:
        parts.append(f"evaluated step {evaluated[-1]}")
    if not found and "Waiting for model to be ready" in text:
        parts.append("waited for the model")
    if name.startswith("ps"):
        parts.append("ran until stopped")
    return f"{name}: {', '.join(parts) or 'no loss'}"


def run_cell(argv: list[str], cwd: str, env: dict, timeout: float, out: str, logs: str | None) -> Cell:
    """One cell's run: `argv` alone, or (with `logs`: uai-launch's --log-dir, its layout in argv) a cluster;
    its output kept in `out`/output.log."""
    start = time.monotonic()
    try:
        result = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
        returncode, output = result.returncode, result.stdout + "\n" + result.stderr
    except subprocess.TimeoutExpired:
        returncode, output = None, ""
    seconds = time.monotonic() - start
    with open(os.path.join(out, "output.log"), "w") as handle:
        handle.write(" ".join(argv) + "\n" + output)
    chief, others = output, ""
    if logs is not None:
        texts = {}
        for path in sorted(glob.glob(os.path.join(logs, "*.log"))):
            with open(path, errors="replace") as handle:
                texts[os.path.basename(path)[: -len(".log")]] = handle.read()
        chief = texts.pop("chief-0", "")
        others = "; ".join(task_summary(name, text) for name, text in texts.items())
    losses = training_losses(chief)
    error = ""
    if returncode != 0 or not losses:
        # the chief's own error line; else (it ran on) uai-launch's line and the other tasks' logs
        chief_error = [line for line in chief.splitlines() if realprograms.ERROR.match(line.strip())]
        where = chief if chief_error or logs is None else output + "\n" + "\n".join(texts.values())
        error = realprograms.error_line(where, returncode)
    return Cell(returncode=returncode, losses=losses, error=error, seconds=seconds, others=others)


def environment(extra: dict) -> dict:
    """The runs' environment: this checkout first, TensorFlow quiet, no TF_CONFIG nor Keras choice inherited
    (unless the program's `extra` sets them)."""
    env = dict(os.environ, PYTHONPATH=REPO, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="")
    for variable in ("TF_CONFIG", "TF_USE_LEGACY_KERAS"):
        env.pop(variable, None)
    return env | extra


def cell_command(
    fixture: Fixture, python: str, way: str, script: str, layout: str, out: str, timeout: int
) -> list[str]:
    """One cell's command, without the program's arguments: the way's, alone or under uai-launch."""
    command = [python, "-m", "uai_run", *fixture.uai_run, script] if way == "uai-run" else [python, script]
    if layout == "alone" or fixture.cluster is None:
        return command
    launch = [python, "-m", "uai_launch", *fixture.cluster, f"--timeout={timeout}", f"--log-dir={out}/logs", "--"]
    return launch + command


def matrix(args: argparse.Namespace, work: str) -> list[dict]:
    programs = reference.programs()
    log("writing the data sets")
    data = write_data(os.path.join(work, "data"), environment({}))
    rows = []
    for name in args.fixtures:
        fixture = FIXTURES[name]
        program = programs[fixture.program]
        scripts = {"uai-run": os.path.join(program.folder, program.script)}
        if "port" in args.ways:
            log(f"{name}: uai-migrate --out")
            scripts["port"] = port(program, os.path.join(work, "ports", name), environment({}))
        cells = itertools.product(args.envs, args.layouts, args.ways)  # the two ways side by side
        for env_name, layout, way in cells:
            row = {"fixture": name, "tf": ENVS[env_name], "way": way, "layout": layout}
            if layout == "cluster" and fixture.cluster is None:
                rows.append(row | {"trained": None, "note": NO_CLUSTER})
                continue
            out = os.path.join(work, "runs", f"{name}-{env_name}-{way}-{layout}")
            os.makedirs(out)
            command = cell_command(fixture, reference.PYTHON[env_name], way, scripts[way], layout, out, args.timeout)
            argv = command + program.args(data, os.path.join(out, "model"), 3)
            log(f"{name} TF {ENVS[env_name]} {way} {layout}")
            logs = os.path.join(out, "logs") if "uai_launch" in command else None
            cell = run_cell(argv, os.path.dirname(scripts[way]), environment(program.env), args.timeout + 60, out, logs)
            status = "trained" if cell.trained else f"FAILED: {cell.error}"
            log(f"  {status} ({cell.seconds:.0f} s) losses {cell.losses[:4]} {cell.others}")
            rows.append(row | dataclasses.asdict(cell) | {"trained": cell.trained, "cell": cell})
            if way == "port" and rows[-2].get("way") == "uai-run" and "cell" in rows[-2]:
                asynchronous = layout == "cluster" and "--ps=1" in (fixture.cluster or ())
                # two trainers of asynchronous ps training: which steps the chief logs depends on when the other's land
                same = "not compared: async" if asynchronous else realprograms.compare(rows[-2]["cell"], cell)
                rows[-1]["same_losses"] = same
    for row in rows:
        row.pop("cell", None)
    return rows


def markdown(rows: list[dict]) -> str:
    head = "| fixture | TF | layout | way | trained | seconds | chief's losses | as uai-run's | other tasks | failing line |\n"
    lines = [head + "|---|---|---|---|---|---:|---|---|---|---|"]
    for row in rows:
        if row["trained"] is None:
            cells = [row["fixture"], row["tf"], row["layout"], row["way"], "n/a", "", "", "", "", row["note"]]
        else:
            losses = ", ".join(f"{loss:.6g}" for loss in row["losses"][:6]) or "-"
            error = row["error"].replace("|", "\\|")
            trained = "yes" if row["trained"] else "no"
            cells = [row["fixture"], row["tf"], row["layout"], row["way"], trained, f"{row['seconds']:.0f}"]
            cells += [losses, row.get("same_losses", ""), row["others"] or "-", error]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _choices(known: tuple[str, ...] | dict) -> Callable[[str], list[str]]:
    def parse(value: str) -> list[str]:
        names = [name.strip() for name in value.split(",") if name.strip()]
        unknown = [name for name in names if name not in known]
        if unknown or not names:
            raise argparse.ArgumentTypeError(f"unknown: {', '.join(unknown) or value!r}; known: {', '.join(known)}")
        return names

    return parse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fixtures", type=_choices(FIXTURES), default=list(FIXTURES))
    parser.add_argument("--envs", type=_choices(tuple(ENVS)), default=list(ENVS))
    parser.add_argument("--ways", type=_choices(WAYS), default=list(WAYS))
    parser.add_argument("--layouts", type=_choices(LAYOUTS), default=list(LAYOUTS))
    parser.add_argument("--timeout", type=int, default=300, help="seconds per run (a cluster's chief: uai-launch's)")
    parser.add_argument("--keep", help="keep the ports, data and runs in this new or empty folder")
    parser.add_argument("--json", help="write every cell here")
    parser.add_argument("--markdown", help="write the table here")
    args = parser.parse_args(argv)
    missing = [reference.PYTHON[env] for env in {*args.envs, "tf2"} if not os.path.exists(reference.PYTHON[env])]
    if missing:
        parser.error(f"missing environments: {', '.join(missing)} (python3 dev.py test-tf1 / test-tf2 builds them)")
    if args.keep and os.path.isdir(args.keep) and os.listdir(args.keep):
        parser.error(f"--keep {args.keep}: not empty")
    work = args.keep or tempfile.mkdtemp(prefix="fixtures-")
    started = time.monotonic()
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else []
    try:
        rows = matrix(args, work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    table = markdown(rows)
    ended = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else []
    summary = f"{sum(bool(r['trained']) for r in rows)} of {sum(r['trained'] is not None for r in rows)} cells trained"
    print(
        table + f"\n{summary}; {time.monotonic() - started:.0f} s; load average {' '.join(load)} -> {' '.join(ended)}"
    )
    if args.markdown:
        with open(args.markdown, "w") as handle:
            handle.write(table)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(rows, handle, indent=1)
    return 0 if all(row["trained"] is not False for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

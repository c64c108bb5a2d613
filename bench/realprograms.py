"""A runtime judge of real TF1-era programs: each one trains end to end, unmodified under uai-run and after uai-migrate.

    python bench/realprograms.py [--programs slim,tflearn,tensorpack] [--cache DIR] [--json OUT] [--markdown OUT]
    python bench/realprograms.py --list

Run it with each environment: `.nox/tf1/bin/python` (TensorFlow 2.15) and `.nox/tf2/bin/python`
(TensorFlow 2.21). A program is a small driver of ours in bench/realprograms/ (TF 1.x code:
`import tensorflow as tf`, `tf.set_random_seed`, ...) that calls a real library's public training
entry point at tiny size (generated data, a few steps, fixed seeds) and prints one line
`REALPROGRAMS-LOSS <step> <loss>` per step it sees. The library is the real one: the package
folder of its pinned PyPI source distribution, downloaded once into bench/realworld.py's cache
(outside the repository; `fetch`), or tf-slim as installed. The driver and the package are copied
side by side into a temporary tree, then run two ways:

  uai-run    the tree as written: `python -m compat.run driver.py WORKDIR` (uai-run's TF1 face:
             the unpacked library is the user's code, not site-packages, so it gets the face too)
  migrated   `python -m codemods --out DIR --no-cache TREE` (uai-migrate ports the driver and the
             library), then `python DIR/driver.py WORKDIR`. uai-migrate needs libcst, which only
             the tf2 environment has; with another interpreter the migration runs with
             --migrate-python (default: .nox/tf2/bin/python) and the port runs on this one.

A way "trained" when it exited 0 and printed at least one loss. The table gives the first losses,
whether both ways printed the same losses (to the digits printed: %.9g), and for a failure its
first error line (the last `SomethingError: ...` line of stderr). One program at a time; progress
on stderr.
"""

import argparse
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DRIVERS = os.path.join(HERE, "realprograms")
sys.path.insert(0, HERE)

import realworld  # noqa: E402  (bench/realworld.py: the pinned sdists and their cache)

LOSS = re.compile(r"^REALPROGRAMS-LOSS (\d+) (\S+)$")
ERROR = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)|error|uai-run|uai-migrate)\b.*")
WAYS = ("uai-run", "migrated")


@dataclasses.dataclass(frozen=True)
class Program:
    driver: str  # file in bench/realprograms/
    project: str | None  # key of realworld.PROJECTS whose package is copied next to the driver; None: installed
    what: str


PROGRAMS = {
    "slim": Program(
        "slim_train.py",
        None,
        "tf-slim (installed): slim.learning.train, DatasetDataProvider over written TFRecords",
    ),
    "tflearn": Program("tflearn_dnn.py", "tflearn", "tflearn 0.5.0: DNN(net).fit on generated data"),
    "tensorpack": Program(
        "tensorpack_trainer.py",
        "tensorpack",
        "tensorpack 0.9.8: launch_train_with_config, SimpleTrainer, FakeData, a tiny ModelDesc",
    ),
}


@dataclasses.dataclass
class Run:
    returncode: int | None  # None: timed out
    losses: list[float]
    error: str  # the first error line, "" when it trained
    seconds: float

    @property
    def trained(self) -> bool:
        return self.returncode == 0 and bool(self.losses)


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def losses_of(stdout: str) -> list[float]:
    """The per-step losses a driver printed, in order."""
    return [float(match.group(2)) for match in map(LOSS.match, stdout.splitlines()) if match]


def error_line(stderr: str, returncode: int | None) -> str:
    """The line that says why a run failed: the last exception line of stderr, else its last line."""
    if returncode is None:
        return "timed out"
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if ERROR.match(line)]
    return (errors or lines or [f"exit {returncode}"])[-1][:300]


def env() -> dict[str, str]:
    """The runs' environment: this checkout's compat and codemods first, TensorFlow quiet, no GPU."""
    return dict(
        os.environ,
        PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
        TF_CPP_MIN_LOG_LEVEL="3",
        CUDA_VISIBLE_DEVICES="",
        PYTHONHASHSEED="0",
        TF_DETERMINISTIC_OPS="1",
    )


def run(command: list[str], cwd: str, timeout: float) -> Run:
    start = time.monotonic()
    try:
        result = subprocess.run(command, cwd=cwd, env=env(), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout or ""
        return Run(None, losses_of(out), "timed out", time.monotonic() - start)
    seconds = time.monotonic() - start
    losses = losses_of(result.stdout)
    failed = result.returncode != 0 or not losses
    error = error_line(result.stderr, result.returncode) if failed else ""
    if result.returncode == 0 and not losses:
        error = "exit 0 without a loss: " + error
    return Run(result.returncode, losses, error, seconds)


def build_tree(program: Program, cache: str, tree: str) -> None:
    """The program as written: its driver and, when it has one, its library's package from the sdist."""
    os.makedirs(tree)
    shutil.copyfile(os.path.join(DRIVERS, program.driver), os.path.join(tree, program.driver))
    if program.project is not None:
        unpacked = realworld.fetch(program.project, cache)
        realworld.copy_package(unpacked, realworld.PROJECTS[program.project].package, tree)


def has_libcst(python: str) -> bool:
    return subprocess.run([python, "-c", "import libcst"], capture_output=True).returncode == 0


def migrate(tree: str, out: str, python: str, timeout: float) -> str:
    """uai-migrate `tree` into `out`; "" or its error line (exit 1 only says entries need attention)."""
    command = [python, "-m", "codemods", "--out", out, "--no-cache", "-q", tree]
    try:
        result = subprocess.run(command, cwd=REPO, env=env(), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "uai-migrate timed out"
    if result.returncode not in (0, 1) or "Traceback (most recent call last)" in result.stderr:
        return "uai-migrate: " + error_line(result.stderr, result.returncode)
    return ""


def judge(name: str, args: argparse.Namespace, work: str) -> dict:
    """Both ways of one program, and how their losses compare."""
    program = PROGRAMS[name]
    tree = os.path.join(work, name, "as_written")
    migrated = os.path.join(work, name, "migrated")
    build_tree(program, args.cache, tree)
    results = {}
    log(f"{name}: uai-run")
    workdir = os.path.join(work, name, "run_uai")
    os.makedirs(workdir)
    results["uai-run"] = run(
        [sys.executable, "-m", "compat.run", os.path.join(tree, program.driver), workdir], tree, args.timeout
    )
    log(f"{name}: uai-migrate --out")
    problem = migrate(tree, migrated, args.migrate_python, args.timeout)
    if problem:
        results["migrated"] = Run(None, [], problem, 0.0)
    else:
        log(f"{name}: migrated, with python")
        workdir = os.path.join(work, name, "run_migrated")
        os.makedirs(workdir)
        results["migrated"] = run(
            [sys.executable, os.path.join(migrated, program.driver), workdir], migrated, args.timeout
        )
    for way, result in results.items():
        status = "trained" if result.trained else f"FAILED: {result.error}"
        log(f"{name} {way}: {status} ({result.seconds:.0f} s) losses {result.losses[:4]}")
    return {
        "program": name,
        "what": program.what,
        "ways": {way: dataclasses.asdict(result) | {"trained": result.trained} for way, result in results.items()},
        "same_losses": compare(results["uai-run"], results["migrated"]),
    }


def compare(first: Run, second: Run) -> str:
    """'equal', 'max diff X' over the steps both printed (and the step counts when they differ), or '-'."""
    if not (first.trained and second.trained):
        return "-"
    common = min(len(first.losses), len(second.losses))
    diff = max(abs(a - b) for a, b in zip(first.losses[:common], second.losses[:common]))
    verdict = "equal" if diff == 0 else f"max diff {diff:.3g}"
    if len(first.losses) != len(second.losses):
        verdict += f" ({len(first.losses)} vs {len(second.losses)} steps)"
    return verdict


def markdown(results: list[dict], tensorflow: str) -> str:
    head = f"| program (TF {tensorflow}) | way | trained | first losses | same losses | error |\n|---|---|---|---|---|---|\n"
    rows = []
    for result in results:
        for way in WAYS:
            one = result["ways"][way]
            losses = ", ".join(f"{loss:.6g}" for loss in one["losses"][:3]) or "-"
            same = result["same_losses"] if way == "migrated" else ""
            error = one["error"].replace("|", "\\|")
            rows.append(f"| {result['program']} | {way} | {'yes' if one['trained'] else 'no'} | {losses} | {same} | {error} |")
    return head + "\n".join(rows) + "\n"


def tensorflow_version() -> str:
    command = [sys.executable, "-c", "import tensorflow as tf; print(tf.__version__)"]
    return subprocess.run(command, capture_output=True, text=True, env=env()).stdout.strip() or "?"


def _programs(value: str) -> list[str]:
    names = [name.strip() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in PROGRAMS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown program(s) {', '.join(unknown)}; known: {', '.join(PROGRAMS)}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=_programs, default=list(PROGRAMS))
    parser.add_argument("--cache", default=realworld.default_cache(), help="the sdist cache (realworld.py's)")
    parser.add_argument("--json", help="write every result as JSON here")
    parser.add_argument("--markdown", help="write the table here")
    parser.add_argument("--keep", help="keep the trees, ports and run folders here (default: a temporary folder)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per run")
    parser.add_argument(
        "--migrate-python",
        default=None,
        help="the python that runs uai-migrate (default: this one if it has libcst, else .nox/tf2/bin/python)",
    )
    parser.add_argument("--list", action="store_true", help="list the programs and exit")
    args = parser.parse_args(argv)
    if args.list:
        for name, program in PROGRAMS.items():
            print(f"{name:12} {program.what}")
        return 0
    if args.migrate_python is None:
        args.migrate_python = sys.executable if has_libcst(sys.executable) else os.path.join(REPO, ".nox", "tf2", "bin", "python")
    tensorflow = tensorflow_version()
    work = args.keep or tempfile.mkdtemp(prefix="realprograms-")
    if args.keep:
        shutil.rmtree(work, ignore_errors=True)
    try:
        results = [judge(name, args, work) for name in args.programs]
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    table = markdown(results, tensorflow)
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as handle:
            handle.write(table)
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"tensorflow": tensorflow, "python": sys.executable, "results": results}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

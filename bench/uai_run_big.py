"""What `uai-run` costs on a big real program: tensor2tensor's trainer, under uai-run and as its port.

    python bench/uai_run_big.py [--rounds 3] [--imports-only] [--cache DIR] [--keep DIR]

tensor2tensor 1.15.7 (bench/realprograms.py's tree: its package beside the driver, its dependencies
from the realprograms cache) has hundreds of TensorFlow references across the ~50 model families its
`models/__init__.py` imports, so every module of it goes through uai-run's import hook and TF1 face.
Two measures, each a fresh process, the two ways alternating within a round (medians over rounds):
  imports   the driver's imports only (`tensor2tensor.models.transformer`, `trainer_lib`,
            `tensorflow`): `python -m uai_run imports.py` against the port's `python imports.py`;
  3 steps   the realprograms driver whole (generate the problem's data, build the Estimator, train
            3 steps): `python -m uai_run t2t_transformer.py` against the port's driver.
The port is `uai-migrate --out` of the same tree. Its 3-step run is not the same computation: t2t asks
`tf2.enabled()` and builds Keras layers in the port (bench/RESULTS.md, real programs), so that row
bounds the hook's share rather than isolating it; the imports row compares the same modules.
Wall and CPU seconds (user + system of the process and its children): on a shared machine wall
time follows the load, CPU time much less.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(BENCH))

from bench import realprograms  # noqa: E402 - the repository made importable first

IMPORTS = """import tensorflow as tf
from tensor2tensor.models import transformer  # noqa: F401  (imports every model family, as t2t_trainer does)
from tensor2tensor.utils import trainer_lib  # noqa: F401
print("imported", tf.__version__)
"""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(command: list[str], cwd: str, extra: str) -> tuple[float, float]:
    """(wall s, CPU s) of one process run to a clean exit (one at a time: RUSAGE_CHILDREN sums them)."""
    start, cpu = time.perf_counter(), _cpu()
    result = subprocess.run(command, cwd=cwd, env=realprograms.env(extra), capture_output=True, text=True)
    elapsed, used = time.perf_counter() - start, _cpu() - cpu
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {realprograms.error_line(result.stderr, result.returncode)}")
    return elapsed, used


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds, each running every measure both ways (default: 3)"
    )
    parser.add_argument("--cache", default=realprograms.realworld.default_cache(), help="realprograms.py's cache")
    parser.add_argument("--keep", metavar="DIR", help="build the trees in DIR (new) and keep them")
    parser.add_argument("--imports-only", action="store_true", help="measure the imports only, not the 3 steps")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.keep and os.path.exists(args.keep):
        parser.error(f"--keep {args.keep}: exists; name a new folder")
    work = args.keep or tempfile.mkdtemp(prefix="uai-run-big-")
    program = realprograms.PROGRAMS["tensor2tensor"]
    tree, port = os.path.join(work, "as_written"), os.path.join(work, "migrated")
    realprograms.build_tree(program, args.cache, tree)
    with open(os.path.join(tree, "imports.py"), "w") as out:
        out.write(IMPORTS)
    extra = realprograms.dependencies(program, args.cache, realprograms.tensorflow_version())
    realprograms.log("uai-migrate --out (imports.py and the driver with the library)")
    problem = realprograms.migrate(tree, port, sys.executable, timeout=1800)
    if problem:
        raise SystemExit(problem)
    ways = {
        "uai-run": (tree, lambda script, folder: [sys.executable, "-m", "uai_run", script, *folder]),
        "port": (port, lambda script, folder: [sys.executable, script, *folder]),
    }
    measures = {"imports": ("imports.py", False), "3 steps": (program.driver, True)}
    if args.imports_only:
        del measures["3 steps"]
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    load = open("/proc/loadavg").read().split()[:3]
    for round_ in range(args.rounds):
        order = list(ways) if round_ % 2 == 0 else list(reversed(ways))
        for measure, (script, needs_folder) in measures.items():
            for way in order:
                root, command = ways[way]
                folder = [tempfile.mkdtemp(dir=work, prefix=f"run-{round_}-")] if needs_folder else []
                took = _timed(command(os.path.join(root, script), folder), root, extra)
                times.setdefault((measure, way), []).append(took)
                realprograms.log(f"round {round_ + 1} {measure} {way}: {took[0]:.2f} s wall, {took[1]:.2f} s CPU")
    print(
        f"\nTensorFlow {realprograms.tensorflow_version()}, {args.rounds} rounds, load {' '.join(load)} -> "
        f"{' '.join(open('/proc/loadavg').read().split()[:3])}\n"
    )
    print("| measure | port wall s | uai-run wall s | wall overhead | port CPU s | uai-run CPU s | CPU overhead |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for measure in measures:
        port_wall, port_cpu = (statistics.median(t[k] for t in times[measure, "port"]) for k in (0, 1))
        run_wall, run_cpu = (statistics.median(t[k] for t in times[measure, "uai-run"]) for k in (0, 1))
        print(
            f"| {measure} | {port_wall:.2f} | {run_wall:.2f} | {run_wall / port_wall - 1:+.1%} "
            f"| {port_cpu:.2f} | {run_cpu:.2f} | {run_cpu / port_cpu - 1:+.1%} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run the benchmarks that belong to this environment, each printing its table (`python3 dev.py bench`).

    python bench/run_all.py [--full]

Every environment: the input pipeline (`input_bench.py`) and training throughput
(`train_bench.py`, both runtimes against their native loops). Where libcst is installed (the
tf2 environment): uai-migrate's speed (`migrate_bench.py`, on a smaller tree unless --full)
and on real TF1 code (`realworld.py`: tflearn from PyPI, every public project with --full,
and its speed on them), and with --full only (about 12 minutes), migration fidelity on the
corpus (`fidelity.py`).
Results and the commands behind them are recorded in bench/RESULTS.md.
"""

import argparse
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def plan(full):
    benches = [
        ["input_bench.py"] + ([] if full else ["--rounds", "3"]),
        ["train_bench.py"] + ([] if full else ["--steps", "60", "--rounds", "2"]),
    ]
    if importlib.util.find_spec("libcst") is not None:
        benches.append(["migrate_bench.py"] + ([] if full else ["--lines", "8000"]))
        benches.append(["realworld.py"] + ([] if full else ["--projects", "tflearn"]))
        if full:
            benches += [["realworld.py", "--speed"], ["fidelity.py"]]
    return benches


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the sizes recorded in RESULTS.md, and the fidelity run")
    args = parser.parse_args(argv)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    failed = []
    for script, *rest in plan(args.full):
        print(f"\n== {script} {' '.join(rest)}", flush=True)
        if subprocess.run([sys.executable, os.path.join(HERE, script), *rest], env=env).returncode:
            failed.append(script)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fidelity on the fixture corpus: how many TF1-era scripts run on the installed TensorFlow (tf2 env: 2.21).

    python bench/fidelity.py [--keep DIR] [-j 2]

Three copies of tests/corpus, each script run as tests/corpus/manifest.json says (3 training
steps on generated TFRecords, or its flags parsed) and counted when it exits 0 printing what
it should:
  as written        the TF1 sources untouched
  tf_upgrade_v2     after TensorFlow's own `tf_upgrade_v2 --intree` (shipped with TensorFlow)
  uai-migrate       after `uai-migrate --write`
Prints a table per script and the totals (the line recorded in bench/RESULTS.md).
"""

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

from bench import corpus as corpus_runner  # noqa: E402

UPGRADE = "tensorflow.tools.compatibility.tf_upgrade_v2_main"


def _as_written(folder):
    return folder


def _tf_upgrade_v2(folder):
    out = folder + "_upgraded"
    command = [sys.executable, "-m", UPGRADE, "--intree", folder, "--outtree", out, "--reportfile", out + ".txt"]
    subprocess.run(command, env=corpus_runner.environment(), capture_output=True, check=True, timeout=600)
    return out


def _uai_migrate(folder):
    command = [sys.executable, "-m", "codemods", "--write", "--no-cache", folder]
    result = subprocess.run(command, env=corpus_runner.environment(), capture_output=True, text=True, timeout=600)
    if result.returncode == 2:
        raise SystemExit(f"uai-migrate failed: {result.stderr}")
    return folder


VARIANTS = (("as written", _as_written), ("tf_upgrade_v2", _tf_upgrade_v2), ("uai-migrate", _uai_migrate))
LABELS = [label for label, _ in VARIANTS]


def _measure(work, jobs):
    """{variant: {script: ran}}"""
    data = corpus_runner.generate_data(os.path.join(work, "data"))
    results = {}
    for label, prepare in VARIANTS:
        start = time.time()
        folder = prepare(corpus_runner.copy_corpus(os.path.join(work, label.replace(" ", "_"))))
        runs = corpus_runner.run_corpus(folder, data, os.path.join(work, "out", label), jobs, reported=True)
        results[label] = {name: worked for name, (worked, _) in runs.items()}
        print(f"{label}: {sum(results[label].values())}/{len(runs)} run ({time.time() - start:.0f} s)", file=sys.stderr)
    return results


def _print_table(results):
    names = sorted(results[LABELS[0]])
    width = max(map(len, names))
    print(f"| {'script':<{width}} | " + " | ".join(LABELS) + " |")
    print(f"|{'-' * (width + 2)}|" + "|".join("-" * (len(label) + 2) for label in LABELS) + "|")
    for name in names:
        cells = [("yes" if results[label][name] else "no").center(len(label)) for label in LABELS]
        print(f"| {name:<{width}} | " + " | ".join(cells) + " |")
    totals = [f"{sum(results[label].values())}/{len(names)}".center(len(label)) for label in LABELS]
    print(f"| {'total':<{width}} | " + " | ".join(totals) + " |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="scripts run at once")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        work = args.keep or stack.enter_context(tempfile.TemporaryDirectory(prefix="uai-fidelity-"))
        os.makedirs(work, exist_ok=True)
        results = _measure(work, args.jobs)
    _print_table(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

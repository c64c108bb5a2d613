"""Real TF 1.15 as the reference: the bundled TF1 samples' per-step losses, and where each way diverges.

    python3 bench/reference.py [--steps 10] [--json OUT]

Runs each of samples/tf1/*.py for `--steps` steps on the same generated TFRecords, seeded as the
sample seeds itself, in five ways:
  tf1.15            the original program on TensorFlow 1.15 (.nox/tf115, Python 3.7); the platform
                    SDK it imports is bench/tf115_sdk (the flags through tf.app.flags)
  uai-run 2.15/2.21 unmodified under uai-run (.nox/tf1, .nox/tf2)
  migrated 2.15/2.21  after uai-migrate, run with plain python
and prints one table row per sample and way: the first step whose loss (as the program prints it)
differs from 1.15's, and the largest relative difference. The environments must exist:
`python3 dev.py tf115` builds .nox/tf115, `python3 dev.py test-tf1` / `test-tf2` the others.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(REPO, "samples", "tf1")
PYTHON = {env: os.path.join(REPO, ".nox", env, "bin", "python") for env in ("tf115", "tf1", "tf2")}
# sample -> (arguments besides data/output and the step count, the step flag, the pattern of a step's loss)
STEP = re.compile(r"step (\d+) loss ([-0-9.e]+)")
ESTIMATOR = re.compile(r"loss = ([-0-9.e]+), step = (\d+)")
SAMPLE_RUNS = {
    "session_classifier.py": ([], "--steps", STEP),
    "train_slim_classifier.py": (["--batch_size=4", "--learning_rate=0.001"], "--max_step", STEP),
    "resnet_estimator.py": (["--train_batch_size=4", "--num_classes=11"], "--max_step", ESTIMATOR),
}
WAYS = ("tf1.15", "uai-run 2.15", "uai-run 2.21", "migrated 2.15", "migrated 2.21")


def losses(text: str, pattern: "re.Pattern[str]") -> dict:
    """{step: loss} from a run's output; the estimator logs `loss = x, step = n`, the others `step n loss x`."""
    found = {}
    for match in pattern.finditer(text):
        a, b = match.groups()
        step, loss = (int(b), float(a)) if pattern is ESTIMATOR else (int(a), float(b))
        found[step] = loss
    return found


def command(way: str, name: str, folder: str) -> tuple:
    """(argv, extra environment) of one way to run sample `name` (from `folder`: the samples or their port)."""
    script = os.path.join(folder, name)
    if way == "tf1.15":
        return [PYTHON["tf115"], script], {"PYTHONPATH": os.path.join(REPO, "bench", "tf115_sdk")}
    env = PYTHON["tf1" if way.endswith("2.15") else "tf2"]
    if way.startswith("uai-run"):
        return [env, "-m", "uai_run", script], {"PYTHONPATH": REPO}
    return [env, script], {"PYTHONPATH": REPO}


def run(way: str, name: str, folder: str, data: str, out: str, steps: int) -> dict:
    args, step_flag, pattern = SAMPLE_RUNS[name]
    argv, extra = command(way, name, folder)
    output = os.path.join(out, f"{name}-{way.replace(' ', '_')}")
    argv += [f"--data_dir={data}", f"--output_dir={output}", f"{step_flag}={steps}", *args]
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", **extra)
    env.pop("TF_CONFIG", None)
    result = subprocess.run(argv, cwd=out, env=env, capture_output=True, text=True, timeout=1800)
    found = losses(result.stdout + result.stderr, pattern)
    return {"returncode": result.returncode, "losses": found, "tail": "" if found else result.stderr[-600:]}


def divergence(reference: dict, other: dict) -> tuple:
    """(first step whose loss differs, or None; the largest relative difference over the common steps)."""
    steps = sorted(set(reference) & set(other))
    first = next((s for s in steps if reference[s] != other[s]), None)
    worst = max((abs(other[s] - reference[s]) / max(abs(reference[s]), 1e-12) for s in steps), default=None)
    return first, worst


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--json", help="write every run's losses here")
    options = parser.parse_args(argv)
    missing = [path for path in PYTHON.values() if not os.path.exists(path)]
    if missing:
        print("reference.py: missing environments: " + ", ".join(missing), file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "data")
        synth = ["-m", "trainlib.data.synth", "--out", data, "--train-shards", "1", "--validation-shards", "1"]
        env = dict(os.environ, PYTHONPATH=REPO, TF_CPP_MIN_LOG_LEVEL="2")
        subprocess.run([PYTHON["tf2"], *synth, "--images", "16", "--size", "32"], env=env, check=True)
        ported = os.path.join(tmp, "migrated")
        subprocess.run([PYTHON["tf2"], "-m", "codemods", SAMPLES, "--out", ported], env=env, check=True)
        results = {}
        for name in SAMPLE_RUNS:
            for way in WAYS:
                folder = ported if way.startswith("migrated") else SAMPLES
                results[name, way] = run(way, name, folder, data, tmp, options.steps)
                print(f"  ran {name} {way}: exit {results[name, way]['returncode']}", file=sys.stderr, flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| sample | way | exit | steps | loss at step 1 | first step differing from 1.15 | max relative difference |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name in SAMPLE_RUNS:
        reference = results[name, "tf1.15"]["losses"]
        for way in WAYS:
            result = results[name, way]
            first, worst = divergence(reference, result["losses"]) if way != "tf1.15" else (None, None)
            shown = "-" if way == "tf1.15" else ("none" if first is None else str(first))
            worst_text = "-" if worst is None else f"{worst:.2e}"
            step1 = result["losses"].get(1, result["losses"].get(0))
            cells = [name, way, result["returncode"], len(result["losses"]), step1, shown, worst_text]
            print("| " + " | ".join(str(c) for c in cells) + " |")
            if result["tail"]:
                print(f"<!-- {name} {way}: {result['tail'].strip().splitlines()[-1]} -->")
    if options.json:
        with open(options.json, "w") as handle:
            json.dump({f"{n} | {w}": r for (n, w), r in results.items()}, handle, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

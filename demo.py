"""`python3 dev.py demo` (`python demo.py`): migrate the bundled TF1 samples and train the result on current TF.

1. writes a small ImageNet-format TFRecord set (32x32 images, trainlib.data.synth);
2. runs `uai-migrate -q --out` on samples/tf1/ (platform-style TF1 scripts: tf.app.flags, uflag,
   uai_dist, tf.contrib.slim, tf.layers, tf.estimator, device-setter towers), shows its table per
   rule and the start of one file's diff (all of it fits on one screen above the training lines);
3. trains the migrated Estimator ResNet for a few steps in a fresh process, printing the loss;
4. runs one sample UNMODIFIED through `uai-run` (the same knowledge applied at import time).
Everything goes to a temporary folder (kept with --keep). About a minute on 2 cores.
"""

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile
import time

from compat.cli_errors import fail, main_guard

REPO = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(REPO, "samples", "tf1")
RESNET = "resnet_estimator.py"
SHOWN = "session_classifier.py"  # the diff shown: the smallest sample, flags + graph-mode TF1 API
STEPS = 4
DIFF_LINES = 20  # whole hunks up to this many lines: with the table, under 50 lines above the training


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def _step(number: int, text: str) -> None:
    print(f"\n[{number}/{STEPS}] {text}", flush=True)


def _migrate(out: str) -> int:
    command = [sys.executable, "-m", "codemods", "-q", "--out", out, "--no-cache", SAMPLES]
    print("$ uai-migrate -q --out", out, SAMPLES, flush=True)
    result = subprocess.run(command, env=_env(), capture_output=True, text=True)
    if result.returncode == 2:
        fail(f"uai-migrate failed: {result.stderr.strip() or result.stdout.strip()}")
    print(result.stdout, end="", flush=True)
    return result.returncode


def _show_diff(migrated: str) -> None:
    """The first hunks (up to DIFF_LINES lines) of one sample's migration, with one line of context."""
    with open(os.path.join(SAMPLES, SHOWN)) as old, open(os.path.join(migrated, SHOWN)) as new:
        lines = list(
            difflib.unified_diff(old.readlines(), new.readlines(), f"samples/tf1/{SHOWN}", f"migrated/{SHOWN}", n=1)
        )
    shown = lines[:2]
    starts = [i for i, line in enumerate(lines) if line.startswith("@@")] + [len(lines)]
    for start, end in zip(starts, starts[1:]):
        if len(shown) + end - start > DIFF_LINES and len(shown) > 2:
            break
        shown += lines[start:end]
    print("".join(shown), end="", flush=True)
    if len(shown) < len(lines):
        print(
            f"... {len(lines) - len(shown)} more lines: `uai-migrate samples/tf1/{SHOWN}` shows every change",
            flush=True,
        )


def _train(script: str, data: str, model_dir: str, steps: int) -> list[str]:
    command = [
        sys.executable,
        script,
        f"--data_dir={data}",
        f"--output_dir={model_dir}",
        f"--max_step={steps}",
        "--train_batch_size=8",
        "--num_classes=11",
    ]
    print("$ python", os.path.basename(script), *command[2:], flush=True)
    losses = []
    with subprocess.Popen(command, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        tail: list[str] = []
        assert proc.stdout is not None  # stdout=PIPE
        for line in proc.stdout:
            tail = (tail + [line])[-20:]
            if "loss = " in line and line.startswith("INFO:tensorflow:"):
                text = line.split("INFO:tensorflow:", 1)[1].strip()
                losses.append(text)
                print("  ", text, flush=True)
    if proc.returncode != 0:
        sys.stderr.write("".join(tail))
        fail(f"the migrated {os.path.basename(script)} exited with {proc.returncode}")
    return losses


def _run_unmodified(name: str) -> None:
    """The sample as written, through `python -m uai_run` (what `uai-run` runs)."""
    script = os.path.join(SAMPLES, name)
    print(f"$ uai-run samples/tf1/{name} --steps=3", flush=True)
    result = subprocess.run(
        [sys.executable, "-m", "uai_run", script, "--steps=3"], env=_env(), capture_output=True, text=True
    )
    if result.returncode != 0:
        sys.stderr.write(result.stderr[-3000:])
        fail(f"uai-run {name} exited with {result.returncode}")
    for line in result.stdout.splitlines():
        if line.startswith("step "):
            print("  ", line, flush=True)


@main_guard
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python demo.py", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5, help="training steps of the migrated ResNet")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (default: a temporary folder)")
    args = parser.parse_args(argv)
    # TensorFlow's C++ start-up lines (CPU features) would push the report off the screen
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    work = args.keep or tempfile.mkdtemp(prefix="uai-demo-")
    os.makedirs(work, exist_ok=True)
    start = time.time()
    try:
        _step(1, "generating ImageNet-format TFRecords (32x32) ...")
        from trainlib.data import synth

        data = os.path.join(work, "data")
        synth.generate(data, train_shards=2, validation_shards=1, images=64, size=32, num_classes=10, seed=0)
        print("   ", ", ".join(sorted(os.listdir(data))), flush=True)
        _step(2, "migrating the bundled TF1 samples with uai-migrate ...")
        migrated = os.path.join(work, "migrated")
        _migrate(migrated)
        _show_diff(migrated)
        _step(3, f"training the migrated {RESNET} for {args.steps} steps on the installed TensorFlow ...")
        losses = _train(os.path.join(migrated, RESNET), data, os.path.join(work, "model"), args.steps)
        if not losses:
            fail("the migrated ResNet printed no loss")
        _step(4, f"running samples/tf1/{SHOWN} unmodified with uai-run ...")
        _run_unmodified(SHOWN)
        print(
            f"\ndone in {time.time() - start:.0f} s: the migrated TF1 ResNet trained {args.steps} steps, "
            f"{SHOWN} ran as written" + (f" (work folder kept: {work})" if args.keep else ""),
            flush=True,
        )
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`python -m codemods.demo` (`python3 dev.py demo`): migrate the bundled TF1 samples and train the result on current TF.

1. writes a small ImageNet-format TFRecord set (32x32 images, compat.data.synth);
2. runs `uai-migrate --out` on samples/tf1/ (platform-style TF1 scripts: tf.app.flags, uflag,
   uai_dist, tf.contrib.slim, tf.layers, tf.estimator, device-setter towers) and shows the report;
3. trains the migrated Estimator ResNet for a few steps in a fresh process, printing the loss.
Everything goes to a temporary folder (kept with --keep). About a minute on 2 cores.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from compat.cli import fail, main_guard

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLES = os.path.join(REPO, "samples", "tf1")
RESNET = "resnet_estimator.py"


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, env.get("PYTHONPATH")) if p)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def _step(number, text):
    print(f"\n[{number}/3] {text}", flush=True)


def _migrate(out):
    command = [sys.executable, "-m", "codemods", "--out", out, "--no-cache", SAMPLES]
    print("$ uai-migrate --out", out, SAMPLES, flush=True)
    result = subprocess.run(command, env=_env(), capture_output=True, text=True)
    if result.returncode == 2:
        fail(f"uai-migrate failed: {result.stderr.strip() or result.stdout.strip()}")
    print(result.stdout, end="", flush=True)
    return result.returncode


def _train(script, data, model_dir, steps):
    command = [
        sys.executable, script, f"--data_dir={data}", f"--output_dir={model_dir}",
        f"--max_step={steps}", "--train_batch_size=8", "--num_classes=11",
    ]
    print("$ python", os.path.basename(script), *command[2:], flush=True)
    losses = []
    with subprocess.Popen(command, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        tail = []
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


@main_guard
def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m codemods.demo", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5, help="training steps of the migrated ResNet")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (default: a temporary folder)")
    args = parser.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="uai-demo-")
    os.makedirs(work, exist_ok=True)
    start = time.time()
    try:
        _step(1, "generating ImageNet-format TFRecords (32x32) ...")
        from compat.data import synth

        data = os.path.join(work, "data")
        synth.generate(data, train_shards=2, validation_shards=1, images=64, size=32, num_classes=10, seed=0)
        print("   ", ", ".join(sorted(os.listdir(data))), flush=True)
        _step(2, "migrating the bundled TF1 samples with uai-migrate ...")
        migrated = os.path.join(work, "migrated")
        _migrate(migrated)
        _step(3, f"training the migrated {RESNET} for {args.steps} steps on the installed TensorFlow ...")
        losses = _train(os.path.join(migrated, RESNET), data, os.path.join(work, "model"), args.steps)
        if not losses:
            fail("the migrated ResNet printed no loss")
        print(f"\ndone in {time.time() - start:.0f} s: the migrated TF1 ResNet trained {args.steps} steps"
              + (f" (work folder kept: {work})" if args.keep else ""), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""modern_tf2 programs as a user runs them, one process each: train, checkpoint, export, resume, Mirrored, slim, bad input.

Also holds the helpers the distributed and fault tests of modern_tf2 share (generated data,
the tiny-ResNet command line, a launched job whose output lines are timed).
"""

import json
import math
import os
import re
import subprocess
import sys
import time

import pytest

from compat.launch import Layout, LocalCluster
from tests.conftest import REPO, python_env

STEP_LINE = re.compile(r"step (\d+)/(\d+) loss (\S+)")
NUM_CLASSES = 11  # synthetic labels are 1..10; 0 stays the background class, as in ImageNet


def generate_data(out):
    """A small generated ImageNet-schema TFRecord set (2 train shards, 1 validation shard, 40x40 JPEGs)."""
    subprocess.run(
        [sys.executable, "-m", "compat.data.synth", "--out", str(out), "--images", "192", "--size", "40",
         "--classes", "10", "--train-shards", "2", "--validation-shards", "1", "--validation-images", "32"],
        env=python_env(), cwd=REPO, check=True, capture_output=True, timeout=120,
    )
    return str(out)


def imagenet_args(data_dir, output_dir, max_step, *extra):
    """imagenet_main's flags for a tiny ResNet (size 8, 32x32 images) that saves every 10 steps."""
    return [
        "--data_dir", data_dir, "--output_dir", str(output_dir), "--resnet_size", "8", "--image_size", "32",
        "--num_classes", str(NUM_CLASSES), "--train_batch_size", "16", "--eval_batch_size", "16",
        "--max_step", str(max_step), "--log_every_n_steps", "5", "--save_checkpoints_steps", "10",
        "--learning_rate", "0.05", "--seed", "1", *extra,
    ]


def run_module(module, args, env=None, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", module, *args], env=python_env(env), cwd=REPO, capture_output=True, text=True, timeout=timeout
    )


def losses(text):
    """{step: reported mean loss} from a program's progress lines."""
    return {int(m.group(1)): float(m.group(3)) for m in STEP_LINE.finditer(text)}


def checkpoint_index(output_dir):
    """Checkpoint prefixes the `checkpoint` index names, each checked to be complete on disk."""
    with open(os.path.join(output_dir, "checkpoint")) as index:
        names = re.findall(r'all_model_checkpoint_paths: "([^"]+)"', index.read())
    for name in names:
        prefix = name if os.path.isabs(name) else os.path.join(output_dir, name)
        shards = [f for f in os.listdir(output_dir) if f.startswith(os.path.basename(prefix) + ".data-")]
        total = int(shards[0].rsplit("-of-", 1)[1]) if shards else -1
        assert os.path.getsize(prefix + ".index") > 0 and len(shards) == total, (name, shards)
    return names


class Job:
    """A `compat.launch` cluster running one program per task, with every output line timed."""

    def __init__(self, tmp_path, args, module="modern_tf2.imagenet_main", keep_going=False, **layout):
        self.lines = []
        self.tmp = tmp_path / "tmp"
        self.tmp.mkdir(exist_ok=True)
        self.cluster = LocalCluster(
            Layout(**layout), [sys.executable, "-m", module, *args], str(tmp_path / "logs"), echo=self._record,
            env=python_env({"TMPDIR": str(self.tmp)}), cwd=REPO, keep_going=keep_going,
        )

    def _record(self, line):
        self.lines.append((time.monotonic(), line.decode(errors="replace")))

    def __enter__(self):
        self.cluster.start()
        return self

    def __exit__(self, *exc):
        self.cluster.stop()

    def task(self, name):
        return next(task for task in self.cluster.tasks if str(task) == name)

    def wait_for(self, pattern, task="chief:0", timeout=120, after=0.0):
        """(time, match) of the first line of `task` after `after` matching `pattern`; fails after `timeout` s."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        prefix = f"[{task}] "
        while time.monotonic() < deadline:
            for when, line in list(self.lines):
                match = regex.search(line) if when > after and line.startswith(prefix) else None
                if match:
                    return when, match
            time.sleep(0.1)
        raise AssertionError(f"no line matching {pattern!r} from {task} within {timeout} s:\n{self.text()[-3000:]}")

    def text(self, task=None):
        return "".join(line for _, line in self.lines if task is None or line.startswith(f"[{task}] "))


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return generate_data(tmp_path_factory.mktemp("data"))


@pytest.mark.slow
def test_trains_exports_and_resumes_under_mirrored(data_dir, tmp_path, run_py):
    out = tmp_path / "run"
    first = run_module("modern_tf2.imagenet_main", imagenet_args(data_dir, out, 20))
    assert first.returncode == 0, first.stderr[-3000:]
    assert "strategy one_device" in first.stdout
    reported = losses(first.stdout)
    assert sorted(reported) == [5, 10, 15, 20] and all(math.isfinite(v) for v in reported.values()), first.stdout
    assert reported[20] < reported[5], reported  # it learns: the generated classes are easy
    assert checkpoint_index(out) == ["ckpt-10", "ckpt-20"]
    assert re.search(r"eval step 20 top_1_accuracy \S+ top_5_accuracy \S+ images 32", first.stdout)

    served = run_py(
        """
        import sys
        import numpy as np
        import tensorflow as tf
        loaded = tf.saved_model.load(sys.argv[1])
        serve = loaded.signatures["serving_default"]
        images = np.random.RandomState(0).uniform(-1, 1, (3, 32, 32, 3)).astype("float32")
        out = serve(images=tf.constant(images))
        print("SHAPES", out["classes"].shape, out["probabilities"].shape)
        print("SUMS", np.round(out["probabilities"].numpy().sum(1), 4).tolist())
        """,
        str(out / "export" / "20"),
    )
    assert served.returncode == 0, served.stderr[-3000:]
    assert f"SHAPES (3,) (3, {NUM_CLASSES})" in served.stdout and "SUMS [1.0, 1.0, 1.0]" in served.stdout

    # A restart continues at the saved step (here on 2 logical CPUs: Mirrored restores the one-device checkpoint).
    second = run_module("modern_tf2.imagenet_main", imagenet_args(data_dir, out, 30, "--num_gpus", "2"))
    assert second.returncode == 0, second.stderr[-3000:]
    assert "strategy mirrored (MirroredStrategy, 2 replica(s) in sync)" in second.stdout
    assert f"restored {out / 'ckpt-20'} at step 20" in second.stdout
    assert sorted(losses(second.stdout)) == [25, 30], second.stdout
    assert checkpoint_index(out)[-1] == "ckpt-30" and (out / "export" / "30" / "saved_model.pb").exists()
    assert any(name.startswith("events.out.tfevents") for name in os.listdir(out))  # TensorBoard summaries


@pytest.mark.slow
def test_slim_main_trains_a_slim_zoo_net(data_dir, tmp_path):
    out = tmp_path / "slim"
    args = [
        "--data_dir", data_dir, "--output_dir", str(out), "--model_name", "resnet_v1_50", "--train_image_size", "32",
        "--num_classes", str(NUM_CLASSES), "--batch_size", "4", "--eval_batch_size", "16", "--max_step", "3",
        "--log_every_n_steps", "3", "--save_checkpoints_steps", "3", "--optimizer", "momentum",
        "--learning_rate", "0.001", "--noexport",
    ]
    result = run_module("modern_tf2.slim_main", args)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "strategy one_device" in result.stdout and "done at step 3" in result.stdout
    assert math.isfinite(losses(result.stdout)[3])
    assert checkpoint_index(out) == ["ckpt-3"]


@pytest.mark.parametrize(
    "extra, env, message",
    [
        (["--num_gpus", "3"], None, "the batch of 16 does not split evenly over 3 replicas"),
        ([], {"TF_CONFIG": '{"cluster": {"worker": ["127.0.0.1:1"]}, "task": {"type": "ps", "index": 0}}'}, "task"),
        (["--data_dir", "/nonexistent/imagenet"], None, "data dir '/nonexistent/imagenet' does not exist"),
    ],
    ids=["batch-over-replicas", "bad-tf-config", "missing-data"],
)
def test_bad_input_is_one_line_and_exit_2(data_dir, tmp_path, extra, env, message):
    result = run_module("modern_tf2.imagenet_main", imagenet_args(data_dir, tmp_path / "out", 5) + extra, env=env)
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-3000:]
    assert len(errors) == 1 and message in errors[0], result.stderr[-3000:]


def test_after_report_sees_each_progress_line_and_its_pause_is_left_out_of_the_rate(tmp_path, run_py):
    # bench/train_bench.py pauses the loop here while other loops take their turn.
    result = run_py(f"""
        import json, time
        import tensorflow as tf
        from modern_tf2 import run_loop, trainer

        seen = []

        def after_report(values):
            seen.append(values)
            time.sleep(0.5)

        program = run_loop.Program(
            build_model=lambda: tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(3)]),
            build_optimizer=lambda: trainer.sgd_momentum(0.1, 0.9),
            train_dataset=lambda context: tf.data.Dataset.from_tensors(
                (tf.zeros([4, 4, 4, 3]), tf.zeros([4], tf.int32))).repeat(),
            eval_dataset=None, weight_decay=0.0, decayed_weights=lambda variables: 0.0, image_size=4,
        )
        settings = run_loop.Settings(output_dir=r"{tmp_path / 'out'}", log_dir=r"{tmp_path / 'log'}", train_steps=8,
                                     global_batch=4, log_every=2, save_every=100, export=False, after_report=after_report)
        run_loop.run(program, settings)
        print("RATES " + json.dumps([v["images_per_sec"] for v in seen]))
    """, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    rates = json.loads(result.stdout.split("RATES ", 1)[1])
    assert len(rates) == 4
    # 2 steps of 4 images per report: with the 0.5 s pause counted a rate could not pass 16 images/s
    assert all(rate > 32 for rate in rates[1:]), rates

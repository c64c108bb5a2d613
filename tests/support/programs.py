"""Helpers of the program tests: generated data, command lines, progress lines, checkpoints, launched jobs.

Processes are started with `tests.conftest.run_module` (one `python -m`, from the repository,
in the environment under test); a `Job` is a `uai_launch` cluster whose output lines are timed.
"""

import os
import re
import sys
import time

from tests.support.processes import REPO, python_env
from uai_launch import Layout, LocalCluster

STEP_LINE = re.compile(r"step (\d+)/(\d+) loss (\S+)")
NUM_CLASSES = 11  # synthetic labels are 1..10; 0 stays the background class, as in ImageNet

# The bundled TF1 samples (samples/tf1): flags for a 3-step run, and a line each prints when it trained.
# ResNet-50's batch norm over a batch of 2 (1x1 maps in its last block) blows gradients up: losses
# reached 1e17 in one step and sometimes NaN (slim's check stops the run); batch 4 at lr 0.001 stays finite.
SAMPLE_ARGS = {
    "resnet_estimator.py": (["--max_step=3", "--train_batch_size=4", "--num_classes=11"], "loss = "),
    "train_slim_classifier.py": (["--max_step=3", "--batch_size=4", "--learning_rate=0.001"], "step 3 loss"),
    "session_classifier.py": (["--steps=3"], "step 2 loss"),
}


def generate_data(out) -> str:
    """A small generated ImageNet-schema TFRecord set (2 train shards, 1 validation shard, 40x40 JPEGs).

    In this process, which has TensorFlow imported already: the same files as `python -m trainlib.data.synth`
    with these numbers writes (its default seed), without a process importing TensorFlow again per test run."""
    from trainlib.data import synth

    synth.generate(
        str(out),
        train_shards=2,
        validation_shards=1,
        images=192,
        validation_images=32,
        size=40,
        num_classes=NUM_CLASSES - 1,
    )
    return str(out)


def imagenet_args(data_dir, output_dir, max_step, *extra) -> list:
    """imagenet_main's flags for a tiny ResNet (size 8, 32x32 images) that saves every 10 steps."""
    return [
        "--data_dir",
        data_dir,
        "--output_dir",
        str(output_dir),
        "--resnet_size",
        "8",
        "--image_size",
        "32",
        "--num_classes",
        str(NUM_CLASSES),
        "--train_batch_size",
        "16",
        "--eval_batch_size",
        "16",
        "--max_step",
        str(max_step),
        "--log_every_n_steps",
        "5",
        "--save_checkpoints_steps",
        "10",
        "--learning_rate",
        "0.05",
        "--seed",
        "1",
        *extra,
    ]


def losses(text) -> dict:
    """{step: reported mean loss} from a modern_tf2 program's progress lines."""
    return {int(m.group(1)): float(m.group(3)) for m in STEP_LINE.finditer(text)}


def checkpoint_index(output_dir) -> list:
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
    """A `uai_launch` cluster running one program per task, with every output line timed."""

    def __init__(self, tmp_path, args, module="modern_tf2.imagenet_main", keep_going=False, **layout):
        self.lines = []
        self.tmp = tmp_path / "tmp"
        self.tmp.mkdir(exist_ok=True)
        self.cluster = LocalCluster(
            Layout(**layout),
            [sys.executable, "-m", module, *args],
            str(tmp_path / "logs"),
            echo=self._record,
            env=python_env({"TMPDIR": str(self.tmp)}),
            cwd=REPO,
            keep_going=keep_going,
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


# The cifar10_estimator program's record format and subset sizes (its HEIGHT, WIDTH, DEPTH, NUM_CLASSES, EXAMPLES_PER_EPOCH).
CIFAR10_HEIGHT, CIFAR10_WIDTH, CIFAR10_DEPTH, CIFAR10_CLASSES = 8, 8, 3, 4
CIFAR10_EXAMPLES = {"train": 64, "eval": 16}


def write_cifar10_records(out) -> str:
    """train.tfrecords and eval.tfrecords of random images in `out` (a pathlib.Path), as the cifar10_estimator
    example's generate_cifar10_tfrecords.py laid them out."""
    import numpy as np
    import tensorflow as tf

    rng = np.random.default_rng(0)
    for subset, count in CIFAR10_EXAMPLES.items():
        with tf.io.TFRecordWriter(str(out / f"{subset}.tfrecords")) as writer:
            for _ in range(count):
                shape = [CIFAR10_HEIGHT, CIFAR10_WIDTH, CIFAR10_DEPTH]
                image = rng.integers(0, 256, shape, dtype=np.uint8).tobytes()
                label = int(rng.integers(CIFAR10_CLASSES))
                feature = {
                    "image": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image])),
                    "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
                }
                writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
    return str(out)


CIFAR10_TRAIN_STEPS = 6


def cifar10_args(data_dir, job_dir) -> list[str]:
    """The cifar10_estimator-style program's flags (its TF 1 form and its port alike): two GPU towers, soft-placed on
    the CPU, with variables placed by the greedy strategy, for CIFAR10_TRAIN_STEPS steps."""
    return [
        f"--data_dir={data_dir}",
        f"--job_dir={job_dir}",
        "--num_gpus=2",
        "--variable_strategy=GPU",
        f"--train_steps={CIFAR10_TRAIN_STEPS}",
    ]

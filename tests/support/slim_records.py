"""The tiny_shapes TFRecords the research/slim-style program (tests/common/tf1_programs/slim_classifier_tf14/)
reads, and the flags of its few-step runs.

Laid out as slim's conversion scripts wrote a data set: `tiny_shapes_<split>_<shard>-of-<shards>.tfrecord`
with PNG-encoded images, their format, size and label, and a labels.txt.
"""

import os
import re

from tests.support.processes import REPO

PROGRAM_DIR = os.path.join(REPO, "tests", "common", "tf1_programs")
PROGRAM = "slim_classifier_tf14"
SCRIPT = "train_image_classifier.py"
SIZE, CLASSES = 16, 4
SPLITS = {"train": (48, 2), "validation": (16, 1)}  # examples, shards: the program's SPLITS_TO_SIZES
STEPS = 3

# slim.learning.train's progress line: "global step 2: loss = 1.3951 (0.014 sec/step)"
LOSS_LINE = re.compile(r"global step (\d+): loss = ([-+0-9.eE]+|nan)")


def write_records(out) -> str:
    """The train and validation shards, and labels.txt, in `out` (a pathlib.Path); their folder."""
    import numpy as np
    import tensorflow as tf

    rng = np.random.RandomState(0)

    def feature(value):
        if isinstance(value, bytes):
            return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))
        return tf.train.Feature(int64_list=tf.train.Int64List(value=[value]))

    for split, (count, shards) in SPLITS.items():
        for shard in range(shards):
            name = f"tiny_shapes_{split}_{shard:05d}-of-{shards:05d}.tfrecord"
            with tf.io.TFRecordWriter(str(out / name)) as writer:
                for _ in range(count // shards):
                    label = int(rng.randint(CLASSES))
                    # each class a brighter band of noise: learnable in a few steps
                    image = (rng.randint(0, 64, (SIZE, SIZE, 3)) + 60 * label).astype(np.uint8)
                    fields = {
                        "image/encoded": tf.io.encode_png(image).numpy(),
                        "image/format": b"png",
                        "image/class/label": label,
                        "image/height": SIZE,
                        "image/width": SIZE,
                    }
                    example = tf.train.Example(
                        features=tf.train.Features(feature={k: feature(v) for k, v in fields.items()})
                    )
                    writer.write(example.SerializeToString())
    (out / "labels.txt").write_text("".join(f"{i}:shape{i}\n" for i in range(CLASSES)))
    return str(out)


def arguments(dataset_dir, train_dir, steps: int = STEPS) -> list[str]:
    """A few steps of two clones on the CPU with moving averages, RMSProp and an exponential decay (the
    program's defaults), on a fixed graph seed; one reader and one preprocessing thread, the records
    in file order: the same batches every run."""
    return [
        f"--dataset_dir={dataset_dir}",
        f"--train_dir={train_dir}",
        f"--max_number_of_steps={steps}",
        "--batch_size=4",
        "--num_clones=2",
        "--clone_on_cpu",
        "--moving_average_decay=0.99",
        "--num_readers=1",
        "--num_preprocessing_threads=1",
        "--shuffle_input=false",
        "--random_seed=1",
        "--log_every_n_steps=1",
    ]


def losses(result) -> dict[int, str]:
    """{global step: loss as logged} of a finished run (slim logs through tf.logging: stderr)."""
    assert result.returncode == 0, result.stderr[-3000:]
    return {int(step): loss for step, loss in LOSS_LINE.findall(result.stdout + result.stderr)}

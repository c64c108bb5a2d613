"""The initial weights and the first loss TF 1.15 gives the research/slim-style program (slim_classifier_tf14/
train_image_classifier.py), as written for TF 1.x (runs on TF 1.15).

Writes the tiny_shapes records the tests write (tests/support/slim_records.py: the same random images; PNG is
lossless, so they decode to the same pixels though TF 1.15's encoder writes other bytes), trains the program one step with a learning rate of 0, so that its checkpoint holds the weights
it started from, and prints `RESULT {"args": its flags, "initial_weights": {variable: sha256 of its
values}, "first_loss": the loss it logged at step 1}`.
The optimizer's slots are left out: they hold the step's squared gradients, not initial values. The
weights are drawn from the graph seed by op count, so every op the data path builds before the model
moves them. `python3 dev.py tf115` (tests/common/golden/make_tf115_goldens.py) runs it to write
tests/common/golden/tf115_slim_classifier.json; tests/common/test_slim_classifier_tf14.py compares.
"""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import tensorflow as tf

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "slim_classifier_tf14", "train_image_classifier.py")
# slim_records.arguments' run (moving averages, one reader, records in file order), one step at a learning rate
# of 0 (the tests add --dataset_dir and --train_dir). One clone and no summaries: two clones, and the summary op
# the Supervisor runs as training starts, each dequeue a batch, in the order the executor runs them, which is
# another on 1.15 than on TF 2 (measured with two clones: the same two batches, swapped)
ARGS = [
    "--max_number_of_steps=1",
    "--batch_size=4",
    "--num_clones=1",
    "--save_summaries_secs=0",
    "--clone_on_cpu",
    "--moving_average_decay=0.99",
    "--num_readers=1",
    "--num_preprocessing_threads=1",
    "--shuffle_input=false",
    "--random_seed=1",
    "--log_every_n_steps=1",
    "--learning_rate=0",
]
SIZE, CLASSES = 16, 4
SPLITS = {"train": (48, 2), "validation": (16, 1)}  # examples, shards
LOSS_LINE = re.compile(r"global step 1: loss = ([-+0-9.eE]+|nan)")


def feature(value):
    if isinstance(value, bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[value]))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=[value]))


def write_records(folder):
    """slim_records.write_records' files, written through a TF 1 session."""
    rng = np.random.RandomState(0)
    with tf.Graph().as_default(), tf.Session() as session:
        pixels = tf.placeholder(tf.uint8, [SIZE, SIZE, 3])
        encode = tf.image.encode_png(pixels)
        for split, (count, shards) in sorted(SPLITS.items(), key=lambda item: item[0] != "train"):
            for shard in range(shards):
                name = f"tiny_shapes_{split}_{shard:05d}-of-{shards:05d}.tfrecord"
                with tf.python_io.TFRecordWriter(os.path.join(folder, name)) as writer:
                    for _ in range(count // shards):
                        label = int(rng.randint(CLASSES))
                        image = (rng.randint(0, 64, (SIZE, SIZE, 3)) + 60 * label).astype(np.uint8)
                        fields = {
                            "image/encoded": session.run(encode, {pixels: image}),
                            "image/format": b"png",
                            "image/class/label": label,
                            "image/height": SIZE,
                            "image/width": SIZE,
                        }
                        example = tf.train.Example(
                            features=tf.train.Features(feature={k: feature(v) for k, v in fields.items()})
                        )
                        writer.write(example.SerializeToString())
    with open(os.path.join(folder, "labels.txt"), "w") as labels:
        labels.write("".join(f"{i}:shape{i}\n" for i in range(CLASSES)))


def main():
    work = tempfile.mkdtemp()
    try:
        data_dir, train_dir = os.path.join(work, "data"), os.path.join(work, "train")
        os.makedirs(data_dir)
        write_records(data_dir)
        extra = ["--dataset_dir=" + data_dir, "--train_dir=" + train_dir]
        # the program logs to stderr; stdout carries the RESULT line only
        run = subprocess.run([sys.executable, PROGRAM] + ARGS + extra, stdout=sys.stderr, stderr=subprocess.PIPE)
        sys.stderr.write(run.stderr.decode())
        if run.returncode:
            sys.exit(run.returncode)
        reader = tf.train.load_checkpoint(train_dir)
        weights = {
            name: hashlib.sha256(reader.get_tensor(name).tobytes()).hexdigest()
            for name in sorted(reader.get_variable_to_shape_map())
            if name != "global_step" and "RMSProp" not in name
        }
        first_loss = LOSS_LINE.search(run.stderr.decode()).group(1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result = {"args": ARGS, "initial_weights": weights, "first_loss": first_loss}
    print("RESULT " + json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()

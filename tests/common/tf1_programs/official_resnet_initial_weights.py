"""The initial weights TF 1.15 gives the official/resnet-shaped program (official_resnet/imagenet_main.py) over
two replicate_model_fn towers on two logical CPUs, as written for TF 1.x (runs on TF 1.15).

Writes a few ImageNet-style records, trains the program 1 step on them and prints
`RESULT {"args": its flags, "initial_weights": {variable: sha256 of its step-0 values}}`. The weights
are drawn from the graph seed by op count, whatever the records hold; the training losses cannot be a
golden value: the program's crops are drawn unseeded, on TF 1.15 too. `python3 dev.py tf115`
(tests/common/golden/make_tf115_goldens.py) runs it to write tests/common/golden/tf115_official_resnet.json;
tests/common/test_official_resnet_program.py and tests/tf2/test_tf1_programs_ported.py compare.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import tensorflow as tf

PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "official_resnet", "imagenet_main.py")
# a tiny ResNet over two towers on two logical CPUs (the tests add --data_dir, --model_dir, --max_train_steps)
ARGS = [
    "--resnet_size=10",
    "--image_size=32",
    "--num_filters=8",
    "--batch_size=8",
    "--multi_gpu",
    "--tower_device=CPU",
    "--num_cpu_devices=2",
    "--seed=1",
    "--log_every_n_steps=1",
    "--data_format=channels_last",
]
SIZE, IMAGES = 40, 8


def feature(values):
    if isinstance(values[0], bytes):
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    if isinstance(values[0], float):
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def write_records(folder):
    """One train and one validation shard of JPEG images with a label and a whole-image box."""
    rng = np.random.RandomState(0)
    with tf.Graph().as_default(), tf.Session() as session:
        pixels = tf.placeholder(tf.uint8, [SIZE, SIZE, 3])
        encode = tf.image.encode_jpeg(pixels)
        for split in ("train", "validation"):
            with tf.python_io.TFRecordWriter(os.path.join(folder, split + "-00000-of-00001")) as writer:
                for _ in range(IMAGES):
                    jpeg = session.run(encode, {pixels: rng.randint(0, 256, (SIZE, SIZE, 3)).astype(np.uint8)})
                    fields = {
                        "image/encoded": feature([jpeg]),
                        "image/class/label": feature([int(rng.randint(1, 1001))]),
                        "image/object/bbox/xmin": feature([0.0]),
                        "image/object/bbox/ymin": feature([0.0]),
                        "image/object/bbox/xmax": feature([1.0]),
                        "image/object/bbox/ymax": feature([1.0]),
                    }
                    example = tf.train.Example(features=tf.train.Features(feature=fields))
                    writer.write(example.SerializeToString())


def main():
    work = tempfile.mkdtemp()
    try:
        data_dir, model_dir = os.path.join(work, "data"), os.path.join(work, "model")
        os.makedirs(data_dir)
        write_records(data_dir)
        extra = ["--data_dir=" + data_dir, "--model_dir=" + model_dir, "--max_train_steps=1"]
        # the program's own output goes to stderr: stdout carries the RESULT line only
        subprocess.run([sys.executable, PROGRAM] + ARGS + extra, stdout=sys.stderr, check=True)
        reader = tf.train.load_checkpoint(os.path.join(model_dir, "model.ckpt-0"))
        weights = {
            name: hashlib.sha256(reader.get_tensor(name).tobytes()).hexdigest()
            for name in sorted(reader.get_variable_to_shape_map())
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("RESULT " + json.dumps({"args": ARGS, "initial_weights": weights}, sort_keys=True))


if __name__ == "__main__":
    main()

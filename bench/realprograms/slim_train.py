"""tf-slim's own training loop on TFRecords this script writes, written as a TF 1.x program.

`slim.learning.train` with a `slim.dataset_data_provider.DatasetDataProvider` over a
`slim.dataset.Dataset` of tf.Examples decoded by `slim.tfexample_decoder`; a two-layer
`slim.fully_connected` classifier over a raw 4x4 image (`tfexample_decoder.Image`) and a
feature vector (`tfexample_decoder.Tensor`), plain SGD, 4 steps. Every step's loss is printed as
`REALPROGRAMS-LOSS <step> <loss>` (bench/realprograms.py reads those lines).

    python slim_train.py WORKDIR
"""

import os
import sys

import numpy as np
import tensorflow as tf

slim = tf.contrib.slim

STEPS = 4
FEATURES = 6
CLASSES = 3
EXAMPLES = 32


def write_records(path):
    rng = np.random.RandomState(0)
    with tf.python_io.TFRecordWriter(path) as writer:
        for _ in range(EXAMPLES):
            x = rng.uniform(-1, 1, FEATURES).astype(np.float32)
            y = int(np.argmax(x[:CLASSES]))
            image = rng.randint(0, 256, (4, 4, 1)).astype(np.uint8)
            example = tf.train.Example(
                features=tf.train.Features(
                    feature={
                        "image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image.tobytes()])),
                        "image/format": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"raw"])),
                        "x": tf.train.Feature(float_list=tf.train.FloatList(value=x.tolist())),
                        "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[y])),
                    }
                )
            )
            writer.write(example.SerializeToString())


def dataset(path):
    keys_to_features = {
        "x": tf.FixedLenFeature([FEATURES], tf.float32),
        "y": tf.FixedLenFeature([], tf.int64),
        "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.FixedLenFeature((), tf.string, default_value="raw"),
    }
    items_to_handlers = {
        "image": slim.tfexample_decoder.Image(shape=[4, 4, 1]),
        "x": slim.tfexample_decoder.Tensor("x"),
        "y": slim.tfexample_decoder.Tensor("y"),
    }
    decoder = slim.tfexample_decoder.TFExampleDecoder(keys_to_features, items_to_handlers)
    return slim.dataset.Dataset(
        data_sources=[path],
        reader=tf.TFRecordReader,
        decoder=decoder,
        num_samples=EXAMPLES,
        items_to_descriptions={"image": "a 4x4 grey image", "x": "features", "y": "label"},
    )


def main(workdir):
    records = os.path.join(workdir, "train.tfrecord")
    write_records(records)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        provider = slim.dataset_data_provider.DatasetDataProvider(
            dataset(records), num_readers=1, shuffle=False, common_queue_capacity=64, common_queue_min=8
        )
        image, x, y = provider.get(["image", "x", "y"])
        pixels = tf.reshape(tf.to_float(image), [16]) / 255.0
        x = tf.concat([x, pixels], 0)
        xs, ys = tf.train.batch([x, y], batch_size=8, num_threads=1, capacity=32)
        # Op-level seeds on the initializers: with the graph seed alone, TF 1's op seeds come from the
        # graph's op count, which uai-migrate's port (resource variables) does not keep (README).
        net = slim.fully_connected(
            xs, 16, weights_initializer=tf.truncated_normal_initializer(0.0, 0.3, seed=2), scope="fc1"
        )
        logits = slim.fully_connected(
            net,
            CLASSES,
            activation_fn=None,
            weights_initializer=tf.truncated_normal_initializer(0.0, 0.3, seed=3),
            scope="logits",
        )
        tf.losses.softmax_cross_entropy(slim.one_hot_encoding(ys, CLASSES), logits)
        total_loss = tf.losses.get_total_loss()
        train_op = slim.learning.create_train_op(total_loss, tf.train.GradientDescentOptimizer(0.5))

        def train_step(session, op, global_step, train_step_kwargs):
            loss, should_stop = slim.learning.train_step(session, op, global_step, train_step_kwargs)
            print(f"REALPROGRAMS-LOSS {session.run(global_step)} {loss:.9g}", flush=True)
            return loss, should_stop

        slim.learning.train(
            train_op,
            os.path.join(workdir, "logs"),
            train_step_fn=train_step,
            number_of_steps=STEPS,
            save_summaries_secs=0,
            save_interval_secs=0,
        )


if __name__ == "__main__":
    main(sys.argv[1])

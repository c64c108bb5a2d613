"""The op seed a random op gets after each builder of a TF 1 input pipeline (and a loss' reductions), as written for
TF 1.x (runs on TF 1.15).

With only a graph seed, TF 1.15 gave a random op the graph's op count as its op seed, so every op the
data path built before a model's first initializer moved the model's initial weights. Each case
builds one data-path call (tf-slim's TFExampleDecoder and its handlers, parse_single_example /
parse_example, decode_image, one_hot, per_image_standardization, ...) in a fresh graph, alone and
inside a v1 cond branch (where tf-slim's Image handler decodes), then makes a `tf.random_shuffle` and
prints its op seed: `RESULT {case: seed}`. `python3 dev.py tf115` (tests/common/golden/make_tf115_goldens.py)
writes tests/common/golden/tf115_data_path_op_seeds.json; tests/common/test_slim_classifier_tf14.py runs
it under uai-run and compares.
"""

import json

import tensorflow as tf

slim = tf.contrib.slim


def slim_features():
    """research/slim's keys_to_features: defaults as strings, a tensor, and none."""
    return {
        "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.FixedLenFeature((), tf.string, default_value="png"),
        "image/class/label": tf.FixedLenFeature([], tf.int64, default_value=tf.zeros([], dtype=tf.int64)),
        "image/height": tf.FixedLenFeature([1], tf.int64),
        "image/width": tf.FixedLenFeature([1], tf.int64),
    }


def mixed_features():
    return {
        "ids": tf.VarLenFeature(tf.int64),
        "scores": tf.FixedLenFeature([2], tf.float32, default_value=[0.5, 1.5]),
        "name": tf.FixedLenFeature([], tf.string),
        "steps": tf.FixedLenSequenceFeature([], tf.int64, allow_missing=True, default_value=0),
    }


def slim_decoder(serialized):
    handlers = {
        "image": slim.tfexample_decoder.Image(shape=[16, 16, 3]),
        "label": slim.tfexample_decoder.Tensor("image/class/label"),
        "size": slim.tfexample_decoder.ItemHandlerCallback(
            ["image/height", "image/width"], lambda keys: tf.concat([keys["image/height"], keys["image/width"]], 0)
        ),
    }
    decoder = slim.tfexample_decoder.TFExampleDecoder(slim_features(), handlers)
    return decoder.decode(serialized, ["image", "label", "size"])


# name -> builder(serialized string scalar, int64 labels, float32 image)
CASES = {
    "parse_single_example (slim's features)": lambda s, labels, image: tf.parse_single_example(s, slim_features()),
    "parse_single_example (mixed features)": lambda s, labels, image: tf.parse_single_example(s, mixed_features()),
    # a record dequeued from a queue has no static shape (DatasetDataProvider's): TF 2 asserts it is a scalar
    "parse_single_example (a record of unknown rank)": lambda s, labels, image: tf.parse_single_example(
        tf.placeholder(tf.string), slim_features()
    ),
    "parse_example (slim's features)": lambda s, labels, image: tf.parse_example(tf.reshape(s, [1]), slim_features()),
    "parse_example (mixed features)": lambda s, labels, image: tf.parse_example(tf.reshape(s, [1]), mixed_features()),
    "decode_image": lambda s, labels, image: tf.image.decode_image(s),
    "decode_image (3 channels)": lambda s, labels, image: tf.image.decode_image(s, channels=3),
    "decode_image (float32)": lambda s, labels, image: tf.image.decode_image(s, dtype=tf.float32),
    "decode_image (no animations)": lambda s, labels, image: tf.image.decode_image(s, expand_animations=False),
    "decode_image (uint16, no animations)": lambda s, labels, image: tf.image.decode_image(
        s, dtype=tf.uint16, expand_animations=False
    ),
    "decode_jpeg": lambda s, labels, image: tf.image.decode_jpeg(s, channels=3),
    "decode_png": lambda s, labels, image: tf.image.decode_png(s, channels=3),
    # tf-slim reshapes every FixedLenFeature to its shape, () for a scalar
    "reshape to ()": lambda s, labels, image: tf.reshape(s, ()),
    "reshape to []": lambda s, labels, image: tf.reshape(s, []),
    "one_hot": lambda s, labels, image: tf.one_hot(labels, 4),
    "one_hot (on and off values)": lambda s, labels, image: tf.one_hot(labels, 4, on_value=1.0, off_value=0.0),
    "slim.one_hot_encoding": lambda s, labels, image: slim.one_hot_encoding(labels, 4),
    "per_image_standardization": lambda s, labels, image: tf.image.per_image_standardization(image),
    "slim TFExampleDecoder (Image, Tensor, callback)": lambda s, labels, image: slim_decoder(s),
    # after the model: tf.losses (model_deploy's clone losses) sums scalars over all their axes
    "reduce_sum of a scalar": lambda s, labels, image: tf.reduce_sum(tf.reduce_sum(image)),
}


def op_seed(build, in_cond):
    """The op seed of a random op made after `build` in a fresh graph with a graph seed."""
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        serialized = tf.placeholder(tf.string, [])
        labels = tf.placeholder(tf.int64, [None])
        image = tf.placeholder(tf.float32, [16, 16, 3])
        if in_cond:
            # the branch uses what the builder made, as tf-slim's Image handler decodes in a cond's branch
            def used():
                made = [
                    t
                    for t in tf.nest.flatten(build(serialized, labels, image), expand_composites=True)
                    if isinstance(t, tf.Tensor)
                ]
                return tf.to_float(tf.size(made[0]))

            tf.cond(tf.placeholder(tf.bool, []), lambda: tf.zeros([]), used)
        else:
            build(serialized, labels, image)
        return tf.random_shuffle([1, 2]).op.get_attr("seed2")


def main():
    results = {}
    for name, build in CASES.items():
        results[name] = op_seed(build, in_cond=False)
        results[name + " in a cond"] = op_seed(build, in_cond=True)
    print("RESULT " + json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()

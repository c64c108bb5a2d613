"""Seeded draws made after transposed convolutions (tf.layers.conv2d_transpose, tf.contrib.layers.conv2d_transpose),
as written for TF 1.x (runs on TF 1.15 and under uai-run).

TF 1.15's Keras Conv2DTranspose read the output's height and width from tf.shape(inputs) (strided slices, the
output length's Mul and Add ops); Keras 2 reads them from the static shape where it is known: 10 ops fewer for a
stride-2 SAME layer, and every weight made after it (a GAN's generator) started elsewhere. Prints
`RESULT {case: {name: values}}`, each case in its own seeded graph: its output's sum, then a random_normal and a
get_variable made after it. Its output on real TensorFlow 1.15 is tests/common/golden/tf115_conv_transpose_seeds.json
(written by `python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

IMAGES = np.linspace(-1.0, 1.0, 2 * 6 * 6 * 4).reshape(2, 6, 6, 4).astype(np.float32)


def draws_after(build, feed_batch=False):
    with tf.Graph().as_default():
        tf.set_random_seed(40)
        images = tf.placeholder(tf.float32, [None, 6, 6, 4]) if feed_batch else tf.constant(IMAGES)
        fetches = {"output sum": tf.reduce_sum(build(images))}
        fetches["random_normal after"] = tf.random_normal([3])
        fetches["variable after"] = tf.get_variable("after", [2, 2])
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            values = session.run(fetches, {images: IMAGES} if feed_batch else None)
            return {name: np.round(np.asarray(v, np.float64), 5).tolist() for name, v in values.items()}


CASES = {
    "layers same stride 2": lambda x: tf.layers.conv2d_transpose(x, 3, 3, strides=2, padding="same"),
    "layers valid stride 1": lambda x: tf.layers.conv2d_transpose(x, 2, [2, 3], padding="valid", activation=tf.nn.relu),
    "layers valid stride 2, no bias": lambda x: tf.layers.conv2d_transpose(x, 2, 3, strides=2, use_bias=False),
    "contrib stride 2": lambda x: tf.contrib.layers.conv2d_transpose(x, 3, [3, 3], stride=2),
}

if __name__ == "__main__":
    result = {name: draws_after(build) for name, build in CASES.items()}
    result["layers same stride 2, fed batch"] = draws_after(CASES["layers same stride 2"], feed_batch=True)
    print("RESULT " + json.dumps(result, sort_keys=True))

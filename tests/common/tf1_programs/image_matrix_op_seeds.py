"""Seeded draws made after image and matrix ops TF 2 builds with other ops than TF 1.15 (rgb_to_grayscale's
tensordot of a Python list, crop_to_bounding_box and resize_image_with_crop_or_pad, tf.eye and the identity
initializer, matrix_diag, matrix_diag_part, matrix_set_diag), as written for TF 1.x (runs on TF 1.15 and under
uai-run).

TF 1.15's op seed is the graph's op count (compat/_graph_seed.py): a cifar10-style eval input
(resize_image_with_crop_or_pad, then per_image_standardization) made every weight after it start elsewhere on
TF 2. Prints `RESULT {case: {name: values}}`, each case in its own seeded graph: the case's values, then a
random_normal and a get_variable made after them. Its output on real TensorFlow 1.15 is
tests/common/golden/tf115_image_matrix_seeds.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

IMAGES = np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3) / 95.0
MATRIX = np.arange(12, dtype=np.float32).reshape(3, 4)


def draws_after(build):
    """{name: values}: what `build` returns fetched, then a random_normal and a glorot get_variable made after it."""
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        fetches = dict(build())
        fetches["random_normal after"] = tf.random_normal([3])
        fetches["variable after"] = tf.get_variable("after", [2, 2])
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            return {name: np.round(np.asarray(v, np.float64), 5).tolist() for name, v in session.run(fetches).items()}


def grayscale():
    images = tf.constant(IMAGES)
    return {"batch": tf.image.rgb_to_grayscale(images), "one": tf.image.rgb_to_grayscale(images[0])}


def tensordot_of_a_list():
    return {"list": tf.tensordot(tf.constant(MATRIX), [1.0, 2.0, 3.0, 4.0], [[1], [0]])}


def crop_or_pad():
    images = tf.constant(IMAGES)
    return {
        "crop and pad, batch": tf.image.resize_image_with_crop_or_pad(images, 6, 3),
        "crop, one": tf.image.resize_image_with_crop_or_pad(images[0], 2, 2),
        "crop_to_bounding_box": tf.image.crop_to_bounding_box(images, 1, 0, 2, 3),
        "crop_to_bounding_box, tensor": tf.image.crop_to_bounding_box(images[0], tf.constant(1), 1, 2, 2),
    }


def cifar10_eval_input():
    """cifar10_input.inputs(eval_data=True)'s preprocessing, then the first conv's weights."""
    image = tf.image.resize_image_with_crop_or_pad(tf.constant(IMAGES[0]), 3, 3)
    image = tf.image.per_image_standardization(image)
    kernel = tf.get_variable("conv1/weights", [2, 2, 3, 2], initializer=tf.truncated_normal_initializer(stddev=0.5))
    return {"image": image, "kernel": kernel}


def matrices():
    eye = tf.eye(3)
    identity = tf.get_variable("identity", [3, 4], initializer=tf.initializers.identity())
    return {
        "eye": eye,
        "eye batch": tf.eye(2, 3, batch_shape=[2]),
        "identity initializer": identity,
        "matrix_diag": tf.matrix_diag([1.0, 2.0]),
        "matrix_diag_part": tf.matrix_diag_part(tf.constant(MATRIX)),
        "matrix_set_diag": tf.matrix_set_diag(tf.constant(MATRIX), [7.0, 8.0, 9.0]),
        "linalg.diag": tf.linalg.diag([3.0]),
    }


if __name__ == "__main__":
    cases = {
        "grayscale": grayscale,
        "tensordot of a list": tensordot_of_a_list,
        "crop or pad": crop_or_pad,
        "cifar10 eval input": cifar10_eval_input,
        "matrices": matrices,
    }
    print("RESULT " + json.dumps({name: draws_after(build) for name, build in cases.items()}, sort_keys=True))

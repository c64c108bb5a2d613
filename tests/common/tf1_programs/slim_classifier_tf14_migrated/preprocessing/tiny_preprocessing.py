"""Preprocessing for tinynet: pad and randomly crop and flip in training, crop or pad in evaluation."""

import tensorflow as tf

_PADDING = 2


def preprocess_for_train(image, output_height, output_width, padding=_PADDING):
    tf.compat.v1.summary.image("image", tf.expand_dims(image, 0))
    image = tf.cast(image, tf.float32)
    if padding > 0:
        image = tf.pad(image, [[padding, padding], [padding, padding], [0, 0]])
    distorted_image = tf.image.random_crop(image, [output_height, output_width, 3])
    distorted_image = tf.image.random_flip_left_right(distorted_image)
    tf.compat.v1.summary.image("distorted_image", tf.expand_dims(distorted_image, 0))
    distorted_image = tf.image.random_brightness(distorted_image, max_delta=63)
    distorted_image = tf.image.random_contrast(distorted_image, lower=0.2, upper=1.8)
    return tf.image.per_image_standardization(distorted_image)


def preprocess_for_eval(image, output_height, output_width):
    tf.compat.v1.summary.image("image", tf.expand_dims(image, 0))
    image = tf.cast(image, tf.float32)
    resized_image = tf.image.resize_with_crop_or_pad(image, output_width, output_height)
    tf.compat.v1.summary.image("resized_image", tf.expand_dims(resized_image, 0))
    return tf.image.per_image_standardization(resized_image)


def preprocess_image(image, output_height, output_width, is_training=False):
    if is_training:
        return preprocess_for_train(image, output_height, output_width)
    return preprocess_for_eval(image, output_height, output_width)

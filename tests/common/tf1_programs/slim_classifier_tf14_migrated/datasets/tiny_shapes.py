"""The tiny_shapes data set: small PNG images of four classes in TFRecord shards.

Each record holds the encoded image, its format, its size and its label, as
research/slim's conversion scripts wrote them.
"""

import os

import tensorflow as tf

from datasets import dataset_utils

import compat.slim as slim

_FILE_PATTERN = "tiny_shapes_%s_*.tfrecord"

SPLITS_TO_SIZES = {"train": 48, "validation": 16}

_NUM_CLASSES = 4

_ITEMS_TO_DESCRIPTIONS = {
    "image": "A [16 x 16 x 3] colour image.",
    "label": "A single integer between 0 and 3",
    "size": "The image's height and width as written",
}


def get_split(split_name, dataset_dir, file_pattern=None, reader=None):
    """A `slim.dataset.Dataset` reading one split of tiny_shapes."""
    if split_name not in SPLITS_TO_SIZES:
        raise ValueError(f"split name {split_name} was not recognized.")

    if not file_pattern:
        file_pattern = _FILE_PATTERN
    file_pattern = os.path.join(dataset_dir, file_pattern % split_name)

    if reader is None:
        reader = tf.compat.v1.TFRecordReader

    keys_to_features = {
        "image/encoded": tf.io.FixedLenFeature((), tf.string, default_value=""),
        "image/format": tf.io.FixedLenFeature((), tf.string, default_value="png"),
        "image/class/label": tf.io.FixedLenFeature([], tf.int64, default_value=tf.zeros([], dtype=tf.int64)),
        "image/height": tf.io.FixedLenFeature([1], tf.int64),
        "image/width": tf.io.FixedLenFeature([1], tf.int64),
    }

    items_to_handlers = {
        "image": slim.tfexample_decoder.Image(shape=[16, 16, 3]),
        "label": slim.tfexample_decoder.Tensor("image/class/label"),
        "size": slim.tfexample_decoder.ItemHandlerCallback(
            ["image/height", "image/width"],
            lambda keys: tf.concat([keys["image/height"], keys["image/width"]], 0),
        ),
    }

    decoder = slim.tfexample_decoder.TFExampleDecoder(keys_to_features, items_to_handlers)

    labels_to_names = None
    if dataset_utils.has_labels(dataset_dir):
        labels_to_names = dataset_utils.read_label_file(dataset_dir)

    return slim.dataset.Dataset(
        data_sources=file_pattern,
        reader=reader,
        decoder=decoder,
        num_samples=SPLITS_TO_SIZES[split_name],
        items_to_descriptions=_ITEMS_TO_DESCRIPTIONS,
        num_classes=_NUM_CLASSES,
        labels_to_names=labels_to_names,
    )

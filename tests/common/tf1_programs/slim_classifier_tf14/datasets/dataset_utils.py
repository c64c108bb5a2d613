"""Helpers the dataset modules share: tf.train.Example features and the labels file."""

import os

import tensorflow as tf

LABELS_FILENAME = "labels.txt"


def int64_feature(values):
    if not isinstance(values, (tuple, list)):
        values = [values]
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


def bytes_feature(values):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=[values]))


def image_to_tfexample(image_data, image_format, height, width, class_id):
    return tf.train.Example(
        features=tf.train.Features(
            feature={
                "image/encoded": bytes_feature(image_data),
                "image/format": bytes_feature(image_format),
                "image/class/label": int64_feature(class_id),
                "image/height": int64_feature(height),
                "image/width": int64_feature(width),
            }
        )
    )


def has_labels(dataset_dir, filename=LABELS_FILENAME):
    return tf.gfile.Exists(os.path.join(dataset_dir, filename))


def read_label_file(dataset_dir, filename=LABELS_FILENAME):
    """{label index: class name} from lines `index:name`."""
    with tf.gfile.Open(os.path.join(dataset_dir, filename), "rb") as f:
        lines = f.read().decode()
    labels_to_names = {}
    for line in filter(None, lines.split("\n")):
        index, name = line.split(":", 1)
        labels_to_names[int(index)] = name
    return labels_to_names

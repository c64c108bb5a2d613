"""TF-slim's dataset layout: `<name>_<split>_*.tfrecord` files and a `labels.txt` of `id:name` lines."""

import os
from typing import Any

import tensorflow as tf

from compat.errors import DataError
from trainlib.data import imagenet


def read_labels(dataset_dir: str) -> dict[int, str]:
    """{label id: class name} from labels.txt; {} when the file is absent."""
    path = os.path.join(dataset_dir, "labels.txt")
    if not tf.io.gfile.exists(path):
        return {}
    labels = {}
    with tf.io.gfile.GFile(path) as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            key, sep, name = line.strip().partition(":")
            if not sep or not key.isdigit():
                raise DataError(f"{path}:{number}: expected 'id:name', got {line.strip()!r}")
            labels[int(key)] = name
    return labels


def dataset(
    dataset_dir: str, name: str, split: str, batch_size: int, image_size: int, num_classes: int, **kwargs: Any
) -> tf.data.Dataset:
    """Same records and preprocessing as ImageNet, found by slim's file naming."""
    return imagenet.dataset(
        dataset_dir,
        split == "train",
        batch_size,
        image_size,
        num_classes=num_classes,
        pattern=f"{name}_{split}_*.tfrecord",
        **kwargs,
    )

"""ImageNet TFRecords -> tf.data, for Estimator `input_fn`s and for tf.distribute strategies.

    ds = imagenet.dataset(data_dir, is_training=True, batch_size=64, image_size=32)
    strategy.distribute_datasets_from_function(
        lambda ctx: imagenet.dataset(data_dir, True, global_batch, 32, input_context=ctx))

Files: `train-%05d-of-NNNNN` / `validation-%05d-of-NNNNN`, the shard count taken from the
files present. Labels stay as written (1..1000; 0 is background in the 1001-class model).
A record whose label is outside [0, num_classes) fails with its file named.
"""

import os
from collections.abc import Callable
from typing import Any

import tensorflow as tf

from compat.errors import DataError
from trainlib.data import records
from trainlib.data.paths import SPLITS, check_data_dir


def shard_files(data_dir: str, is_training: bool, pattern: str | None = None) -> list[str]:
    """Sorted shard paths of a split; DataError when the folder or the shards are missing."""
    split = SPLITS[bool(is_training)]
    check_data_dir(data_dir)
    files = sorted(tf.io.gfile.glob(os.path.join(data_dir, pattern or f"{split}-*-of-*")))
    if not files:
        raise DataError(f"no {split} shards matching {pattern or split + '-*-of-*'} in {data_dir!r}")
    for path in files:
        check_first_record(path)
    return files


def check_first_record(path: str) -> None:
    """DataError naming `path` when it is not a TFRecord file (a wrong or truncated shard).

    Reading one record per shard is cheap and catches the usual mistakes up front, where tf.data
    would fail later without naming the file. Corruption deeper in a shard still surfaces as
    TensorFlow's DataLossError when it is read.
    """
    try:
        for _ in tf.compat.v1.io.tf_record_iterator(path):
            break
    except tf.errors.OpError as err:
        raise DataError(f"{path}: not a readable TFRecord file ({err.message.strip()})") from None


def _checked(filename: tf.Tensor, parsed: dict[str, tf.Tensor], num_classes: int) -> tf.Tensor:
    label = tf.cast(parsed["image/class/label"], tf.int32)
    in_range = tf.logical_and(label >= 0, label < num_classes)
    check = tf.debugging.Assert(in_range, [f"label out of range [0, {num_classes}) in a record of", filename, label])
    with tf.control_dependencies([check]):
        return tf.identity(label)


def records_dataset(
    files: list[str],
    is_training: bool,
    input_context: tf.distribute.InputContext | None = None,
    seed: int | None = None,
) -> tf.data.Dataset:
    """(filename, serialized record) pairs; sharded per input pipeline, shuffled by file when training."""
    ds = tf.data.Dataset.from_tensor_slices(files)
    if input_context is not None and input_context.num_input_pipelines > 1:
        if len(files) >= input_context.num_input_pipelines:
            ds = ds.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
        else:  # fewer files than pipelines: split records instead, so no pipeline sees nothing
            return _with_names(ds, is_training, seed).shard(
                input_context.num_input_pipelines, input_context.input_pipeline_id
            )
    return _with_names(ds, is_training, seed)


def _with_names(files: tf.data.Dataset, is_training: bool, seed: int | None) -> tf.data.Dataset:
    if is_training:
        files = files.shuffle(1024, seed=seed)
    return files.interleave(
        lambda name: tf.data.TFRecordDataset(name).map(lambda record: (name, record)),
        cycle_length=4,
        num_parallel_calls=tf.data.AUTOTUNE,
        deterministic=seed is not None or not is_training,
    )


def dataset(
    data_dir: str,
    is_training: bool,
    batch_size: int,
    image_size: int,
    num_classes: int = 1001,
    fast: bool = False,
    input_context: tf.distribute.InputContext | None = None,
    repeat: bool = True,
    seed: int | None = None,
    shuffle_buffer: int = 1024,
    pattern: str | None = None,
) -> tf.data.Dataset:
    """Batches of (float image [b, s, s, 3], int32 label [b]).

    `batch_size` is global; with an `input_context` each replica gets its share.
    """
    if input_context is not None:
        batch_size = input_context.get_per_replica_batch_size(batch_size)
    files = shard_files(data_dir, is_training, pattern)
    ds = records_dataset(files, is_training, input_context, seed)
    if is_training:
        ds = ds.shuffle(shuffle_buffer, seed=seed)
    if repeat:
        ds = ds.repeat()

    def decode(filename: tf.Tensor, record: tf.Tensor) -> tuple[tf.Tensor, tf.Tensor]:
        parsed = records.parse(record)
        label = _checked(filename, parsed, num_classes)
        return records.preprocess(parsed, is_training, image_size, fast), label

    ds = ds.map(decode, num_parallel_calls=tf.data.AUTOTUNE)
    return ds.batch(batch_size, drop_remainder=is_training or repeat).prefetch(tf.data.AUTOTUNE)


def input_fn(
    data_dir: str, is_training: bool, batch_size: int, image_size: int, **kwargs: Any
) -> Callable[..., tf.data.Dataset]:
    """An Estimator `input_fn` (a callable taking no arguments, or `params`)."""

    def make(params: dict[str, Any] | None = None) -> tf.data.Dataset:
        return dataset(data_dir, is_training, batch_size, image_size, **kwargs)

    return make

"""The programs' input paths as far as they can be checked before TensorFlow is imported, and ImageNet's splits.

A program checks its flags, TF_CONFIG and input paths first, so a mistake is one line at once, not after the
4-5 s of CPU that importing TensorFlow takes. A local path is asked of the operating system; a path with a
scheme (gs://, hdfs://) only TensorFlow's file systems can answer for, so it is asked of `tf.io.gfile`,
importing TensorFlow then. The complete checks (`trainlib.data.imagenet.shard_files`,
`trainlib.models.names.checkpoint_file`) run these same ones first: each message is written here once.
"""

import os

from compat.errors import DataError

SPLITS = {True: "train", False: "validation"}  # is_training -> the split's file prefix


def _is_local(path: str) -> bool:
    return "://" not in path


def isdir(path: str) -> bool:
    if _is_local(path):
        return os.path.isdir(path)
    import tensorflow as tf

    return bool(tf.io.gfile.isdir(path))


def exists(path: str) -> bool:
    if _is_local(path):
        return os.path.exists(path)
    import tensorflow as tf

    return bool(tf.io.gfile.exists(path))


def check_data_dir(data_dir: str) -> None:
    """DataError when the data folder is not there."""
    if not isdir(data_dir):
        raise DataError(f"data dir {data_dir!r} does not exist")


def check_checkpoint(path: str, field: str = "checkpoint") -> None:
    """DataError naming `field` when `path` is neither a folder nor a checkpoint (a V2 prefix with its `.index`,
    or the one file of an older zoo checkpoint)."""
    if not (isdir(path) or exists(path + ".index") or exists(path)):
        raise DataError(f"{field} {path!r} does not exist (a checkpoint prefix such as model.ckpt-100, or its folder)")


def check_fine_tune_source(checkpoint_path: str | None, output_dir: str) -> None:
    """`check_checkpoint` of `--checkpoint_path` where `trainlib.checkpoints.fine_tune_source` reads it: when the
    output folder has no `checkpoint` file (with one, a run may resume there and not read the path)."""
    if checkpoint_path and not exists(os.path.join(output_dir, "checkpoint")):
        check_checkpoint(checkpoint_path, "--checkpoint_path")

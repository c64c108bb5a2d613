"""The slim trainers' dataset from their flags, alike in both runtimes: files, classes, epoch size, batches.

`values` are parsed `trainlib.training.slim_flags` after `platform_overrides`. `--dataset_name
imagenet` reads ImageNet's `train-*` / `validation-*` shards; any other name reads slim's layout
`<name>_<split>_*.tfrecord` with a labels.txt (`trainlib.data.slim_layout`). `check_input` refuses what it
can before TensorFlow is imported; the rest imports TensorFlow when called.
"""

from typing import TYPE_CHECKING, Any

from compat.errors import DataError
from trainlib.data import paths
from trainlib.models import slim_zoo
from trainlib.training.resnet_flags import IMAGENET_TRAIN_IMAGES

if TYPE_CHECKING:
    import tensorflow as tf

IMAGENET_CLASSES = 1001
# Images of the "lenet" preprocessing are divided by this (about [-1, 1] from mean-subtracted pixels).
LENET_SCALE = 128.0


def num_classes(values: Any) -> int:
    """Classes of the raw labels (before `--labels_offset`): the flag, ImageNet's 1001, or labels.txt's."""
    if values.num_classes:
        return values.num_classes
    if values.dataset_name == "imagenet":
        return IMAGENET_CLASSES
    from trainlib.data import slim_layout

    labels = slim_layout.read_labels(values.dataset_dir)
    if not labels:
        raise DataError(f"no labels.txt in {values.dataset_dir!r} to count the classes of; pass --num_classes")
    return max(labels) + 1


def pattern(values: Any, split: str | None = None) -> str:
    """The file pattern of `split` (default: `--dataset_split_name`)."""
    split = split or values.dataset_split_name
    if values.dataset_name != "imagenet":
        return f"{values.dataset_name}_{split}_*.tfrecord"
    if split not in paths.SPLITS.values():
        raise DataError(f"the imagenet dataset has splits train and validation, not {split!r}")
    return f"{split}-*-of-*"


def check_input(values: Any) -> None:
    """What `files` refuses before it reads a file, checked without TensorFlow: a split the dataset does not
    have, a data folder that is not there."""
    pattern(values)
    paths.check_data_dir(values.dataset_dir)


def files(values: Any, split: str | None = None) -> list[str]:
    """The split's files; DataError when the folder or the files are missing or unreadable."""
    from trainlib.data import imagenet

    split = split or values.dataset_split_name
    return imagenet.shard_files(values.dataset_dir, split == "train", pattern(values, split))


def samples_per_epoch(values: Any, split_files: list[str]) -> int:
    """`--num_samples_per_epoch`, else ImageNet's training images, else the records of `split_files`, counted."""
    if values.num_samples_per_epoch:
        return values.num_samples_per_epoch
    if values.dataset_name == "imagenet" and values.dataset_split_name == "train":
        return IMAGENET_TRAIN_IMAGES
    import tensorflow as tf

    return sum(1 for path in split_files for _ in tf.compat.v1.io.tf_record_iterator(path))


def preprocessing(values: Any) -> str:
    return values.preprocessing_name or slim_zoo.default_preprocessing(values.model_name)


def dataset(values: Any, split: str, batch_size: int, image_size: int, **kwargs: Any) -> "tf.data.Dataset":
    """Batches of (image, label - labels_offset) of `split`, preprocessed as `--preprocessing_name` says.

    `kwargs` go to `trainlib.data.imagenet.dataset` (`input_context`, `repeat`, ...).
    """
    from trainlib.data import imagenet

    lenet = preprocessing(values) == "lenet"
    ds = imagenet.dataset(
        values.dataset_dir,
        split == "train",
        batch_size,
        image_size,
        num_classes=num_classes(values),
        fast=lenet,
        pattern=pattern(values, split),
        **kwargs,
    )
    scale, offset = LENET_SCALE if lenet else 1.0, values.labels_offset
    if scale == 1.0 and not offset:
        return ds
    return ds.map(lambda images, labels: (images / scale, labels - offset))

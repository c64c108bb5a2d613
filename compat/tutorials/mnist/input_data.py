"""TF1's `tensorflow.examples.tutorials.mnist.input_data`: `read_data_sets(dir, one_hot=...)`.

Reads the four MNIST IDX files (gzipped, as TF1 downloaded them, or plain) from `train_dir` and
returns `Datasets(train, validation, test)` whose `DataSet`s have TF1's `images`, `labels`,
`num_examples`, `epochs_completed` and `next_batch(batch_size, shuffle=True)`. Images are
float32 in [0, 1] and flattened to 784 values (`reshape=True`), or uint8 with `dtype=tf.uint8`
/ `numpy.uint8`, as TF1 gave them.

It is also tf.contrib.learn.datasets.mnist (compat/tf1_names.py), TF1's module whose `read_data_sets` the tutorials'
input_data imported, with its `dense_to_one_hot`, `extract_images` and `extract_labels`.

TF1 downloaded missing files on its own; this only downloads when asked (`download=True` or
`UAI_MNIST_DOWNLOAD=1`): a training job should not fetch data behind its owner's back.
"""

from __future__ import annotations

import collections
import gzip
import io
import os
import shutil
import urllib.request
from typing import Any

import numpy

from compat.errors import DataError

# (what TF 1.15's module offered: migrating reads this list to tell a name compat lacks from one it holds)
__all__ = [
    "DEFAULT_SOURCE_URL",
    "DataSet",
    "Datasets",
    "dense_to_one_hot",
    "extract_images",
    "extract_labels",
    "load_mnist",
    "read_data_sets",
]

FILES = {
    "train_images": "train-images-idx3-ubyte.gz",
    "train_labels": "train-labels-idx1-ubyte.gz",
    "test_images": "t10k-images-idx3-ubyte.gz",
    "test_labels": "t10k-labels-idx1-ubyte.gz",
}
DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
_IMAGES_MAGIC, _LABELS_MAGIC = 2051, 2049

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def _open(path: str) -> io.BufferedIOBase:
    """The file itself or, if only that exists, its unzipped twin (`x.gz` or `x`)."""
    for candidate in (path, path[: -len(".gz")]):
        if os.path.isfile(candidate):
            return gzip.open(candidate, "rb") if candidate.endswith(".gz") else open(candidate, "rb")
    raise FileNotFoundError(path)


def _read_idx(path: str, magic: int, dims: int) -> numpy.ndarray:
    with _open(path) as handle:
        data = handle.read()
    header = 4 * (1 + dims)
    if len(data) < header:
        raise DataError(f"{path}: too short for an IDX file")
    values = numpy.frombuffer(data[:header], dtype=">u4")
    if values[0] != magic:
        raise DataError(f"{path}: not an MNIST IDX file (magic {values[0]}, expected {magic})")
    shape = tuple(int(v) for v in values[1:])
    body = numpy.frombuffer(data[header:], dtype=numpy.uint8)
    if body.size != int(numpy.prod(shape)):
        raise DataError(f"{path}: holds {body.size} values, its header promises {shape}")
    return body.reshape(shape)


def extract_images(path: str) -> numpy.ndarray:
    """[count, rows, cols, 1] uint8 images of an IDX3 file."""
    return _read_idx(path, _IMAGES_MAGIC, 3)[..., numpy.newaxis]


def extract_labels(path: str, one_hot: bool = False, num_classes: int = 10) -> numpy.ndarray:
    """[count] uint8 labels of an IDX1 file, or [count, num_classes] one-hot float rows."""
    labels = _read_idx(path, _LABELS_MAGIC, 1)
    if not one_hot:
        return labels
    if labels.size and labels.max() >= num_classes:
        raise DataError(f"{path}: label {labels.max()} out of range for {num_classes} classes")
    return numpy.eye(num_classes, dtype=numpy.float32)[labels]


def dense_to_one_hot(labels_dense: Any, num_classes: int) -> numpy.ndarray:
    """[count, num_classes] float64 rows, 1.0 in each label's column, for `count` class labels (a [count] vector or
    a [count, 1] column), as TF1's tf.contrib.learn.datasets.mnist.dense_to_one_hot gave them. A label outside
    [0, num_classes) is a DataError: TF1's set a 1.0 in another row."""
    labels = numpy.asarray(labels_dense)
    count = labels.shape[0]
    flat = labels.reshape(-1)
    if flat.size != count:
        raise DataError(f"{labels.shape} labels: one class label per row expected ([count] or [count, 1])")
    outside = flat[(flat < 0) | (flat >= num_classes)]
    if outside.size:
        raise DataError(f"label {outside[0]} out of range for {num_classes} classes")
    rows = numpy.zeros((count, num_classes))
    rows[numpy.arange(count), flat] = 1.0
    return rows


def _is_uint8(dtype: Any) -> bool:
    return getattr(dtype, "as_numpy_dtype", dtype) == numpy.uint8


class DataSet:
    """Images and labels with TF1's batching: shuffled each epoch, the epoch's tail carried over."""

    def __init__(
        self,
        images: numpy.ndarray,
        labels: numpy.ndarray,
        dtype: Any = numpy.float32,  # a numpy or TensorFlow dtype
        reshape: bool = True,
        seed: int | None = None,
    ) -> None:
        if len(images) != len(labels):
            raise DataError(f"{len(images)} images but {len(labels)} labels")
        if reshape:
            images = images.reshape(images.shape[0], int(numpy.prod(images.shape[1:])))
        if not _is_uint8(dtype):
            images = images.astype(numpy.float32) / 255.0
        self._images, self._labels = images, labels
        self._rng = numpy.random.default_rng(seed)
        self._epochs_completed, self._index_in_epoch = 0, 0

    images = property(lambda self: self._images)
    labels = property(lambda self: self._labels)
    num_examples = property(lambda self: len(self._images))
    epochs_completed = property(lambda self: self._epochs_completed)

    def _shuffle(self) -> None:
        order = self._rng.permutation(self.num_examples)
        self._images, self._labels = self._images[order], self._labels[order]

    def next_batch(
        self, batch_size: int, fake_data: bool = False, shuffle: bool = True
    ) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The next `batch_size` (images, labels); an epoch's end is filled from the next epoch."""
        if fake_data:
            raise DataError("next_batch(fake_data=True) is not supported: pass real MNIST files")
        if shuffle and self._epochs_completed == 0 and self._index_in_epoch == 0:
            self._shuffle()
        start, end = self._index_in_epoch, self._index_in_epoch + batch_size
        if end <= self.num_examples:
            self._index_in_epoch = end
            return self._images[start:end], self._labels[start:end]
        rest_images, rest_labels = self._images[start:], self._labels[start:]
        self._epochs_completed += 1
        if shuffle:
            self._shuffle()
        self._index_in_epoch = batch_size - len(rest_images)
        head = slice(0, self._index_in_epoch)
        return (
            numpy.concatenate([rest_images, self._images[head]]),
            numpy.concatenate([rest_labels, self._labels[head]]),
        )


def _download(train_dir: str, source_url: str) -> None:
    os.makedirs(train_dir, exist_ok=True)
    for name in FILES.values():
        path = os.path.join(train_dir, name)
        if not os.path.exists(path):
            tmp = path + ".part"
            with urllib.request.urlopen(source_url + name, timeout=60) as response, open(tmp, "wb") as out:
                shutil.copyfileobj(response, out)
            os.replace(tmp, path)


def read_data_sets(
    train_dir: str,
    fake_data: bool = False,
    one_hot: bool = False,
    dtype: Any = numpy.float32,
    reshape: bool = True,
    validation_size: int = 5000,
    seed: int | None = None,
    source_url: str = DEFAULT_SOURCE_URL,
    download: bool | None = None,
) -> Datasets:
    """TF1's signature; `download` (default: `UAI_MNIST_DOWNLOAD=1`) fetches missing files."""
    if fake_data:
        raise DataError("read_data_sets(fake_data=True) is not supported: pass a folder with the MNIST files")
    paths = {key: os.path.join(train_dir, name) for key, name in FILES.items()}
    missing = [
        name
        for key, name in FILES.items()
        if not any(os.path.isfile(p) for p in (paths[key], paths[key][: -len(".gz")]))
    ]
    if missing:
        if download is None:
            download = os.environ.get("UAI_MNIST_DOWNLOAD") == "1"
        if not download:
            raise DataError(
                f"{train_dir}: MNIST files missing ({', '.join(missing)}); put them there, "
                f"or pass download=True / set UAI_MNIST_DOWNLOAD=1 to fetch them from {source_url}"
            )
        try:
            _download(train_dir, source_url)
        except OSError as err:
            raise DataError(f"{train_dir}: cannot download MNIST from {source_url}: {err}") from None
    train_images = extract_images(paths["train_images"])
    train_labels = extract_labels(paths["train_labels"], one_hot=one_hot)
    test = DataSet(
        extract_images(paths["test_images"]),
        extract_labels(paths["test_labels"], one_hot=one_hot),
        dtype=dtype,
        reshape=reshape,
        seed=seed,
    )
    if not 0 <= validation_size <= len(train_images):
        raise DataError(f"validation_size must be between 0 and {len(train_images)}, not {validation_size}")
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    validation = DataSet(train_images[:validation_size], train_labels[:validation_size], **options)
    train = DataSet(train_images[validation_size:], train_labels[validation_size:], **options)
    return Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir: str = "MNIST-data") -> Datasets:
    """TF1's shortcut."""
    return read_data_sets(train_dir)

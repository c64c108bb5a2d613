"""compat.tutorials.mnist.input_data reads the four MNIST IDX files as TF1's tutorial module did."""

import gzip
import struct

import numpy
import pytest

from compat.errors import DataError
from compat.tutorials.mnist import input_data
from tests.support.goldens import run_against_tf115


def _write_idx(path, array, magic, gz=True):
    header = struct.pack(">I", magic) + b"".join(struct.pack(">I", d) for d in array.shape)
    data = header + array.astype(numpy.uint8).tobytes()
    if gz:
        with gzip.open(path, "wb") as handle:
            handle.write(data)
    else:
        path.with_suffix("").write_bytes(data)


def make_mnist(folder, n_train=30, n_test=7, gz=True, seed=0):
    """Random 28x28 images and labels in the four files; returns what was written."""
    rng = numpy.random.default_rng(seed)
    written = {}
    for split, n in (("train", n_train), ("test", n_test)):
        images = rng.integers(0, 256, size=(n, 28, 28))
        labels = rng.integers(0, 10, size=(n,))
        _write_idx(folder / input_data.FILES[f"{split}_images"], images, 2051, gz)
        _write_idx(folder / input_data.FILES[f"{split}_labels"], labels, 2049, gz)
        written[split] = (images, labels)
    return written


@pytest.mark.parametrize("gz", [True, False])
def test_read_data_sets_splits_scales_and_one_hot_encodes(tmp_path, gz):
    written = make_mnist(tmp_path, gz=gz)
    sets = input_data.read_data_sets(str(tmp_path), one_hot=True, validation_size=10)
    train_images, train_labels = written["train"]
    assert (sets.train.num_examples, sets.validation.num_examples, sets.test.num_examples) == (20, 10, 7)
    assert sets.validation.images.shape == (10, 784) and sets.validation.images.dtype == numpy.float32
    numpy.testing.assert_allclose(sets.validation.images, train_images[:10].reshape(10, -1) / 255.0)
    numpy.testing.assert_array_equal(sets.validation.labels.argmax(1), train_labels[:10])
    assert sets.validation.labels.shape == (10, 10) and set(sets.validation.labels.sum(1)) == {1.0}
    raw = input_data.read_data_sets(str(tmp_path), dtype=numpy.uint8, reshape=False, validation_size=0)
    assert raw.train.images.shape == (30, 28, 28, 1) and raw.train.images.dtype == numpy.uint8
    numpy.testing.assert_array_equal(raw.train.labels, train_labels)


def test_next_batch_covers_every_example_once_per_epoch_and_carries_the_tail(tmp_path):
    make_mnist(tmp_path, n_train=25)
    train = input_data.read_data_sets(str(tmp_path), validation_size=0, seed=3).train
    seen = [train.next_batch(10)[1] for _ in range(5)]  # 50 = two epochs of 25
    labels = numpy.concatenate(seen)
    assert train.epochs_completed == 1 and len(labels) == 50  # the second epoch ends with the next call
    expected = numpy.sort(train.labels)
    numpy.testing.assert_array_equal(numpy.sort(labels[:25]), expected)
    numpy.testing.assert_array_equal(numpy.sort(labels[25:]), expected)
    unshuffled = input_data.read_data_sets(str(tmp_path), validation_size=0).train
    first = unshuffled.labels[:10].copy()
    numpy.testing.assert_array_equal(unshuffled.next_batch(10, shuffle=False)[1], first)


def test_missing_or_damaged_files_name_the_problem(tmp_path):
    with pytest.raises(DataError, match="MNIST files missing .*train-images-idx3-ubyte.gz.*download=True"):
        input_data.read_data_sets(str(tmp_path))
    make_mnist(tmp_path)
    _write_idx(tmp_path / input_data.FILES["test_labels"], numpy.zeros((3, 3)), 2051)
    with pytest.raises(DataError, match="t10k-labels-idx1-ubyte.gz: not an MNIST IDX file"):
        input_data.read_data_sets(str(tmp_path))
    with pytest.raises(DataError, match="validation_size"):
        make_mnist(tmp_path)
        input_data.read_data_sets(str(tmp_path), validation_size=31)


# labels TF 1.15's dense_to_one_hot wrote into a neighbouring row (its flat index ran past its own row)
_OUTSIDE_THE_CLASSES = ("label past the last class", "negative label")


def test_dense_to_one_hot_gives_tf115s_rows_and_refuses_labels_outside_the_classes(tmp_path):
    """tests/common/tf1_programs/mnist_dense_to_one_hot.py, run under uai-run (tf.contrib.learn's datasets.mnist is
    this module), prints TF 1.15's float64 one-hot rows for a vector, a column and no labels; a label outside
    [0, num_classes), which TF 1.15 set in another row, is a DataError."""
    values, golden = run_against_tf115("mnist_dense_to_one_hot.py", "tf115_dense_to_one_hot.json", tmp_path)
    valid = sorted(set(golden) - set(_OUTSIDE_THE_CLASSES))
    assert {case: values[case] for case in valid} == {case: golden[case] for case in valid}
    for case in _OUTSIDE_THE_CLASSES:
        assert "values" in golden[case] and values[case] == {"error": "DataError"}, case
    with pytest.raises(DataError, match="label 4 out of range for 4 classes"):
        input_data.dense_to_one_hot(numpy.array([4, 2]), 4)

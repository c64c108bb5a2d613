"""TF1's tf.contrib.learn.datasets.base: `load_csv_with_header`, `load_csv_without_header`, `Dataset`, `Datasets`.

TF 1.0's iris tutorial read its CSV files with load_csv_with_header: a first row giving the number of samples and
of features (then anything: iris_training.csv names its classes), then one sample a row, its target in
`target_column`. The arrays, dtypes and tuples are TF 1.15's (tests/common/test_learn_datasets.py). Paths are read
through tf.io.gfile, as TF1's were (gs:// too). TF 1.15's load_iris, load_boston, shrink_csv, maybe_download and
retry are not here.
"""

from __future__ import annotations

import collections
import csv
from typing import Any

import numpy
import tensorflow as tf

from compat.errors import DataError

__all__ = ["Dataset", "Datasets", "load_csv_with_header", "load_csv_without_header"]  # (read by migrating)

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


def _rows(filename: str) -> list[list[str]]:
    with tf.io.gfile.GFile(filename) as handle:
        return list(csv.reader(handle))


def _split(rows: list[list[str]], target_column: int) -> tuple[list[str], list[list[str]]]:
    """(each row's target, each row's features): the target column taken out of every row."""
    targets, features = [], []
    for row in rows:
        column = target_column % len(row) if row else target_column
        targets.append(row[column])
        features.append(row[:column] + row[column + 1 :])
    return targets, features


def load_csv_with_header(filename: str, target_dtype: Any, features_dtype: Any, target_column: int = -1) -> Dataset:
    """Dataset(data [samples, features] of `features_dtype`, target [samples] of `target_dtype`) with the counts the
    header row gives; samples it counts that the file lacks stay zero, as TF1's did."""
    header, *rows = _rows(filename)
    samples, features = int(header[0]), int(header[1])
    if len(rows) > samples:
        raise DataError(f"{filename}: {len(rows)} rows, its header counts {samples}")
    data = numpy.zeros((samples, features), dtype=features_dtype)
    target = numpy.zeros((samples,), dtype=target_dtype)
    if rows:
        targets, values = _split(rows, target_column)
        target[: len(rows)] = numpy.array(targets, dtype=target_dtype)
        data[: len(rows)] = numpy.array(values, dtype=features_dtype)
    return Dataset(data=data, target=target)


def load_csv_without_header(filename: str, target_dtype: Any, features_dtype: Any, target_column: int = -1) -> Dataset:
    """Dataset(data [rows, columns - 1] of `features_dtype`, target [rows] of `target_dtype`), one sample a row."""
    targets, values = _split(_rows(filename), target_column)
    return Dataset(data=numpy.array(values, dtype=features_dtype), target=numpy.array(targets, dtype=target_dtype))

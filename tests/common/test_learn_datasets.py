"""compat.learn.datasets.base is tf.contrib.learn.datasets.base's CSV loaders and tuples, as TF 1.15 read the files.

tests/common/tf1_programs/learn_datasets_csv.py, a TF 1 program, runs unmodified under uai-run and prints what real
TensorFlow 1.15 printed (tests/common/golden/tf115_learn_datasets_csv.json): the same arrays, dtypes and tuples.
"""

import importlib

import pytest

from compat.errors import DataError
from compat.learn.datasets import base
from tests.support.goldens import run_against_tf115


def test_uai_run_loads_csv_files_with_and_without_header_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("learn_datasets_csv.py", "tf115_learn_datasets_csv.json", tmp_path)
    assert values == golden


def test_the_internal_path_is_the_same_module():
    # (compat/tf1_names.py: SYMBOLS for the public path, PACKAGES for the internal one)
    from compat import tf1_names

    internal = tf1_names.move_package("tensorflow.contrib.learn.python.learn.datasets.base")
    assert importlib.import_module(str(internal)) is base
    assert tf1_names.resolve(tf1_names.SYMBOLS["tensorflow.contrib.learn.datasets.base"]) is base


def test_a_file_with_more_rows_than_its_header_counts_is_a_data_error(tmp_path):
    # (TF 1.15's wrote past its arrays: an IndexError)
    path = tmp_path / "more.csv"
    path.write_text("1,2\n1.0,2.0,0\n3.0,4.0,1\n")
    with pytest.raises(DataError, match="2 rows, its header counts 1"):
        base.load_csv_with_header(str(path), target_dtype=int, features_dtype=float)

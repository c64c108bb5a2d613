"""tf.contrib.learn.datasets.base's CSV loaders, as TF 1 programs called them (TF 1.0's iris tutorial read its two CSV
files with load_csv_with_header): runs on TF 1.15 and under uai-run.

Writes small CSV files (a header row giving the sample and feature counts, as iris_training.csv's; none; the target
first or last) into a temporary folder and prints `RESULT {case: {"type", "data", "data dtype", "target",
"target dtype"}}`. `python3 dev.py tf115` (tests/common/golden/make_tf115_goldens.py) runs it on TF 1.15 to write
tests/common/golden/tf115_learn_datasets_csv.json; tests/common/test_learn_datasets.py runs it under uai-run and
compares.
"""

import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib.learn.python.learn.datasets import base

FILES = {
    # iris_training.csv's layout: samples, features, then the class names; the class is the last column
    "with header": "4,3,setosa,versicolor\n5.1,3.5,1.4,0\n4.9,3.0,1.4,1\n6.2,2.9,4.3,1\n5.0,3.6,1.4,0\n",
    # the header counts more samples than the file holds: the rest stay zero
    "header counting more rows": "3,2\n1.5,2.5,7\n0.25,4.0,9\n",
    "without header": "7,1.5,2.5\n9,0.25,4.0\n8,3.0,0.5\n",
}
CASES = {
    "with header, int32 target last": ("with header", "load_csv_with_header", np.int32, np.float32, -1),
    "with header, float64 everything": ("with header", "load_csv_with_header", np.float64, np.float64, -1),
    "header counting more rows": ("header counting more rows", "load_csv_with_header", np.int64, np.float32, -1),
    "without header, target first": ("without header", "load_csv_without_header", np.int32, np.float32, 0),
    "without header, target last": ("without header", "load_csv_without_header", np.float32, np.float64, -1),
}


def loaded(folder, case):
    name, loader, target_dtype, features_dtype, target_column = CASES[case]
    path = os.path.join(folder, name.replace(" ", "_") + ".csv")
    with open(path, "w") as handle:
        handle.write(FILES[name])
    dataset = getattr(base, loader)(
        path, target_dtype=target_dtype, features_dtype=features_dtype, target_column=target_column
    )
    return {
        "type": [type(dataset).__name__, list(dataset._fields)],
        "data": dataset.data.tolist(),
        "data dtype": str(dataset.data.dtype),
        "target": dataset.target.tolist(),
        "target dtype": str(dataset.target.dtype),
    }


folder = tempfile.mkdtemp()
try:
    result = {case: loaded(folder, case) for case in CASES}
finally:
    shutil.rmtree(folder)
# the public path is the same module (TF 1.15's contrib/learn/python/learn/datasets/base.py), its tuples are base's
result["public path is the same module"] = tf.contrib.learn.datasets.base is base
result["Datasets fields"] = list(base.Datasets._fields)
print("RESULT " + json.dumps(result, sort_keys=True))

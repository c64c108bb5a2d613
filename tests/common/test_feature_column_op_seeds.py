"""Seeded draws made by and after tf.feature_column's columns are TF 1.15's, under uai-run and in uai-migrate's port.

TF 1.15's op seed is the graph's op count (compat/_graph_seed.py); its identity column asserted its ids and its
sparse embedding lookup gathered the unique ids first, which TF 2 does not (compat/_graph_seed_columns.py). Found: an
embedding column of an identity column started from other weights, and every draw after an embedding column, an
indicator column or a linear model was another (a wide-and-deep model's first loss 160.48 against 1.15's 872.59; the
census tutorial's canned DNNLinearCombinedClassifier 32.59 against 18.14, its AUC 0.018 against 0.982).
tests/common/tf1_programs/feature_column_op_seeds.py, a TF 1 program, printed
tests/common/golden/tf115_feature_column_seeds.json on real TensorFlow 1.15 (`python3 dev.py tf115`), rounded to 6
decimals; the losses are compared relatively (a sum over the inputs' ages, 21 to 47, rounds otherwise in float32).
"""

import numpy as np

from tests.support.goldens import assert_close_to, port_against_tf115, run_against_tf115

PROGRAM = "feature_column_op_seeds.py"  # of tests/common/tf1_programs
GOLDEN = "tf115_feature_column_seeds.json"


def _assert_tf115s(values: dict, golden: dict) -> None:
    assert sorted(values) == sorted(golden)
    for case in sorted(golden):
        if case in ("wide and deep", "census estimator"):
            for name in sorted(golden[case]):
                np.testing.assert_allclose(values[case][name], golden[case][name], rtol=1e-6, atol=1e-6, err_msg=name)
        else:
            assert_close_to(values[case], golden[case], atol=1.5e-6)


def test_uai_run_draws_tf115s_numbers_with_feature_columns(tmp_path):
    _assert_tf115s(*run_against_tf115(PROGRAM, GOLDEN, tmp_path))


def test_uai_migrates_port_draws_tf115s_numbers_with_feature_columns(tmp_path):
    _assert_tf115s(*port_against_tf115(PROGRAM, GOLDEN, tmp_path))

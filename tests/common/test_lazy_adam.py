"""tf.contrib.opt.LazyAdamOptimizer (compat.lazy_adam) trains as TF 1.15's did: sparse rows only, dense as Adam.

tests/common/tf1_programs/lazy_adam_steps.py, a TF 1 program, runs unmodified under uai-run; its losses,
embedding, Adam slots and dense weight after three steps, with reference and resource variables, must be the
ones real TensorFlow 1.15 printed (tests/common/golden/tf115_lazy_adam.json), to the 6 decimals it rounds to.
"""

import numpy as np

from tests.support.goldens import assert_close_to, run_against_tf115


def test_uai_run_trains_an_embedding_with_lazy_adam_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("lazy_adam_steps.py", "tf115_lazy_adam.json", tmp_path)
    assert sorted(golden) == ["reference variables", "resource variables"]
    for case, want in golden.items():
        got = values[case]
        # the rows no batch looked up, and their slots, were left alone (as on TF 1.15)
        assert np.count_nonzero(np.asarray(got["table m"])[[0, 6, 7]]) == 0
        assert_close_to(got, want, atol=2e-6, exact=("variables",))
